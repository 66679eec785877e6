"""python manage.py import_csqa FILE --project SLUG --language CODE [--annotator-regions W1=...,W2=...]"""

import json

from django.core.management.base import BaseCommand, CommandError

from annotation.errors import DomainError
from annotation.services.csqa_import import csqa_import


def parse_regions(text: str) -> dict[str, str]:
    """ "W1=West Java,W2=Central Java" -> {"W1": "West Java", "W2": "Central Java"}."""
    regions: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        code, sep, region = part.partition("=")
        if not sep or not code.strip() or not region.strip():
            raise CommandError(f"--annotator-regions: “{part}” is not CODE=REGION.")
        regions[code.strip()] = region.strip()
    return regions


class Command(BaseCommand):
    help = "Import an id-csqa HUMAN_GEN JSON (or JSON Lines) file as approved items with their cross-answers."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--project", required=True, help="Project slug; created (task type csqa) if missing.")
        parser.add_argument("--language", required=True, help="Language code of the file, e.g. id or su.")
        parser.add_argument("--annotator-regions", default="", help="W1=West Java,W2=Central Java,...")
        parser.add_argument("--json", action="store_true", help="Print the whole summary as one JSON object.")

    def handle(self, *args, **options):
        try:
            summary = csqa_import(
                path_or_bytes=options["file"],
                project_slug=options["project"],
                language=options["language"],
                annotator_regions=parse_regions(options["annotator_regions"]) or None,
            )
        except DomainError as exc:
            raise CommandError(exc.message) from None
        data = summary.as_dict()
        if options["json"]:
            self.stdout.write(json.dumps(data, ensure_ascii=False))
            return
        self.stdout.write(
            f"Project {data['project']}{' (created)' if data['project_created'] else ''}: "
            f"{data['rows']} rows, {data['items_created']} items created, {data['items_existing']} already there, "
            f"{data['judgments_created']} answers, {data['annotators_created']} annotators, "
            f"{data['categories_created']} categories and {data['concepts_created']} concepts created."
        )
        if data["rows_skipped"]:
            self.stdout.write(f"Rows skipped: {', '.join(map(str, data['rows_skipped']))}")
        for code, count in data["issue_counts"].items():
            rows = data["issue_rows"][code]
            shown = ", ".join(map(str, rows[:20])) + (" ..." if len(rows) > 20 else "")
            self.stdout.write(f"  {code}: {count} (rows {shown})")
