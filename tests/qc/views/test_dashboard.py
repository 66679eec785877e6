import pytest
from django.test import Client
from django.urls import reverse

from annotation.models import Assignment, Category
from qc.services import review_approve, review_request_revision
from tests.annotation.views.helpers import db_snapshot, submitted_item
from tests.conftest import VALID_PAYLOAD

pytestmark = pytest.mark.django_db


def test_dashboard_shows_progress_statuses_and_error_counts(csqa, client):
    sent_back = submitted_item(csqa, VALID_PAYLOAD)
    approved = submitted_item(csqa, VALID_PAYLOAD, other_than=sent_back.author)
    review_request_revision(
        item_id=sent_back.pk,
        version_id=sent_back.current_version_id,
        reviewer=csqa.reviewer,
        feedback="Ubah.",
        error_type_codes=["typo", "too_general"],
    )
    review_approve(item_id=approved.pk, version_id=approved.current_version_id, reviewer=csqa.reviewer)
    client.force_login(csqa.admin)

    response = client.get(reverse("dashboard", args=["demo"]))

    html = response.content.decode()
    assert response.status_code == 200
    assert '<td id="status-submitted">0</td>' in html
    assert '<td id="status-revision_requested">1</td>' in html
    assert '<td id="status-approved">1</td>' in html
    author = sent_back.author.pk
    assert f'<td id="errors-{author}-typo" class="nonzero">1</td>' in html
    assert f'<td id="errors-{author}-too_general" class="nonzero">1</td>' in html
    assert f'<td id="errors-{author}-fluency">0</td>' in html
    assert f'<td id="errors-{approved.author.pk}-typo">0</td>' in html
    category = Category.objects.get(pk=approved.concept.category_id)
    done = Assignment.objects.filter(user=approved.author, concept__category=category, status="done").count()
    total = Assignment.objects.filter(user=approved.author, concept__category=category).count()
    assert done == 1
    assert f'<td id="progress-{approved.author.pk}-{category.pk}">{done}/{total}</td>' in html


def test_reviewers_see_the_dashboard_annotators_do_not(csqa, client):
    client.force_login(csqa.reviewer)
    assert client.get(reverse("dashboard", args=["demo"])).status_code == 200
    client.force_login(csqa.annotators[0])
    assert client.get(reverse("dashboard", args=["demo"])).status_code == 404


def test_unsafe_requests_need_the_csrf_token_that_htmx_sends(csqa):
    client = Client(enforce_csrf_checks=True)
    client.force_login(csqa.reviewer)
    page = client.get(reverse("review_queue", args=["demo"])).content.decode()
    token = page.split('hx-headers=\'{"X-CSRFToken": "')[1].split('"')[0]
    before = db_snapshot()

    refused = client.post(reverse("review_queue", args=["demo"]))
    accepted = client.post(reverse("review_queue", args=["demo"]), HTTP_X_CSRFTOKEN=token)

    assert refused.status_code == 403
    assert db_snapshot() == before
    assert (accepted.status_code, accepted.url) == (302, "/p/demo/review/")
