import re

import pytest
from django.urls import reverse

from annotation.models import Assignment, Item
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.items import item_submit
from qc.models import Review
from qc.services import review_approve, review_request_revision
from tests.annotation.views.helpers import db_snapshot, submitted_item
from tests.conftest import VALID_PAYLOAD

pytestmark = pytest.mark.django_db


def review_url(item):
    return reverse("review_item", args=["demo", item.pk])


def decision(item, decision, feedback="", error_types=(), version_id=None):
    return {
        "version_id": version_id or item.current_version_id,
        "decision": decision,
        "feedback": feedback,
        "error_types": list(error_types),
    }


def test_queue_lists_submitted_items(csqa, client):
    item = submitted_item(csqa, VALID_PAYLOAD)
    client.force_login(csqa.reviewer)

    html = client.get(reverse("review_queue", args=["demo"])).content.decode()

    assert f'id="queue-item-{item.pk}"' in html
    assert '<span class="badge" id="queue-total">1</span>' in html
    assert f'<td dir="auto" class="summary">{VALID_PAYLOAD["question"]}</td>' in html
    assert "Review next <kbd>N</kbd>" in html


def test_review_next_claims_and_opens_the_oldest_item(csqa, client):
    first = submitted_item(csqa, VALID_PAYLOAD)
    submitted_item(csqa, VALID_PAYLOAD)
    client.force_login(csqa.reviewer)

    response = client.post(reverse("review_queue", args=["demo"]))

    assert (response.status_code, response.url) == (302, review_url(first))
    first.refresh_from_db()
    assert first.reviewer_id == csqa.reviewer.pk


def test_review_next_with_an_empty_queue_says_so(csqa, client):
    client.force_login(csqa.reviewer)

    response = client.post(reverse("review_queue", args=["demo"]), follow=True)

    assert response.redirect_chain == [("/p/demo/review/", 302)]
    assert "Nothing is waiting for review." in response.content.decode()


def test_review_page_shows_item_concept_and_taxonomy(csqa, client):
    item = submitted_item(csqa, VALID_PAYLOAD)
    client.force_login(csqa.reviewer)

    html = client.get(review_url(item)).content.decode()

    assert '<h2 class="concept" dir="auto">kunjung</h2>' in html
    assert f'<p class="category" dir="auto">{item.concept.category.name}</p>' in html
    assert f'<p class="question" dir="auto">{VALID_PAYLOAD["question"]}</p>' in html
    assert 'value="too_general" id="error-type-too_general"' in html
    assert html.count('type="checkbox" name="error_types"') == 11
    assert f'<input type="hidden" name="version_id" value="{item.current_version_id}"' in html
    assert 'id="changes"' not in html
    assert 'id="justification"' not in html


def test_review_page_shows_the_justification(csqa, client):
    assignment_plan_authoring(project=csqa.project)
    assignment = Assignment.objects.filter(project=csqa.project, concept__name="kunjung").order_by("id").first()
    payload = {**VALID_PAYLOAD, "question": "Apa yang dibawa saat mudik Lebaran?"}
    item = item_submit(
        assignment_id=assignment.pk, user=assignment.user, data=payload, justification="Mudik = berkunjung."
    )
    client.force_login(csqa.reviewer)

    html = client.get(review_url(item)).content.decode()

    assert (
        '<p class="justification" id="justification"><strong>The author\'s justification</strong> (the concept '
        'checker did not find the concept in the question): <span dir="auto">Mudik = berkunjung.</span></p>'
    ) in html


def test_review_page_shows_the_diff_against_the_previous_submitted_version(csqa, client):
    item = submitted_item(csqa, VALID_PAYLOAD)
    review_request_revision(
        item_id=item.pk,
        version_id=item.current_version_id,
        reviewer=csqa.reviewer,
        feedback="Jawaban salah.",
        error_type_codes=["no_valid_answer"],
    )
    item = item_submit(assignment_id=item.assignment_id, user=item.author, data={**VALID_PAYLOAD, "answer": "B"})
    client.force_login(csqa.reviewer)

    html = client.get(review_url(item)).content.decode()

    assert "<h2>Changes since version 1</h2>" in html
    assert (
        '<tr><th scope="row">Answer</th><td class="diff-words" dir="auto"><del>A</del><ins>B</ins></td></tr>'
    ) in html
    assert '<p class="feedback" dir="auto">Jawaban salah.</p>' in html


def test_approve(csqa, client):
    item = submitted_item(csqa, VALID_PAYLOAD)
    client.force_login(csqa.reviewer)

    response = client.post(review_url(item), decision(item, "approve"), follow=True)

    item.refresh_from_db()
    assert item.status == Item.Status.APPROVED
    assert response.redirect_chain == [("/p/demo/review/", 302)]
    assert "Approved." in response.content.decode()


def test_request_revision_with_feedback_and_error_types(csqa, client):
    item = submitted_item(csqa, VALID_PAYLOAD)
    client.force_login(csqa.reviewer)

    client.post(review_url(item), decision(item, "revise", "Terlalu umum.", ["too_general", "typo"]))

    item.refresh_from_db()
    review = Review.objects.get(item=item)
    assert item.status == Item.Status.REVISION_REQUESTED
    assert (review.decision, review.feedback) == ("revise", "Terlalu umum.")
    assert sorted(review.error_types.values_list("code", flat=True)) == ["too_general", "typo"]


def test_revision_without_feedback_or_error_type_is_refused_next_to_the_fields(csqa, client):
    item = submitted_item(csqa, VALID_PAYLOAD)
    client.force_login(csqa.reviewer)
    before = db_snapshot()

    response = client.post(review_url(item), decision(item, "revise"))

    html = response.content.decode()
    assert response.status_code == 400
    assert "A revision request needs feedback and at least one error type." in html
    assert '<p class="error" role="alert">Choose at least one error type.</p>' in html
    assert '<p class="error" role="alert">Tell the author what to change.</p>' in html
    assert db_snapshot() == before


def test_reject_needs_a_reason(csqa, client):
    item = submitted_item(csqa, VALID_PAYLOAD)
    client.force_login(csqa.reviewer)
    before = db_snapshot()

    refused = client.post(review_url(item), decision(item, "reject"))

    assert refused.status_code == 400
    assert "Say why the item is rejected." in refused.content.decode()
    assert db_snapshot() == before
    client.post(review_url(item), decision(item, "reject", "Bukan pengetahuan umum.", ["logic_not_commonsense"]))
    item.refresh_from_db()
    assert (item.status, item.status_reason) == (Item.Status.REJECTED, "Bukan pengetahuan umum.")


def test_stale_version_gets_the_conflict_message_and_changes_nothing(csqa, client):
    item = submitted_item(csqa, VALID_PAYLOAD)
    stale_version = item.current_version_id
    review_request_revision(
        item_id=item.pk, version_id=stale_version, reviewer=csqa.reviewer, feedback="Ubah.", error_type_codes=["typo"]
    )
    item = item_submit(assignment_id=item.assignment_id, user=item.author, data={**VALID_PAYLOAD, "answer": "C"})
    client.force_login(csqa.reviewer)
    before = db_snapshot()

    response = client.post(review_url(item), decision(item, "approve", "ok", version_id=stale_version))

    html = response.content.decode()
    assert response.status_code == 409
    assert "This item has changed since you opened it; reload to see the current version." in html
    assert f'<input type="hidden" name="version_id" value="{item.current_version_id}"' in html
    assert ">\nok</textarea>" in html
    assert db_snapshot() == before


def test_second_decision_on_the_same_version_is_a_conflict(csqa, client):
    item = submitted_item(csqa, VALID_PAYLOAD)
    review_approve(item_id=item.pk, version_id=item.current_version_id, reviewer=csqa.admin)
    client.force_login(csqa.reviewer)
    before = db_snapshot()

    response = client.post(review_url(item), decision(item, "revise", "Ubah.", ["typo"]))

    assert response.status_code == 409
    assert "Another reviewer has already decided on this version." in response.content.decode()
    assert 'id="not-reviewable"' in response.content.decode()
    assert db_snapshot() == before


def test_unknown_error_type_is_refused(csqa, client):
    item = submitted_item(csqa, VALID_PAYLOAD)
    client.force_login(csqa.reviewer)
    before = db_snapshot()

    response = client.post(review_url(item), decision(item, "revise", "Ubah.", ["made_up"]))

    assert response.status_code == 400
    assert "Select a valid choice. made_up is not one of the available choices." in response.content.decode()
    assert db_snapshot() == before


def test_annotators_have_no_review_pages(csqa, client):
    item = submitted_item(csqa, VALID_PAYLOAD)
    client.force_login(item.author)
    before = db_snapshot()

    assert client.get(reverse("review_queue", args=["demo"])).status_code == 404
    assert client.post(reverse("review_queue", args=["demo"])).status_code == 404
    assert client.get(review_url(item)).status_code == 404
    assert client.post(review_url(item), decision(item, "approve")).status_code == 404
    assert db_snapshot() == before


def test_review_page_shows_the_items_language(csqa, client):
    item = submitted_item(csqa, VALID_PAYLOAD)
    Item.objects.filter(pk=item.pk).update(language="id")
    unset = submitted_item(csqa, VALID_PAYLOAD)
    Item.objects.filter(pk=unset.pk).update(language="")
    client.force_login(csqa.reviewer)

    html = client.get(review_url(item)).content.decode()
    unset_html = client.get(review_url(unset)).content.decode()

    assert '<p class="muted" id="item-language">Language of this item: <strong>Indonesian (id)</strong></p>' in html
    assert '<p class="muted" id="item-language">Language of this item: not given</p>' in unset_html


def test_every_error_type_has_its_own_key_on_the_review_page(csqa, client):
    item = submitted_item(csqa, VALID_PAYLOAD)
    client.force_login(csqa.reviewer)

    html = client.get(review_url(item)).content.decode()

    keyed = re.findall(r'id="error-type-([a-z_]+)" data-hotkey="(.)"', html)
    assert [key for _code, key in keyed] == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "w"]
    assert len(keyed) == html.count('type="checkbox" name="error_types"') == 11
    every_key = re.findall(r'data-hotkey="(.)"', html)
    assert sorted(every_key) == sorted(["a", "r", "x", *[key for _code, key in keyed]])
    assert '<kbd class="hotkey">W</kbd>' in html
    assert "the key shown beside an error type ticks it." in html
