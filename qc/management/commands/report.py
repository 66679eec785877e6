"""python manage.py report SLUG [--json]"""

import json

from django.core.management.base import BaseCommand, CommandError

from annotation.models import Project
from annotation.task_types import get_task_type
from qc.reports import project_report


class Command(BaseCommand):
    help = (
        "The project's report, whatever its task type. With --json: one JSON object "
        '{"project": slug, "task_type": name, "<task type name>": its report sections}.'
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **options):
        project = Project.objects.filter(slug=options["slug"]).first()
        if project is None:
            raise CommandError(f"No project “{options['slug']}”.")
        if not get_task_type(project.task_type).report_template:
            raise CommandError(f"Projects of task type “{project.task_type}” have no report.")
        report = project_report(project=project)
        if options["json"]:
            self.stdout.write(json.dumps(report, ensure_ascii=False))
            return
        self.stdout.write(json.dumps(report, ensure_ascii=False, indent=2))
