"""Validation (MC1 by natives, the paper's section 3.2): what a validator sees, their pick, the gold rule.

A validator sees the prompt and the best + irrelevant responses (never which one is best) in an order
shuffled for them: the seed is an HMAC, under the server's secret, of the project's plan_seed, the item
and the validator (`shuffle_seed`), so the same validator always sees the same order and nobody can
compute it from what the API shows (plan_seed alone would tell every validator where the best is); the
server recomputes that order when the pick arrives (`complete_judgment`) and stores it and its seed with
the pick. Options are named `best` and `irrelevant_<n>` (n: 1-based position in the payload's irrelevant
list); the page shows them as 1..k, which digit keys pick.

Judgment value: {"choice": "best" | "irrelevant_<n>", "position": shown position (1-based) or None,
"order": [option names as shown], "seed": int or None}; flags {}; an optional comment.

Gold: once the project's number of validators have picked, the item is gold: the writers' best is
kept, with the picks, the votes for the best and whether validators split in the details (the paper
keeps every prompt and reports agreement; split prompts are listed for discussion).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from django.utils.crypto import salted_hmac
from django.utils.translation import gettext

from annotation import limits
from annotation.errors import InvalidInput
from annotation.task_types.base import GoldCase, GoldOutcome, JudgmentInput
from annotation.task_types.cultural_prompt.payload import MAX_RESPONSES

POLICY = "kalahi_mc1_v1"
BEST = "best"
_OPTION = re.compile(r"^(best|irrelevant_[1-9][0-9]*)$")
MAX_OPTIONS = 1 + MAX_RESPONSES + 5  # best + irrelevant (imports may hold a few more than authoring allows)
KEYS = {str(n): str(n) for n in range(1, 10)}


def option_names(payload: dict[str, Any]) -> list[str]:
    return [BEST, *(f"irrelevant_{n}" for n in range(1, len(payload.get("irrelevant") or []) + 1))]


def option_text(payload: dict[str, Any], name: str) -> str:
    if name == BEST:
        best, relevant = payload.get("best"), payload.get("relevant") or []
        return relevant[best] if isinstance(best, int) and 0 <= best < len(relevant) else ""
    irrelevant = payload.get("irrelevant") or []
    number = int(name.rsplit("_", 1)[1])
    return irrelevant[number - 1] if 1 <= number <= len(irrelevant) else ""


def shuffle_seed(project_seed: int, item_id: int, judge_id: int, *, secret: str) -> int:
    """The seed of one validator's order for one item: stable across visits, unknowable without `secret`."""
    digest = salted_hmac(
        "gotong.cultural_prompt.mc1", f"{project_seed}:{item_id}:{judge_id}", secret=secret, algorithm="sha256"
    ).digest()
    return int.from_bytes(digest[:4], "big")


def shuffled(names: list[str], seed: int) -> list[str]:
    order = list(names)
    random.Random(seed).shuffle(order)
    return order


@dataclass(frozen=True)
class Mc1Question:
    """What the judging page and API show (TaskType.judge_item_for_judge): the prompt and the response
    texts in this validator's order. Never the options' names or the seed: either would tell the best."""

    item_id: int
    category: str
    view: dict[str, Any]
    is_own: bool

    @property
    def options(self) -> list[tuple[int, str]]:
        """(position 1..k, text) in the shown order."""
        return list(enumerate(self.view["options"], start=1))


def judge_view(payload: dict[str, Any], *, seed: int) -> dict[str, Any]:
    """The prompt, topic and the best + irrelevant responses' texts in the order of `seed`."""
    order = shuffled(option_names(payload), seed)
    return {
        "prompt": payload.get("prompt", ""),
        "topic": payload.get("topic", ""),
        "options": [option_text(payload, name) for name in order],
    }


def _order(value: Any) -> list[str] | None:
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, list | tuple) or not value or len(value) > MAX_OPTIONS:
        return None
    if any(not isinstance(v, str) or not _OPTION.match(v) for v in value) or len(set(value)) != len(value):
        return None
    if BEST not in value:
        return None
    return list(value)


def normalize_judgment(data: dict[str, Any]) -> JudgmentInput:
    """{"choice", "order", "seed", "comment"} flat, or nested {"value": {...}, "comment"}.

    `choice` is an option's name (best, irrelevant_2), or its shown position (1..k) with the shown `order`.
    """
    if not isinstance(data, dict):
        raise InvalidInput(
            gettext("A judgment must be an object."), field_errors={"choice": [gettext("Give an object.")]}
        )
    value = data.get("value") if isinstance(data.get("value"), dict) else data
    errors: dict[str, list[str]] = {}
    raw_order = value.get("order")
    order = _order(raw_order) if raw_order not in (None, "", []) else None
    if raw_order not in (None, "", []) and order is None:
        errors["order"] = [gettext("The order of the options is not valid.")]
    raw_choice = value.get("choice")
    choice, position = None, None
    if isinstance(raw_choice, int) and not isinstance(raw_choice, bool):
        raw_choice = str(raw_choice)
    if isinstance(raw_choice, str) and raw_choice.strip().isdigit():
        position = int(raw_choice.strip())
        if order is not None and 1 <= position <= len(order):
            choice = order[position - 1]
        elif order is not None or not 1 <= position <= MAX_OPTIONS:
            position = None
    elif isinstance(raw_choice, str) and _OPTION.match(raw_choice.strip()):
        choice = raw_choice.strip()
        if order is not None:
            position = order.index(choice) + 1 if choice in order else None
            if position is None:
                choice = None
    if choice is None and position is None and "order" not in errors:
        errors["choice"] = [gettext("Pick the response an average member of the culture would choose (keys 1-9).")]
    seed = value.get("seed")
    if seed in (None, ""):
        seed = None
    elif isinstance(seed, bool) or not str(seed).strip().isdigit() or int(seed) >= 2**32:
        errors["seed"] = [gettext("The seed is not valid.")]
    else:
        seed = int(seed)
    comment = data.get("comment") or ""
    problem = (
        limits.NOT_TEXT if not isinstance(comment, str) else limits.text_problem(comment, max_length=limits.COMMENT)
    )
    if problem:
        errors["comment"] = [problem]
    if errors:
        raise InvalidInput(gettext("The pick can't be saved yet."), field_errors=errors)
    return JudgmentInput(
        value={"choice": choice, "position": position, "order": order or [], "seed": seed},
        flags={},
        comment=comment.strip(),
    )


def complete_judgment(
    judgment: JudgmentInput, *, secret: str, judge_id: int, project_seed: int, item_id: int, payload: dict[str, Any]
) -> JudgmentInput:
    """The pick against the order this validator was shown (recomputed here, never trusted from the
    client): a position becomes its option, and the order and seed are recorded with it."""
    seed = shuffle_seed(project_seed, item_id, judge_id, secret=secret)
    order = shuffled(option_names(payload), seed)
    value = judgment.value
    choice, position = value.get("choice"), value.get("position")
    if choice is None and position is not None and 1 <= position <= len(order):
        choice = order[position - 1]
    if choice not in order:
        raise InvalidInput(
            gettext("Pick one of the responses shown."),
            field_errors={
                "choice": [gettext("Pick one of the %(len)s responses (keys 1-%(len)s).") % {"len": len(order)}]
            },
        )
    return JudgmentInput(
        value={"choice": choice, "position": order.index(choice) + 1, "order": order, "seed": seed},
        flags=judgment.flags,
        comment=judgment.comment,
    )


def choices_of(case_judgments: Any) -> list[str]:
    return [c for c in ((j.value or {}).get("choice") for j in case_judgments) if c]


def gold_memo_key(case: GoldCase) -> tuple:
    return (case.settings.get("validators_per_item"), tuple(choices_of(case.judgments)))


def gold_decide(case: GoldCase) -> GoldOutcome:
    needed = int(case.settings.get("validators_per_item") or 3)
    choices = choices_of(case.judgments)
    votes = sum(c == BEST for c in choices)
    details = {
        "choices": choices,
        "best_votes": votes,
        "validators": len(choices),
        "needed": needed,
        "split": len(set(choices)) > 1,
    }
    if len(choices) < needed:
        return GoldOutcome("pending", reason=f"{len(choices)} of {needed} validators have picked", details=details)
    return GoldOutcome("gold", reason=f"validated: {votes} of {len(choices)} chose the best response", details=details)
