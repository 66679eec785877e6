"""Gold rule of stage 2 (ArabCulture): kept when the peer of the author's country picks the author's
completion, discarded (excluded, with the reason) when they pick another; nothing is deleted.

An imported item without a peer answer keeps what its release said (`should_discard`).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from annotation.task_types.base import GoldCase, GoldOutcome

POLICY = "completion-peer-v1"


def _release_discard(payload: dict[str, Any]) -> bool | None:
    release = payload.get("release")
    if not isinstance(release, dict) or "should_discard" not in release:
        return None
    value = str(release.get("should_discard") or "").strip().casefold()
    return True if value == "yes" else False if value == "no" else None


def gold_decide(case: GoldCase) -> GoldOutcome:
    author = case.payload.get("answer")
    answers = [j.value.get("answer") for j in case.judgments if isinstance(j.value, dict)]
    if not answers:
        discard = _release_discard(case.payload)
        if discard is True:
            return GoldOutcome(outcome="excluded", reason="Discarded in the release.", details={"release": True})
        if discard is False:
            return GoldOutcome(outcome="gold", details={"release": True})
        return GoldOutcome(outcome="pending", reason="Waiting for the peer's answer.")
    wrong = [a for a in answers if a != author]
    details = {"author_answer": author, "peer_answers": answers}
    if wrong:
        return GoldOutcome(
            outcome="excluded",
            reason=f"The peer chose completion {wrong[0]}, not the author's {author}.",
            details=details,
        )
    return GoldOutcome(outcome="gold", details=details)


def gold_memo_key(case: GoldCase) -> Hashable:
    return (
        case.payload.get("answer"),
        _release_discard(case.payload),
        tuple(j.value.get("answer") if isinstance(j.value, dict) else None for j in case.judgments),
    )
