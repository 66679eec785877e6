"""The item list: search by text, author, category, language, status and source (page and API),
bulk approve and re-assign (all or nothing), and a page whose queries don't grow with the list."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from annotation.models import Assignment, Category, Item, ProjectLanguage
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.items import unit_save_draft
from qc.models import Review
from tests.annotation.views.helpers import db_snapshot, submitted_item
from tests.conftest import VALID_PAYLOAD
from tests.qc.helpers import make_item

pytestmark = pytest.mark.django_db
ROW = re.compile(r'<tr id="item-(\d+)">')


def _rows(client, **params) -> list[int]:
    response = client.get(reverse("item_list", args=["demo"]), params)
    assert response.status_code == 200
    return [int(pk) for pk in ROW.findall(response.content.decode())]


@pytest.fixture
def listed(csqa, client):
    """Five items that differ in one field each from the first."""
    ProjectLanguage.objects.create(project=csqa.project, code="su", name="Sundanese", position=1)
    one, two, three = csqa.annotators
    base = make_item(csqa.project, one, question="Apa makanan khas Lebaran?")
    other_text = make_item(csqa.project, one, question="Siapa yang membuat ketupat sayur?")
    other_author = make_item(csqa.project, two, question="Apa makanan khas Lebaran?")
    other_category = make_item(csqa.project, one, category="tarian", question="Apa makanan khas Lebaran?")
    other_language = make_item(csqa.project, one, question="Apa makanan khas Lebaran?")
    Item.objects.filter(pk=other_language.pk).update(language="su")
    other_status = make_item(csqa.project, three, status=Item.Status.REJECTED, source=Item.Source.LLM_GEN)
    client.force_login(csqa.reviewer)
    return {
        "base": base.pk,
        "text": other_text.pk,
        "author": other_author.pk,
        "category": other_category.pk,
        "language": other_language.pk,
        "status": other_status.pk,
    }


def test_each_filter_narrows_the_list_to_exactly_its_items(csqa, client, listed):
    tarian = Category.objects.get(project=csqa.project, name="tarian").pk
    newest_first = sorted(listed.values(), reverse=True)

    assert _rows(client) == newest_first
    assert _rows(client, q="ketupat SAYUR") == [listed["text"]]
    assert _rows(client, author="DEMO-ANN2") == [listed["author"]]
    assert _rows(client, category=tarian) == [listed["category"]]
    assert _rows(client, language="su") == [listed["language"]]
    assert _rows(client, status="rejected") == [listed["status"]]
    assert _rows(client, source="llm_gen") == [listed["status"]]
    assert _rows(client, q="Lebaran", author="demo-ann1", language="id") == sorted(
        [listed["base"], listed["category"]], reverse=True
    )


def test_unknown_filter_values_are_ignored_not_errors(client, listed):
    assert len(_rows(client, language="xx", category="999999", status="nope", source="?")) == len(listed)


def test_the_api_filters_the_same_way(csqa, listed):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(csqa.reviewer)
    url = reverse("api-items", args=["demo"])

    def ids(**params):
        response = api.get(url, params)
        assert response.status_code == 200, response.content
        return sorted(row["id"] for row in response.json()["results"])

    assert ids(q="ketupat sayur") == [listed["text"]]
    assert ids(language="su") == [listed["language"]]
    assert ids(author="demo-ann2") == [listed["author"]]
    assert ids(source="llm_gen") == [listed["status"]]
    languages = {row["id"]: row["language"] for row in api.get(url).json()["results"]}
    assert languages[listed["language"]] == "su" and languages[listed["base"]] == "id"


def test_the_list_runs_a_fixed_number_of_queries_as_it_grows(csqa, client, django_assert_max_num_queries):
    writer = csqa.annotators[0]
    client.force_login(csqa.reviewer)
    for n in range(3):
        make_item(csqa.project, writer, category=f"c{n}", question=f"Soal {n}?")
    with django_assert_max_num_queries(14) as small:
        _rows(client, q="Soal")
    for n in range(40):
        make_item(csqa.project, writer, category=f"c{n}", question=f"Soal {n}?")
    with django_assert_max_num_queries(len(small)):
        rows = _rows(client, q="Soal", per_page=20)

    assert len(rows) == 20


# --- bulk actions ------------------------------------------------------------------------------------


def _bulk(client, **data):
    return client.post(reverse("item_bulk", args=["demo"]), data, follow=True)


def _message(response) -> str:
    return [str(m) for m in response.context["messages"]][-1]


def test_bulk_approve_approves_every_selected_submitted_item(csqa, client):
    first = submitted_item(csqa, VALID_PAYLOAD)
    second = submitted_item(csqa, VALID_PAYLOAD, other_than=first.author)
    client.force_login(csqa.reviewer)

    response = _bulk(client, action="approve", items=[first.pk, second.pk], back="status=submitted")

    assert _message(response) == "Approved 2 items."
    assert response.redirect_chain == [("/p/demo/items/?status=submitted", 302)]
    assert sorted(Item.objects.filter(pk__in=[first.pk, second.pk]).values_list("status", flat=True)) == [
        "approved",
        "approved",
    ]
    assert Review.objects.filter(item__in=[first, second], reviewer=csqa.reviewer, decision="approve").count() == 2


def test_bulk_approve_with_one_item_not_submitted_changes_nothing(csqa, client):
    first = submitted_item(csqa, VALID_PAYLOAD)
    done = make_item(csqa.project, csqa.annotators[1], status=Item.Status.APPROVED)
    client.force_login(csqa.reviewer)
    before = db_snapshot()

    response = _bulk(client, action="approve", items=[first.pk, done.pk])

    assert _message(response) == (
        f"Nothing was changed. Item #{done.pk} is approved: only submitted items can be approved."
    )
    assert db_snapshot() == before


def _work_state() -> dict:
    """Every row but the users' (logging in writes their last_login)."""
    state = db_snapshot()
    state.pop("User")
    return state


def test_bulk_actions_are_refused_to_annotators_and_other_projects_items(csqa, other_project, client):
    mine = submitted_item(csqa, VALID_PAYLOAD)
    foreign = make_item(other_project.project, other_project.annotators[0], status=Item.Status.SUBMITTED)
    before = _work_state()

    client.force_login(mine.author)
    as_annotator = client.post(reverse("item_bulk", args=["demo"]), {"action": "approve", "items": [mine.pk]})
    client.force_login(csqa.reviewer)
    other = _bulk(client, action="approve", items=[mine.pk, foreign.pk])
    as_get = client.get(reverse("item_bulk", args=["demo"]))
    nothing = _bulk(client, action="approve")

    assert as_annotator.status_code == 404
    assert _message(other) == f"Nothing was changed. No such item in this project: #{foreign.pk}."
    assert as_get.status_code == 405
    assert _message(nothing) == "Nothing was changed. Select at least one item."
    assert _work_state() == before


def test_bulk_reassign_moves_review_and_writing_to_the_chosen_members(csqa, client):
    from annotation.models import Membership
    from annotation.services.projects import membership_add
    from tests.factories import UserFactory

    second_reviewer = UserFactory(username="demo-reviewer2")
    membership_add(project=csqa.project, user=second_reviewer, role=Membership.Role.REVIEWER)
    waiting = submitted_item(csqa, VALID_PAYLOAD)
    Item.objects.filter(pk=waiting.pk).update(reviewer=csqa.reviewer)
    client.force_login(csqa.admin)

    moved = _bulk(client, action="reassign", items=[waiting.pk], to_user=second_reviewer.pk)

    assert _message(moved) == "Re-assigned the open work of 1 item (1 to review, 0 to write)."
    assert Item.objects.get(pk=waiting.pk).reviewer_id == second_reviewer.pk

    writer, taker = csqa.annotators[0], csqa.annotators[2]
    assignment = (
        Assignment.objects.filter(project=csqa.project, user=writer, item__isnull=True)
        .exclude(concept__in=Assignment.objects.filter(user=taker).values("concept"))
        .order_by("id")
        .first()
    )
    draft = unit_save_draft(assignment_id=assignment.pk, user=writer, data=VALID_PAYLOAD)[0]

    handed = _bulk(client, action="reassign", items=[draft.pk], to_user=taker.pk)

    assert _message(handed) == "Re-assigned the open work of 1 item (0 to review, 1 to write)."
    assert Item.objects.get(pk=draft.pk).author_id == taker.pk
    assert Assignment.objects.get(pk=assignment.pk).user_id == taker.pk


def test_bulk_reassign_refusals_change_nothing(csqa, client):
    assignment_plan_authoring(project=csqa.project)
    waiting = submitted_item(csqa, VALID_PAYLOAD)
    done = make_item(csqa.project, csqa.annotators[1], status=Item.Status.GOLD)
    other_annotator = next(u for u in csqa.annotators if u.pk != waiting.author_id)
    client.force_login(csqa.admin)
    before = db_snapshot()

    to_annotator = _bulk(client, action="reassign", items=[waiting.pk], to_user=other_annotator.pk)
    closed = _bulk(client, action="reassign", items=[waiting.pk, done.pk], to_user=csqa.reviewer.pk)
    nobody = _bulk(client, action="reassign", items=[waiting.pk], to_user=999999)

    assert _message(to_annotator) == (
        f"Nothing was changed. Item #{waiting.pk} waits for review: {other_annotator.username} is not a reviewer."
    )
    assert _message(closed) == f"Nothing was changed. Item #{done.pk} is gold: it has no open work to re-assign."
    assert _message(nobody) == "Nothing was changed. Choose an active member of this project to give the work to."
    assert db_snapshot() == before


def test_a_searchs_next_and_previous_links_walk_its_matches_once_in_order(csqa, client):
    writer = csqa.annotators[0]
    matching = [make_item(csqa.project, writer, question=f"Soal rendang {n}?").pk for n in range(23)]
    for n in range(5):
        make_item(csqa.project, writer, question=f"Soal lain {n}?")
    client.force_login(csqa.reviewer)
    next_link = re.compile(r'<a href="\?([^"]+)" id="page-next">')
    previous_link = re.compile(r'<a href="\?([^"]+)" id="page-previous">')
    seen, query, pages = [], "q=rendang&per_page=10", []
    while query:
        html = client.get(f"/p/demo/items/?{query}").content.decode()
        seen.extend(int(pk) for pk in ROW.findall(html))
        pages.append(re.search(r"<span>Page (\d+) of (\d+)</span>", html).groups())
        found, back = next_link.search(html), previous_link.search(html)
        query = found.group(1).replace("&amp;", "&") if found else None
    second = client.get(f"/p/demo/items/?{back.group(1).replace('&amp;', '&')}").content.decode()

    assert seen == sorted(matching, reverse=True)
    assert pages == [("1", "3"), ("2", "3"), ("3", "3")]
    assert [int(pk) for pk in ROW.findall(second)] == sorted(matching, reverse=True)[10:20]
