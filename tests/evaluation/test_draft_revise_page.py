"""Revising a model's draft from the review page: the task type's form prefilled, saved as a new version
written by the reviewer (draft_revise), back in the queue for another reviewer; nobody decides on a
version they wrote. Annotators and other projects get 404."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from annotation.errors import NotAllowed
from annotation.models import Item, Membership
from annotation.services.projects import membership_add
from evaluation.services.drafts import draft_create
from evaluation.services.runs import run_create
from qc.services import error_types_seed, review_approve, review_claim_next, review_request_revision
from tests.evaluation.helpers import make_endpoint, runs_stay_pending
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PAYLOAD = {
    "question": "Ke mana orang kunjung saat lebaran?",
    "choices": ["Rumah", "Pasar", "Kantor", "Kebun", "Laut"],
    "answer": "A",
}


@pytest.fixture
def draft(csqa, llm_server):
    with runs_stay_pending():
        run = run_create(
            kind="llm_gen", endpoints=[make_endpoint(llm_server)], project=csqa.project, user=csqa.admin, parameters={}
        )
    item = draft_create(run=run, call=None, payload=PAYLOAD, source=Item.Source.LLM_GEN, model="m", language="id")
    error_types_seed(project=csqa.project, error_types=[("options", "Options", "Wrong options.")])
    code = "options"
    review_request_revision(
        item_id=item.pk,
        version_id=item.current_version_id,
        reviewer=csqa.reviewer,
        feedback="Fix B.",
        error_type_codes=[code],
    )
    return Item.objects.get(pk=item.pk)


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_reviewer_revises_and_another_reviewer_decides(csqa, draft):
    reviewer = _client(csqa.reviewer)
    review_page = reviewer.get(reverse("review_item", args=[csqa.project.slug, draft.pk])).content.decode()
    url = reverse("draft_revise", args=[csqa.project.slug, draft.pk])
    assert f'href="{url}" id="draft-revise"' in review_page

    form = reviewer.get(url).content.decode()
    assert "Ke mana orang kunjung saat lebaran?</textarea>" in form and 'value="Pasar"' in form
    data = {
        "question": PAYLOAD["question"],
        "choice_a": "Rumah nenek",
        "choice_b": "Pasar",
        "choice_c": "Kantor",
        "choice_d": "Kebun",
        "choice_e": "Laut",
        "answer": "A",
        "note": "options fixed",
    }
    response = reviewer.post(url, data)
    assert response.status_code == 302 and response["Location"] == reverse("review_queue", args=[csqa.project.slug])

    item = Item.objects.select_related("current_version").get(pk=draft.pk)
    assert (item.status, item.reviewer_id, item.author_id) == ("submitted", None, None)
    assert (item.current_version.number, item.current_version.created_by_id, item.current_version.note) == (
        2,
        csqa.reviewer.pk,
        "options fixed",
    )
    assert item.current_version.payload["choices"][0] == "Rumah nenek"
    # The reviser can't decide on their own version, nor get it from the queue; another reviewer can.
    assert review_claim_next(project=csqa.project, reviewer=csqa.reviewer) is None
    with pytest.raises(NotAllowed, match="You can't review a version you wrote."):
        review_approve(item_id=item.pk, version_id=item.current_version_id, reviewer=csqa.reviewer)
    assert Item.objects.get(pk=item.pk).status == "submitted"
    second = UserFactory(username="second-reviewer")
    membership_add(project=csqa.project, user=second, role=Membership.Role.REVIEWER)
    assert review_claim_next(project=csqa.project, reviewer=second).pk == item.pk
    review_approve(item_id=item.pk, version_id=item.current_version_id, reviewer=second)
    assert Item.objects.get(pk=item.pk).status == "approved"


def test_a_bad_revision_is_refused_and_changes_nothing(csqa, draft):
    url = reverse("draft_revise", args=[csqa.project.slug, draft.pk])
    data = {
        "question": PAYLOAD["question"],
        "choice_a": "Sama",
        "choice_b": "Sama",
        "choice_c": "x",
        "choice_d": "y",
        "choice_e": "z",
        "answer": "A",
    }
    response = _client(csqa.reviewer).post(url, data)
    assert response.status_code == 400
    item = Item.objects.get(pk=draft.pk)
    assert (item.status, item.current_version_id) == ("revision_requested", draft.current_version_id)


def test_annotators_and_other_projects_get_404(csqa, other_project, draft):
    url = reverse("draft_revise", args=[csqa.project.slug, draft.pk])
    data = {**PAYLOAD, "choice_a": "x"}
    assert _client(csqa.annotators[0]).get(url).status_code == 404
    assert _client(csqa.annotators[0]).post(url, data).status_code == 404
    outsider = _client(other_project.reviewer)
    assert outsider.get(url).status_code == 404
    assert outsider.get(reverse("draft_revise", args=[other_project.project.slug, draft.pk])).status_code == 404
    item = Item.objects.get(pk=draft.pk)
    assert (item.status, item.current_version_id) == ("revision_requested", draft.current_version_id)
