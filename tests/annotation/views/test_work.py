"""Pages of "work is never lost": autosave, skip with a reason, the admin's skip list, Previous / undo."""

import re
import zoneinfo

import pytest
from django.urls import reverse
from django.utils import timezone

from annotation.models import Assignment, Judgment, Skip, UserPreferences, WorkDraft
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.drafts import work_draft_save
from annotation.services.items import item_submit
from annotation.services.judging import judging_plan
from annotation.services.judgments import judgment_record
from annotation.services.skips import assignment_skip
from qc.models import GoldDecision
from tests.annotation.views.helpers import db_snapshot
from tests.conftest import VALID_PAYLOAD
from tests.qc.helpers import make_item, make_project

pytestmark = pytest.mark.django_db


@pytest.fixture
def planned(csqa):
    assignment_plan_authoring(project=csqa.project)
    return csqa


def first_of(user):
    return Assignment.objects.filter(user=user, kind="author").order_by("position", "id").first()


def draft_url(assignment):
    return reverse("author_draft_save", args=["demo", assignment.pk])


def author_url(assignment):
    return reverse("author_item", args=["demo", assignment.pk])


# --- autosave -----------------------------------------------------------------------------------


def test_autosave_keeps_the_fields_and_answers_the_time_in_the_users_zone(planned, client):
    annotator = planned.annotators[0]
    UserPreferences.objects.create(user=annotator, time_zone="Asia/Jakarta")
    assignment = first_of(annotator)
    client.force_login(annotator)

    response = client.post(draft_url(assignment), {"question": "Kapan orang", "choice_a": "Pagi", "action": "save"})

    draft = WorkDraft.objects.get()
    jakarta = timezone.localtime(draft.saved_at, zoneinfo.ZoneInfo("Asia/Jakarta"))
    assert response.status_code == 200
    assert response.json() == {"saved_at": draft.saved_at.isoformat(), "time": f"{jakarta:%H:%M}"}
    assert (draft.assignment_id, draft.fields) == (assignment.pk, {"question": "Kapan orang", "choice_a": "Pagi"})


def test_the_draft_comes_back_into_the_form_with_its_time(planned, client):
    annotator = planned.annotators[0]
    UserPreferences.objects.create(user=annotator, time_zone="Asia/Jakarta")
    assignment = first_of(annotator)
    draft = work_draft_save(
        assignment_id=assignment.pk, user=annotator, fields={"question": "Kapan <b>orang</b>", "answer": "C"}
    )
    client.force_login(annotator)

    html = client.get(author_url(assignment)).content.decode()

    jakarta = timezone.localtime(draft.saved_at, zoneinfo.ZoneInfo("Asia/Jakarta"))
    assert "Kapan &lt;b&gt;orang&lt;/b&gt;</textarea>" in html
    assert re.search(r'value="C" id="id_answer_2"\s+data-hotkey="3" checked>', html)
    assert html.count(" checked>") == 1
    assert f'id="autosave-status" role="status" aria-live="polite">Draft saved at {jakarta:%H:%M}</span>' in html
    assert f'data-autosave-url="{draft_url(assignment)}"' in html
    assert 'data-autosave-saved="Draft saved at {time}"' in html
    assert "js/autosave" in html


def test_another_annotator_gets_404_for_a_draft_and_nothing_changes(planned, client):
    owner, other, _ = planned.annotators
    assignment = first_of(owner)
    work_draft_save(assignment_id=assignment.pk, user=owner, fields={"question": "punyaku"})
    client.force_login(other)
    before = list(WorkDraft.objects.values())

    posted = client.post(draft_url(assignment), {"question": "bukan punyamu"})
    page = client.get(author_url(assignment))

    assert (posted.status_code, page.status_code) == (404, 404)
    assert list(WorkDraft.objects.values()) == before


def test_staff_and_outsiders_get_404_for_a_draft(planned, other_project, client):
    assignment = first_of(planned.annotators[0])
    answers = []
    for user in (planned.admin, planned.reviewer, other_project.annotators[0]):
        client.force_login(user)
        answers.append(client.post(draft_url(assignment), {"question": "x"}).status_code)

    assert answers == [404, 404, 404]
    assert not WorkDraft.objects.exists()


def test_a_late_autosave_after_submit_is_refused_and_never_shown(planned, client):
    annotator = planned.annotators[0]
    assignment = first_of(annotator)
    item_submit(assignment_id=assignment.pk, user=annotator, data=VALID_PAYLOAD)
    client.force_login(annotator)

    response = client.post(draft_url(assignment), {"question": "beacon after submit"})

    assert response.status_code == 409
    assert response.json() == {"error": "This work is already submitted; a draft can't replace it."}
    assert not WorkDraft.objects.exists()
    assert "beacon after submit" not in client.get(author_url(assignment)).content.decode()


def test_submitting_from_the_page_clears_the_draft(planned, client):
    annotator = planned.annotators[0]
    assignment = first_of(annotator)
    work_draft_save(assignment_id=assignment.pk, user=annotator, fields={"question": "Kapan"})
    client.force_login(annotator)
    data = {
        "question": VALID_PAYLOAD["question"],
        **{f"choice_{label}": text for label, text in zip("abcde", VALID_PAYLOAD["choices"], strict=True)},
        "answer": "A",
        "action": "submit",
    }

    response = client.post(author_url(assignment), data)

    assert response.status_code == 302
    assert not WorkDraft.objects.exists()


def test_author_page_queries_do_not_grow_with_a_draft(planned, client, django_assert_max_num_queries):
    annotator = planned.annotators[0]
    assignment = first_of(annotator)
    client.force_login(annotator)
    client.get(author_url(assignment))
    work_draft_save(assignment_id=assignment.pk, user=annotator, fields={"question": "Kapan"})

    with django_assert_max_num_queries(30):
        response = client.get(author_url(assignment))

    assert response.status_code == 200


# --- skip ---------------------------------------------------------------------------------------


def test_skip_from_the_authoring_page_records_the_reason_and_opens_the_next_one(planned, client):
    annotator = planned.annotators[0]
    assignment = first_of(annotator)
    client.force_login(annotator)
    page = client.get(author_url(assignment)).content.decode()

    response = client.post(
        reverse("assignment_skip", args=["demo", assignment.pk]),
        {"reason": "unknown_concept", "note": "Tidak kenal", "queue": "author_queue"},
    )

    assert 'id="skip-form"' in page
    assert "I don&#x27;t know this concept" in page
    assert (response.status_code, response.url) == (302, reverse("author_queue", args=["demo"]))
    skip = Skip.objects.get()
    assert (skip.assignment_id, skip.reason, skip.note) == (assignment.pk, "unknown_concept", "Tidak kenal")
    nxt = client.get(response.url)
    assert nxt.url != author_url(assignment)


def test_skip_without_a_reason_or_of_someone_elses_work_changes_nothing(planned, client):
    owner, other, _ = planned.annotators
    assignment = first_of(owner)
    url = reverse("assignment_skip", args=["demo", assignment.pk])
    before = list(Assignment.objects.order_by("pk").values())

    client.force_login(owner)
    no_reason = client.post(url, {"note": "x"})
    client.force_login(other)
    not_mine = client.post(url, {"reason": "other"})

    assert no_reason.status_code == 302
    assert not_mine.status_code == 404
    assert list(Assignment.objects.order_by("pk").values()) == before
    assert not Skip.objects.exists()


def test_the_admin_sees_the_skips_and_no_one_else_does(planned, client):
    annotator = planned.annotators[0]
    assignment = first_of(annotator)
    assignment_skip(assignment_id=assignment.pk, user=annotator, reason="unsuitable", note="Terlalu <umum>")
    url = reverse("project_skips", args=["demo"])
    answers = {}
    for who in (annotator, planned.reviewer):
        client.force_login(who)
        answers[who.username] = client.get(url).status_code
    client.force_login(planned.admin)

    html = client.get(url).content.decode()
    project_page = client.get(reverse("project_detail", args=["demo"])).content.decode()

    assert answers == {annotator.username: 404, planned.reviewer.username: 404}
    assert f"<td>{annotator.username}</td>" in html
    assert f"{assignment.concept.category.name} · {assignment.concept.name}" in html
    assert '<td class="skip-reason-unsuitable">Concept unsuitable</td>' in html
    assert "Terlalu &lt;umum&gt;" in html
    assert 'id="open-skips" href="/p/demo/skips/"' in project_page


def test_the_skip_list_takes_the_same_queries_for_many_skips(planned, client, django_assert_num_queries):
    client.force_login(planned.admin)
    url = reverse("project_skips", args=["demo"])
    a1, a2, _ = planned.annotators
    assignment_skip(assignment_id=first_of(a1).pk, user=a1, reason="other")
    client.get(url)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as one:
        client.get(url)
    for assignment in Assignment.objects.filter(user=a2, status="pending").order_by("position")[:3]:
        assignment_skip(assignment_id=assignment.pk, user=a2, reason="unsuitable")

    with django_assert_num_queries(len(one)):
        html = client.get(url).content.decode()

    assert html.count('<tr id="skip-') == 4


# --- judging: skip and Previous / undo ------------------------------------------------------------


@pytest.fixture
def judging(db):
    project, people = make_project(slug="ju", annotators=4, m=3, threshold=3)
    items = [make_item(project, people[0], question=f"Apa {n}?") for n in range(2)]
    judging_plan(project=project)
    return project, people, items


def judge_url(assignment):
    return reverse("judge_item", args=["ju", assignment.pk])


def test_previous_links_to_the_last_answer_and_changes_it_while_undecided(judging, client):
    project, people, items = judging
    judge = people[1]
    first, second = (Assignment.objects.get(target_item=i, user=judge) for i in items)
    client.force_login(judge)
    client.post(judge_url(first), {"answer": "B", "option_ambiguous": []})

    nxt = client.get(judge_url(second)).content.decode()
    changed = client.post(judge_url(first), {"answer": "C", "option_ambiguous": []})

    assert f'id="previous-answer" href="{judge_url(first)}"' in nxt
    assert changed.status_code == 302
    assert list(Judgment.objects.filter(user=judge).values_list("value", flat=True)) == [{"answer": "C"}]


def test_undo_after_the_decision_is_refused_and_changes_nothing(judging, client):
    project, people, items = judging
    for user in people[1:]:
        assignment = Assignment.objects.get(target_item=items[0], user=user)
        judgment_record(assignment_id=assignment.pk, user=user, data={"answer": "A"})
    judge = people[1]
    assignment = Assignment.objects.get(target_item=items[0], user=judge)
    client.force_login(judge)
    before = (db_snapshot(), list(GoldDecision.objects.order_by("pk").values()))

    page = client.get(judge_url(assignment)).content.decode()
    refused = client.post(judge_url(assignment), {"answer": "D", "option_ambiguous": []})

    assert 'id="answer-locked" role="status">This item has been decided; your answer can no longer be changed.' in page
    assert 'id="submit-answer"' not in page
    assert 'fieldset class="answer-fields" disabled' in page
    assert refused.status_code == 409
    assert "This item has been decided; your answer can no longer be changed." in refused.content.decode()
    assert (db_snapshot(), list(GoldDecision.objects.order_by("pk").values())) == before


def test_skip_from_the_judging_page_goes_to_the_queue_of_its_family(judging, client):
    project, people, items = judging
    judge = people[1]
    assignment = Assignment.objects.get(target_item=items[0], user=judge)
    client.force_login(judge)
    page = client.get(reverse("answer_item", args=["ju", assignment.pk])).content.decode()

    response = client.post(
        reverse("assignment_skip", args=["ju", assignment.pk]), {"reason": "other", "queue": "answer_queue"}
    )

    assert '<input type="hidden" name="queue" value="answer_queue">' in page
    assert (response.status_code, response.url) == (302, reverse("answer_queue", args=["ju"]))
    assert Skip.objects.get().assignment_id == assignment.pk
    assignment.refresh_from_db()
    assert assignment.status == "cancelled"


def test_judging_page_queries_stay_constant_with_more_answers(judging, client, django_assert_num_queries):
    project, people, items = judging
    judge = people[1]
    first, second = (Assignment.objects.get(target_item=i, user=judge) for i in items)
    client.force_login(judge)
    client.get(judge_url(second))
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as fresh:
        client.get(judge_url(second))
    judgment_record(assignment_id=first.pk, user=judge, data={"answer": "A"})

    with django_assert_num_queries(len(fresh)):
        client.get(judge_url(second))
