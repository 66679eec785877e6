"""Rating (the paper's 2.3): a rater sees one prompt with all its responses, anonymised and in an order of
their own, rates each 1-5 for relevance and fluency and picks the best one.

The order is shuffled per (prompt, rater) by a server secret (`shown_order`): two raters see different
orders, the same rater sees the same order again, and nobody can compute it from what the project API
shows (plan_seed varies it but is not enough). Raters speak and are answered in shown positions (1..N),
never response ids (ids follow arrival, which would give away the model): `complete_judgment` maps
positions to ids with the recomputed order and stores that; `own_judgment` maps a stored rating back to
the positions the rater sees now:

    value = {"ratings": {"r3": {"relevance": 4, "fluency": 5}, ...}, "best": "r3",
             "order": ["r3", "r1", ...], "group": "A"}

Gold: a prompt is decided ("gold") once every rater group has rated it; the pairs come from its ratings
(pairs.py), not from the decision.
"""

from __future__ import annotations

import random
from typing import Any

from django.utils.crypto import salted_hmac
from django.utils.translation import gettext

from annotation import limits
from annotation.errors import InvalidInput
from annotation.task_types.base import GoldCase, GoldOutcome, JudgeItem, JudgmentInput
from annotation.task_types.preference.payload import MAX_RESPONSES
from annotation.task_types.preference.rubrics import CRITERIA, anchors_for, rubrics_for

POLICY = "preference_both_groups_v1"
KIND = "rate"
GROUPS = ("A", "B")
SCORES = (1, 2, 3, 4, 5)
ORDER_SALT = "gotong.preference.shown_order"


def shown_order(response_ids: list[str], *, secret: str, seed: int, item_id: int, judge_id: int) -> list[str]:
    """The order a rater sees a prompt's responses in: a shuffle seeded by an HMAC of (seed, item, rater)
    under the server's secret. A plain Random(f"{seed}:{item}:{rater}") let anyone who read plan_seed
    from the project API compute every rater's order, hence which position is which model."""
    order = sorted(response_ids, key=_id_key)
    digest = salted_hmac(ORDER_SALT, f"{seed}:{item_id}:{judge_id}", secret=secret, algorithm="sha256").digest()
    random.Random(int.from_bytes(digest, "big")).shuffle(order)
    return order


def _id_key(response_id: str) -> tuple[int, str]:
    digits = response_id[1:] if response_id[:1] == "r" else ""
    return (int(digits), response_id) if digits.isdigit() else (10**9, response_id)


def shown_responses(
    payload: dict[str, Any], *, secret: str, seed: int, item_id: int, judge_id: int
) -> list[dict[str, Any]]:
    """The responses as one person is shown them: their order, numbered 1..N, text only (no id, no model)."""
    texts = {r["id"]: r["text"] for r in payload.get("responses") or []}
    order = shown_order(list(texts), secret=secret, seed=seed, item_id=item_id, judge_id=judge_id)
    return [{"position": i + 1, "text": texts[rid]} for i, rid in enumerate(order)]


def judge_item(
    *, secret: str, judge_id: int, seed: int, item_id: int, category: str, payload: dict[str, Any], is_own: bool
) -> JudgeItem:
    """The prompt, its input and the responses in the rater's order, numbered 1..N; no model, no id; the
    category's rubrics and the scales' anchor words (in the active language)."""
    view = {
        "prompt": payload.get("prompt", ""),
        "input": payload.get("input", ""),
        "responses": shown_responses(payload, secret=secret, seed=seed, item_id=item_id, judge_id=judge_id),
        "rubrics": rubrics_for(category),
        "anchors": anchors_for(category),
    }
    return JudgeItem(item_id=item_id, category=category, view=view, is_own=is_own)


def anonymous_payload(
    payload: dict[str, Any], *, secret: str, seed: int, item_id: int, viewer_id: int
) -> dict[str, Any]:
    """A prompt as it is shown to someone who may rate it (its writer, on the item page and API): the
    responses in that person's own rating order, text only. Ids, models, runs and pairs stay with reviewers."""
    shown = {key: payload[key] for key in ("prompt", "input", "language") if key in payload}
    shown["responses"] = shown_responses(payload, secret=secret, seed=seed, item_id=item_id, judge_id=viewer_id)
    return shown


def _small_number(text: str) -> int | None:
    """A posted number given as text ("3"), or None. ASCII digits only and at most three of them: int()
    refuses some Unicode digits ("²") and very long ones, which would be a 500 instead of a 400."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 3 else None


def _score(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value in SCORES else None
    if isinstance(value, str):
        number = _small_number(value)
        return None if number is None else _score(number)
    return None


def _by_position(raw: Any, errors: dict[str, list[str]]) -> list[Any] | None:
    """Ratings by shown position: a list (position 1 first) or an object keyed "1".."N". Anything else -
    response ids ("r1") above all - is refused: the server alone knows which response a position is."""
    if isinstance(raw, list):
        return raw
    if isinstance(raw, dict):
        positions = {_small_number(str(key)): value for key, value in raw.items()}
        if raw and len(positions) == len(raw) and set(positions) == set(range(1, len(raw) + 1)):
            return [positions[n] for n in range(1, len(raw) + 1)]
    errors["ratings"] = [
        gettext("Rate the responses by the positions you are shown (1 to %(n)s), never by response id.")
        % {"n": len(raw) if isinstance(raw, list | dict) and raw else MAX_RESPONSES}
    ]
    return None


def normalize_judgment(data: dict[str, Any]) -> JudgmentInput:
    """{"ratings": [{"relevance", "fluency"}, ...] by shown position (or {"1": {...}, "2": {...}}), "best":
    position, "comment"} (also nested under "value"). Every position needs both scores; the best is one of
    the positions."""
    if not isinstance(data, dict):
        raise InvalidInput(
            gettext("A rating must be an object."), field_errors={"ratings": [gettext("Give an object.")]}
        )
    value = data.get("value") if isinstance(data.get("value"), dict) else data
    errors: dict[str, list[str]] = {}
    raw = _by_position(value.get("ratings"), errors)
    ratings: list[dict[str, int]] = []
    if raw is not None and (not raw or len(raw) > MAX_RESPONSES):
        errors["ratings"] = [
            gettext("Rate every response (1 to %(MAX_RESPONSES)s of them).") % {"MAX_RESPONSES": MAX_RESPONSES}
        ]
    elif raw is not None:
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
    if isinstance(best, str):
        best = _small_number(best)
    # Unreadable ratings leave no range to check a well-formed best against: their own error says it.
    if isinstance(best, bool) or not isinstance(best, int) or best < 1 or (raw is not None and best > len(raw)):
        errors["best"] = [gettext("Pick the best response by its position.")]
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
    judgment: JudgmentInput,
    *,
    secret: str,
    judge_id: int,
    judge_group: str,
    seed: int,
    item_id: int,
    payload: dict[str, Any],
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
    order = shown_order(ids, secret=secret, seed=seed, item_id=item_id, judge_id=judge_id)
    value = {
        "ratings": {rid: dict(scores) for rid, scores in zip(order, ratings, strict=True)},
        "best": order[judgment.value["best"] - 1],
        "order": order,
        "group": judge_group,
    }
    return JudgmentInput(value=value, flags=judgment.flags, comment=judgment.comment)


def own_judgment(
    judgment: JudgmentInput | None, *, secret: str, judge_id: int, seed: int, item_id: int, payload: dict[str, Any]
) -> JudgmentInput | None:
    """A stored rating as its rater is shown it: scores and best by the position they see now (the order
    is recomputed, so a rotated secret or a response added later still lines up), no ids, no order."""
    if judgment is None:
        return None
    ids = [r["id"] for r in payload.get("responses") or []]
    order = shown_order(ids, secret=secret, seed=seed, item_id=item_id, judge_id=judge_id)
    stored = judgment.value.get("ratings")
    ratings = stored if isinstance(stored, dict) else {}
    best = judgment.value.get("best")
    value = {
        "ratings": [dict(ratings.get(rid) or {}) for rid in order],
        "best": order.index(best) + 1 if best in order else None,
    }
    return JudgmentInput(value=value, flags={}, comment=judgment.comment)


def gold_memo_key(case: GoldCase) -> tuple:
    return (tuple(sorted({(j.value or {}).get("group") or "" for j in case.judgments})), len(case.judgments))


def gold_decide(case: GoldCase) -> GoldOutcome:
    groups = sorted({(j.value or {}).get("group") or "" for j in case.judgments})
    details = {"groups": groups, "ratings": len(case.judgments)}
    missing = [g for g in GROUPS if g not in groups]
    if missing:
        return GoldOutcome("pending", reason=f"waiting for group {', '.join(missing)}", details=details)
    return GoldOutcome("gold", reason="rated by both groups", details=details)
