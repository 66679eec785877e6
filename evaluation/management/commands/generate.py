"""`manage.py generate --project SLUG --endpoint NAME [--categories ...] [--wait]`: start an LLM_GEN run.

Prints the run id; with --wait, waits for the run to finish and prints its counts as `run show --json`
does, plus the items created and the drafts filtered by reason. Without REDIS_URL the run executes
inside this process before the id is printed (as exports do).
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.errors import DomainError
from annotation.models import Project
from evaluation.models import Endpoint
from evaluation.selectors import run_summary, run_wait
from evaluation.services.draft_summary import drafts_summary
from evaluation.services.runs import run_create


class Command(BaseCommand):
    help = "Generate drafts with an LLM (the llm_gen run kind) into the project's QC queue."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--project", required=True, help="The project's slug.")
        parser.add_argument("--endpoint", required=True, action="append", help="An endpoint's name (repeatable).")
        parser.add_argument("--categories", nargs="*", default=[], help="Category names (default: all).")
        parser.add_argument("--concepts", nargs="*", type=int, default=[], help="Concept ids (default: all).")
        parser.add_argument("--language", default="", help="The language named in the prompt.")
        parser.add_argument("--items-per-concept", type=int, default=1)
        parser.add_argument("--wait", action="store_true", help="Wait for the run and print its counts.")
        parser.add_argument("--timeout", type=float, default=3600, help="Seconds to wait at most.")

    def handle(self, *args, **options) -> None:
        project = Project.objects.filter(slug=options["project"]).first()
        if project is None:
            raise CommandError(f"No project “{options['project']}”.")
        endpoints = list(Endpoint.objects.filter(name__in=options["endpoint"]))
        missing = sorted(set(options["endpoint"]) - {e.name for e in endpoints})
        if missing:
            raise CommandError(f"No endpoint named {', '.join(missing)}.")
        parameters = {
            "categories": options["categories"],
            "concepts": options["concepts"],
            "language": options["language"],
            "items_per_concept": options["items_per_concept"],
        }
        try:
            run = run_create(kind="llm_gen", endpoints=endpoints, parameters=parameters, project=project)
        except DomainError as exc:
            details = "; ".join(f"{k}: {' '.join(v)}" for k, v in exc.field_errors.items())
            raise CommandError(f"{exc.message} {details}".strip()) from None
        self.stdout.write(str(run.pk))
        if options["wait"]:
            run = run_wait(run_id=run.pk, timeout=options["timeout"])
            self.stdout.write(json.dumps({**run_summary(run), **drafts_summary(run)}, sort_keys=True))
            if run.is_active:
                raise CommandError(f"Run #{run.pk} is still {run.status} after {options['timeout']} s.")
