"""A validator's proposed correction goes to the QC reviewer, who may send it to the author as a revision."""

import pytest
from django.urls import reverse

from annotation.errors import IllegalTransition, NotAllowed
from annotation.models import Assignment, Judgment
from annotation.services.corrections import correction_send_to_author
from annotation.services.items import unit_submit
from annotation.services.judging import judging_plan
from annotation.services.judgments import judgment_record
from qc.services import review_approve
from tests.annotation.task_types.nli.world import SIX, make_nli_project, writing_assignment

pytestmark = pytest.mark.django_db


def _validated_with_correction():
    world = make_nli_project(annotators=5, expert=True)
    assignment = writing_assignment(world)
    items = unit_submit(assignment_id=assignment.pk, user=assignment.user, data={"items": SIX})
    for item in items:
        review_approve(item_id=item.pk, version_id=item.current_version_id, reviewer=world.reviewer)
    judging_plan(project=world.project)
    item = items[0]
    validate = Assignment.objects.filter(target_item=item, kind="validate").order_by("id").first()
    judgment = judgment_record(
        assignment_id=validate.pk,
        user=validate.user,
        data={"label": "e", "error": True, "correction": "Gunungsitoli berada di Pulau Nias."},
    )
    return world, item, judgment


def _state(item):
    item.refresh_from_db()
    open_assignments = Assignment.objects.filter(target_item=item, status__in=["pending", "active"]).count()
    return item.status, item.current_version.payload, open_assignments


def test_correction_is_stored_and_never_replaces_the_text():
    world, item, judgment = _validated_with_correction()
    assert judgment.flags == {"error": True, "correction": "Gunungsitoli berada di Pulau Nias."}
    assert _state(item) == ("approved", SIX[0], 1)


def test_reviewer_sends_it_to_the_author_as_a_revision():
    world, item, judgment = _validated_with_correction()
    correction_send_to_author(judgment_id=judgment.pk, reviewer=world.reviewer, note="Perbaiki tanda baca.")
    assert _state(item) == ("revision_requested", SIX[0], 0)
    assert item.status_reason == (
        "A validator found an error and proposed: “Gunungsitoli berada di Pulau Nias.”. Perbaiki tanda baca."
    )
    assert Judgment.objects.get(pk=judgment.pk).flags["correction_status"] == "sent"
    # the author revises that one hypothesis; it goes back to QC review
    revised = [dict(p) for p in SIX]
    revised[0] = {**SIX[0], "hypothesis": "Gunungsitoli berada di Pulau Nias."}
    unit_submit(assignment_id=item.assignment_id, user=item.author, data={"items": revised})
    item.refresh_from_db()
    assert (item.status, item.current_version.number) == ("submitted", 2)
    with pytest.raises(IllegalTransition, match="already sent"):
        correction_send_to_author(judgment_id=judgment.pk, reviewer=world.reviewer)


def test_refusals_change_nothing():
    world, item, judgment = _validated_with_correction()
    before = _state(item)
    with pytest.raises(NotAllowed):
        correction_send_to_author(judgment_id=judgment.pk, reviewer=world.annotators[0])
    plain = Judgment.objects.create(
        project=world.project,
        item=item,
        user=world.annotators[-1],
        item_author=item.author,
        kind="validate",
        value={"label": "entailment"},
        flags={"error": False, "correction": ""},
    )
    with pytest.raises(IllegalTransition, match="flags no error"):
        correction_send_to_author(judgment_id=plain.pk, reviewer=world.reviewer)
    assert _state(item) == before


def test_rounds_page_shows_labels_by_round_to_reviewers_only(client):
    world, item, judgment = _validated_with_correction()
    url = reverse("judging_rounds", args=[world.project.slug])
    client.force_login(world.annotators[0])
    assert client.get(url).status_code == 404
    client.force_login(world.reviewer)
    html = client.get(url).content.decode()
    assert f'id="round-row-{item.pk}"' in html
    assert 'id="corrections"' in html and "Gunungsitoli berada di Pulau Nias." in html
    response = client.post(reverse("correction_send", args=[world.project.slug, judgment.pk]), {"note": ""})
    assert response.status_code == 302
    assert _state(item)[0] == "revision_requested"
