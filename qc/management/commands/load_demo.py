"""Load the demo: the team (admin, a QC reviewer, six annotators) and one small project per task type
that describes one (TaskType.demo), with its units imported, authoring planned, and the work the demo
starts with: items imported, units written and approved by a reviewer, judging planned and some of it
done, so judging, the report and the export show something at once.

In qc, not annotation: approving the demo's work is a QC review (qc may import annotation, not back).
Idempotent: a second run finds everything in place, changes nothing and prints the accounts again.
Every write goes through the services, as a user clicking through the product would.
"""

from __future__ import annotations

import os

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from annotation.management.commands.create_admin import staff_user_create
from annotation.models import Assignment, Item, Membership, Project
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.catalog import concepts_import
from annotation.services.imports import items_import
from annotation.services.items import unit_submit
from annotation.services.judging import judging_plan, judging_rule_for
from annotation.services.judgments import judgment_record
from annotation.services.members import member_set_countries, member_set_group
from annotation.services.projects import membership_add, profile_update, project_create, user_create
from annotation.task_types import registered_task_types
from annotation.task_types.base import DemoProject, DemoWork
from qc.services import review_approve

User = get_user_model()

DEFAULT_PASSWORD = "gotong-demo"

# The six annotators mirror the regions of Putri et al. 2024 (W1..W6).
ANNOTATORS = [
    ("w1", "W1", "West Java", "su,id", "Sundanese", 23, "Bachelor's degree"),
    ("w2", "W2", "Central Java", "jv,id", "Javanese", 25, "Bachelor's degree"),
    ("w3", "W3", "East Java", "jv,id", "Javanese", 21, "Master's degree"),
    ("w4", "W4", "Greater Jakarta", "id", "Betawi", 26, "Bachelor's degree"),
    ("w5", "W5", "Greater Jakarta", "id,min", "Minangkabau", 12, "Diploma"),
    ("w6", "W6", "Bali", "ban,id", "Balinese", 24, "Bachelor's degree"),
]


def demo_password() -> str:
    return os.environ.get("GOTONG_DEMO_PASSWORD") or DEFAULT_PASSWORD


class Command(BaseCommand):
    help = "Load the demo projects, their accounts (one shared password) and planned authoring work."

    def add_arguments(self, parser):
        parser.add_argument(
            "--allow-production",
            action="store_true",
            help="Load the demo even with production settings (it creates accounts with a known password).",
        )

    def handle(self, *args, allow_production: bool, **options):
        if settings.SETTINGS_MODULE.endswith(".production") and not allow_production:
            raise CommandError(
                "The demo creates accounts with a known password; refusing with production settings "
                "(pass --allow-production if you really mean it)."
            )
        password = demo_password()
        with transaction.atomic():
            created = self.load(password)
        self.stdout.write(
            self.style.SUCCESS("Demo loaded.") if created else "The demo was already loaded; nothing changed."
        )
        self.print_accounts(password)

    def load(self, password: str) -> bool:
        """Create whatever is missing; return whether anything was created."""
        users, created = self.team(password)
        # Sorted by task type name, so the projects (and their plans) come out the same on every machine.
        for task_type in registered_task_types():
            demo = task_type.demo()
            if demo is not None:  # a task type without a demo (TaskType.demo's default) is left out
                created = self.load_project(task_type.name, demo, users) or created
                created = self.load_work(demo, users) or created
        return created

    def team(self, password: str) -> tuple[dict, bool]:
        created = False
        users = {}
        for username in ["admin", "reviewer", *(a[0] for a in ANNOTATORS)]:
            users[username] = User.objects.filter(username=username).first()
            if users[username] is not None:
                continue
            email = f"{username}@example.org"
            if username == "admin":
                users[username] = staff_user_create(username=username, password=password, email=email)
            else:
                users[username] = user_create(username=username, password=password, email=email)
            created = True
        return users, created

    def load_project(self, task_type: str, demo: DemoProject, users: dict) -> bool:
        created = False
        project = Project.objects.filter(slug=demo.slug).first()
        if project is None:
            project = project_create(
                creator=users["admin"],
                name=demo.name,
                slug=demo.slug,
                task_type=task_type,
                languages=demo.languages,
                guidelines=demo.guidelines,
                authors_per_concept=demo.authors_per_unit,
                **demo.settings,
            )
            created = True
        members = set(Membership.objects.filter(project=project).values_list("user__username", flat=True))
        wanted = [("reviewer", Membership.Role.REVIEWER, "")] + [
            (username, Membership.Role.ANNOTATOR, code) for username, code, *_rest in ANNOTATORS
        ]
        profiles = {username: rest for username, _code, *rest in ANNOTATORS}
        wanted += [(username, Membership.Role.REVIEWER, "") for username in demo.reviewers]
        for username, role, code in wanted:
            if username not in members:
                if username not in users:  # a demo's own reviewer (e.g. one per country)
                    users[username] = user_create(
                        username=username, password=demo_password(), email=f"{username}@example.org"
                    )
                membership = membership_add(project=project, user=users[username], role=role, code=code)
                if username in profiles:
                    region, native, ethnicity, years, education = profiles[username]
                    profile_update(
                        membership=membership,
                        **{
                            "native_languages": native,
                            "region": region,
                            "country": "Indonesia",
                            "ethnicity": ethnicity,
                            "years_in_region": years,
                            "education": education,
                            **demo.profiles.get(username, {}),
                        },
                    )
                if demo.reviewers.get(username):
                    member_set_countries(membership=membership, countries=list(demo.reviewers[username]))
                if demo.groups.get(username):
                    member_set_group(membership=membership, group=demo.groups[username])
                created = True

        summary = concepts_import(project=project, data=demo.units_file, filename=demo.units_filename)
        created = created or bool(summary.categories_created or summary.concepts_created or summary.concepts_updated)
        # Planning again would reshuffle work people may have seen in their queue; plan only once.
        if not Assignment.objects.filter(project=project, kind=Assignment.Kind.AUTHOR).exists():
            assignment_plan_authoring(project=project)
            created = True
        return created

    def load_work(self, demo: DemoProject, users: dict) -> bool:
        """Import the demo's items, write and approve its units, plan judging and do the first judgments;
        each step only once (its rows exist after the first run)."""
        project = Project.objects.get(slug=demo.slug)
        created = False
        if demo.items_file and not Item.objects.filter(project=project, source=Item.Source.IMPORT).exists():
            items_import(
                path_or_bytes=demo.items_file,
                project_slug=project.slug,
                format=demo.items_format,
                language=demo.items_language,
                creator=users["admin"],
            )
            created = True
        # Once: after the first run, people may be writing in the demo, and their work must not be added to.
        if demo.work and not Item.objects.filter(project=project, assignment__isnull=False).exists():
            for work in demo.work:
                self.write_and_approve(project, work, users)
            created = True
        if demo.judged and not Assignment.objects.filter(project=project, kind=judging_rule_for(project).kind).exists():
            judging_plan(project=project)
            # Item by item (not as planned): the first items are judged in full, whatever the planner's order.
            first = Assignment.objects.filter(project=project, kind=judging_rule_for(project).kind).order_by(
                "target_item_id", "id"
            )
            for assignment in first.select_related("user", "target_item__current_version")[: demo.judged]:
                judgment_record(
                    assignment_id=assignment.pk,
                    user=assignment.user,
                    data=demo.judgment(assignment.target_item.current_version.payload),
                )
            created = True
        return created

    def write_and_approve(self, project: Project, work: DemoWork, users: dict) -> None:
        authoring = Assignment.objects.filter(project=project, kind=Assignment.Kind.AUTHOR).order_by("position", "id")
        if work.unit:
            assignment = authoring.filter(concept__name=work.unit).first()
        else:  # the author picks the unit in the payload: their first unit with nothing written yet
            assignment = authoring.filter(user__username=work.author, item__isnull=True).first()
        data = work.payloads[0] if len(work.payloads) == 1 else {"items": list(work.payloads)}
        items = unit_submit(
            assignment_id=assignment.pk, user=assignment.user, data=data, justification=work.justification
        )
        for item in items:
            if item.status == Item.Status.SUBMITTED:
                review_approve(item_id=item.pk, version_id=item.current_version_id, reviewer=users[work.reviewer])

    def print_accounts(self, password: str) -> None:
        demos = [d for d in (tt.demo() for tt in registered_task_types()) if d is not None]
        profiles = {}
        for membership in (
            Membership.objects.filter(
                project__slug__in=[d.slug for d in demos], user__username__in=[a[0] for a in ANNOTATORS]
            )
            .select_related("user", "profile")
            .order_by("id")
        ):
            # the first project's profile (the ArabCulture demo gives the same people Arab countries)
            profiles.setdefault(membership.user.username, getattr(membership, "profile", None))
        rows = [("admin", "admin", "platform and project admin"), ("reviewer", "reviewer", "QC reviewer")]
        for demo in demos:
            for username, countries in demo.reviewers.items():
                rows.append((username, "reviewer", f"QC reviewer for {', '.join(countries)} ({demo.slug})"))
        for username, code, *_rest in ANNOTATORS:
            profile = profiles.get(username)
            where = f"{profile.region} ({profile.ethnicity})" if profile else ""
            rows.append((username, f"annotator {code}", where))
        self.stdout.write("")
        for demo in demos:
            self.stdout.write(f"Demo project: {demo.name} ({demo.slug})")
        self.stdout.write(f"Demo accounts, all with the password: {password}")
        width = max(len(username) for username, _, _ in rows)
        for username, role, detail in rows:
            self.stdout.write(f"  {username:<{width}} {role:<14} {detail}")
        self.stdout.write("")
