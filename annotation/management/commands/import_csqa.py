"""python manage.py import_csqa FILE --project SLUG --language CODE [--annotator-regions W1=...,W2=...]

Kept for the scripts that use it: `import_items FILE --project SLUG --format id-csqa` does the same.
"""

from django.core.management.base import BaseCommand

from annotation.management.commands.import_items import parse_regions, run_import

__all__ = ["Command", "parse_regions"]


class Command(BaseCommand):
    help = "Import an id-csqa HUMAN_GEN JSON (or JSON Lines) file as approved items with their cross-answers."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--project", required=True, help="Project slug; created (task type csqa) if missing.")
        parser.add_argument("--language", required=True, help="Language code of the file, e.g. id or su.")
        parser.add_argument("--annotator-regions", default="", help="W1=West Java,W2=Central Java,...")
        parser.add_argument("--json", action="store_true", help="Print the whole summary as one JSON object.")

    def handle(self, *args, **options):
        run_import(self, options, format="id-csqa")
