"""A generation reply -> accepted csqa payloads and filtered records, each filter with its reason.

Order of the checks for each record found in the reply (the first that fails names the reason):
  malformed             not an item at all (no question text)
  unknown_concept       names a concept that is not in the batch
  invalid               refused by the csqa task type (5 distinct non-empty options, answer in A-E,
                        limits), its messages kept as the detail
  concept_missing       the question does not contain its concept (the paper's filter, section 4.3;
                        the task type's affix-aware matcher decides)
  extra_for_concept     a second good item for a concept already served in this reply: one per concept
  duplicate_in_run      same normalised question as an item accepted earlier in the run
  duplicate_in_project  same normalised question as an item already in the project
Batch concepts that got no item at all are listed in `missing`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Set
from dataclasses import dataclass, field
from typing import Any

from annotation.errors import InvalidInput
from annotation.task_types.csqa import payload as csqa_payload
from annotation.task_types.csqa.morphology import fold, mentions_concept
from evaluation import replies
from evaluation.task_types.csqa.generation.batching import Batch, ConceptRef
from evaluation.task_types.csqa.generation.records import candidate, looks_like_item

MALFORMED = "malformed"
UNKNOWN_CONCEPT = "unknown_concept"
INVALID = "invalid"
CONCEPT_MISSING = "concept_missing"
EXTRA_FOR_CONCEPT = "extra_for_concept"
DUPLICATE_IN_RUN = "duplicate_in_run"
DUPLICATE_IN_PROJECT = "duplicate_in_project"
REASONS = (
    MALFORMED,
    UNKNOWN_CONCEPT,
    INVALID,
    CONCEPT_MISSING,
    EXTRA_FOR_CONCEPT,
    DUPLICATE_IN_RUN,
    DUPLICATE_IN_PROJECT,
)


@dataclass
class Accepted:
    concept: ConceptRef
    payload: dict[str, Any]  # csqa's canonical payload
    dedup_key: str
    record: dict[str, Any]  # the object as the model wrote it


@dataclass
class Filtered:
    reason: str
    detail: str
    concept: str | None
    record: Any


@dataclass
class ReplyOutcome:
    accepted: list[Accepted] = field(default_factory=list)
    filtered: list[Filtered] = field(default_factory=list)
    missing: list[ConceptRef] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # about the reply as a whole
    truncated: bool = False

    def reason_counts(self) -> dict[str, int]:
        counts = dict.fromkeys(REASONS, 0)
        for f in self.filtered:
            counts[f.reason] += 1
        return counts


def question_key(question: str) -> str:
    """The duplicate key: case, accents, punctuation and spacing ignored."""
    return " ".join(re.findall(r"\w+", fold(question)))


def _concept_key(name: str) -> str:
    return " ".join(re.findall(r"\w+", fold(name)))


def _attribute(concept: str | None, question: str, position: int, batch: Batch) -> ConceptRef | None:
    by_key = {_concept_key(c.name): c for c in batch.concepts}
    if concept is not None:
        return by_key.get(_concept_key(concept))
    # No concept named: the one concept the question mentions, else the record's position.
    mentioned = [c for c in batch.concepts if mentions_concept(question, c.name)]
    if len(mentioned) == 1:
        return mentioned[0]
    return batch.concepts[position] if position < len(batch.concepts) else None


def _errors_text(errors: dict[str, list[str]]) -> str:
    return " ".join(message for messages in errors.values() for message in messages)


def process_reply(
    reply: str,
    batch: Batch,
    *,
    run_keys: Set[str] = frozenset(),
    project_keys: Set[str] = frozenset(),
) -> ReplyOutcome:
    extracted = replies.json_values(reply)
    outcome = ReplyOutcome(problems=list(extracted.problems), truncated=extracted.truncated)
    rows = list(replies.records(extracted.values, is_record=lambda v: "question" in v))
    if extracted.values and not rows:
        outcome.problems.append("The reply has JSON but no object with a question.")
    served: set[str] = set()
    keys: set[str] = set()
    for position, (record, _key) in enumerate(rows):
        outcome_item = _process_record(
            record, position, batch, served=served, keys=keys, run_keys=run_keys, project_keys=project_keys
        )
        if isinstance(outcome_item, Accepted):
            outcome.accepted.append(outcome_item)
            served.add(_concept_key(outcome_item.concept.name))
            keys.add(outcome_item.dedup_key)
        else:
            outcome.filtered.append(outcome_item)
    named = served | {_concept_key(f.concept) for f in outcome.filtered if f.concept}
    outcome.missing = [c for c in batch.concepts if _concept_key(c.name) not in named]
    return outcome


def _process_record(
    record: dict[str, Any],
    position: int,
    batch: Batch,
    *,
    served: Set[str],
    keys: Set[str],
    run_keys: Set[str],
    project_keys: Set[str],
) -> Accepted | Filtered:
    if not looks_like_item(record):
        return Filtered(MALFORMED, "The object has no question text.", None, record)
    cand = candidate(record)
    concept = _attribute(cand.concept, cand.data["question"], position, batch)
    if concept is None:
        return Filtered(UNKNOWN_CONCEPT, f"“{cand.concept}” is not one of the batch's concepts.", cand.concept, record)
    try:
        payload = csqa_payload.normalize(cand.data)
    except InvalidInput as error:
        return Filtered(INVALID, _errors_text(error.field_errors) or error.message, concept.name, record)
    checked = csqa_payload.check(payload, concept=None)
    if checked.errors:
        return Filtered(INVALID, _errors_text(checked.errors), concept.name, record)
    if not mentions_concept(payload["question"], concept.name):
        return Filtered(CONCEPT_MISSING, f"The question does not contain “{concept.name}”.", concept.name, record)
    if _concept_key(concept.name) in served:
        return Filtered(EXTRA_FOR_CONCEPT, "The reply already gave an item for this concept.", concept.name, record)
    key = question_key(payload["question"])
    if key in keys or key in run_keys:
        return Filtered(DUPLICATE_IN_RUN, "The same question was generated earlier in this run.", concept.name, record)
    if key in project_keys:
        return Filtered(DUPLICATE_IN_PROJECT, "The project already has this question.", concept.name, record)
    return Accepted(concept=concept, payload=payload, dedup_key=key, record=record)


@dataclass
class RunOutcome:
    accepted: list[Accepted] = field(default_factory=list)
    filtered: list[Filtered] = field(default_factory=list)
    missing: list[ConceptRef] = field(default_factory=list)
    replies_with_problems: int = 0

    def reason_counts(self) -> dict[str, int]:
        counts = dict.fromkeys(REASONS, 0)
        for f in self.filtered:
            counts[f.reason] += 1
        return counts


def process_run(results: Iterable[tuple[Batch, str]], *, project_keys: Set[str] = frozenset()) -> RunOutcome:
    """Every reply of a run in order, duplicates checked across replies (what the engine does call by call)."""
    run = RunOutcome()
    run_keys: set[str] = set()
    for batch, reply in results:
        outcome = process_reply(reply, batch, run_keys=run_keys, project_keys=project_keys)
        run.accepted.extend(outcome.accepted)
        run.filtered.extend(outcome.filtered)
        run.missing.extend(outcome.missing)
        run.replies_with_problems += bool(outcome.problems)
        run_keys.update(a.dedup_key for a in outcome.accepted)
    return run
