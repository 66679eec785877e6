"""python manage.py import_items FILE --project SLUG --format NAME [--language CODE] [--annotator-regions W1=...]"""

import json

from django.core.management.base import BaseCommand, CommandError

from annotation.errors import DomainError
from annotation.services.imports import import_format, import_formats, items_import


def parse_regions(text: str) -> dict[str, str]:
    """ "W1=West Java,W2=Central Java" -> {"W1": "West Java", "W2": "Central Java"}."""
    regions: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        code, sep, region = part.partition("=")
        if not sep or not code.strip() or not region.strip():
            raise CommandError(f"--annotator-regions: “{part}” is not CODE=REGION.")
        regions[code.strip()] = region.strip()
    return regions


def print_summary(command: BaseCommand, data: dict, *, answers: str = "judgments") -> None:
    command.stdout.write(
        f"Project {data['project']}{' (created)' if data['project_created'] else ''}: "
        f"{data['rows']} rows, {data['items_created']} items created, {data['items_existing']} already there, "
        f"{data['judgments_created']} {answers}, {data['annotators_created']} annotators, "
        f"{data['categories_created']} categories and {data['concepts_created']} concepts created."
    )
    if data["rows_skipped"]:
        command.stdout.write(f"Rows skipped: {', '.join(map(str, data['rows_skipped']))}")
    for code, count in data["issue_counts"].items():
        rows = data["issue_rows"][code]
        shown = ", ".join(map(str, rows[:20])) + (" ..." if len(rows) > 20 else "")
        command.stdout.write(f"  {code}: {count} (rows {shown})")


def run_import(command: BaseCommand, options: dict, *, format: str) -> None:
    try:
        summary = items_import(
            path_or_bytes=options["file"],
            project_slug=options["project"],
            format=format,
            language=options["language"] or import_format(format).importer.default_language,
            annotator_regions=parse_regions(options["annotator_regions"]) or None,
        )
    except DomainError as exc:
        raise CommandError(exc.message) from None
    data = summary.as_dict()
    if options["json"]:
        command.stdout.write(json.dumps(data, ensure_ascii=False))
    else:
        print_summary(command, data, answers=import_format(format).importer.judgments_word)


class Command(BaseCommand):
    help = "Import a released file (items, their authors and judgments) in one of the registered formats."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument(
            "--project", required=True, help="Project slug; created with the format's task type if missing."
        )
        parser.add_argument("--format", required=True, help="The file's format (see --help for the list).")
        parser.add_argument(
            "--language", default="", help="Language code of the file (default: the format's, e.g. id, ar)."
        )
        parser.add_argument("--annotator-regions", default="", help="W1=West Java,W2=Central Java,...")
        parser.add_argument("--json", action="store_true", help="Print the whole summary as one JSON object.")

    def create_parser(self, prog_name, subcommand, **kwargs):
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        formats = ", ".join(f"{f.name} ({f.task_type})" for f in import_formats())
        parser.epilog = f"Formats: {formats}."
        return parser

    def handle(self, *args, **options):
        known = [f.name for f in import_formats()]
        if options["format"] not in known:
            raise CommandError(f"Unknown format “{options['format']}”; known formats: {', '.join(known)}.")
        run_import(self, options, format=options["format"])
