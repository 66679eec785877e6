"""Validation (MC1) through the core judging engine: 3 validators who did not write the prompts, their
picks on shuffled options, and the report's figures against scikit-learn and krippendorff."""

from __future__ import annotations

import io
import json

import krippendorff
import numpy as np
import pytest
from django.conf import settings
from django.core.management import call_command
from sklearn.metrics import cohen_kappa_score

from annotation.errors import InvalidInput
from annotation.models import Assignment, Item, Judgment
from annotation.services.judging import judging_plan
from annotation.services.judgments import judgment_record
from annotation.task_types.cultural_prompt.judging import shuffle_seed, shuffled
from qc.reports import project_report
from tests.annotation.task_types.cultural_prompt.world import kalahi_rows, make_kalahi_project, pick

pytestmark = pytest.mark.django_db

ROWS = kalahi_rows(10)
IDS = [r["prompt_variation_id"] for r in ROWS]
# Known picks per validator, by prompt (index in ROWS): "best" or an irrelevant response.
B, I1, I2, I3 = "best", "irrelevant_1", "irrelevant_2", "irrelevant_3"
PICKS = {
    "V1": [B, B, B, B, B, B, B, B, B, I1],
    "V2": [B, B, I2, B, B, B, B, B, I1, I1],
    "V3": [B, I3, B, B, B, B, I1, B, B, I2],
}


def _validate(world):
    judging_plan(project=world.project)
    shown = {}
    for user, code in zip(world.validators, ("V1", "V2", "V3"), strict=True):
        shown[code] = pick(world.project, user, lambda ext, code=code: PICKS[code][IDS.index(ext)])
    return shown


def test_three_validators_each_prompt_never_the_writer_shuffled_per_validator():
    world = make_kalahi_project()
    summary = judging_plan(project=world.project)
    assert summary.items == 10
    planned = Assignment.objects.filter(project=world.project, kind="validate")
    assert planned.count() == 30
    assert not planned.filter(user=world.writer).exists()
    shown = {}
    for user, code in zip(world.validators, ("V1", "V2", "V3"), strict=True):
        shown[code] = pick(world.project, user, lambda ext, code=code: PICKS[code][IDS.index(ext)])
    item = Item.objects.get(project=world.project, external_id=IDS[0])
    judgments = {j.user_id: j.value for j in Judgment.objects.filter(item=item)}
    for user, code in zip(world.validators, ("V1", "V2", "V3"), strict=True):
        value = judgments[user.pk]
        seed = shuffle_seed(world.project.plan_seed, item.pk, user.pk, secret=settings.SECRET_KEY)
        names = ["best", *(f"irrelevant_{n}" for n in range(1, len(item.current_version.payload["irrelevant"]) + 1))]
        assert len(names) == 1 + len(ROWS[0]["irrelevant_answers"].split(";")) == 6
        expected = shuffled(names, seed)
        assert value == {
            "choice": PICKS[code][0],
            "position": expected.index(PICKS[code][0]) + 1,
            "order": expected,
            "seed": seed,
        }
        assert shown[code][item.pk] == expected
    # each validator saw their own order (the three seeds differ, and so do the orders on 10 items)
    orders = [tuple(tuple(shown[code][i.pk]) for i in Item.objects.filter(project=world.project)) for code in shown]
    assert len(set(orders)) == 3
    assert set(Item.objects.filter(project=world.project).values_list("status", flat=True)) == {"gold"}


def test_a_pick_outside_the_shown_options_is_refused_and_nothing_changes():
    world = make_kalahi_project(rows=1)
    judging_plan(project=world.project)
    user = world.validators[0]
    assignment = Assignment.objects.get(project=world.project, user=user, kind="validate")
    with pytest.raises(InvalidInput) as refused:
        judgment_record(assignment_id=assignment.pk, user=user, data={"choice": "7"})
    assert "Pick one of the 6 responses" in str(refused.value.field_errors["choice"])
    with pytest.raises(InvalidInput):
        judgment_record(assignment_id=assignment.pk, user=user, data={"choice": ""})
    assert not Judgment.objects.filter(project=world.project).exists()
    assignment.refresh_from_db()
    assert assignment.status != "done"


def test_report_figures_equal_sklearn_and_krippendorff():
    world = make_kalahi_project()
    _validate(world)
    report = project_report(project=world.project)["cultural_prompt"]["validation"]

    accuracies = {code: sum(c == B for c in picks) / 10 for code, picks in PICKS.items()}
    assert [(v["validator"], v["picks"], v["accuracy"]) for v in report["validators"]] == [
        (code, 10, accuracies[code]) for code in ("V1", "V2", "V3")
    ]
    assert report["human_baseline"] == pytest.approx(np.mean(list(accuracies.values())))
    assert report["human_baseline"] == pytest.approx((0.9 + 0.7 + 0.7) / 3)

    pairs = [("V1", "V2"), ("V1", "V3"), ("V2", "V3")]
    kappas = [cohen_kappa_score(PICKS[a], PICKS[b]) for a, b in pairs]
    assert [(p["a"], p["b"], p["prompts"]) for p in report["cohen_kappa_pairs"]] == [(a, b, 10) for a, b in pairs]
    assert [p["kappa"] for p in report["cohen_kappa_pairs"]] == pytest.approx(kappas)
    assert report["cohen_kappa"] == pytest.approx(np.mean(kappas))

    domain = [B, I1, I2, I3]
    reliability = np.array([[domain.index(c) for c in PICKS[code]] for code in ("V1", "V2", "V3")], dtype=float)
    assert report["alpha"] == pytest.approx(
        krippendorff.alpha(reliability_data=reliability, level_of_measurement="nominal")
    )

    # Fleiss' kappa by hand (Fleiss 1971) on the 10 x 4 counts
    counts = np.array([[sum(PICKS[code][i] == v for code in PICKS) for v in domain] for i in range(10)], dtype=float)
    p_i = ((counts**2).sum(axis=1) - 3) / (3 * 2)
    p_j = counts.sum(axis=0) / 30
    fleiss = (p_i.mean() - (p_j**2).sum()) / (1 - (p_j**2).sum())
    assert report["fleiss_kappa"] == pytest.approx(fleiss)

    best_votes = [sum(PICKS[code][i] == B for code in PICKS) for i in range(10)]
    assert best_votes == [3, 2, 2, 3, 3, 3, 2, 3, 2, 0]
    assert report["best_by_2_of_3"] == pytest.approx(9 / 10)
    assert [s["prompt_variation_id"] for s in report["split"]] == [IDS[i] for i in (1, 2, 6, 8, 9)]
    assert report["split"][4]["choices"] == {"V1": I1, "V2": I1, "V3": I2}

    categories = {r["prompt_variation_id"]: r["category"] for r in ROWS}
    for category, row in report["by_category"].items():
        indexes = [i for i, ext in enumerate(IDS) if categories[ext] == category]
        picks = [PICKS[code][i] for i in indexes for code in PICKS]
        assert row["prompts"] == len(indexes)
        assert row["accuracy"] == pytest.approx(sum(p == B for p in picks) / len(picks))
    assert sum(row["prompts"] for row in report["by_topic"].values()) == 10

    # The same figures from the script: `manage.py report SLUG --json`.
    out = io.StringIO()
    call_command("report", world.project.slug, "--json", stdout=out)
    section = json.loads(out.getvalue())["cultural_prompt"]
    assert (section["prompts"], section["base_prompts"]) == (10, len({r["prompt_id"] for r in ROWS}))
    assert set(section["responses"]) >= {"relevant", "irrelevant"} and sum(section["by_category"].values()) == 10
    assert {k: section["validation"][k] for k in ("cohen_kappa", "fleiss_kappa", "alpha")} == pytest.approx(
        {"cohen_kappa": np.mean(kappas), "fleiss_kappa": fleiss, "alpha": report["alpha"]}
    )
    assert section["validation"]["human_baseline"] == pytest.approx((0.9 + 0.7 + 0.7) / 3)
    assert section["validation"]["best_by_2_of_3"] == pytest.approx(9 / 10)


def test_a_validators_order_is_stable_and_needs_the_servers_secret():
    # plan_seed is in the project API: were it the whole seed, anyone could compute where the best is.
    seeds = {secret: shuffle_seed(7, 101, 5, secret=secret) for secret in ("one-secret", "another-secret")}

    assert shuffle_seed(7, 101, 5, secret="one-secret") == seeds["one-secret"]
    assert seeds["one-secret"] != seeds["another-secret"]
    orders = {tuple(shuffled(["best", "irrelevant_1", "irrelevant_2", "irrelevant_3"], s)) for s in seeds.values()}
    assert len(orders) == 2


def test_the_keyboard_panel_lists_only_the_keys_of_the_responses_shown(client):
    world = make_kalahi_project(slug="keys", rows=1)
    judging_plan(project=world.project)
    assignment = Assignment.objects.filter(project=world.project, kind="validate").order_by("pk").first()
    item = Item.objects.get(pk=assignment.target_item_id)
    shown = 1 + len(item.current_version.payload["irrelevant"])
    client.force_login(assignment.user)

    html = client.get(f"/p/keys/judge/{assignment.pk}/").content.decode()

    keys = ", ".join(str(n) for n in range(1, shown + 1))
    assert f'<dd id="answer-keys-choose">{keys}</dd>' in html
    assert shown < 9
