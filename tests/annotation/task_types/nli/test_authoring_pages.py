"""The NLI writer's page after a review sends back one hypothesis of six: the sent-back row is marked
with the reviewer's feedback, the approved rows are read-only, and a change to one of them is refused
with a message while nothing is saved."""

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from annotation.models import Item, ItemVersion
from annotation.services.items import unit_submit
from qc.services import review_approve, review_request_revision
from tests.annotation.task_types.nli.world import SIX, make_nli_project, writing_assignment

pytestmark = pytest.mark.django_db

FEEDBACK = "Pakai angka lain, bukan 10."
REFUSED = (
    "Item %d is approved and can't be changed here; only the items sent back can be edited. "
    "Undo this change to save the others."
)


@pytest.fixture
def sent_back():
    """Six hypotheses submitted; the reviewer sends back hypothesis 4 and approves the other five."""
    world = make_nli_project()
    assignment = writing_assignment(world)
    for item in unit_submit(assignment_id=assignment.pk, user=assignment.user, data={"items": SIX}):
        if item.slot == 3:
            review_request_revision(
                item_id=item.pk,
                version_id=item.current_version_id,
                reviewer=world.reviewer,
                feedback=FEEDBACK,
                error_type_codes=["wrong_label"],
            )
        else:
            review_approve(item_id=item.pk, version_id=item.current_version_id, reviewer=world.reviewer)
    return world, assignment


def _url(world, assignment):
    return reverse("author_item", args=[world.project.slug, assignment.pk])


def _form_data(payloads, action="submit"):
    data = {"action": action, "justification": ""}
    for number, payload in enumerate(payloads, start=1):
        data[f"hypothesis_{number}"] = payload["hypothesis"]
        data[f"label_{number}"] = payload["label"]
        data[f"tags_{number}"] = payload["tags"]
    return data


def _rows(assignment):
    return [
        (i.slot, i.status, i.current_version.number, i.current_version.payload)
        for i in Item.objects.filter(assignment=assignment).select_related("current_version").order_by("slot")
    ]


def test_the_page_marks_the_sent_back_hypothesis_with_its_feedback_and_freezes_the_others(sent_back, client):
    world, assignment = sent_back
    client.force_login(assignment.user)

    response = client.get(_url(world, assignment))

    assert response.status_code == 200
    html = response.content.decode()
    assert re.findall(r'<fieldset class="([^"]*)" id="row-(\d)" data-status="(\w+)"', html) == [
        ("nli-row frozen", "1", "approved"),
        ("nli-row frozen", "2", "approved"),
        ("nli-row frozen", "3", "approved"),
        ("nli-row sent-back", "4", "revision_requested"),
        ("nli-row frozen", "5", "approved"),
        ("nli-row frozen", "6", "approved"),
    ]
    assert f'<p class="feedback" dir="auto" id="row-4-feedback">{escape(FEEDBACK)}</p>' in html
    assert re.findall(r'id="row-4-review".*?<span class="tag"[^>]*>([^<]*)</span>', html, re.S) == ["Wrong label"]
    # only the sent-back row can be typed in; the approved ones show their text and carry it back unchanged
    assert re.findall(r'<textarea name="hypothesis_(\d)"', html) == ["4"]
    assert re.findall(r'<select name="label_(\d)"', html) == ["4"]
    assert f'<p class="frozen-text" dir="auto" id="frozen-hypothesis-1">{escape(SIX[0]["hypothesis"])}</p>' in html
    assert f'<input type="hidden" name="hypothesis_1" value="{escape(SIX[0]["hypothesis"])}">' in html
    assert re.findall(r'<input type="hidden" name="tags_3" value="(\w+)">', html) == SIX[2]["tags"]


def test_the_page_posts_the_frozen_rows_back_unchanged_and_submits_the_revision(sent_back, client):
    world, assignment = sent_back
    client.force_login(assignment.user)
    revised = [dict(p) for p in SIX]
    revised[3] = {**SIX[3], "hypothesis": "Gunungsitoli berjarak 500 mil laut dari Sibolga."}

    response = client.post(_url(world, assignment), _form_data(revised))

    assert response.status_code == 302
    assert _rows(assignment) == [
        (slot, "submitted" if slot == 3 else "approved", 2 if slot == 3 else 1, revised[slot]) for slot in range(6)
    ]


def test_a_changed_approved_sibling_is_refused_on_the_page_and_nothing_changes(sent_back, client):
    world, assignment = sent_back
    client.force_login(assignment.user)
    before = (_rows(assignment), ItemVersion.objects.count())
    revised = [dict(p) for p in SIX]
    revised[1] = {**SIX[1], "hypothesis": "Jarak Gunungsitoli ke Sibolga kira-kira 85 mil laut."}
    revised[3] = {**SIX[3], "hypothesis": "Gunungsitoli berjarak 500 mil laut dari Sibolga."}

    response = client.post(_url(world, assignment), _form_data(revised))

    assert response.status_code == 400
    html = response.content.decode()
    assert re.findall(
        r'id="row-(\d)"[^>]*>(?:(?!</fieldset>).)*?<p class="error" role="alert" dir="auto">([^<]*)</p>', html, re.S
    ) == [("2", escape(REFUSED % 2))]
    assert escape("Nothing was saved: you changed an item that is not sent back to you.") in html
    # the author's revision of hypothesis 4 is still in the form, not lost with the refusal
    assert re.findall(r'<textarea name="hypothesis_4"[^>]*>\s*([^<]*)</textarea>', html) == [revised[3]["hypothesis"]]
    assert (_rows(assignment), ItemVersion.objects.count()) == before
