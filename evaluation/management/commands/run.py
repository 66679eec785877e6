"""`manage.py run show RUN_ID [--json]`: a run's status, counts, tokens and cost."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from evaluation.models import Run
from evaluation.selectors import run_summary


class Command(BaseCommand):
    help = "Show an LLM run."

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        show = actions.add_parser("show", help="Status, counts, tokens and cost of a run.")
        show.add_argument("run_id", type=int)
        show.add_argument("--json", action="store_true")

    def handle(self, *args, **options) -> None:
        run = Run.objects.filter(pk=options["run_id"]).first()
        if run is None:
            raise CommandError(f"No run #{options['run_id']}.")
        summary = run_summary(run)
        if options["json"]:
            self.stdout.write(json.dumps(summary, sort_keys=True))
            return
        self.stdout.write(
            f"Run #{run.pk} ({run.kind}): {summary['status']}, {summary['done']} done, {summary['failed']} failed "
            f"of {summary['total']}; tokens {summary['prompt_tokens']} in / {summary['completion_tokens']} out; "
            f"cost {summary['cost']}"
        )
