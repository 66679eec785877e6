"""Rating (the paper's 2.3): a rater sees one prompt with all its responses, anonymised and in an order of
their own, rates each 1-5 for relevance and fluency and picks the best one.

The order is shuffled per (project seed, prompt, rater) (`shown_order`): two raters see different orders,
and the same rater sees the same order again. The form speaks in shown positions (1..N), never response
ids (ids follow arrival, which would give away the model); `complete_judgment` maps positions back with
the recomputed order and stores it:

    value = {"ratings": {"r3": {"relevance": 4, "fluency": 5}, ...}, "best": "r3",
             "order": ["r3", "r1", ...], "group": "A"}

Gold: a prompt is decided ("gold") once every rater group has rated it; the pairs come from its ratings
(pairs.py), not from the decision.
"""

from __future__ import annotations

import random
from typing import Any

from django.utils.translation import gettext

from annotation import limits
from annotation.errors import InvalidInput
from annotation.task_types.base import GoldCase, GoldOutcome, JudgeItem, JudgmentInput
from annotation.task_types.preference.payload import MAX_RESPONSES
from annotation.task_types.preference.rubrics import CRITERIA, rubrics_for

POLICY = "preference_both_groups_v1"
KIND = "rate"
GROUPS = ("A", "B")
SCORES = (1, 2, 3, 4, 5)


def shown_order(response_ids: list[str], *, seed: int, item_id: int, judge_id: int) -> list[str]:
    """The order a rater sees a prompt's responses in: a shuffle seeded by (seed, item, rater)."""
    order = sorted(response_ids, key=_id_key)
    random.Random(f"{seed}:{item_id}:{judge_id}").shuffle(order)
    return order


def _id_key(response_id: str) -> tuple[int, str]:
    digits = response_id[1:] if response_id[:1] == "r" else ""
    return (int(digits), response_id) if digits.isdigit() else (10**9, response_id)


def judge_item(
    *, judge_id: int, seed: int, item_id: int, category: str, payload: dict[str, Any], is_own: bool
) -> JudgeItem:
    """The prompt, its input and the responses in the rater's order, numbered 1..N; no model, no id."""
    texts = {r["id"]: r["text"] for r in payload.get("responses") or []}
    order = shown_order(list(texts), seed=seed, item_id=item_id, judge_id=judge_id)
    view = {
        "prompt": payload.get("prompt", ""),
        "input": payload.get("input", ""),
        "responses": [{"position": i + 1, "text": texts[rid]} for i, rid in enumerate(order)],
        "rubrics": rubrics_for(category),
    }
    return JudgeItem(item_id=item_id, category=category, view=view, is_own=is_own)


def _score(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value in SCORES else None
    if isinstance(value, str) and value.strip().isdigit():
        return _score(int(value.strip()))
    return None


def normalize_judgment(data: dict[str, Any]) -> JudgmentInput:
    """{"ratings": [{"relevance", "fluency"}, ...] by shown position, "best": position, "comment"} (also
    nested under "value"). Every position needs both scores; the best is one of the positions."""
    if not isinstance(data, dict):
        raise InvalidInput(
            gettext("A rating must be an object."), field_errors={"ratings": [gettext("Give an object.")]}
        )
    value = data.get("value") if isinstance(data.get("value"), dict) else data
    errors: dict[str, list[str]] = {}
    raw = value.get("ratings")
    ratings: list[dict[str, int]] = []
    if not isinstance(raw, list) or not raw or len(raw) > MAX_RESPONSES:
        errors["ratings"] = [
            gettext("Rate every response (1 to %(MAX_RESPONSES)s of them).") % {"MAX_RESPONSES": MAX_RESPONSES}
        ]
    else:
        for position, row in enumerate(raw, 1):
            scores = {c: _score(row.get(c)) if isinstance(row, dict) else None for c in CRITERIA}
            missing = [c for c, s in scores.items() if s is None]
            if missing:
                errors.setdefault("ratings", []).append(
                    gettext("Response %(position)s: give %(join)s a score from 1 to 5.")
                    % {"position": position, "join": " and ".join(missing)}
                )
            else:
                ratings.append(scores)  # type: ignore[arg-type]
    best = value.get("best")
    if isinstance(best, str) and best.strip().isdigit():
        best = int(best.strip())
    if isinstance(best, bool) or not isinstance(best, int) or not (isinstance(raw, list) and 1 <= best <= len(raw)):
        errors["best"] = [gettext("Pick the best response.")]
    comment = data.get("comment") or ""
    problem = (
        limits.NOT_TEXT if not isinstance(comment, str) else limits.text_problem(comment, max_length=limits.COMMENT)
    )
    if problem:
        errors["comment"] = [problem]
    if errors:
        raise InvalidInput(gettext("The rating can't be saved yet."), field_errors=errors)
    return JudgmentInput(value={"ratings": ratings, "best": best}, flags={}, comment=comment.strip())


def complete_judgment(
    judgment: JudgmentInput, *, judge_id: int, judge_group: str, seed: int, item_id: int, payload: dict[str, Any]
) -> JudgmentInput:
    """Positions -> response ids through the rater's own order; refused unless every response is rated."""
    ids = [r["id"] for r in payload.get("responses") or []]
    ratings = judgment.value["ratings"]
    if not ids:
        raise InvalidInput(
            gettext("This prompt has no responses to rate yet."), field_errors={"ratings": [gettext("No responses.")]}
        )
    if len(ratings) != len(ids):
        raise InvalidInput(
            gettext("Rate all %(len)s responses (this rating has %(len2)s).") % {"len": len(ids), "len2": len(ratings)},
            field_errors={"ratings": [gettext("Rate every response.")]},
        )
    order = shown_order(ids, seed=seed, item_id=item_id, judge_id=judge_id)
    value = {
        "ratings": {rid: dict(scores) for rid, scores in zip(order, ratings, strict=True)},
        "best": order[judgment.value["best"] - 1],
        "order": order,
        "group": judge_group,
    }
    return JudgmentInput(value=value, flags=judgment.flags, comment=judgment.comment)


def positional(value: dict[str, Any]) -> dict[str, Any] | None:
    """A stored rating back in shown positions (the form's initial data), or None."""
    order = value.get("order") or []
    ratings = value.get("ratings") or {}
    if not order or not isinstance(ratings, dict):
        return None
    return {
        "ratings": [ratings.get(rid, {}) for rid in order],
        "best": order.index(value["best"]) + 1 if value.get("best") in order else None,
    }


def gold_memo_key(case: GoldCase) -> tuple:
    return (tuple(sorted({(j.value or {}).get("group") or "" for j in case.judgments})), len(case.judgments))


def gold_decide(case: GoldCase) -> GoldOutcome:
    groups = sorted({(j.value or {}).get("group") or "" for j in case.judgments})
    details = {"groups": groups, "ratings": len(case.judgments)}
    missing = [g for g in GROUPS if g not in groups]
    if missing:
        return GoldOutcome("pending", reason=f"waiting for group {', '.join(missing)}", details=details)
    return GoldOutcome("gold", reason="rated by both groups", details=details)
