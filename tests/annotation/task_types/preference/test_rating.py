"""Rating through the core judging engine: two groups per prompt, orders per rater, refusals, and the
figures (pairs, ties, alphas against the krippendorff package, per-model means) on known scores."""

from __future__ import annotations

import statistics
from itertools import combinations

import krippendorff
import numpy as np
import pytest
from django.conf import settings

from annotation.errors import InvalidInput, NotAllowed
from annotation.models import Assignment, Item, Judgment
from annotation.selectors.judgments import judge_item_for
from annotation.services.judgments import judgment_record
from annotation.task_types.preference.judging import shown_order
from qc.reports import project_report
from tests.annotation.task_types.preference.world import (
    MODELS,
    PROMPTS,
    best_of,
    make_world,
    plan,
    rate_all,
    score,
)

pytestmark = pytest.mark.django_db


def _report(world):
    return project_report(project=world.project)


def test_every_prompt_is_planned_to_one_rater_of_each_group_never_its_writer():
    world = make_world()
    writer = world.raters["A"][0]
    Item.objects.filter(pk=world.items[0].pk).update(author=writer)

    plan(world)

    by_item = {}
    for item_id, user_id in Assignment.objects.filter(project=world.project, kind="rate").values_list(
        "target_item_id", "user_id"
    ):
        by_item.setdefault(item_id, []).append(user_id)
    a_ids = {u.pk for u in world.raters["A"]}
    b_ids = {u.pk for u in world.raters["B"]}
    assert len(by_item) == PROMPTS
    assert all(
        len(users) == 2 and len(set(users) & a_ids) == 1 and len(set(users) & b_ids) == 1 for users in by_item.values()
    )
    assert writer.pk not in by_item[world.items[0].pk]


def test_two_raters_see_different_orders_and_the_recorded_order_is_what_was_shown():
    world = make_world()
    plan(world)
    item = world.items[3]
    assignments = list(Assignment.objects.filter(target_item=item, kind="rate").select_related("user").order_by("pk"))
    payload = item.current_version.payload
    text_to_id = {r["text"]: r["id"] for r in payload["responses"]}

    shown = {}
    for assignment in assignments:
        view = judge_item_for(assignment=assignment, user=assignment.user, task_type_name="preference").view
        assert all(set(r) == {"position", "text"} for r in view["responses"])  # no model, no id
        assert not any(m in str(view) for m in MODELS)
        shown[assignment.user_id] = [text_to_id[r["text"]] for r in view["responses"]]
        world.rate(assignment)

    first, second = shown.values()
    assert sorted(first) == sorted(second) == ["r1", "r2", "r3", "r4", "r5"]
    assert first != second
    for assignment in assignments:
        recorded = Judgment.objects.get(item=item, user=assignment.user).value["order"]
        assert recorded == shown[assignment.user_id]
        assert recorded == shown_order(
            list(text_to_id.values()),
            secret=settings.SECRET_KEY,
            seed=world.project.plan_seed,
            item_id=item.pk,
            judge_id=assignment.user_id,
        )


def test_a_rater_cannot_rate_their_own_prompt_and_nothing_changes():
    world = make_world()
    item = world.items[0]
    plan(world)
    # The prompt's writer turns out to be one of its raters (e.g. an import named the writer later): the
    # planner never does this, the service refuses it anyway.
    stale = Assignment.objects.filter(target_item=item, kind="rate").select_related("user").first()
    writer = stale.user
    Item.objects.filter(pk=item.pk).update(author=writer)
    before = (Judgment.objects.count(), Item.objects.get(pk=item.pk).status)

    with pytest.raises(NotAllowed, match="can't rate your own item"):
        judgment_record(
            assignment_id=stale.pk,
            user=writer,
            data={"ratings": [{"relevance": 5, "fluency": 5}] * 5, "best": 1},
        )

    assert (Judgment.objects.count(), Item.objects.get(pk=item.pk).status) == before
    assert Assignment.objects.get(pk=stale.pk).status == Assignment.Status.PENDING


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"ratings": [{"relevance": 5, "fluency": 5}] * 4, "best": 1}, "Rate all 5 responses"),
        ({"ratings": [{"relevance": 6, "fluency": 5}] * 5, "best": 1}, "can't be saved"),
        ({"ratings": [{"relevance": 5, "fluency": 5}] * 5, "best": 9}, "can't be saved"),
        ({"ratings": [{"relevance": 5}] * 5, "best": 1}, "can't be saved"),
    ],
)
def test_a_refused_rating_changes_nothing(data, message):
    world = make_world()
    plan(world)
    assignment = Assignment.objects.filter(project=world.project, kind="rate").select_related("user").first()
    world.rate(assignment)
    judgment = Judgment.objects.get(assignment=assignment)
    before = (judgment.value, Judgment.objects.count(), Assignment.objects.get(pk=assignment.pk).status)

    with pytest.raises(InvalidInput, match=message):
        judgment_record(assignment_id=assignment.pk, user=assignment.user, data=data)

    judgment.refresh_from_db()
    assert (judgment.value, Judgment.objects.count(), Assignment.objects.get(pk=assignment.pk).status) == before


def _expected_pairs(tie_break: str = "none"):
    pairs, ties = {}, 0
    for p in range(PROMPTS):
        combined = {
            r: sum(score(p, r, g)["relevance"] + score(p, r, g)["fluency"] for g in (0, 1)) for r in range(1, 6)
        }
        picks = {r: sum(1 for g in (0, 1) if best_of(p, g) == r) for r in range(1, 6)}
        for a, b in combinations(range(1, 6), 2):
            if combined[a] != combined[b]:
                pairs[(p, a, b)] = a if combined[a] > combined[b] else b
            elif tie_break == "best_picks" and picks[a] != picks[b]:
                pairs[(p, a, b)] = a if picks[a] > picks[b] else b
            else:
                ties += 1
    return pairs, ties


def _pairs_of(section_pairs, world):
    p_of = {item.pk: p for p, item in world.items.items()}
    return {
        (p_of[x["item_id"]], int(x["first"][1:]), int(x["second"][1:])): int(x["chosen"][1:]) for x in section_pairs
    }


def test_pairs_ties_alphas_and_means_on_known_scores():
    world = make_world()
    plan(world)
    rate_all(world)

    report = _report(world)["preference"] if "preference" in _report(world) else _report(world)
    from annotation.task_types.preference.reports import all_pairs, prompts_from_rows
    from qc.reports.rows import report_rows

    rows = report_rows(project=world.project)
    derived, ties = all_pairs(prompts_from_rows(rows), rows.settings)
    expected, expected_ties = _expected_pairs()
    assert _pairs_of(derived, world) == expected
    assert (report["pairs"], report["ties"], ties) == (len(expected), expected_ties, expected_ties)
    assert expected_ties > 0
    assert (report["prompts"], report["responses"], report["ratings"], report["rated_prompts"]) == (20, 100, 200, 20)
    assert sum(report["by_domain"].values()) == len(expected)
    for pair in derived:
        assert pair["chosen_scores"]["combined"] > pair["rejected_scores"]["combined"]

    # alphas: groups as coders (2 x 100 units) and raters as coders (10 x 100), against the package
    units = [(p, r) for p in range(PROMPTS) for r in range(1, 6)]
    rater_of = {}
    for assignment in Assignment.objects.filter(project=world.project, kind="rate").select_related("user"):
        p = next(k for k, item in world.items.items() if item.pk == assignment.target_item_id)
        rater_of[(p, world.group_of(assignment.user))] = assignment.user_id
    raters = sorted(set(rater_of.values()))
    for criterion in ("relevance", "fluency"):
        groups = np.array([[score(p, r, g)[criterion] for p, r in units] for g in (0, 1)], dtype=float)
        per_rater = np.full((len(raters), len(units)), np.nan)
        for u, (p, r) in enumerate(units):
            for g in (0, 1):
                per_rater[raters.index(rater_of[(p, g)]), u] = score(p, r, g)[criterion]
        for level in ("ordinal", "interval"):
            got = report[f"alpha_{criterion}"][level]
            assert got["groups"] == round(krippendorff.alpha(reliability_data=groups, level_of_measurement=level), 4)
            assert got["raters"] == round(krippendorff.alpha(reliability_data=per_rater, level_of_measurement=level), 4)

    # pairwise preferences: each rater's own sign for every pair of every prompt
    pair_units = [(p, a, b) for p in range(PROMPTS) for a, b in combinations(range(1, 6), 2)]
    signs = np.full((len(raters), len(pair_units)), np.nan)
    for u, (p, a, b) in enumerate(pair_units):
        for g in (0, 1):
            ca = score(p, a, g)["relevance"] + score(p, a, g)["fluency"]
            cb = score(p, b, g)["relevance"] + score(p, b, g)["fluency"]
            signs[raters.index(rater_of[(p, g)]), u] = (ca > cb) - (ca < cb)
    assert report["alpha_pairs"]["ordinal"] == round(
        krippendorff.alpha(reliability_data=signs, level_of_measurement="ordinal"), 4
    )
    assert report["alpha_pairs"]["nominal"] == round(
        krippendorff.alpha(reliability_data=signs, level_of_measurement="nominal"), 4
    )

    # per model (Table 12): every individual rating of the model's responses
    for r, model in enumerate(MODELS, 1):
        row = next(m for m in report["per_model"] if m["model"] == model)
        for criterion in ("relevance", "fluency"):
            values = [score(p, r, g)[criterion] for p in range(PROMPTS) for g in (0, 1)]
            assert row[f"{criterion}_mean"] == round(statistics.fmean(values), 4)
            assert row[f"{criterion}_sd"] == round(statistics.stdev(values), 4)
        assert row["ratings"] == 40
        assert row["best_picks"] == sum(1 for p in range(PROMPTS) for g in (0, 1) if best_of(p, g) == r)


def test_ties_broken_by_best_picks_when_the_project_says_so():
    world = make_world(tie_break="best_picks")
    plan(world)
    rate_all(world)
    from annotation.task_types.preference.reports import all_pairs, prompts_from_rows
    from qc.reports.rows import report_rows

    rows = report_rows(project=world.project)
    derived, ties = all_pairs(prompts_from_rows(rows), rows.settings)

    expected, expected_ties = _expected_pairs("best_picks")
    assert _pairs_of(derived, world) == expected
    assert ties == expected_ties
    assert {p["rule"] for p in derived} == {"score", "best_picks"}
