"""The open-ended check (Putri et al. 2024, Section 7.1): a run asks the csqa questions without options,
reviewers judge each reply in a queue, and the report puts the judged accuracy beside the
multiple-choice accuracy of the same items."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.test import Client

from annotation.errors import InvalidInput
from annotation.models import Membership
from evaluation.benchmarks.report import benchmark_report
from evaluation.models import Call, Prediction, Run
from evaluation.services.runs import run_create
from tests.evaluation.benchmarks.world import choice_project, label_project
from tests.evaluation.helpers import make_endpoint
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
HANDLER = "tests.evaluation.benchmarks.script:reply"


@pytest.fixture
def alpha(llm_server, eager_tasks):
    llm_server.configure(handler=HANDLER)
    return make_endpoint(llm_server, name="alpha", model="alpha-model")


def _client(project, role: str) -> tuple[Client, object]:
    user = UserFactory()
    Membership.objects.create(project=project, user=user, role=role, code=f"{role[:3]}{user.pk}")
    client = Client()
    client.force_login(user)
    return client, user


def _open_run(project, endpoint) -> Run:
    return run_create(kind="benchmark", endpoints=[endpoint], project=project, parameters={"open_ended": True})


def _state(run: Run) -> list[tuple]:
    return list(
        Prediction.objects.filter(run=run)
        .order_by("id")
        .values_list("pk", "parsed", "correct", "rule", "judged_correct", "judged_by_id")
    )


def test_an_open_ended_run_asks_the_question_alone_and_stores_replies_unjudged(alpha):
    project, items = choice_project()

    run = _open_run(project, alpha)

    call = Call.objects.get(run=run, unit_key=f"item{items[0].pk}")
    assert call.request["messages"] == [{"role": "user", "content": "Apa jawaban soal1?"}]
    assert run.parameters["template_texts"] == {"open_ended": "{{ question }}"}
    rows = list(Prediction.objects.filter(run=run).order_by("item_id").values_list("reply", "parsed", "rule"))
    assert rows == [
        ("A", False, "awaiting_judgment"),
        ("Jawaban: B", False, "awaiting_judgment"),
        ("C.", False, "awaiting_judgment"),
        ("Saya tidak tahu.", False, "awaiting_judgment"),
        ("**E**", False, "awaiting_judgment"),
    ]
    report = benchmark_report(run=run)
    assert (report["predictions"], report["parsed"], report["open_ended_run"]) == (5, 0, True)
    assert {k: report["open_ended"][k] for k in ("judged", "unjudged", "items", "multiple_choice")} == {
        "judged": 0,
        "unjudged": 5,
        "items": 0,
        "multiple_choice": None,
    }


def test_refusals_of_open_ended_options(alpha):
    project, _items = choice_project()
    nli, _ = label_project()

    for target, parameters, message in (
        (project, {"templates": ["open_ended"]}, "asks without options"),
        (project, {"open_ended": True, "mode": "likelihood"}, "use chat mode"),
        (nli, {"open_ended": True}, "no open-ended template"),
    ):
        with pytest.raises(InvalidInput) as refused:
            run_create(kind="benchmark", endpoints=[alpha], project=target, parameters=parameters)
        assert message in refused.value.message
    assert (Run.objects.count(), Prediction.objects.count()) == (0, 0)


def test_a_reviewer_judges_the_queue_and_the_report_compares_with_multiple_choice(alpha):
    project, items = choice_project()
    open_run = _open_run(project, alpha)
    mc_run = run_create(
        kind="benchmark", endpoints=[alpha], project=project, parameters={"templates": ["question_choices"]}
    )
    reviewer, user = _client(project, "reviewer")
    url = f"/p/{project.slug}/benchmarks/{open_run.pk}/judge/"
    first = Prediction.objects.filter(run=open_run).order_by("id").first()

    page = reviewer.get(url)
    html = page.content.decode()
    assert page.status_code == 200
    assert 'id="judge-counts">0 of 5 replies judged.' in html
    assert f'data-prediction="{first.pk}"' in html
    assert '<p id="judge-question" dir="auto">Apa jawaban ' in html
    item_key = {item.pk: f"soal{n + 1}" for n, item in enumerate(items)}[first.item_id]
    assert f'<p id="judge-gold" dir="auto">{first.gold}. pilihan {item_key} {first.gold}</p>' in html

    # soal1 "A" correct, soal2 "Jawaban: B" incorrect, soal3 "C." incorrect; soal4 and soal5 left.
    verdicts = {items[0].pk: "correct", items[1].pk: "incorrect", items[2].pk: "incorrect"}
    for item_id, verdict in verdicts.items():
        shown = Prediction.objects.get(run=open_run, item_id=item_id)
        answered = reviewer.post(url, {"prediction": shown.pk, "verdict": verdict})
        assert (answered.status_code, answered["Location"]) == (302, url)
    assert 'id="judge-counts">3 of 5 replies judged.' in reviewer.get(url).content.decode()
    judged = Prediction.objects.filter(run=open_run, judged_correct__isnull=False)
    assert sorted(judged.values_list("item_id", "judged_correct", "judged_by_id", "parsed", "correct", "rule")) == [
        (items[0].pk, True, user.pk, True, True, "judged"),
        (items[1].pk, False, user.pk, True, False, "judged"),
        (items[2].pk, False, user.pk, True, False, "judged"),
    ]

    out = io.StringIO()
    call_command("benchmark", "report", str(open_run.pk), "--json", "--multiple-choice", str(mc_run.pk), stdout=out)
    report = json.loads(out.getvalue())
    section = report["open_ended"]

    # open-ended: 1 of 3 judged right; multiple choice on the same three items: soal1, soal2 right, soal3 wrong.
    assert (section["judged"], section["unjudged"], section["items"], section["multiple_choice_items"]) == (3, 2, 3, 3)
    assert (section["accuracy"]["accuracy"], section["accuracy"]["n"]) == (1 / 3, 3)
    assert (section["multiple_choice"]["accuracy"], section["multiple_choice"]["n"]) == (2 / 3, 3)
    assert section["multiple_choice_run"] == mc_run.pk
    alpha_row = section["by_endpoint"]["alpha"]
    assert (alpha_row["open_ended"]["accuracy"], alpha_row["multiple_choice"]["accuracy"]) == (1 / 3, 2 / 3)
    # the run's own figures read a verdict like an extracted answer; unjudged replies are listed
    assert (report["predictions"], report["parsed"], report["accuracy"]) == (5, 3, 0.2)
    assert sorted(u["item"] for u in report["unparsed"]) == [items[3].pk, items[4].pk]

    # Finishing the queue: the page says so.
    for shown in Prediction.objects.filter(run=open_run, judged_correct__isnull=True):
        reviewer.post(url, {"prediction": shown.pk, "verdict": "correct"})
    assert 'id="judge-done"' in reviewer.get(url).content.decode()


def test_judging_refusals_change_nothing(alpha):
    project, _items = choice_project()
    other, _ = choice_project(slug="bench-other")
    open_run = _open_run(project, alpha)
    mc_run = run_create(kind="benchmark", endpoints=[alpha], project=project, parameters={"templates": ["helm"]})
    url = f"/p/{project.slug}/benchmarks/{open_run.pk}/judge/"
    first = Prediction.objects.filter(run=open_run).order_by("id").first()
    reviewer, _user = _client(project, "reviewer")
    annotator, _ = _client(project, "annotator")
    outsider, _ = _client(other, "admin")
    before = _state(open_run)

    assert annotator.get(url).status_code == 404
    assert annotator.post(url, {"prediction": first.pk, "verdict": "correct"}).status_code == 404
    assert outsider.get(url).status_code == 404
    assert outsider.post(url, {"prediction": first.pk, "verdict": "correct"}).status_code == 404
    assert outsider.get(f"/p/{other.slug}/benchmarks/{open_run.pk}/judge/").status_code == 404
    assert reviewer.get(f"/p/{project.slug}/benchmarks/{mc_run.pk}/judge/").status_code == 404
    mc_prediction = Prediction.objects.filter(run=mc_run).first()
    wrong_run = reviewer.post(url, {"prediction": mc_prediction.pk, "verdict": "correct"})
    assert wrong_run.status_code == 400 and "not part of the run" in wrong_run.content.decode()
    assert reviewer.post(url, {"prediction": first.pk, "verdict": "maybe"}).status_code == 400
    csrf = Client(enforce_csrf_checks=True)
    csrf.force_login(_user)
    assert csrf.post(url, {"prediction": first.pk, "verdict": "correct"}).status_code == 403
    assert _state(open_run) == before

    assert reviewer.post(url, {"prediction": first.pk, "verdict": "correct"}).status_code == 302
    after_first = _state(open_run)
    again = reviewer.post(url, {"prediction": first.pk, "verdict": "incorrect"})
    assert again.status_code == 409 and "already been judged" in again.content.decode()
    assert _state(open_run) == after_first
    assert Prediction.objects.get(pk=mc_prediction.pk).judged_correct is None
