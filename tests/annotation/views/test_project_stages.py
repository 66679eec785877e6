"""The project page's stage panel (counts and next actions), the home page's list of what waits
for a person, and the queues' last page."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from annotation.models import Assignment, Item
from annotation.selectors import author_progress
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.judging import judging_plan
from annotation.services.projects import membership_add
from qc.services import review_request_revision
from tests.annotation.task_types.csqa.world import make_world
from tests.annotation.task_types.cultural_prompt.world import make_kalahi_project
from tests.annotation.task_types.nli.world import make_nli_project
from tests.annotation.views.helpers import submitted_item
from tests.conftest import VALID_PAYLOAD
from tests.qc.helpers import make_project, make_user

pytestmark = pytest.mark.django_db


def _text(html: str, element_id: str) -> str:
    match = re.search(rf'<[^>]* id="{element_id}"[^>]*>(.*?)</', html, re.S)
    assert match is not None, element_id
    return " ".join(unescape(match.group(1)).split())


def _page(client, user, url: str) -> str:
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_admin_is_told_how_many_approved_items_wait_for_judging_and_where_to_plan_it(client):
    world = make_world(slug="xa")

    html = _page(client, world.admin, reverse("project_detail", args=["xa"]))

    assert _text(html, "stage-judging-text") == "4 approved items wait for cross-answering:"
    assert _text(html, "stage-judging-judging_plan") == "Plan cross-answering"
    assert 'id="stage-judging-judging_plan" href="/p/xa/judging/plan/"' in html
    assert _text(html, "stage-gold-text") == "0 gold items, 0 excluded:"


def test_once_planned_an_annotator_sees_their_judging_count_and_the_admin_sees_none_waiting(client):
    world = make_world(slug="xa")
    judging_plan(project=world.project)
    w1 = world.people[0]
    open_for_w1 = Assignment.objects.filter(user=w1, kind="answer", status__in=("pending", "active")).count()

    annotator_html = _page(client, w1, reverse("project_detail", args=["xa"]))
    admin_html = _page(client, world.admin, reverse("project_detail", args=["xa"]))

    assert open_for_w1 == 3
    assert _text(annotator_html, "stage-judging-text") == "3 items wait for you to answer:"
    assert 'id="stage-judging-judge_queue" href="/p/xa/judge/"' in annotator_html
    assert _text(admin_html, "stage-judging-text") == "0 approved items wait for cross-answering:"


def test_the_home_page_says_what_waits_in_each_project(client):
    world = make_world(slug="xa")
    judging_plan(project=world.project)
    w1 = world.people[0]
    screened, _ = make_project(slug="scr", annotators=1)
    screened.screening_required = True
    screened.save(update_fields=["screening_required"])
    membership_add(project=screened, user=w1, role="annotator", code="S1")
    item = world.items[0]  # written by W1
    Item.objects.filter(pk=item.pk).update(status=Item.Status.REVISION_REQUESTED)

    html = _page(client, w1, reverse("home"))

    assert _text(html, "waiting-xa-judging") == "Cross-answering: 3 items wait for you:"
    assert _text(html, "waiting-xa-sent-back") == "1 item was sent back to you:"
    assert _text(html, "waiting-scr-screening") == "A screening to pass before you start:"
    assert 'id="waiting-scr-sent-back"' not in html
    assert 'id="waiting-scr-judging"' not in html


@pytest.mark.parametrize("projects", [1, 5])
def test_the_home_page_reads_a_fixed_number_of_queries_whatever_the_number_of_projects(
    client, projects, django_assert_max_num_queries
):
    person = make_user("everywhere")
    for k in range(projects):
        project, _ = make_project(slug=f"p{k}", annotators=1)
        membership_add(project=project, user=person, role="annotator", code=f"E{k}")
    client.force_login(person)

    with django_assert_max_num_queries(6):
        response = client.get(reverse("home"))

    assert response.content.decode().count('class="plain waiting"') == projects


def test_the_last_judgment_says_the_queue_is_finished_not_here_is_the_next(client):
    world = make_world(slug="xa")
    judging_plan(project=world.project)
    w1 = world.people[0]
    client.force_login(w1)
    pages = []
    for _ in range(3):
        queue = client.get(reverse("judge_queue", args=["xa"]))
        response = client.post(queue.url, {"answer": "A", "comment": ""}, follow=True)
        pages.append(response.content.decode())

    assert "Answer saved. Here is the next question." in pages[1]
    assert "All done" not in pages[1]
    assert "Answer saved. Here is the next question." not in pages[2]
    assert _text(pages[2], "last-saved") == "Your answer is saved. That was the last one: your queue is finished."


def test_the_last_authoring_page_says_the_queue_is_finished(csqa, client):
    assignment_plan_authoring(project=csqa.project)
    annotator = csqa.annotators[0]
    client.force_login(annotator)
    pages = []
    while (queue := client.get(reverse("author_queue", args=["demo"]))).status_code == 302:
        payload = {**VALID_PAYLOAD, "question": f"{VALID_PAYLOAD['question']} ({len(pages)})"}
        data = {"question": payload["question"], "answer": "A", "action": "submit", "justification": "x"}
        data.update({f"choice_{label}": text for label, text in zip("abcde", payload["choices"], strict=True)})
        pages.append(client.post(queue.url, data, follow=True).content.decode())
        assert len(pages) < 20

    assert "Submitted for review. Here is your next one." not in pages[-1]
    assert _text(pages[-1], "last-saved") == "Submitted for review. That was the last one: your queue is finished."


def test_an_item_sent_back_is_not_counted_as_done(csqa):
    item = submitted_item(csqa, VALID_PAYLOAD)
    before = author_progress(project=csqa.project, user=item.author)

    review_request_revision(
        item_id=item.pk,
        version_id=item.current_version_id,
        reviewer=csqa.reviewer,
        feedback="Ada salah ketik.",
        error_type_codes=["typo"],
    )

    after = author_progress(project=csqa.project, user=item.author)
    assert sum(p["done"] for p in before) == 1
    assert sum(p["done"] for p in after) == 0
    assert [p["total"] for p in after] == [p["total"] for p in before]


def test_an_nli_projects_queues_say_premise_not_concept(client):
    world = make_nli_project(slug="nli")

    review = _page(client, world.reviewer, reverse("review_queue", args=["nli"]))
    items = _page(client, world.reviewer, reverse("item_list", args=["nli"]))
    project = _page(client, world.admin, reverse("project_detail", args=["nli"]))

    assert "<th>Premise</th><th>Item</th>" in review
    assert "<th>Premise</th><th>Item</th>" in items
    assert f"k = {world.project.authors_per_concept} authors per premise, seed" in project
    assert "Concept" not in review + items


def test_the_kalahi_judging_page_names_what_a_validator_gives(client):
    world = make_kalahi_project(slug="kalahi", rows=2)
    judging_plan(project=world.project)
    client.force_login(world.validators[0])

    html = client.get(reverse("judge_queue", args=["kalahi"]), follow=True).content.decode()

    assert "<p class=\"muted\">You can't see the author's pick or anyone else's.</p>" in html


def test_the_nli_judging_plan_page_says_only_the_validation_share_is_sent(client):
    world = make_nli_project(slug="nli")
    share = world.project.settings["validation_percent"]

    html = _page(client, world.admin, reverse("judging_plan", args=["nli"]))

    assert _text(html, "plan-rule").startswith(
        f"{share}% of the approved items, drawn with seed {world.project.plan_seed}, go to m = 2 validators"
    )
    assert "Every approved item" not in html
