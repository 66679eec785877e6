"""`manage.py export_pairs SLUG --out DIR [--shape NAME] [--format jsonl|csv|parquet]`: the pairwise
preferences of a project whose task type derives them (its `evaluation/task_types/<name>/exports.py` has
`export_pairs` and `SHAPES`: IndoPref's `indopref` and `chosen_rejected`), written as `DIR/pairs.<format>`
with its data card `DIR/README.md`. Prints {"file", "rows"} as JSON."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.models import Project

FORMATS = ("jsonl", "csv", "parquet")


def pairs_exporter(project: Project):
    """The task type's exports module, or None when it derives no pairs."""
    try:
        module = importlib.import_module(f"evaluation.task_types.{project.task_type}.exports")
    except ModuleNotFoundError:
        return None
    return module if hasattr(module, "export_pairs") else None


class Command(BaseCommand):
    help = "Export a project's pairwise preferences (e.g. IndoPref shape or chosen/rejected) with a data card."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="The project's slug.")
        parser.add_argument("--out", required=True, help="The folder to write pairs.<format> and README.md into.")
        parser.add_argument("--shape", default="", help="The pair layout (default: the task type's first).")
        parser.add_argument("--format", dest="fmt", default="jsonl", choices=FORMATS)

    def handle(self, *args, **options) -> None:
        project = Project.objects.filter(slug=options["slug"]).first()
        if project is None:
            raise CommandError(f"No project “{options['slug']}”.")
        exporter = pairs_exporter(project)
        if exporter is None:
            raise CommandError(f"“{project.slug}” is a {project.task_type} project, which has no pairs to export.")
        shape = options["shape"] or exporter.SHAPES[0]
        if shape not in exporter.SHAPES:
            raise CommandError(f"Unknown shape “{shape}”; known shapes: {', '.join(exporter.SHAPES)}.")
        result = exporter.export_pairs(project=project, shape=shape, fmt=options["fmt"], folder=Path(options["out"]))
        self.stdout.write(json.dumps(result, sort_keys=True))
