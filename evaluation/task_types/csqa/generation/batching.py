"""Concepts in batches of up to five from one category per call (Putri et al. 2024, section 4.3:
"a maximum of 5 distinct question concepts from the same categories in one API call")."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from annotation.task_types.csqa.morphology import fold

BATCH_SIZE = 5


@dataclass(frozen=True)
class ConceptRef:
    category: str
    name: str
    id: int | None = None  # the catalog Concept's pk, when there is one


@dataclass(frozen=True)
class Batch:
    category: str
    concepts: tuple[ConceptRef, ...]
    # Several items per concept come from several rounds, each its own call: the prompt asks for one
    # item per concept (the released LLM_GEN file has up to three per concept).
    round: int = 0

    @property
    def key(self) -> str:
        """A stable unit key for the run engine's one-call-per-unit constraint."""
        ids = [str(c.id) if c.id is not None else fold(c.name) for c in self.concepts]
        return f"gen:r{self.round}:{fold(self.category)}:" + ",".join(ids)


def plan_batches(
    concepts: Iterable[ConceptRef], *, size: int = BATCH_SIZE, rounds: int = 1, first_round: int = 0
) -> list[Batch]:
    """Group by category (first-seen order), keep the given order inside, drop repeated concepts;
    the same batches again for each round."""
    if not 1 <= size <= BATCH_SIZE:
        raise ValueError(f"A batch holds 1 to {BATCH_SIZE} concepts.")
    if rounds < 1:
        raise ValueError("Plan at least one round.")
    by_category: dict[str, list[ConceptRef]] = {}
    seen: set[tuple[str, str]] = set()
    for concept in concepts:
        key = (fold(concept.category), fold(concept.name).strip())
        if key in seen:
            continue
        seen.add(key)
        by_category.setdefault(concept.category, []).append(concept)
    batches = []
    for round_index in range(first_round, first_round + rounds):
        for category, refs in by_category.items():
            for start in range(0, len(refs), size):
                batches.append(Batch(category, tuple(refs[start : start + size]), round_index))
    return batches
