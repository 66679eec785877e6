"""python manage.py export_gold SLUG --format jsonl|csv|parquet --out DIR [--checks]"""

from django.core.management.base import BaseCommand, CommandError

from annotation.models import Project
from qc.exports import FORMATS, gold_export
from qc.exports.checks import checks_export


class Command(BaseCommand):
    help = "Write the project's gold set (approved, not excluded) with a README.md data card into a directory."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--format", choices=FORMATS, default="jsonl")
        parser.add_argument("--out", required=True, help="Output directory (created if missing).")
        parser.add_argument(
            "--checks",
            action="store_true",
            help="Write the known-answer checks instead (checks.jsonl, each row with its known_answer; "
            "the task type's importer reads it back as checks).",
        )

    def handle(self, *args, **options):
        project = Project.objects.filter(slug=options["slug"]).first()
        if project is None:
            raise CommandError(f"No project “{options['slug']}”.")
        if options["checks"]:
            path, rows = checks_export(project=project, out_dir=options["out"])
            self.stdout.write(f"checks: {rows} items -> {path}")
            return
        result = gold_export(project=project, fmt=options["format"], out_dir=options["out"])
        for split, name in sorted(result.files.items()):
            self.stdout.write(f"{split}: {result.counts[split]} items -> {result.out_dir / name}")
        for what, name in sorted(result.extra.items()):
            self.stdout.write(f"{what} -> {result.out_dir / name}")
        self.stdout.write(f"data card -> {result.out_dir / result.readme}")
