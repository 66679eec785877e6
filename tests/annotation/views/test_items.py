import pytest
from django.urls import reverse

from annotation.services.items import item_submit
from qc.services import review_approve, review_request_revision
from tests.annotation.views.helpers import submitted_item
from tests.conftest import VALID_PAYLOAD

pytestmark = pytest.mark.django_db


def reviewed_twice(csqa):
    """v1 sent back (typo), v2 approved."""
    item = submitted_item(csqa, VALID_PAYLOAD)
    review_request_revision(
        item_id=item.pk,
        version_id=item.current_version_id,
        reviewer=csqa.reviewer,
        feedback="Ada salah ketik.",
        error_type_codes=["typo"],
    )
    revised = {**VALID_PAYLOAD, "choices": ["Pagi hari pertama", "Tengah malam", "Saat hujan", "Hari Senin", "Puasa"]}
    item = item_submit(assignment_id=item.assignment_id, user=item.author, data=revised)
    review_approve(item_id=item.pk, version_id=item.current_version_id, reviewer=csqa.reviewer, feedback="Bagus.")
    return item


def test_annotator_lists_only_own_items(csqa, client):
    mine = submitted_item(csqa, VALID_PAYLOAD)
    theirs = submitted_item(csqa, VALID_PAYLOAD, other_than=mine.author)
    client.force_login(mine.author)

    html = client.get(reverse("item_list", args=["demo"])).content.decode()

    assert f'id="item-{mine.pk}"' in html
    assert f'id="item-{theirs.pk}"' not in html
    assert "<h1>My items</h1>" in html


def test_reviewer_lists_all_items_and_filters_by_status(csqa, client):
    first = submitted_item(csqa, VALID_PAYLOAD)
    second = submitted_item(csqa, VALID_PAYLOAD, other_than=first.author)
    review_approve(item_id=first.pk, version_id=first.current_version_id, reviewer=csqa.reviewer)
    client.force_login(csqa.reviewer)

    everything = client.get(reverse("item_list", args=["demo"])).content.decode()
    submitted = client.get(reverse("item_list", args=["demo"]), {"status": "submitted"}).content.decode()

    assert f'id="item-{first.pk}"' in everything and f'id="item-{second.pk}"' in everything
    assert f'id="item-{first.pk}"' not in submitted
    assert f'id="item-{second.pk}"' in submitted
    assert '<option value="submitted" selected>Submitted</option>' in submitted


def test_item_detail_shows_every_version_diff_and_review(csqa, client):
    item = reviewed_twice(csqa)
    client.force_login(item.author)

    response = client.get(reverse("item_detail", args=["demo", item.pk]))

    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="version-1"' in html and 'id="version-2"' in html
    assert (
        '<tr><th scope="row">Option E</th><td class="diff-words" dir="auto">'
        "<del>Bulan puasa</del><ins>Puasa</ins></td></tr>"
    ) in html
    assert '<p><strong>Request revision</strong> by <span dir="auto">demo-reviewer</span>' in html
    assert '<span class="tag" dir="auto">Typo / mechanics</span>' in html
    assert '<p class="feedback" dir="auto">Ada salah ketik.</p>' in html
    assert "<p><strong>Approve</strong> by" in html
    assert '<p class="feedback" dir="auto">Bagus.</p>' in html
    assert 'id="revise-link"' not in html


def test_item_detail_offers_revise_when_sent_back(csqa, client):
    item = submitted_item(csqa, VALID_PAYLOAD)
    review_request_revision(
        item_id=item.pk,
        version_id=item.current_version_id,
        reviewer=csqa.reviewer,
        feedback="Perbaiki.",
        error_type_codes=["fluency"],
    )
    client.force_login(item.author)

    html = client.get(reverse("item_detail", args=["demo", item.pk])).content.decode()

    assert f'id="revise-link" href="/p/demo/author/{item.assignment_id}/"' in html
    assert '<p class="feedback" dir="auto" id="last-review-feedback">Perbaiki.</p>' in html


def test_annotator_cannot_see_someone_elses_item(csqa, client):
    mine = submitted_item(csqa, VALID_PAYLOAD)
    theirs = submitted_item(csqa, VALID_PAYLOAD, other_than=mine.author)
    client.force_login(mine.author)

    assert client.get(reverse("item_detail", args=["demo", theirs.pk])).status_code == 404
