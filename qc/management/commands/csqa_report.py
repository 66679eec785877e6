"""python manage.py csqa_report SLUG [--json]: the older command, kept for scripts (see `report`)."""

import json

from django.core.management.base import BaseCommand, CommandError

from annotation.models import Project
from qc.reports import task_type_report


class Command(BaseCommand):
    help = (
        "Agreement, conflicts, per-category and per-annotator figures of a csqa project. With --json: one JSON "
        "object (items, judgments, excluded, majority_equals_author [count] and its share, alpha_nominal, "
        "alpha_nominal_with_author, categories, annotators, kappa, conflicts {annotators, counts: rows answerers, "
        "columns creators}, conflicts_by_region)."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **options):
        project = Project.objects.filter(slug=options["slug"]).first()
        if project is None:
            raise CommandError(f"No project “{options['slug']}”.")
        if project.task_type != "csqa":
            raise CommandError(f"“{project.slug}” is not a csqa project; use `manage.py report`.")
        report = task_type_report(project=project)
        if options["json"]:
            self.stdout.write(json.dumps(report, ensure_ascii=False))
            return
        self.stdout.write(
            f"{report['items']} items, {report['judgments']} answers, {report['excluded']} excluded; "
            f"majority = author for {report['majority_equals_author']} items; "
            f"alpha {report['alpha_nominal']} (with author {report['alpha_nominal_with_author']})"
        )
        codes = report["conflicts"]["annotators"]
        self.stdout.write("Conflicts (rows answerer, columns creator):")
        self.stdout.write("      " + "".join(f"{c:>6}" for c in codes))
        for code, row in zip(codes, report["conflicts"]["counts"], strict=True):
            self.stdout.write(f"{code:>6}" + "".join(f"{n:>6}" for n in row))
