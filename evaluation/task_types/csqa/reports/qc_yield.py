"""QC yield of drafts per source and model: approved unchanged, approved after revision, rejected, and
the error types found. Pure functions over plain rows; the selector that reads reviews builds them.

`pair_revisions` classifies drafts against their human-corrected versions (matched by id), the way
id-csqa ships a before/after pair (`filtered_test.json` and `filtered_test_clean.json`). A draft with
no corrected version is `rejected` when the correction covered every draft (LLM_ADAPT's 158 test
items), and `unreviewed` when the corrected file is a sample (LLM_GEN: 300 of 1,063).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from annotation.task_types.csqa.payload import LABELS

UNCHANGED = "approved_unchanged"
REVISED = "approved_revised"
REJECTED = "rejected"
UNREVIEWED = "unreviewed"
OUTCOMES = (UNCHANGED, REVISED, REJECTED, UNREVIEWED)

# What a revision touched, by csqa field: the paper's Tables 4-7 count question errors and option
# errors separately.
CHANGED_QUESTION = "question"
CHANGED_OPTIONS = "options"
CHANGED_ANSWER = "answer"
CHANGED_CONCEPT = "concept"


@dataclass(frozen=True)
class Draft:
    id: str
    payload: Mapping[str, Any]  # {"question", "choices": [5], "answer"}
    concept: str = ""
    source: str = "llm_gen"
    model: str = ""


@dataclass(frozen=True)
class Paired:
    draft: Draft
    outcome: str
    changed: tuple[str, ...] = ()


@dataclass(frozen=True)
class YieldRow:
    source: str
    model: str
    outcome: str
    error_types: tuple[str, ...] = ()


@dataclass
class YieldCounts:
    total: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    error_types: Counter[str] = field(default_factory=Counter)

    def share(self, outcome: str) -> float:
        """Share among the reviewed drafts (unreviewed ones excluded), in percent, two decimals."""
        reviewed = self.total - self.outcomes[UNREVIEWED]
        return round(100 * self.outcomes[outcome] / reviewed, 2) if reviewed else 0.0


def idcsqa_payload(row: Mapping[str, Any]) -> dict[str, Any]:
    """An id-csqa row's csqa payload (choices by label A-E)."""
    choices = row.get("choices") or {}
    by_label = dict(zip(choices.get("label") or [], choices.get("text") or [], strict=False))
    return {
        "question": row.get("question", ""),
        "choices": [by_label.get(label, "") for label in LABELS],
        "answer": row.get("answer_creator", ""),
    }


def changed_fields(before: Draft, after: Draft) -> tuple[str, ...]:
    changed = []
    if before.payload.get("question") != after.payload.get("question"):
        changed.append(CHANGED_QUESTION)
    if list(before.payload.get("choices", [])) != list(after.payload.get("choices", [])):
        changed.append(CHANGED_OPTIONS)
    if before.payload.get("answer") != after.payload.get("answer"):
        changed.append(CHANGED_ANSWER)
    if before.concept != after.concept:
        changed.append(CHANGED_CONCEPT)
    return tuple(changed)


def pair_revisions(drafts: Iterable[Draft], corrected: Iterable[Draft], *, corrected_is_complete: bool) -> list[Paired]:
    by_id = {c.id: c for c in corrected}
    missing = REJECTED if corrected_is_complete else UNREVIEWED
    out = []
    for draft in drafts:
        fixed = by_id.get(draft.id)
        if fixed is None:
            out.append(Paired(draft, missing))
            continue
        changed = changed_fields(draft, fixed)
        out.append(Paired(draft, REVISED if changed else UNCHANGED, changed))
    return out


def yield_rows(paired: Iterable[Paired]) -> list[YieldRow]:
    """Paired drafts as report rows; what a revision changed stands in for its error types."""
    return [
        YieldRow(p.draft.source, p.draft.model, p.outcome, tuple(f"changed_{f}" for f in p.changed)) for p in paired
    ]


def qc_yield(rows: Iterable[YieldRow]) -> dict[tuple[str, str], YieldCounts]:
    """Counts per (source, model), in first-seen order."""
    report: dict[tuple[str, str], YieldCounts] = {}
    for row in rows:
        counts = report.setdefault((row.source, row.model), YieldCounts())
        counts.total += 1
        counts.outcomes[row.outcome] += 1
        counts.error_types.update(row.error_types)
    return report
