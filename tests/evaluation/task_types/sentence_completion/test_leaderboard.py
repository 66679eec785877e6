"""ArabCulture's leaderboard: per model by mode, language, context, country, region, topic and
country-specific versus shared, with the MCQ minus completion gap; a rerun replaces, never doubles."""

from __future__ import annotations

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from annotation.models import Membership, Project
from annotation.services.imports import items_import
from annotation.services.projects import membership_add
from evaluation.task_types.sentence_completion.leaderboard import Row, leaderboard
from tests.annotation.task_types.sentence_completion.data import jsonl
from tests.evaluation.helpers import make_endpoint
from tests.evaluation.task_types.sentence_completion.test_benchmark import CASES
from tests.factories import UserFactory

User = get_user_model()


def _row(run, template, item, right, *, country="Egypt", region="Nile Valley", relevance="shared"):
    return Row(run, "alpha", template, item, right, country, region, "Food", relevance)


def test_groups_gap_and_a_rerun_replacing_the_earlier_predictions():
    rows = [
        _row(1, "mcq_en_none", 1, False),
        _row(1, "mcq_en_none", 2, False, country="KSA", region="Gulf", relevance="country_specific"),
        _row(3, "mcq_en_none", 1, True),  # the rerun of run 1 counts
        _row(3, "mcq_en_none", 2, True, country="KSA", region="Gulf", relevance="country_specific"),
        _row(2, "completion_ar_region", 1, True),
        _row(2, "completion_ar_region", 2, False, country="KSA", region="Gulf", relevance="country_specific"),
        _row(2, "my_own_prompt", 1, True),  # not a built-in template: left out
    ]

    board = leaderboard(rows)

    alpha = board["models"]["alpha"]
    assert board["predictions"] == 4
    assert alpha["overall"] == {"n": 4, "correct": 3, "accuracy": 0.75}
    assert alpha["by_mode"] == {
        "completion": {"n": 2, "correct": 1, "accuracy": 0.5},
        "mcq": {"n": 2, "correct": 2, "accuracy": 1.0},
    }
    assert alpha["mcq_minus_completion"] == 0.5
    assert alpha["by_language"] == {
        "ar": {"n": 2, "correct": 1, "accuracy": 0.5},
        "en": {"n": 2, "correct": 2, "accuracy": 1.0},
    }
    assert alpha["by_context"] == {
        "none": {"n": 2, "correct": 2, "accuracy": 1.0},
        "region": {"n": 2, "correct": 1, "accuracy": 0.5},
    }
    assert alpha["by_country"] == {
        "Egypt": {"n": 2, "correct": 2, "accuracy": 1.0},
        "KSA": {"n": 2, "correct": 1, "accuracy": 0.5},
    }
    assert alpha["by_relevance"] == {
        "country_specific": {"n": 2, "correct": 1, "accuracy": 0.5},
        "shared": {"n": 2, "correct": 2, "accuracy": 1.0},
    }


def _run(*args) -> dict:
    out = io.StringIO()
    call_command("benchmark", "run", *args, "--wait", stdout=out)
    return json.loads(out.getvalue().strip().splitlines()[-1])


@pytest.mark.django_db(transaction=True)
def test_the_page_and_its_json_after_mcq_and_completion_runs(client, llm_server, eager_tasks):
    rows = [c[0] for c in CASES]
    rows[1]["relevant_to_other_countries"] = "Yes"
    items_import(path_or_bytes=jsonl(rows), project_slug="ac-board", format="arabculture", language="ar")
    project = Project.objects.get(slug="ac-board")
    reviewer = UserFactory(username="board-reviewer")
    membership_add(project=project, user=reviewer, role=Membership.Role.REVIEWER)
    admin = UserFactory(username="board-admin")
    membership_add(project=project, user=admin, role=Membership.Role.ADMIN)
    llm_server.configure(
        replies=[{"match": c[0]["first_statement"], "reply": c[1]} for c in CASES],
        likelihood={" " + c[0]["options"]["text"][c[2]]: -0.1 for c in CASES},
    )
    make_endpoint(llm_server, name="alpha", model="alpha-model")
    _run("--project", "ac-board", "--endpoint", "alpha", "--template", "mcq_ar_country")
    _run("--project", "ac-board", "--endpoint", "alpha", "--template", "completion_ar_country", "--mode", "likelihood")
    client.force_login(reviewer)
    # The leaderboard covers every country: a national reviewer (scoped by country) is refused it.
    refused = client.get("/p/ac-board/arabculture-leaderboard/?format=json")
    client.force_login(admin)

    board = client.get("/p/ac-board/arabculture-leaderboard/?format=json").json()
    page = client.get("/p/ac-board/arabculture-leaderboard/")

    assert refused.status_code == 403
    alpha = board["models"]["alpha"]
    # MCQ: right, wrong, right, unparsed; completion: right, wrong, right, right (test_benchmark's CASES)
    assert alpha["by_mode"]["mcq"] == {"n": 4, "correct": 2, "accuracy": 0.5}
    assert alpha["by_mode"]["completion"] == {"n": 4, "correct": 3, "accuracy": 0.75}
    assert alpha["mcq_minus_completion"] == -0.25
    assert alpha["by_country"] == {
        "Egypt": {"n": 4, "correct": 2, "accuracy": 0.5},
        "KSA": {"n": 4, "correct": 3, "accuracy": 0.75},
    }
    assert alpha["by_region"] == {
        "Gulf": {"n": 4, "correct": 3, "accuracy": 0.75},
        "Nile Valley": {"n": 4, "correct": 2, "accuracy": 0.5},
    }
    assert alpha["by_relevance"] == {
        "country_specific": {"n": 6, "correct": 5, "accuracy": 0.8333},
        "shared": {"n": 2, "correct": 0, "accuracy": 0.0},
    }
    assert alpha["by_language"] == {"ar": {"n": 8, "correct": 5, "accuracy": 0.625}}
    assert alpha["by_context"] == {"country": {"n": 8, "correct": 5, "accuracy": 0.625}}
    assert page.status_code == 200
    html = page.content.decode()
    client.force_login(User.objects.get(username="board-admin"))
    runs_page = client.get("/p/ac-board/runs/").content.decode()
    assert 'href="/p/ac-board/arabculture-leaderboard/"' in runs_page
    assert '<td class="gap">-0.250</td>' in html
    assert 'id="leaderboard-by_country"' in html


@pytest.mark.django_db
def test_an_annotator_gets_a_404(client):
    items_import(path_or_bytes=jsonl([CASES[0][0]]), project_slug="ac-board2", format="arabculture", language="ar")
    project = Project.objects.get(slug="ac-board2")
    annotator = UserFactory(username="board-annotator")
    membership_add(project=project, user=annotator, role=Membership.Role.ANNOTATOR, code="x")
    client.force_login(annotator)

    assert client.get("/p/ac-board2/arabculture-leaderboard/").status_code == 404
