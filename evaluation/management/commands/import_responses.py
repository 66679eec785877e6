"""`manage.py import_responses SLUG FILE`: model responses made elsewhere (CSV or JSON Lines: prompt_id,
model, text) added to the prompts of a project whose task type takes them (its
`evaluation/task_types/<name>/services.py` has `responses_import`: IndoPref), all or nothing. Prints
{"rows", "added", "skipped", "prompts"}."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.errors import DomainError
from annotation.models import Project


class Command(BaseCommand):
    help = "Import model responses (prompt_id, model, text) into a project's prompts."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="The project's slug.")
        parser.add_argument("file", help="A CSV or JSON Lines file.")

    def handle(self, *args, **options) -> None:
        project = Project.objects.filter(slug=options["slug"]).first()
        if project is None:
            raise CommandError(f"No project “{options['slug']}”.")
        try:
            services = importlib.import_module(f"evaluation.task_types.{project.task_type}.services")
        except ModuleNotFoundError:
            services = None
        if not hasattr(services, "responses_import"):
            raise CommandError(f"“{project.slug}” is a {project.task_type} project, which takes no imported responses.")
        try:
            summary = services.responses_import(project=project, data=Path(options["file"]).read_bytes())
        except DomainError as exc:
            details = "; ".join(exc.field_errors.get("file", []))
            raise CommandError(f"{exc.message} {details}".strip()) from None
        self.stdout.write(json.dumps(summary, sort_keys=True))
