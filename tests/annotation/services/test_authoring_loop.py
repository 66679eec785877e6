import pytest

from annotation.errors import IllegalTransition, InvalidInput
from annotation.models import Assignment, Item
from annotation.services.assignments import assignment_claim_next, assignment_plan_authoring
from annotation.services.items import item_save_draft, item_submit
from qc.models import Review
from qc.services import review_approve, review_claim_next, review_request_revision
from tests.conftest import VALID_PAYLOAD

pytestmark = pytest.mark.django_db


def test_plan_gives_every_concept_two_authors(csqa):
    summary = assignment_plan_authoring(project=csqa.project)

    assert (summary.created, summary.kept, summary.removed, summary.units, summary.workers) == (12, 0, 0, 6, 3)
    per_concept = {}
    for concept_id, user_id in Assignment.objects.values_list("concept_id", "user_id"):
        per_concept.setdefault(concept_id, set()).add(user_id)
    assert [len(v) for v in per_concept.values()] == [2] * 6


def test_replan_is_stable_and_keeps_started_work(csqa):
    assignment_plan_authoring(project=csqa.project)
    annotator = csqa.annotators[0]
    started = assignment_claim_next(project=csqa.project, user=annotator, kind="author")
    before = set(Assignment.objects.values_list("concept_id", "user_id"))

    again = assignment_plan_authoring(project=csqa.project)

    assert (again.created, again.kept, again.removed) == (0, 11, 0)
    assert set(Assignment.objects.values_list("concept_id", "user_id")) == before
    started.refresh_from_db()
    assert started.status == Assignment.Status.ACTIVE


def test_full_revision_loop(csqa):
    assignment_plan_authoring(project=csqa.project)
    annotator = csqa.annotators[0]
    assignment = Assignment.objects.filter(user=annotator, concept__name="kunjung").order_by("id").first()

    item = item_submit(assignment_id=assignment.pk, user=annotator, data=VALID_PAYLOAD)
    assert item.status == Item.Status.SUBMITTED
    assert item.current_version.number == 1

    claimed = review_claim_next(project=csqa.project, reviewer=csqa.reviewer)
    assert claimed.pk == item.pk
    review_request_revision(
        item_id=item.pk,
        version_id=item.current_version_id,
        reviewer=csqa.reviewer,
        feedback="Terlalu umum.",
        error_type_codes=["too_general"],
    )
    item.refresh_from_db()
    assert item.status == Item.Status.REVISION_REQUESTED

    revised = {**VALID_PAYLOAD, "question": "Kapan orang Sunda biasanya berkunjung ke rumah mertua?"}
    item = item_submit(assignment_id=assignment.pk, user=annotator, data=revised)
    assert item.status == Item.Status.SUBMITTED
    assert item.current_version.number == 2
    review_approve(item_id=item.pk, version_id=item.current_version_id, reviewer=csqa.reviewer)
    item.refresh_from_db()
    assert item.status == Item.Status.APPROVED
    assert list(Review.objects.filter(item=item).values_list("decision", flat=True)) == ["revise", "approve"]

    with pytest.raises(IllegalTransition):
        item_save_draft(assignment_id=assignment.pk, user=annotator, data=VALID_PAYLOAD)
    assert item.versions.count() == 2


def test_submit_refuses_missing_concept_without_justification(csqa):
    assignment_plan_authoring(project=csqa.project)
    annotator = csqa.annotators[0]
    assignment = Assignment.objects.filter(user=annotator, concept__name="kunjung").order_by("id").first()
    payload = {**VALID_PAYLOAD, "question": "Apa makanan khas Lebaran?"}

    with pytest.raises(InvalidInput) as refused:
        item_submit(assignment_id=assignment.pk, user=annotator, data=payload)
    assert "does not contain the concept" in refused.value.field_errors["question"][0]
    assert Item.objects.count() == 0

    item = item_submit(assignment_id=assignment.pk, user=annotator, data=payload, justification="Sinonim.")
    assert item.current_version.justification == "Sinonim."


def test_replan_after_a_join_moves_only_the_newcomers_share(csqa):
    from annotation.models import Membership
    from annotation.services.projects import membership_add
    from tests.factories import UserFactory

    assignment_plan_authoring(project=csqa.project)
    before = set(Assignment.objects.values_list("concept_id", "user_id"))
    newcomer = UserFactory(username="newcomer")
    membership_add(project=csqa.project, user=newcomer, role=Membership.Role.ANNOTATOR)

    summary = assignment_plan_authoring(project=csqa.project)

    after = set(Assignment.objects.values_list("concept_id", "user_id"))
    theirs = {pair for pair in after if pair[1] == newcomer.pk}
    # 6 concepts x 2 authors over 4 annotators: 3 each; the newcomer's 3 come from the others.
    assert len(theirs) == 3
    assert after - before == theirs
    assert (summary.created, summary.kept, summary.removed) == (3, 9, 3)
