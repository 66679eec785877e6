"""python manage.py export_gold SLUG --format jsonl|csv|parquet --out DIR"""

from django.core.management.base import BaseCommand, CommandError

from annotation.models import Project
from qc.exports import FORMATS, gold_export


class Command(BaseCommand):
    help = "Write the project's gold set (approved, not excluded) with a README.md data card into a directory."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--format", choices=FORMATS, default="jsonl")
        parser.add_argument("--out", required=True, help="Output directory (created if missing).")

    def handle(self, *args, **options):
        project = Project.objects.filter(slug=options["slug"]).first()
        if project is None:
            raise CommandError(f"No project “{options['slug']}”.")
        result = gold_export(project=project, fmt=options["format"], out_dir=options["out"])
        for split, name in sorted(result.files.items()):
            self.stdout.write(f"{split}: {result.counts[split]} items -> {result.out_dir / name}")
        self.stdout.write(f"data card -> {result.out_dir / result.readme}")
