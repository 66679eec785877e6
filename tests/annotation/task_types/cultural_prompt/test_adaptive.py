"""Adaptive judging on KALAHI: the posterior ranges over each prompt's own options (the best response
and its irrelevant ones); a prompt whose first validators agree stops there, a split one gets one more
validator (never the writer), up to the three of the paper."""

from __future__ import annotations

import pytest

from annotation.models import Assignment, Item
from annotation.services.judging import judging_plan
from annotation.task_types import get_task_type
from qc.models import GoldDecision
from tests.annotation.task_types.cultural_prompt.world import kalahi_rows, make_kalahi_project, pick

pytestmark = pytest.mark.django_db

AGREED, SPLIT = (row["prompt_variation_id"] for row in kalahi_rows(2))
SPLIT_PICKS = {"V1": "best", "V2": "irrelevant_1", "V3": "irrelevant_2"}


def test_the_posterior_ranges_over_each_prompts_own_options():
    task_type = get_task_type("cultural_prompt")
    payload = {"best": "b", "irrelevant": ["x", "y"]}
    assert task_type.agreement_domain_of(payload) == ("best", "irrelevant_1", "irrelevant_2")
    assert task_type.known_answer_choices(payload) == ("best", "irrelevant_1", "irrelevant_2")


def test_an_agreed_prompt_stops_at_two_validators_and_a_split_one_gets_a_third():
    world = make_kalahi_project(slug="kadapt", rows=2)
    world.project.settings = {**world.project.settings, "judging_mode": "adaptive", "adaptive_confidence": 95}
    world.project.save()
    codes = {user.pk: f"V{n + 1}" for n, user in enumerate(world.validators)}

    summary = judging_plan(project=world.project)
    assert (summary.created, summary.items) == (4, 2)  # the minimum: two validators per prompt

    # Validators work through their queues until nothing is left (an added validator's assignment may
    # come after they emptied their queue once).
    while Assignment.objects.filter(project=world.project, kind="validate", status="pending").exists():
        for user in world.validators:
            pick(world.project, user, lambda ext, user=user: "best" if ext == AGREED else SPLIT_PICKS[codes[user.pk]])

    agreed = Item.objects.get(project=world.project, external_id=AGREED)
    decision = GoldDecision.objects.get(item=agreed)
    # Six options, two validators of accuracy 0.8 on "best": 0.64 against 5 x 0.04^2.
    assert (decision.outcome, decision.details["validators"], decision.details["best_votes"]) == ("gold", 2, 2)
    assert decision.details["adaptive"]["confidence"] == pytest.approx(0.64 / (0.64 + 5 * 0.0016), abs=1e-4)
    assert Assignment.objects.filter(target_item=agreed).count() == 2

    split = Item.objects.get(project=world.project, external_id=SPLIT)
    decision = GoldDecision.objects.get(item=split)
    # Two different picks are unsure; the third validator is the overlap: the paper's rule decides there.
    assert (decision.outcome, decision.details["validators"]) == ("gold", 3)
    assert sorted(decision.details["choices"]) == ["best", "irrelevant_1", "irrelevant_2"]
    judges = set(Assignment.objects.filter(target_item=split).values_list("user_id", flat=True))
    assert judges == {user.pk for user in world.validators}  # never the writer
    assert Item.objects.get(pk=split.pk).judging_round == 2
