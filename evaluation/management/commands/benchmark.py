"""`manage.py benchmark run --project SLUG --endpoint NAME [--template NAME] [--gold KEY] [--wait]` starts a
benchmark run and prints `{"run": ID}` (with --wait, once the run is finished); `--mode likelihood
[--normalise tokens|bytes|none] [--prefix TEXT]` scores each option instead of asking for an answer
(refused before anything is created when an endpoint cannot);
`--open-ended` asks without options (replies wait for reviewers' verdicts);
`manage.py benchmark report RUN_ID [--json] [--multiple-choice MC_RUN_ID]` prints its accuracy,
breakdowns and the human baseline.

Without REDIS_URL the run executes inside this process before the id is printed (as exports do).
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.errors import DomainError
from annotation.models import Project
from evaluation.benchmarks.kind import MODES
from evaluation.benchmarks.likelihood import NORMALISATIONS
from evaluation.benchmarks.report import benchmark_report
from evaluation.models import Endpoint, Run
from evaluation.selectors import run_wait
from evaluation.services.runs import run_create


class Command(BaseCommand):
    help = "Benchmark models on a project's gold items, and report the results."

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        run = actions.add_parser("run", help='Start a benchmark run; prints {"run": ID}.')
        run.add_argument("--project", required=True, help="The project's slug.")
        run.add_argument("--endpoint", required=True, action="append", help="An endpoint's name (repeatable).")
        run.add_argument("--template", action="append", default=[], help="A template's name (repeatable; default all).")
        run.add_argument("--gold", default="", help="The gold key (default: the task type's first).")
        run.add_argument("--category", action="append", default=[], help="A category (repeatable; default all).")
        run.add_argument("--source", action="append", default=[], help="human, llm_gen, llm_adapt or import.")
        run.add_argument("--split", default="", help="Only items of this export split.")
        run.add_argument("--language", default="", help="The prompt language (a project language code).")
        run.add_argument("--system", default="", help="A system prompt.")
        run.add_argument("--temperature", type=float, default=None)
        run.add_argument("--max-tokens", type=int, default=None)
        run.add_argument("--mode", choices=MODES, default="chat", help="chat (default), completion or likelihood.")
        run.add_argument(
            "--normalise", choices=NORMALISATIONS, default="tokens", help="Likelihood: per token (default) or byte."
        )
        run.add_argument("--prefix", default="", help='Likelihood: text before every prompt, e.g. "<|im_start|>".')
        run.add_argument("--open-ended", action="store_true", help="Ask without options; reviewers judge the replies.")
        run.add_argument("--wait", action="store_true", help="Return when the run is finished.")
        run.add_argument("--timeout", type=float, default=3600, help="Seconds to wait at most.")
        report = actions.add_parser("report", help="Accuracy, breakdowns and the human baseline of a run.")
        report.add_argument("run_id", type=int)
        report.add_argument("--json", action="store_true")
        report.add_argument(
            "--multiple-choice",
            type=int,
            default=None,
            help="Open-ended run: the multiple-choice run to compare the same items with.",
        )

    def handle(self, *args, **options) -> None:
        if options["action"] == "run":
            self._run(options)
        else:
            self._report(options)

    def _run(self, options: dict) -> None:
        project = Project.objects.filter(slug=options["project"]).first()
        if project is None:
            raise CommandError(f"No project “{options['project']}”.")
        endpoints = list(Endpoint.objects.filter(name__in=options["endpoint"]))
        missing = sorted(set(options["endpoint"]) - {e.name for e in endpoints})
        if missing:
            raise CommandError(f"No endpoint named {', '.join(missing)}.")
        parameters = {
            "templates": options["template"],
            "gold_key": options["gold"],
            "categories": options["category"],
            "sources": options["source"],
            "split": options["split"],
            "language": options["language"],
            "system": options["system"],
            "temperature": options["temperature"],
            "max_tokens": options["max_tokens"],
            "mode": options["mode"],
            "open_ended": options["open_ended"],
        }
        if options["mode"] == "likelihood":
            parameters.update(normalisation=options["normalise"], prompt_prefix=options["prefix"])
        try:
            run = run_create(kind="benchmark", endpoints=endpoints, parameters=parameters, project=project)
        except DomainError as exc:
            details = "; ".join(f"{k}: {' '.join(v)}" for k, v in exc.field_errors.items())
            raise CommandError(f"{exc.message} {details}".strip()) from None
        if options["wait"]:
            run = run_wait(run_id=run.pk, timeout=options["timeout"])
            if run.is_active:
                raise CommandError(f"Run #{run.pk} is still {run.status} after {options['timeout']} s.")
        self.stdout.write(json.dumps({"run": run.pk}))

    def _report(self, options: dict) -> None:
        run = Run.objects.filter(pk=options["run_id"], kind="benchmark").first()
        if run is None:
            raise CommandError(f"No benchmark run #{options['run_id']}.")
        multiple_choice = None
        if options["multiple_choice"] is not None:
            multiple_choice = Run.objects.filter(
                pk=options["multiple_choice"], kind="benchmark", project_id=run.project_id
            ).first()
            if multiple_choice is None:
                raise CommandError(f"No benchmark run #{options['multiple_choice']} in this run's project.")
        report = benchmark_report(run=run, multiple_choice_run=multiple_choice)
        if options["json"]:
            self.stdout.write(json.dumps(report, sort_keys=True))
            return
        overall = report["overall"]
        self.stdout.write(
            f"Run #{run.pk}: {report['predictions']} predictions, {report['parsed']} parsed; accuracy "
            f"{overall['accuracy']} [{overall['ci_low']}, {overall['ci_high']}] over {overall['n']}"
        )
        for group in ("by_endpoint", "by_template", "by_category"):
            for name, row in report[group].items():
                self.stdout.write(f"  {group[3:]} {name}: {row['accuracy']} (n={row['n']})")
        human = report["human_baseline"]
        if human is not None:
            self.stdout.write(f"  human baseline: {human['accuracy']} (n={human['n']})")
