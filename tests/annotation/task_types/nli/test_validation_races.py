"""NLI validation under real concurrency (PostgreSQL, real threads released by a barrier)."""

import pytest
from django.db import connection
from django.db.models import Count, F

from annotation.models import Assignment, Concept, Item, Membership
from annotation.services.assignments import assignment_claim_next, assignment_plan_authoring
from annotation.services.catalog import concepts_import
from annotation.services.items import unit_submit
from annotation.services.judging import judging_plan
from annotation.services.judgments import judgment_record
from annotation.services.projects import membership_add, project_create
from tests.annotation.concurrency.helpers import make_user, run_together
from tests.annotation.task_types.nli.world import PREMISES, SIX, premises_jsonl

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgresql_only():
    assert connection.vendor == "postgresql", "these races need PostgreSQL's row locks and SKIP LOCKED"


def _validated_project(*, slug: str, annotators: int, premises: int):
    """An expert project (100% validated, no QC review): `premises` premises written (six pairs each),
    round 1 planned."""
    admin = make_user(f"{slug}-admin")
    project = project_create(
        creator=admin,
        name=slug,
        slug=slug,
        task_type="nli",
        languages=[{"code": "id", "name": "Indonesian"}],
        annotator_type="expert",
        qc_review=False,
    )
    people = [make_user(f"{slug}-ann{i + 1}") for i in range(annotators)]
    for i, user in enumerate(people):
        membership_add(project=project, user=user, role=Membership.Role.ANNOTATOR, code=f"W{i + 1}")
    rows = [{**PREMISES[0], "document_id": f"doc-{n}"} for n in range(premises)]
    concepts_import(project=project, data=premises_jsonl(rows), filename="p.jsonl")
    assignment_plan_authoring(project=project)
    for assignment in Assignment.objects.filter(project=project, kind="author").select_related("user"):
        unit_submit(assignment_id=assignment.pk, user=assignment.user, data={"items": SIX})
    judging_plan(project=project)
    return project, people


def test_two_validators_finishing_round_one_at_once_plan_round_two_once():
    project, _ = _validated_project(slug="race-r2", annotators=6, premises=1)
    items = list(Item.objects.filter(project=project).order_by("slot"))
    for item in items:  # six pairs, six races: the author's label, then a disagreement
        first, second = Assignment.objects.filter(target_item=item, kind="validate", round=1).order_by("id")
        author_label = item.current_version.payload["label"]
        other = "neutral" if author_label != "neutral" else "entailment"
        outcomes = run_together(
            [
                lambda a=first, lab=author_label: judgment_record(assignment_id=a.pk, user=a.user, data={"label": lab}),
                lambda a=second, lab=other: judgment_record(assignment_id=a.pk, user=a.user, data={"label": lab}),
            ]
        )
        assert [o.error for o in outcomes] == [None, None]
        item.refresh_from_db()
        round_two = list(Assignment.objects.filter(target_item=item, kind="validate", round=2))
        assert (item.judging_round, len(round_two)) == (2, 1)
        assert round_two[0].user_id not in {first.user_id, second.user_id, item.author_id}


def test_32_validators_claiming_at_once_never_get_the_same_pair_twice():
    project, people = _validated_project(slug="race-claims", annotators=34, premises=6)
    validators = [u for u in people if Assignment.objects.filter(project=project, user=u, kind="validate").exists()][
        :32
    ]
    assert len(validators) == 32

    def claim(user):
        return lambda: assignment_claim_next(project=project, user=user, kind="validate")

    first = run_together([claim(u) for u in validators])
    second = run_together([claim(u) for u in validators])
    assert [o.error for o in first + second] == [None] * 64
    claimed = [o.value for o in first + second if o.value is not None]
    assert len({a.pk for a in claimed}) == len(claimed)
    assert all(a.user_id == u.pk for a, u in zip([o.value for o in first], validators, strict=True))
    # no validator holds a pair twice, nor their own pair
    held = (
        Assignment.objects.filter(project=project, kind="validate")
        .values("target_item", "user")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
    )
    assert list(held) == []
    own = Assignment.objects.filter(project=project, kind="validate", target_item__author=F("user"))
    assert own.count() == 0
    assert Concept.objects.filter(project=project).count() == 6
