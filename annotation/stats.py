"""Small pure statistics shared by the core and the task types (no ORM, no qc import).

Tie-break for the majority answer: among the answers with the highest count, the one seen first in
the order the answers are given. Callers pass answers in the project's public annotator order
(W1, W2, ... by membership code, then user id), so a 2-2-1 tie between W2="B", W3="C", W4="C",
W5="B", W6="A" goes to "B" (W2 answered first). This is the rule that reproduces the published
commonsense-QA release's `answer_majority` for every question.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence


def majority(answers: Sequence[Hashable | None]) -> Hashable | None:
    """Most common answer (None values ignored); ties go to the answer seen first. None if no answer."""
    # A plain dict, not Counter: this runs once per item in exports of 100,000 items.
    counts: dict = {}
    for a in answers:
        if a is not None:
            counts[a] = counts.get(a, 0) + 1
    if not counts:
        return None
    top = max(counts.values())
    for a in answers:
        if a is not None and counts[a] == top:
            return a
    return None  # unreachable: some answer has the top count


def agreement_share(answers: Sequence[Hashable | None], winner: Hashable | None) -> float | None:
    """Share of the answers equal to `winner` (the observed agreement of one item)."""
    given = [a for a in answers if a is not None]
    if not given or winner is None:
        return None
    return sum(1 for a in given if a == winner) / len(given)
