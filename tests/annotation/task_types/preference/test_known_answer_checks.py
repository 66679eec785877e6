"""A preference prompt as a known-answer check: its known answer is the response a careful rater picks as
the best; the plan mixes it into both groups' queues, and a rater's best pick scores them."""

import json

import pytest

from annotation.errors import InvalidInput
from annotation.models import Assignment, Item
from annotation.selectors.known_answers import check_scores
from annotation.services.known_answers import item_set_known_answer
from tests.annotation.task_types.preference.world import make_world, plan, prompts_file

pytestmark = pytest.mark.django_db

CHECKED = "P03"


def _with_a_check(answer: str) -> bytes:
    rows = [json.loads(line) for line in prompts_file().decode().splitlines()]
    for row in rows:
        if row["id"] == CHECKED:
            row["known_answer"] = answer
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows).encode()


def test_a_raters_best_pick_on_a_check_is_scored_against_the_known_answer():
    world = make_world(slug="pref-checks", raters_per_group=1, prompts=_with_a_check("r4"))
    world.project.check_every = 4
    world.project.save(update_fields=["check_every"])
    check = Item.objects.get(project=world.project, external_id=CHECKED)
    assert (check.status, check.known_answer) == ("check", "r4")

    plan(world)
    (a,), (b,) = world.raters["A"], world.raters["B"]
    held = {
        user.username: list(
            Assignment.objects.filter(project=world.project, user=user, target_item=check).values_list(
                "target_item__external_id", flat=True
            )
        )
        for user in (a, b)
    }
    assert held == {"pref-checks-a1": [CHECKED], "pref-checks-b1": [CHECKED]}
    world.rate(Assignment.objects.get(project=world.project, user=a, target_item=check), best=4)
    world.rate(Assignment.objects.get(project=world.project, user=b, target_item=check), best=2)

    scores = check_scores(project=world.project)

    assert {user.username: (scores[user.pk].checks, scores[user.pk].correct) for user in (a, b)} == {
        "pref-checks-a1": (1, 1),
        "pref-checks-b1": (1, 0),
    }


def test_an_admin_marks_a_prompt_with_the_id_of_one_of_its_responses_only():
    world = make_world(slug="pref-mark", raters_per_group=1)
    item = world.items[5]

    with pytest.raises(InvalidInput) as refused:
        item_set_known_answer(item_id=item.pk, project=world.project, answer="r6")
    marked = item_set_known_answer(item_id=item.pk, project=world.project, answer="r5")

    assert refused.value.field_errors == {"known_answer": ["Choose one of: r1, r2, r3, r4, r5."]}
    assert (marked.status, marked.known_answer) == ("check", "r5")
