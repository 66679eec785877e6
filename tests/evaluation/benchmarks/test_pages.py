"""The benchmark pages: start a benchmark from the page (as the CLI does), the leaderboard's exact
figures on the scripted run (tests/evaluation/benchmarks/world.py), the charts, the drill-down, the
downloads (CSV safe from formula injection), the comparison of two runs, escaping, permissions and a
query count that does not grow with the run."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from annotation.models import Membership
from evaluation.benchmarks import metrics
from evaluation.models import Prediction, Run
from evaluation.services.runs import run_create
from tests.evaluation.benchmarks.world import choice_project, label_project
from tests.evaluation.helpers import make_endpoint
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
HANDLER = "tests.evaluation.benchmarks.script:reply"


def pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def ci(values: list[bool]) -> str:
    row = metrics.summarise(values, seed=metrics.SEED)
    return f"{pct(row['ci_low'])} – {pct(row['ci_high'])}"


def _client(project, role: str) -> Client:
    user = UserFactory()
    Membership.objects.create(project=project, user=user, role=role)
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def world(llm_server, eager_tasks):
    llm_server.configure(handler=HANDLER)
    alpha = make_endpoint(llm_server, name="alpha", model="alpha-model")
    beta = make_endpoint(llm_server, name="beta", model="beta-model")
    project, items = choice_project()
    return project, items, alpha, beta


def _start(client: Client, slug: str, **fields) -> object:
    data = {
        "endpoints": ["alpha", "beta"],
        "templates": ["question_choices", "helm"],
        "gold_key": "author",
        "mode": "chat",
        "temperature": "0",
        "max_tokens": "32",
        **fields,
    }
    return client.post(f"/p/{slug}/benchmarks/", data)


def test_an_admin_starts_a_benchmark_from_the_page_and_lands_on_the_run(world):
    project, _items, _alpha, _beta = world
    admin = _client(project, "admin")

    page = admin.get("/p/bench-mc/benchmarks/").content.decode()
    response = _start(admin, "bench-mc", categories=["makanan"], system="Jawab dengan satu huruf.")

    run = Run.objects.get()
    assert 'value="question_choices"' in page and 'value="mmlu_concept"' in page and 'name="gold_key"' in page
    assert response.status_code == 302 and response.url == f"/p/bench-mc/runs/{run.pk}/"
    assert (run.kind, run.status, run.total, run.calls_done) == ("benchmark", "done", 12, 12)
    assert sorted(e.name for e in run.endpoints.all()) == ["alpha", "beta"]
    assert {k: run.parameters[k] for k in ("gold_key", "categories", "system", "temperature", "max_tokens")} == {
        "gold_key": "author",
        "categories": ["makanan"],
        "system": "Jawab dengan satu huruf.",
        "temperature": 0.0,
        "max_tokens": 32,
    }
    assert sorted(run.parameters["template_texts"]) == ["helm", "question_choices"]
    listed = admin.get("/p/bench-mc/benchmarks/").content.decode()
    assert f'href="/p/bench-mc/benchmarks/{run.pk}/"' in listed
    assert 'href="/p/bench-mc/benchmarks/"' in admin.get("/p/bench-mc/runs/").content.decode()


def test_a_refused_start_explains_itself_and_creates_nothing(world):
    project, _items, _alpha, _beta = world
    admin = _client(project, "admin")

    no_endpoint = _start(admin, "bench-mc", endpoints=[])
    completion_system = _start(admin, "bench-mc", mode="completion", system="Jawab.")
    open_completion = _start(admin, "bench-mc", templates=[], open_ended="on", mode="completion")

    assert no_endpoint.status_code == 400 and "This field is required." in no_endpoint.content.decode()
    assert completion_system.status_code == 400
    assert "A system prompt is for chat mode; a plain completion sends only the prompt." in (
        completion_system.content.decode()
    )
    assert open_completion.status_code == 400
    assert "An open-ended run asks for free replies: use chat mode." in open_completion.content.decode()
    assert Run.objects.count() == 0


def test_the_leaderboard_shows_the_scripted_runs_exact_figures(world):
    project, items, alpha, beta = world
    run = run_create(
        kind="benchmark",
        endpoints=[alpha, beta],
        project=project,
        parameters={"templates": ["question_choices", "helm"]},
    )
    reviewer = _client(project, "reviewer")

    html = reviewer.get(f"/p/bench-mc/benchmarks/{run.pk}/").content.decode()

    assert '<dd id="overall-accuracy">45.0%</dd>' in html
    assert f'<dd id="overall-ci">{ci([True] * 9 + [False] * 11)}</dd>' in html
    assert '<dd id="overall-predictions">20</dd>' in html and '<dd id="overall-parsed">18</dd>' in html
    alpha_row = [True] * 7 + [False] * 3
    alpha_html = f'<th scope="row">alpha</th><td>70.0%</td><td>{ci(alpha_row)}</td><td>10</td>'
    assert f'<tr data-endpoint="alpha">{alpha_html}' in html
    assert '<tr data-endpoint="beta"><th scope="row">beta</th><td>20.0%</td>' in html
    assert '<tr data-name="helm"><th scope="row" dir="auto">helm</th><td>50.0%</td>' in html
    assert '<tr data-name="question_choices"><th scope="row" dir="auto">question_choices</th><td>40.0%</td>' in html
    adat = [False, True] * 2 + [False] * 4
    assert f'<th scope="row" dir="auto">adat</th><td>25.0%</td><td>{ci(adat)}</td><td>8</td>' in html
    assert '<tr data-name="makanan"><th scope="row" dir="auto">makanan</th><td>58.3%</td>' in html
    # the human baseline: the answerers' majority against the author's key, 3 of 5
    assert '<dd id="human-baseline">60.0%' in html
    assert '<tr id="human-row"><th scope="row">humans</th><td>60.0%</td>' in html
    # the bar chart: one bar per model and the humans' bar, each with its figure in a title
    assert html.count('<g class="bar') == 3
    assert f"<title>alpha: 70.0% [{ci(alpha_row).replace(' – ', ', ')}], n=10</title>" in html
    assert 'width="280.0"' in html and 'width="80.0"' in html and 'width="240.0"' in html  # 400 px = 100%
    # the heatmap: category x model, numbers in titles and in the table
    cells = {
        ("adat", "alpha"): [False, False, True, True],
        ("adat", "beta"): [False] * 4,
        ("makanan", "alpha"): [True, True, True, True, False, True],
        ("makanan", "beta"): [True, True] + [False] * 4,
    }
    for (category, endpoint), values in cells.items():
        row = metrics.summarise(values, seed=metrics.SEED)
        figure = f"{pct(row['accuracy'])} [{pct(row['ci_low'])}, {pct(row['ci_high'])}], n={row['n']}"
        assert f"<title>{category} × {endpoint}: {figure}</title>" in html
    assert html.count('<g class="heat-cell">') == 4
    assert '<tr><th scope="row">adat</th><td>50.0% [' in html
    # the unparsed replies, each linked to its item
    assert "Unparsed replies (2)" in html
    assert html.count(f'href="/p/bench-mc/benchmarks/{run.pk}/items/{items[3].pk}/"') == 2


def test_the_nli_leaderboard_shows_the_validators_baseline(llm_server, eager_tasks):
    llm_server.configure(handler=HANDLER)
    endpoint = make_endpoint(llm_server, name="alpha", model="alpha-model")
    project, _items = label_project()
    run = run_create(kind="benchmark", endpoints=[endpoint], project=project, parameters={"templates": ["label_id"]})
    admin = _client(project, "admin")

    page = admin.get("/p/bench-label/benchmarks/").content.decode()
    html = admin.get(f"/p/bench-label/benchmarks/{run.pk}/").content.decode()

    assert 'name="gold_key"' not in page  # one gold key: nothing to choose
    assert '<dd id="overall-accuracy">50.0%</dd>' in html  # entailment right, contradiction right, 2 wrong
    # per pair, the validators' majority label (a tie counts as "entailment", report.py) against gold
    assert '<dd id="human-baseline">50.0% [0.0%, 100.0%], n=4 <span class="muted">(validators_majority)' in html


def test_the_drill_down_shows_prompt_reply_answer_and_gold(world):
    project, items, alpha, beta = world
    run = run_create(
        kind="benchmark", endpoints=[alpha, beta], project=project, parameters={"templates": ["question_choices"]}
    )
    reviewer = _client(project, "reviewer")

    html = reviewer.get(f"/p/bench-mc/benchmarks/{run.pk}/items/{items[2].pk}/").content.decode()

    assert '<dd id="item-gold">C</dd>' in html
    assert html.count('class="panel prediction"') == 2
    wrong = Prediction.objects.get(run=run, item=items[2], endpoint=alpha)
    section = html.split(f'id="prediction-{wrong.pk}"', 1)[1].split("</section>", 1)[0]
    assert "alpha · question_choices" in section and "wrong" in section
    assert '<dd class="prediction-answer">D</dd>' in section
    assert f'<dd class="prediction-rule">{wrong.rule}</dd>' in section
    assert "[user]\nQuestion: Apa jawaban soal3?\nChoices:\nA. pilihan soal3 A\n" in section  # the rendered prompt
    assert '<pre dir="auto" class="draft-text prediction-reply">The correct answer is D.</pre>' in section
    assert reviewer.get(f"/p/bench-mc/benchmarks/{run.pk}/items/999999/").status_code == 404


def test_hostile_replies_are_escaped_on_pages_and_neutralised_in_the_csv(llm_server, eager_tasks):
    llm_server.configure(
        replies=[
            {"match": "soal1?", "reply": '=HYPERLINK("http://evil.example","x")'},
            {"match": "soal2?", "reply": "<script>alert(1)</script> @SUM(A1)"},
        ]
    )
    endpoint = make_endpoint(llm_server, name="alpha", model="alpha-model")
    project, items = choice_project()
    run = run_create(
        kind="benchmark",
        endpoints=[endpoint],
        project=project,
        parameters={"templates": ["question_choices"], "items": [items[0].pk, items[1].pk]},
    )
    admin = _client(project, "admin")

    board = admin.get(f"/p/bench-mc/benchmarks/{run.pk}/").content.decode()
    item = admin.get(f"/p/bench-mc/benchmarks/{run.pk}/items/{items[1].pk}/").content.decode()
    response = admin.get(f"/p/bench-mc/benchmarks/{run.pk}/predictions.csv")
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    data = json.loads(admin.get(f"/p/bench-mc/benchmarks/{run.pk}/predictions.json").content)

    assert "<script>alert(1)" not in board and "&lt;script&gt;alert(1)&lt;/script&gt; @SUM(A1)" in board
    assert "<script>alert(1)" not in item and "&lt;script&gt;alert(1)&lt;/script&gt; @SUM(A1)" in item
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="bench-mc-benchmark-{run.pk}-predictions.csv"'
    assert rows[0] == [
        "item", "endpoint", "model", "template", "category", "source", "split",
        "gold", "answer", "parsed", "correct", "rule", "reply",
    ]  # fmt: skip
    assert [row[-1] for row in rows[1:]] == [
        '\'=HYPERLINK("http://evil.example","x")',
        "<script>alert(1)</script> @SUM(A1)",  # starts with "<": no formula
    ]
    assert [row[:4] for row in rows[1:]] == [
        [str(items[0].pk), "alpha", "alpha-model", "question_choices"],
        [str(items[1].pk), "alpha", "alpha-model", "question_choices"],
    ]
    assert [p["reply"] for p in data["predictions"]] == [
        '=HYPERLINK("http://evil.example","x")',
        "<script>alert(1)</script> @SUM(A1)",
    ]  # JSON keeps the raw reply
    assert (data["run"], len(data["predictions"]), data["predictions"][0]["gold"]) == (run.pk, 2, "A")


def test_comparing_two_runs_lists_the_items_whose_correctness_changed(world):
    project, items, alpha, _beta = world
    author = run_create(
        kind="benchmark", endpoints=[alpha], project=project, parameters={"templates": ["question_choices"]}
    )
    majority = run_create(
        kind="benchmark",
        endpoints=[alpha],
        project=project,
        parameters={"templates": ["question_choices"], "gold_key": "majority"},
    )
    reviewer = _client(project, "reviewer")

    html = reviewer.get(f"/p/bench-mc/benchmarks/compare/?a={author.pk}&b={majority.pk}").content.decode()

    # replies A, B, D, (unparsed), E against the author's A B C D E (3 right) and the majority's A C C D A (1)
    assert '<tr data-name="overall"><th scope="row">overall</th><td>60.0% (n=5)</td><td>20.0% (n=5)</td></tr>' in html
    assert "Changed items (2: 0 now right, 2 now wrong)" in html
    changed = html.split('id="compare-changes"', 1)[1]
    assert changed.count('<tr class="change">') == 2
    assert f'href="/p/bench-mc/benchmarks/{majority.pk}/items/{items[1].pk}/">{items[1].pk}</a>' in changed
    assert f'href="/p/bench-mc/benchmarks/{majority.pk}/items/{items[4].pk}/">{items[4].pk}</a>' in changed
    assert reviewer.get(f"/p/bench-mc/benchmarks/compare/?a={author.pk}&b=nope").status_code == 404


def test_who_may_see_and_start_benchmarks(world, llm_server):
    project, _items, alpha, _beta = world
    run = run_create(kind="benchmark", endpoints=[alpha], project=project, parameters={"templates": ["helm"]})
    other, _ = choice_project(slug="other-mc")
    theirs = run_create(kind="benchmark", endpoints=[alpha], project=other, parameters={"templates": ["helm"]})
    responses = run_create(kind="responses", endpoints=[alpha], project=project, parameters={"prompts": ["x"]})
    reviewer, annotator = _client(project, "reviewer"), _client(project, "annotator")
    admin = _client(project, "admin")
    before = Run.objects.count()

    reviewer_page = reviewer.get("/p/bench-mc/benchmarks/")
    reviewer_start = _start(reviewer, "bench-mc")
    urls = [
        "/p/bench-mc/benchmarks/",
        f"/p/bench-mc/benchmarks/{run.pk}/",
        f"/p/bench-mc/benchmarks/{run.pk}/predictions.csv",
        f"/p/bench-mc/benchmarks/compare/?a={run.pk}&b={run.pk}",
    ]

    assert reviewer_page.status_code == 200 and 'id="benchmark-start"' not in reviewer_page.content.decode()
    assert reviewer_start.status_code == 404
    assert [annotator.get(url).status_code for url in urls] == [404, 404, 404, 404]
    assert [reviewer.get(url).status_code for url in urls] == [200, 200, 200, 200]
    for foreign in (theirs.pk, responses.pk):  # another project's run, a run that is not a benchmark
        assert admin.get(f"/p/bench-mc/benchmarks/{foreign}/").status_code == 404
        assert admin.get(f"/p/bench-mc/benchmarks/{foreign}/predictions.json").status_code == 404
        assert admin.get(f"/p/bench-mc/benchmarks/compare/?a={run.pk}&b={foreign}").status_code == 404
    assert Run.objects.count() == before


def _leaderboard_queries(client: Client, run: Run) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(f"/p/bench-mc/benchmarks/{run.pk}/").status_code == 200
    return len(captured)


def test_the_leaderboard_queries_do_not_grow_with_the_run(world, django_assert_max_num_queries):
    project, items, alpha, beta = world
    small = run_create(
        kind="benchmark",
        endpoints=[alpha],
        project=project,
        parameters={"templates": ["helm"], "items": [items[0].pk]},
    )
    large = run_create(
        kind="benchmark",
        endpoints=[alpha, beta],
        project=project,
        parameters={"templates": ["helm", "question_choices", "mmlu_concept"]},
    )
    admin = _client(project, "admin")
    assert (Prediction.objects.filter(run=small).count(), Prediction.objects.filter(run=large).count()) == (1, 30)

    small_count = _leaderboard_queries(admin, small)
    with django_assert_max_num_queries(small_count):
        admin.get(f"/p/bench-mc/benchmarks/{large.pk}/")
    assert small_count <= 20
