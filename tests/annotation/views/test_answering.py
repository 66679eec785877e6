"""Cross-answering pages: the admin's plan and overview, the annotator's queue and answering form."""

import dataclasses
import re

import pytest
from django.db.models import Model
from django.urls import reverse

from annotation.models import Assignment, Judgment
from annotation.services.judging import judging_plan
from annotation.services.judgments import judgment_record
from annotation.task_types.csqa.judging import AnswerQuestion
from qc.models import GoldDecision
from tests.annotation.task_types.csqa.world import CHOICES, QUESTIONS, make_world
from tests.annotation.views.helpers import db_snapshot

pytestmark = pytest.mark.django_db

CLEAR = [False] * 5


def snapshot():
    return db_snapshot(), list(GoldDecision.objects.order_by("pk").values())


@pytest.fixture
def world():
    return make_world()


@pytest.fixture
def planned(world):
    judging_plan(project=world.project)
    return world


def _assignment(world, user, item_index):
    return Assignment.objects.get(user=user, kind="answer", target_item=world.items[item_index])


def _url(world, assignment):
    return reverse("answer_item", args=[world.project.slug, assignment.pk])


def _post(answer="", *, uncertain=False, question=False, options=(), comment=""):
    data = {"answer": answer, "comment": comment, "option_ambiguous": list(options)}
    if uncertain:
        data["uncertain"] = "on"
    if question:
        data["question_ambiguous"] = "on"
    return data


# --- the admin's page ---------------------------------------------------------------------------


def test_crossanswer_page_shows_counts_then_plans_and_shows_the_summary(world, client):
    client.force_login(world.admin)
    url = reverse("judging_plan", args=["xa"])

    before = client.get(url)
    planned = client.post(url)
    after = client.get(url)

    html = before.content.decode()
    assert before.status_code == 200
    assert '<td id="items-total">4</td>' in html
    assert '<td id="items-planned">0</td>' in html
    assert '<td id="answered-0">4</td>' in html
    assert '<td id="planned-0">4</td>' in html
    assert '<td id="planned-3">0</td>' in html
    assert (planned.status_code, planned.url) == (302, url)
    html = after.content.decode()
    assert (
        "Cross-answering planned: 4 items for 4 annotators; 12 assignments created, 0 re-activated, "
        "0 moved from annotators who left." in html
    )
    assert '<td id="items-planned">4</td>' in html
    assert '<td id="items-complete">0</td>' in html
    assert '<td id="planned-0">0</td>' in html
    assert '<td id="planned-3">4</td>' in html
    assert '<td id="answered-0">4</td>' in html
    for code in ("W1", "W2", "W3", "W4"):
        assert f'<th scope="row" dir="auto">{code}</th><td>3</td><td>0</td><td>0</td><td>0</td>' in html
    assert Assignment.objects.filter(project=world.project, kind="answer").count() == 12


def test_crossanswer_page_counts_answers_per_item(planned, client):
    w1, w2, w3, w4 = planned.people
    for user in (w2, w3, w4):
        judgment_record(assignment_id=_assignment(planned, user, 0).pk, user=user, data={"answer": "A"})
    judgment_record(assignment_id=_assignment(planned, w1, 1).pk, user=w1, data={"answer": "B"})
    client.force_login(planned.admin)

    html = client.get(reverse("judging_plan", args=["xa"])).content.decode()

    assert '<td id="answered-0">2</td>' in html
    assert '<td id="answered-1">1</td>' in html
    assert '<td id="answered-3">1</td>' in html
    assert '<td id="items-complete">1</td>' in html
    assert '<td id="status-gold">1</td>' in html  # three of three answered A: its gold decision is gold
    assert '<td id="status-approved">3</td>' in html
    assert '<th scope="row" dir="auto">W1</th><td>2</td><td>0</td><td>1</td><td>0</td>' in html


def test_planning_that_cannot_be_done_is_refused_and_changes_nothing(world, client):
    world.project.settings = {
        **world.project.settings,
        "answerers_per_item": 4,
    }  # 4 annotators: never 4 besides the author
    world.project.save(update_fields=["settings"])
    client.force_login(world.admin)
    before = snapshot()

    response = client.post(reverse("judging_plan", args=["xa"]), follow=True)

    html = response.content.decode()
    assert (
        '<li class="message error" role="alert" dir="auto">Cross-answering needs at least 5 active annotators '
        "(4 answerers per item besides its author); the project has 4.</li>" in html
    )
    assert snapshot() == before


@pytest.mark.parametrize("who", ["reviewer", "annotator"])
def test_crossanswer_page_is_for_admins_only(world, client, who):
    client.force_login(world.reviewer if who == "reviewer" else world.people[0])
    before = snapshot()

    answers = [
        client.get(reverse("judging_plan", args=["xa"])),
        client.post(reverse("judging_plan", args=["xa"])),
        client.get("/p/xa/crossanswer/"),  # the older address tells them no more
        client.post("/p/xa/crossanswer/"),
    ]

    assert [r.status_code for r in answers] == [404, 404, 404, 404]
    assert snapshot() == before


def test_the_plans_older_address_sends_the_admin_on_for_good(world, client):
    client.force_login(world.admin)
    before = snapshot()

    shown = client.get("/p/xa/crossanswer/")
    posted = client.post("/p/xa/crossanswer/")

    # 308 keeps the POST a POST: a plan sent to the old address is not lost to a GET.
    assert [(r.status_code, r["Location"]) for r in (shown, posted)] == [
        (301, "/p/xa/judging/plan/"),
        (308, "/p/xa/judging/plan/"),
    ]
    assert snapshot() == before


# --- the annotator's queue ----------------------------------------------------------------------


def test_queue_claims_the_first_answer_assignment_and_resumes_it(planned, client):
    w2 = planned.people[1]
    client.force_login(w2)
    first = Assignment.objects.filter(user=w2, kind="answer").order_by("position", "id").first()

    response = client.get(reverse("answer_queue", args=["xa"]))
    again = client.get(reverse("answer_queue", args=["xa"]))

    assert (response.status_code, response.url) == (302, _url(planned, first))
    assert again.url == response.url
    first.refresh_from_db()
    assert first.status == "active"
    assert Assignment.objects.filter(user=w2, kind="answer", status="active").count() == 1


def test_queue_without_planned_work_says_so(world, client):
    client.force_login(world.people[0])

    response = client.get(reverse("answer_queue", args=["xa"]))

    html = response.content.decode()
    assert response.status_code == 200
    assert "<h1>Nothing to answer yet</h1>" in html
    assert '<p class="progress-count" id="answer-progress-count">0 of 0</p>' in html


def test_reviewers_and_admins_have_no_answering_queue(planned, client):
    for user in (planned.reviewer, planned.admin):
        client.force_login(user)
        assert client.get(reverse("answer_queue", args=["xa"])).status_code == 404
        assert client.get(_url(planned, _assignment(planned, planned.people[1], 0))).status_code == 404


# --- the answering page -------------------------------------------------------------------------


def _flatten(value, seen=None):
    """Every object reachable from a template context value (dicts, lists, dataclasses)."""
    seen = seen if seen is not None else set()
    if id(value) in seen:
        return
    seen.add(id(value))
    yield value
    if isinstance(value, dict):
        for v in value.values():
            yield from _flatten(v, seen)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _flatten(v, seen)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _flatten(getattr(value, f.name), seen)


def test_answer_page_shows_question_and_options_with_keys_and_nothing_else(planned, client):
    w1, w2, w3, _ = planned.people
    item = planned.items[2]  # written by W3, author's answer C
    judgment_record(
        assignment_id=_assignment(planned, w2, 2).pk, user=w2, data={"answer": "D", "comment": "rahasia-W2"}
    )
    client.force_login(w1)

    response = client.get(_url(planned, _assignment(planned, w1, 2)))

    html = response.content.decode()
    assert response.status_code == 200
    assert f'<p class="answer-question" id="question" dir="auto">{QUESTIONS[2]}</p>' in html
    for n, (label, text) in enumerate(zip("ABCDE", CHOICES[2], strict=True), start=1):
        assert f'<label class="answer-option" for="id_answer_{n - 1}" data-hotkey="{label.lower()}">' in html
        assert f'value="{label}" id="id_answer_{n - 1}"\n                 data-hotkey="{n}">' in html
        assert f'<span class="answer-text" dir="auto">{text}</span>' in html
        assert f'<span class="answer-keys"><kbd>{n}</kbd> / <kbd>{label}</kbd></span>' in html
        assert f'data-option-flag="{n}">' in html
    assert 'data-hotkey="u">' in html
    assert 'data-hotkey="q">' in html
    assert (
        '<textarea name="comment" cols="40" rows="3" dir="ltr" autocomplete="off" maxlength="5000" lang="id" '
        'id="id_comment">' in html
    )
    assert '<p class="progress-count" id="answer-progress-count">0 of 3</p>' in html
    # Nothing about the author's answer or W2's judgment: no checked option, no "correct", no comment.
    # CSRF tokens are random letters and digits and may spell "W2" by chance: leave them out.
    text = re.sub(r'(csrfmiddlewaretoken" value="|X-CSRFToken": ")[A-Za-z0-9]+', r"\1", html)
    assert "checked" not in text
    assert "correct" not in text
    assert "rahasia-W2" not in text
    assert "W2" not in text
    reachable = [v for ctx in response.context for d in ctx.dicts for v in _flatten(d)]
    assert not any(
        isinstance(v, Model) and v._meta.model_name in {"item", "itemversion", "judgment"} for v in reachable
    )
    assert not any(isinstance(v, dict) and ("answer" in v or "payload" in v) for v in reachable)
    questions = {id(v): v for v in reachable if isinstance(v, AnswerQuestion)}
    assert list(questions.values()) == [
        AnswerQuestion(item_id=item.pk, category="culinary", question=QUESTIONS[2], choices=CHOICES[2], is_own=False)
    ]


def test_answer_is_saved_and_the_next_question_opens(planned, client):
    w1 = planned.people[0]
    client.force_login(w1)
    first = client.get(reverse("answer_queue", args=["xa"])).url
    assignment = Assignment.objects.get(user=w1, status="active")

    response = client.post(
        first, _post("B", uncertain=True, options=["C", "E"], comment="  Bisa juga C  "), follow=True
    )

    judgment = Judgment.objects.get(user=w1)
    assert (judgment.item_id, judgment.value, judgment.flags, judgment.comment) == (
        assignment.target_item_id,
        {"answer": "B"},
        {"uncertain": True, "question_ambiguous": False, "option_ambiguous": [False, False, True, False, True]},
        "Bisa juga C",
    )
    assignment.refresh_from_db()
    assert assignment.status == "done"
    following = Assignment.objects.get(user=w1, status="active")
    assert following.pk != assignment.pk
    assert [url for url, _ in response.redirect_chain] == [
        reverse("answer_queue", args=["xa"]) + "?saved=1",
        _url(planned, following),
    ]
    html = response.content.decode()
    assert "Answer saved. Here is the next question." in html
    assert '<p class="progress-count" id="answer-progress-count">1 of 3</p>' in html


def test_after_the_last_answer_the_queue_says_all_done(planned, client):
    w4 = planned.people[3]
    client.force_login(w4)
    for _ in range(3):
        url = client.get(reverse("answer_queue", args=["xa"])).url
        assert client.post(url, _post("A")).status_code == 302

    response = client.get(reverse("answer_queue", args=["xa"]))

    html = response.content.decode()
    assert response.status_code == 200
    assert '<strong id="overall-progress">3 of 3</strong>' in html
    assert Judgment.objects.filter(user=w4).count() == 3


def test_answer_without_an_option_is_refused_and_changes_nothing(planned, client):
    w1 = planned.people[0]
    assignment = _assignment(planned, w1, 1)
    client.force_login(w1)
    before = snapshot()

    response = client.post(_url(planned, assignment), _post("", uncertain=True, comment="lupa"))

    html = response.content.decode()
    assert response.status_code == 400
    assert '<p class="error" role="alert" dir="auto">Choose one of the options A-E.</p>' in html
    assert "The answer can&#x27;t be saved yet." in html
    # What was typed stays in the form.
    assert 'id="id_uncertain" data-hotkey="u" checked>' in html
    assert ' id="id_comment">\nlupa</textarea>' in html
    assert snapshot() == before


def test_another_users_assignment_is_404_and_changes_nothing(planned, client):
    w1, w2 = planned.people[0], planned.people[1]
    theirs = _assignment(planned, w2, 0)
    client.force_login(w1)
    before = snapshot()

    answers = [client.get(_url(planned, theirs)), client.post(_url(planned, theirs), _post("A"))]

    assert [r.status_code for r in answers] == [404, 404]
    assert snapshot() == before


def test_answering_ones_own_item_is_refused_and_changes_nothing(planned, client):
    """The planner never does this, and the database refuses it when the author is recorded; an
    assignment without the recorded author (e.g. written by hand) is still refused by the service."""
    w1 = planned.people[0]
    own = Assignment.objects.create(
        project=planned.project, user=w1, kind="answer", target_item=planned.items[0], target_author=None
    )
    client.force_login(w1)
    before = snapshot()

    page = client.get(_url(planned, own))
    refused = client.post(_url(planned, own), _post("A"))

    assert page.status_code == 200
    assert "This is your own question: you can't answer it." in page.content.decode()
    assert 'id="answer-form"' not in page.content.decode()
    assert refused.status_code == 403
    assert "You can&#x27;t answer your own item." in refused.content.decode()
    assert snapshot() == before


def test_a_cancelled_assignment_is_refused_and_changes_nothing(planned, client):
    w1 = planned.people[0]
    assignment = _assignment(planned, w1, 1)
    Assignment.objects.filter(pk=assignment.pk).update(status="cancelled")
    client.force_login(w1)
    before = snapshot()

    page = client.get(_url(planned, assignment))
    refused = client.post(_url(planned, assignment), _post("B"))

    assert "This assignment was cancelled." in page.content.decode()
    assert refused.status_code == 409
    assert "This assignment was cancelled; open your queue for the next one." in refused.content.decode()
    assert snapshot() == before


def test_own_earlier_answer_is_shown_to_change_it(planned, client):
    w1 = planned.people[0]
    assignment = _assignment(planned, w1, 1)
    judgment_record(
        assignment_id=assignment.pk,
        user=w1,
        data={"answer": "C", "question_ambiguous": True, "option_ambiguous": [True, False, False, False, False]},
    )
    client.force_login(w1)

    html = client.get(_url(planned, assignment)).content.decode()
    changed = client.post(_url(planned, assignment), _post("D"))

    assert 'value="C" id="id_answer_2"\n                 data-hotkey="3" checked>' in html
    assert 'data-option-flag="1" checked>' in html
    assert 'id="id_question_ambiguous" data-hotkey="q" checked>' in html
    assert html.count("checked") == 3
    assert "You answered this one; submitting again changes your answer." in html
    assert changed.status_code == 302
    assert list(Judgment.objects.filter(user=w1).values_list("value", "flags")) == [
        ({"answer": "D"}, {"uncertain": False, "question_ambiguous": False, "option_ambiguous": CLEAR})
    ]


def test_answer_pages_of_another_project_are_404(planned, client):
    from tests.annotation.task_types.csqa.world import make_world as other_world

    other = other_world(slug="other")
    judging_plan(project=other.project)
    theirs = Assignment.objects.filter(project=other.project, kind="answer").first()
    client.force_login(planned.people[0])
    before = snapshot()

    answers = [
        client.get(reverse("answer_queue", args=["other"])),
        client.get(reverse("answer_item", args=["other", theirs.pk])),
        client.post(reverse("answer_item", args=["other", theirs.pk]), _post("A")),
        # Through my own project's address: still not mine.
        client.get(reverse("answer_item", args=["xa", theirs.pk])),
        client.post(reverse("answer_item", args=["xa", theirs.pk]), _post("A")),
    ]

    assert [r.status_code for r in answers] == [404] * 5
    assert snapshot() == before


def test_project_page_links_to_the_pages_of_each_role(planned, client):
    pages = {}
    for who, user in [("annotator", planned.people[0]), ("reviewer", planned.reviewer), ("admin", planned.admin)]:
        client.force_login(user)
        pages[who] = client.get(reverse("project_detail", args=["xa"])).content.decode()

    answer_link = 'id="stage-judging-judge_queue" href="/p/xa/judge/"'
    admin_links = ['href="/p/xa/judging/plan/"', 'href="/p/xa/import/"', 'href="/p/xa/export/"']
    assert answer_link in pages["annotator"]
    assert 'href="/p/xa/report/"' not in pages["annotator"]
    assert 'id="stage-gold-report_page" href="/p/xa/report/"' in pages["reviewer"]
    assert not any(link in pages["reviewer"] for link in admin_links)
    assert all(link in pages["admin"] for link in admin_links)
    assert answer_link not in pages["admin"]


def test_the_unsure_checkbox_says_what_ticking_it_means_and_never_reads_certain(planned, client):
    w2 = planned.people[1]
    client.force_login(w2)
    first = Assignment.objects.filter(user=w2, kind="answer").order_by("position", "id").first()

    html = client.get(_url(planned, first)).content.decode()

    label = html[
        html.index('<label class="toggle" for="id_uncertain">') : html.index("</label>", html.index("id_uncertain"))
    ]
    assert "Not sure: my answer may not be the one most people would give" in label
    assert '<span class="when-uncertain">(marked unsure)</span> <kbd>U</kbd>' in label
    assert "Certain" not in label
