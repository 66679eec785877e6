"""Autosaved authoring drafts: one per assignment, the holder's only, never over a submitted item."""

import pytest

from annotation.errors import IllegalTransition, InvalidInput, NotAllowed
from annotation.models import Assignment, WorkDraft
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.drafts import MAX_CHARS, clean_fields, work_draft_save
from annotation.services.items import item_save_draft, item_submit
from tests.conftest import VALID_PAYLOAD

pytestmark = pytest.mark.django_db


@pytest.fixture
def assignment(csqa):
    assignment_plan_authoring(project=csqa.project)
    return Assignment.objects.filter(user=csqa.annotators[0], kind="author").order_by("position").first()


def test_clean_fields_keeps_values_drops_the_token_and_the_button():
    pairs = [("csrfmiddlewaretoken", ["t"]), ("action", ["save"]), ("question", ["Apa?"]), ("tags", ["a", "b"])]

    assert clean_fields(pairs) == {"question": "Apa?", "tags": ["a", "b"]}


def test_clean_fields_refuses_a_huge_draft():
    with pytest.raises(InvalidInput) as refused:
        clean_fields([("question", ["x" * MAX_CHARS])])

    assert refused.value.message == "The draft is too large to be saved."


def test_saving_twice_keeps_one_draft_with_the_latest_fields(assignment):
    user = assignment.user
    first = work_draft_save(assignment_id=assignment.pk, user=user, fields={"question": "Kapan"})

    second = work_draft_save(assignment_id=assignment.pk, user=user, fields={"question": "Kapan orang"})

    assert second.pk == first.pk
    assert list(WorkDraft.objects.values_list("assignment_id", "fields")) == [
        (assignment.pk, {"question": "Kapan orang"})
    ]
    assert second.saved_at >= first.saved_at


def test_someone_elses_assignment_is_refused(assignment, csqa):
    with pytest.raises(NotAllowed):
        work_draft_save(assignment_id=assignment.pk, user=csqa.annotators[1], fields={"question": "x"})

    assert not WorkDraft.objects.exists()


def test_saving_the_item_or_submitting_clears_the_draft(assignment):
    user = assignment.user
    work_draft_save(assignment_id=assignment.pk, user=user, fields={"question": "Kapan"})
    item_save_draft(assignment_id=assignment.pk, user=user, data=VALID_PAYLOAD)
    cleared_by_save = not WorkDraft.objects.exists()
    work_draft_save(assignment_id=assignment.pk, user=user, fields={"question": "Kapan lagi"})

    item_submit(assignment_id=assignment.pk, user=user, data=VALID_PAYLOAD)

    assert cleared_by_save
    assert not WorkDraft.objects.exists()


def test_a_draft_never_comes_back_over_a_submitted_item(assignment):
    user = assignment.user
    item_submit(assignment_id=assignment.pk, user=user, data=VALID_PAYLOAD)

    with pytest.raises(IllegalTransition) as refused:
        work_draft_save(assignment_id=assignment.pk, user=user, fields={"question": "late beacon"})

    assert refused.value.message == "This work is already submitted; a draft can't replace it."
    assert not WorkDraft.objects.exists()


def test_a_cancelled_assignment_keeps_no_draft(assignment):
    Assignment.objects.filter(pk=assignment.pk).update(status="cancelled")

    with pytest.raises(IllegalTransition):
        work_draft_save(assignment_id=assignment.pk, user=assignment.user, fields={"question": "x"})

    assert not WorkDraft.objects.exists()
