"""A test-only task type with judging in rounds (2 judges, then 1 more), registered only inside a test.

Gold rule: round 1's two labels agree -> gold; else round 2; then a label given twice -> gold, else
no_gold. Small enough to see every outcome; the real multi-round protocol lives in its own plugin.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.utils import timezone

from annotation.models import Category, Concept, Item, ItemVersion, Membership
from annotation.services.projects import membership_add, project_create
from annotation.task_types import registered
from annotation.task_types.base import GoldCase, GoldOutcome, JudgingRule, JudgmentInput, TaskType

NAME = "roundstest"


class RoundsTaskType(TaskType):
    name = NAME
    label = "Rounds (test only)"
    author_template = display_template = ""
    gold_policy = "rounds_test_v1"

    def judging_rule(self, settings: dict[str, Any]) -> JudgingRule:
        return JudgingRule(kind="validate", per_round=(2, 1), verb="validate", verb_past="validated")

    def normalize_judgment(self, data: dict[str, Any]) -> JudgmentInput:
        return JudgmentInput(value={"label": data["label"]}, flags={}, comment="")

    def gold_decide(self, case: GoldCase) -> GoldOutcome:
        labels = [j.value["label"] for j in case.judgments]
        if len(labels) < 2:
            return GoldOutcome("pending", f"{len(labels)} of 2 labels.")
        top, n = Counter(labels).most_common(1)[0]
        if len(labels) == 2:
            return GoldOutcome("gold", details={"label": top}) if n == 2 else GoldOutcome("pending", next_round=2)
        return GoldOutcome("gold", details={"label": top}) if n >= 2 else GoldOutcome("no_gold", "No label twice.")


@contextmanager
def rounds_task_type() -> Iterator[None]:
    with registered(RoundsTaskType()):
        yield


def make_rounds_project(*, slug: str, annotators: int, items: int, make_user):
    admin = make_user(f"{slug}-admin")
    project = project_create(
        creator=admin, name=f"Project {slug}", slug=slug, task_type=NAME, languages=[{"code": "id", "name": "Id"}]
    )
    people = [make_user(f"{slug}-w{i + 1}") for i in range(annotators)]
    for i, user in enumerate(people):
        membership_add(project=project, user=user, role=Membership.Role.ANNOTATOR, code=f"W{i + 1}")
    category = Category.objects.create(project=project, name="c")
    concept = Concept.objects.create(project=project, category=category, name="k")
    made = []
    for n in range(items):
        item = Item.objects.create(
            project=project, task_type=NAME, status=Item.Status.APPROVED, author=people[0], concept=concept, slot=n
        )
        version = ItemVersion.objects.create(
            item=item, number=1, payload={"text": f"t{n}"}, created_by=people[0], submitted_at=timezone.now()
        )
        item.current_version = version
        item.save(update_fields=["current_version"])
        made.append(item)
    return project, people, made
