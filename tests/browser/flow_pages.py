"""A seeded project with something on every main page, and those pages with who looks at them.

Shared by the accessibility (axe-core) and small-screen browser tests: one annotator (W2) with an
authoring assignment and questions to answer, a reviewer with a submitted item waiting, an admin.
"""

from __future__ import annotations

from dataclasses import dataclass

from annotation.models import Assignment, Category, Concept, Item
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.judging import judging_plan
from tests.annotation.task_types.csqa.world import make_world
from tests.conftest import PASSWORD
from tests.qc.helpers import make_item


@dataclass
class FlowPages:
    slug: str
    admin: object
    reviewer: object
    annotator: object
    # (who, path) for every main page of the flow; "anonymous" for the login page.
    pages: list[tuple[str, str]]


def make_flow_pages(*, slug: str = "flow") -> FlowPages:
    world = make_world(slug=slug)
    project = world.project
    annotator = world.people[1]
    for user in (world.admin, world.reviewer, annotator):
        user.set_password(PASSWORD)
        user.save(update_fields=["password"])
    judging_plan(project=project)
    # A concept nobody wrote about yet, so authoring has work; a submitted item for the reviewer.
    Concept.objects.create(project=project, category=Category.objects.get(project=project, name="culinary"), name="kue")
    assignment_plan_authoring(project=project)
    submitted = make_item(
        project,
        world.people[0],
        concept="konsep-baru",
        question="Makanan apa yang disajikan saat syukuran rumah baru, dan di daerah mana kebiasaannya?",
        status=Item.Status.SUBMITTED,
    )
    authoring = Assignment.objects.filter(project=project, user=annotator, kind="author").order_by("id").first()
    judging = Assignment.objects.filter(project=project, user=annotator, kind="answer").order_by("id").first()
    p = f"/p/{slug}"
    pages = [
        ("anonymous", "/accounts/login/"),
        ("annotator", "/"),
        ("annotator", f"{p}/"),
        ("annotator", f"{p}/author/"),  # the queue opens the next assignment
        ("annotator", f"{p}/author/{authoring.pk}/"),
        ("annotator", f"{p}/items/"),
        ("annotator", f"{p}/answer/"),
        ("annotator", f"{p}/judge/{judging.pk}/"),
        ("reviewer", f"{p}/review/"),
        ("reviewer", f"{p}/review/{submitted.pk}/"),
        ("reviewer", f"{p}/items/{submitted.pk}/"),
        ("admin", f"{p}/"),
        ("admin", f"{p}/items/"),
        ("admin", f"{p}/dashboard/"),
        ("admin", f"{p}/reports/"),
        ("admin", f"{p}/members/"),
        ("admin", f"{p}/settings/"),
        ("admin", f"{p}/runs/"),
        ("admin", f"{p}/concepts/"),
        ("admin", "/account/preferences/"),
    ]
    return FlowPages(slug=slug, admin=world.admin, reviewer=world.reviewer, annotator=annotator, pages=pages)
