"""The review flow: the queue's order is the one its header states, a decision opens the next
item of the queue at once, the keys are on the buttons, the diff is word by word and the history shows
each version once."""

import pytest
from django.urls import reverse

from annotation.models import Item
from annotation.services.items import item_submit
from qc.models import Review
from qc.services import review_request_revision
from tests.annotation.views.helpers import submitted_item
from tests.conftest import VALID_PAYLOAD

pytestmark = pytest.mark.django_db

QUEUE = "/p/demo/review/"
REVISED = "Kapan orang Sunda biasanya berkunjung ke rumah saudara saat Lebaran?"


def review_url(item):
    return reverse("review_item", args=["demo", item.pk])


def approve(item):
    return {"version_id": item.current_version_id, "decision": "approve", "feedback": "", "error_types": []}


@pytest.fixture
def three_waiting(csqa):
    """first was submitted first, sent back by the reviewer and resubmitted last; then second, third."""
    first = submitted_item(csqa, VALID_PAYLOAD)
    review_request_revision(
        item_id=first.pk,
        version_id=first.current_version_id,
        reviewer=csqa.reviewer,
        feedback="Pilihan E terlalu mirip.",
        error_type_codes=["no_valid_answer"],
    )
    second = submitted_item(csqa, VALID_PAYLOAD)
    third = submitted_item(csqa, VALID_PAYLOAD)
    first = item_submit(
        assignment_id=first.assignment_id, user=first.author, data={**VALID_PAYLOAD, "question": REVISED}
    )
    return first, second, third


def queue_order(html: str, items) -> list[int]:
    found = sorted((html.index(f'id="queue-item-{item.pk}"'), item.pk) for item in items)
    return [pk for _, pk in found]


def test_queue_lists_resubmissions_to_me_first_then_the_oldest_as_its_header_says(csqa, client, three_waiting):
    first, second, third = three_waiting
    client.force_login(csqa.reviewer)

    html = client.get(reverse("review_queue", args=["demo"])).content.decode()

    assert queue_order(html, three_waiting) == [first.pk, second.pk, third.pk]
    assert (
        '<p class="muted" id="queue-order">Resubmissions of items you sent back come first, then items you have '
        "opened, then the oldest submissions. After each decision the next item opens.</p>"
    ) in html


def test_another_reviewer_sees_the_oldest_submission_first(csqa, client, three_waiting):
    first, second, third = three_waiting
    Item.objects.filter(pk=first.pk).update(reviewer=None)  # as if its reviewer had left the project
    client.force_login(csqa.admin)

    html = client.get(reverse("review_queue", args=["demo"])).content.decode()

    # The admin sent nothing back: by submission time, and the resubmission is the newest.
    assert queue_order(html, three_waiting) == [second.pk, third.pk, first.pk]


def test_items_i_opened_come_before_older_unopened_ones(csqa, client):
    older = submitted_item(csqa, VALID_PAYLOAD)
    opened = submitted_item(csqa, VALID_PAYLOAD)
    Item.objects.filter(pk=opened.pk).update(reviewer=csqa.reviewer)
    client.force_login(csqa.reviewer)

    html = client.get(reverse("review_queue", args=["demo"])).content.decode()
    claimed = client.post(reverse("review_queue", args=["demo"]))

    assert queue_order(html, [older, opened]) == [opened.pk, older.pk]
    assert claimed.url == review_url(opened)


def test_a_decision_opens_the_next_item_in_queue_order_until_the_queue_is_empty(csqa, client, three_waiting):
    first, second, third = three_waiting
    client.force_login(csqa.reviewer)

    after_second = client.post(review_url(second), approve(second))
    after_first = client.post(review_url(first), approve(first))
    after_third = client.post(review_url(third), approve(third), follow=True)

    assert (after_second.status_code, after_second.url) == (302, review_url(first))
    assert (after_first.status_code, after_first.url) == (302, review_url(third))
    assert after_third.redirect_chain == [(QUEUE, 302)]
    html = after_third.content.decode()
    assert "Approved." in html
    assert "That was the last item waiting for review: the queue is empty." in html
    assert (
        list(Item.objects.filter(pk__in=[i.pk for i in three_waiting]).values_list("status", flat=True))
        == ["approved"] * 3
    )
    # The advance claimed each next item for this reviewer, as "Review next" does.
    assert Review.objects.filter(reviewer=csqa.reviewer, decision="approve").count() == 3


def test_a_refused_decision_stays_on_the_item_and_claims_nothing(csqa, client, three_waiting):
    first, second, third = three_waiting
    client.force_login(csqa.reviewer)

    response = client.post(review_url(second), {**approve(second), "decision": "reject", "feedback": ""})

    assert response.status_code == 400
    assert Item.objects.get(pk=second.pk).status == "submitted"
    assert Item.objects.get(pk=third.pk).reviewer_id is None
    assert not Review.objects.filter(item=second).exists()


def test_the_review_form_shows_its_keys(csqa, client):
    item = submitted_item(csqa, VALID_PAYLOAD)
    client.force_login(csqa.reviewer)

    html = client.get(review_url(item)).content.decode()

    assert 'value="approve" id="id_decision_0"\n               data-hotkey="a" aria-keyshortcuts="A">' in html
    assert 'value="revise" id="id_decision_1"\n               data-hotkey="r" aria-keyshortcuts="R">' in html
    assert 'value="reject" id="id_decision_2"\n               data-hotkey="x" aria-keyshortcuts="X">' in html
    assert 'Approve <kbd class="hotkey">A</kbd>' in html
    assert 'Reject <kbd class="hotkey">X</kbd>' in html
    assert 'id="error-type-typo" data-hotkey="1" aria-keyshortcuts="1">' in html
    assert html.count('<kbd class="hotkey">') == 3 + html.count('name="error_types"')  # every error type has a key


def test_the_review_page_shows_the_writing_guidelines_in_a_drawer(csqa, client):
    item = submitted_item(csqa, VALID_PAYLOAD)
    client.force_login(csqa.reviewer)

    html = client.get(review_url(item)).content.decode()

    assert '<details class="guidelines-drawer" id="guidelines-drawer" data-open-wide>' in html
    assert '<div class="guidelines" id="guidelines" data-kind="writing" dir="auto">' in html
    assert "Write about <strong>the concept</strong>." in html


def test_the_diff_between_versions_is_word_level_and_escaped(csqa, client):
    item = submitted_item(csqa, {**VALID_PAYLOAD, "question": "Kapan orang <b>biasanya</b> berkunjung?"})
    review_request_revision(
        item_id=item.pk,
        version_id=item.current_version_id,
        reviewer=csqa.reviewer,
        feedback="Lebih khusus.",
        error_type_codes=["no_valid_answer"],
    )
    item = item_submit(
        assignment_id=item.assignment_id,
        user=item.author,
        data={**VALID_PAYLOAD, "question": "Kapan orang Sunda <b>biasanya</b> berkunjung?"},
    )
    client.force_login(csqa.reviewer)

    html = client.get(review_url(item)).content.decode()

    row = '<td class="diff-words" dir="auto">Kapan orang<ins> Sunda</ins> &lt;b&gt;biasanya&lt;/b&gt; berkunjung?</td>'
    assert html.count(row) == 2  # "Changes since version 1" and the history's version 2
    assert "<b>biasanya" not in html


def test_the_history_shows_a_single_version_once(csqa, client):
    item = submitted_item(csqa, VALID_PAYLOAD)
    client.force_login(csqa.reviewer)

    review = client.get(review_url(item)).content.decode()
    detail = client.get(reverse("item_detail", args=["demo", item.pk])).content.decode()

    for html in (review, detail):
        assert html.count(VALID_PAYLOAD["question"]) == 1
        assert html.count('class="version"') == 1
        assert '<p class="muted" id="history-current-note">The current version, shown above.</p>' in html


def test_the_history_shows_each_of_two_versions_once(csqa, client):
    item = submitted_item(csqa, VALID_PAYLOAD)
    review_request_revision(
        item_id=item.pk,
        version_id=item.current_version_id,
        reviewer=csqa.reviewer,
        feedback="Ganti.",
        error_type_codes=["no_valid_answer"],
    )
    item = item_submit(assignment_id=item.assignment_id, user=item.author, data={**VALID_PAYLOAD, "question": REVISED})
    client.force_login(item.author)

    html = client.get(reverse("item_detail", args=["demo", item.pk])).content.decode()

    assert [html.count(f'id="version-{n}"') for n in (1, 2, 3)] == [1, 1, 0]
    assert html.count(VALID_PAYLOAD["question"]) == 1  # version 1 in full, in the history only
    assert html.count(REVISED) == 1  # version 2 in the card; the history has its diff
