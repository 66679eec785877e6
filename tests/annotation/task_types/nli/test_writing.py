"""Writing six hypotheses per premise: one transaction, six items (slots 0..5), the unit's checks."""

import pytest

from annotation.errors import IllegalTransition, InvalidInput
from annotation.models import Assignment, Item, ItemVersion
from annotation.services.items import unit_save_draft, unit_submit
from qc.services import review_approve, review_request_revision
from tests.annotation.task_types.nli.world import SIX, make_nli_project, writing_assignment

pytestmark = pytest.mark.django_db


def _state(assignment):
    assignment.refresh_from_db()
    items = list(Item.objects.filter(assignment=assignment).order_by("slot").values_list("slot", "status"))
    return assignment.status, items, ItemVersion.objects.filter(item__assignment=assignment).count()


def test_submit_creates_six_items_in_slots():
    world = make_nli_project()
    assignment = writing_assignment(world)
    items = unit_submit(assignment_id=assignment.pk, user=assignment.user, data={"items": SIX})
    assert [(i.slot, i.status, i.concept_id, i.author_id) for i in items] == [
        (slot, "submitted", assignment.concept_id, assignment.user_id) for slot in range(6)
    ]
    assert [i.current_version.payload for i in Item.objects.filter(assignment=assignment).order_by("slot")] == SIX
    assert _state(assignment)[0] == "done"


def test_refused_submission_changes_nothing():
    world = make_nli_project()
    assignment = writing_assignment(world)
    before = _state(assignment)
    three_entailments = [dict(p) for p in SIX]
    three_entailments[5] = {**SIX[5], "label": "entailment"}
    with pytest.raises(InvalidInput) as exc:
        unit_submit(assignment_id=assignment.pk, user=assignment.user, data={"items": three_entailments})
    assert exc.value.field_errors == {
        "hypotheses": ["Write 2 hypotheses per label; there are 3 entailment, 1 neutral, 2 contradiction."]
    }
    with pytest.raises(InvalidInput) as exc:
        unit_submit(assignment_id=assignment.pk, user=assignment.user, data={"items": SIX[:5]})
    assert exc.value.field_errors == {"items": ["Give a list of 6 items."]}
    with pytest.raises(InvalidInput) as exc:
        unit_submit(assignment_id=assignment.pk, user=assignment.user, data={"items": [*SIX[:5], {"label": "maybe"}]})
    assert exc.value.field_errors == {"label_6": ["Choose one of entailment, neutral, contradiction."]}
    assert _state(assignment) == before == ("pending", [], 0)


def test_expert_project_needs_tags():
    world = make_nli_project(expert=True)
    assignment = writing_assignment(world)
    untagged = [{**p, "tags": []} for p in SIX]
    with pytest.raises(InvalidInput) as exc:
        unit_submit(assignment_id=assignment.pk, user=assignment.user, data={"items": untagged})
    assert sorted(exc.value.field_errors) == [f"tags_{i}" for i in range(1, 7)]
    assert _state(assignment) == ("pending", [], 0)
    unit_submit(assignment_id=assignment.pk, user=assignment.user, data={"items": SIX})
    assert _state(assignment)[1] == [(slot, "submitted") for slot in range(6)]


def test_warning_needs_a_justification():
    world = make_nli_project()
    assignment = writing_assignment(world)
    doubtful = [dict(p) for p in SIX]
    doubtful[4] = {**SIX[4], "hypothesis": "Cuaca hari ini cerah sekali."}
    with pytest.raises(InvalidInput) as exc:
        unit_submit(assignment_id=assignment.pk, user=assignment.user, data={"items": doubtful})
    assert exc.value.field_errors == {"hypothesis_5": ["Hypothesis 5 shares no keyword with the premise."]}
    assert _state(assignment) == ("pending", [], 0)
    items = unit_submit(
        assignment_id=assignment.pk, user=assignment.user, data={"items": doubtful}, justification="Cuaca Nias."
    )
    assert {i.current_version.justification for i in items} == {"Cuaca Nias."}


def test_draft_then_submit():
    world = make_nli_project()
    assignment = writing_assignment(world)
    half = [*SIX[:3], {}, {}, {}]
    items = unit_save_draft(assignment_id=assignment.pk, user=assignment.user, data={"items": half})
    assert [(i.slot, i.status) for i in items] == [(slot, "draft") for slot in range(6)]
    assert _state(assignment)[0] == "active"
    unit_submit(assignment_id=assignment.pk, user=assignment.user, data={"items": SIX})
    assert _state(assignment) == ("done", [(slot, "submitted") for slot in range(6)], 6)
    with pytest.raises(IllegalTransition):
        unit_submit(assignment_id=assignment.pk, user=assignment.user, data={"items": SIX})


def test_without_qc_review_submitted_is_approved():
    world = make_nli_project(qc_review=False)
    assignment = writing_assignment(world)
    unit_submit(assignment_id=assignment.pk, user=assignment.user, data={"items": SIX})
    assert _state(assignment)[1] == [(slot, "approved") for slot in range(6)]


def _send_back_slot_3(world, assignment):
    """Submit the six, then the reviewer sends back hypothesis 4 (slot 3) and approves the other five."""
    items = unit_submit(assignment_id=assignment.pk, user=assignment.user, data={"items": SIX})
    for item in items:
        if item.slot == 3:
            review_request_revision(
                item_id=item.pk,
                version_id=item.current_version_id,
                reviewer=world.reviewer,
                feedback="Pakai angka lain.",
                error_type_codes=["wrong_label"],
            )
        else:
            review_approve(item_id=item.pk, version_id=item.current_version_id, reviewer=world.reviewer)


def _rows(assignment):
    return {
        i.slot: (i.status, i.current_version.number, i.current_version.payload["hypothesis"])
        for i in Item.objects.filter(assignment=assignment).select_related("current_version")
    }


def test_revision_changes_only_the_item_sent_back():
    world = make_nli_project()
    assignment = writing_assignment(world)
    _send_back_slot_3(world, assignment)
    revised = [dict(p) for p in SIX]
    revised[3] = {**SIX[3], "hypothesis": "Gunungsitoli berjarak 500 mil laut dari Sibolga."}

    unit_submit(assignment_id=assignment.pk, user=assignment.user, data={"items": revised})

    rows = _rows(assignment)
    assert rows[3] == ("submitted", 2, "Gunungsitoli berjarak 500 mil laut dari Sibolga.")
    assert [rows[s] for s in (0, 1, 2, 4, 5)] == [("approved", 1, SIX[s]["hypothesis"]) for s in (0, 1, 2, 4, 5)]


@pytest.mark.parametrize("service", [unit_submit, unit_save_draft])
def test_a_change_to_an_approved_sibling_is_refused_and_nothing_is_saved(service):
    world = make_nli_project()
    assignment = writing_assignment(world)
    _send_back_slot_3(world, assignment)
    before = (_state(assignment), _rows(assignment))
    revised = [dict(p) for p in SIX]
    revised[0] = {**SIX[0], "hypothesis": "Diubah: Gunungsitoli di Nias."}
    revised[3] = {**SIX[3], "hypothesis": "Gunungsitoli berjarak 500 mil laut dari Sibolga."}
    revised[5] = {**SIX[5], "label": "contradiction"}

    with pytest.raises(InvalidInput) as exc:
        service(assignment_id=assignment.pk, user=assignment.user, data={"items": revised})

    assert exc.value.http_status == 400
    assert exc.value.message == "Nothing was saved: you changed an item that is not sent back to you."
    assert exc.value.field_errors == {
        "hypothesis_1": [
            "Item 1 is approved and can't be changed here; only the items sent back can be edited. "
            "Undo this change to save the others."
        ],
        "label_6": [
            "Item 6 is approved and can't be changed here; only the items sent back can be edited. "
            "Undo this change to save the others."
        ],
    }
    # the sent-back hypothesis was not saved either: the author's text is still on their page, not half-kept
    assert (_state(assignment), _rows(assignment)) == before
    assert before[1][3] == ("revision_requested", 1, SIX[3]["hypothesis"])


def test_someone_elses_assignment_is_refused():
    world = make_nli_project()
    assignment = writing_assignment(world)
    other = next(u for u in world.annotators if u.pk != assignment.user_id)
    from annotation.errors import NotAllowed

    with pytest.raises(NotAllowed):
        unit_submit(assignment_id=assignment.pk, user=other, data={"items": SIX})
    assert _state(assignment) == ("pending", [], 0)
    assert Assignment.objects.filter(project=world.project, kind="author").count() == 2
