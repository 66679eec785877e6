"""An NLI pair as the reports and the export see it, with its released label and split (Section 3.3).

The paper's rule, applied to a pair from the core's plain records (no database):
- an expert pair with gold goes to test_expert;
- a lay pair with gold goes to dev or test_lay, drawn per *premise* from a hash of the premise id and
  the project's plan_seed, so no premise is in both and the draw never changes when pairs are added;
- a pair that was not validated, or a lay pair without gold, goes to train with the author's label
  (footnote 5); an expert pair without gold is left out of the release ("we excluded them");
- a pair still in validation has no split yet (PENDING): it is neither released nor counted as train.
A pair imported from a release that names its split (data_split, annotator_type in the payload or the
premise's data) keeps that split: the release's own assignment is the fact, ours would be a guess.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from annotation.task_types.base import GoldInfo, ItemRecord
from annotation.task_types.nli.labels import FROM_CODE, LABELS, UnknownLabel, normalize_label

TRAIN = "train"
DEV = "dev"
TEST_LAY = "test_lay"
TEST_EXPERT = "test_expert"
SPLITS: tuple[str, ...] = (TRAIN, DEV, TEST_LAY, TEST_EXPERT)  # Table 4's columns, in its order
EXCLUDED = "excluded"  # expert pair without gold: not released
PENDING = "pending"  # validation not finished: no split yet
LAY = "lay"
EXPERT = "expert"
ANNOTATOR_TYPES: tuple[str, ...] = (LAY, EXPERT)
# released (data_split, annotator_type) of each of our splits: the fields of the IndoNLI files
RELEASED: dict[str, tuple[str, str]] = {
    TRAIN: ("train", LAY),
    DEV: ("dev", LAY),
    TEST_LAY: ("test", LAY),
    TEST_EXPERT: ("test", EXPERT),
}
_FILE_SPLITS = {("train", LAY): TRAIN, ("dev", LAY): DEV, ("test", LAY): TEST_LAY, ("test", EXPERT): TEST_EXPERT}
# Items that reached approval; drafts, submissions under review and rejected items are not pairs yet.
PAIR_STATUSES = frozenset({"approved", "judged", "gold", "excluded"})
DEV_PERCENT_DEFAULT = 50  # the release's lay dev and test are about the same size (2,197 and 2,201)


@dataclass(slots=True)  # not frozen: a frozen dataclass's __init__ is ~2x slower, and reports build 10^5
class Pair:
    item_id: int
    pair_id: str
    premise_id: str
    premise: str
    hypothesis: str
    author_label: str | None
    gold_label: str | None  # only when the pair has gold
    outcome: str  # gold | no_gold | pending | excluded | not_validated
    round: int  # the round the pair was settled in (or is in); 0 when never validated
    annotator_type: str  # lay | expert
    split: str  # one of SPLITS, EXCLUDED or PENDING
    label: str | None  # the released label: gold if any, else the author's (train)
    sentence_size: str | None
    source: str
    topics: tuple[str, ...]
    tags: tuple[str, ...]
    author_id: int | None
    author_code: str

    @property
    def data_split(self) -> str | None:
        return RELEASED[self.split][0] if self.split in RELEASED else None

    @property
    def phenomena(self) -> tuple[str, ...]:  # artefacts.phenomenon_counts reads this name
        return self.tags

    @property
    def validated(self) -> bool:
        return self.round > 0


NOT_VALIDATED = "not_validated"


# the spellings seen in practice, looked up directly: a report normalises ~10^6 labels at 120,000 pairs
KNOWN_LABELS = {**{label: label for label in LABELS}, **FROM_CODE}


def label_or_none(value: object) -> str | None:
    """The canonical label, or None for no label and for a value that is not a label."""
    known = KNOWN_LABELS.get(value) if isinstance(value, str) else None
    if known is not None:
        return known
    try:
        return normalize_label(value)
    except UnknownLabel:
        return None


def project_annotator_type(settings: Mapping[str, Any]) -> str:
    """lay or expert, from the project's settings (an `expert` flag, or an `annotator_type` name)."""
    if settings.get("annotator_type") in ANNOTATOR_TYPES:
        return settings["annotator_type"]
    return EXPERT if settings.get("expert") else LAY


def premise_split(premise_id: str, seed: int, dev_percent: int = DEV_PERCENT_DEFAULT) -> str:
    """dev or test_lay for a lay premise with gold: a hash of (seed, premise id), stable across runs and
    machines (not Python's salted hash), so the same premise always lands in the same split."""
    digest = hashlib.sha256(f"{seed}:{premise_id}".encode()).digest()
    return DEV if int.from_bytes(digest[:8], "big") % 100 < dev_percent else TEST_LAY


def _given(item: ItemRecord, name: str) -> Any:
    """A value the pair's payload, the release's fields kept with it (payload["release"], written by
    the importers) or the premise's data gives, in that order."""
    value = item.payload.get(name)
    if value in (None, ""):
        release = item.payload.get("release")
        value = release.get(name) if isinstance(release, dict) else None
    return item.unit_data.get(name) if value in (None, "") else value


_RELEASE_FIELDS = ("data_split", "annotator_type", "annotation_round")


@dataclass(frozen=True)
class _Released:
    """What a released file said about a pair (none of it for pairs written here)."""

    data_split: Any = None
    annotator_type: Any = None
    annotation_round: Any = None
    label: str | None = None

    @property
    def split(self) -> str | None:
        """The split the file gave (data_split + annotator_type), if it gave a known one."""
        if self.data_split is None or (self.data_split == "test" and self.annotator_type is None):
            return None
        return _FILE_SPLITS.get((self.data_split, self.annotator_type or LAY))


def _released(item: ItemRecord, premise: _Premise) -> _Released:
    payload = item.payload
    release = payload.get("release")
    if not isinstance(release, dict) and not any(name in payload for name in _RELEASE_FIELDS):
        return premise.released  # the common case, pairs written here: nothing per item to read
    values = [_given(item, name) for name in _RELEASE_FIELDS]
    return _Released(*values, label_or_none(release.get("label")) if isinstance(release, dict) else None)


@dataclass(frozen=True)
class _Premise:
    """What every pair of one premise shares (computed once per unit: reports read 10^5 pairs)."""

    key: str
    text: str
    sentence_size: str | None
    source: str
    topics: tuple[str, ...]
    released: _Released  # the premise's own data_split, annotator_type, annotation_round, if any
    lay_split: dict[tuple[int, int], str] = field(default_factory=dict)  # (seed, dev %) -> dev | test_lay


def _premise(item: ItemRecord, cache: dict[Any, _Premise] | None) -> _Premise:
    key = item.unit_id if item.unit_id is not None else ("item", item.item_id)
    if cache is not None and key in cache:
        return cache[key]
    unit = item.unit_data
    premise = _Premise(
        key=_premise_key(item),
        text=str(unit.get("text") or item.payload.get("premise") or item.unit_name or ""),
        sentence_size=_given(item, "sentence_size"),
        source=str(_given(item, "source") or ""),
        topics=_topics(_given(item, "topics") or _given(item, "topic")),
        released=_Released(*(unit.get(name) for name in _RELEASE_FIELDS)),
    )
    if cache is not None and item.unit_id is not None:
        cache[key] = premise
    return premise


def _topics(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,) if value else ()
    if isinstance(value, list | tuple):
        return tuple(str(topic) for topic in value)
    return ()


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


SETTLED = frozenset({"gold", "no_gold", "excluded"})


def _outcome(item: ItemRecord, gold: GoldInfo | None, judged_round: int) -> tuple[str, str | None, int]:
    """(outcome, gold label, round). The round is the one the pair was settled in, or for a pair still in
    validation the furthest it got to; 0 for a pair never sent to validation."""
    if gold is not None and gold.outcome in SETTLED:
        gold_label = label_or_none(gold.details.get("label")) if gold.outcome == "gold" else None
        number = _int(gold.details.get("round")) or max(judged_round, item.judging_round)
        if gold.outcome != "gold" or gold_label is not None:  # a gold decision must name its label
            return gold.outcome, gold_label, number
    number = max(judged_round, item.judging_round)
    if number and gold is not None:
        # a decision taken after round n asks for round n + 1 before the engine has planned it
        number = max(number, _int(gold.details.get("round")))
    return ("pending" if number else NOT_VALIDATED), None, number


def build_pair(
    item: ItemRecord,
    gold: GoldInfo | None,
    judged_round: int,
    settings: Mapping[str, Any],
    seed: int,
    premises: dict[Any, _Premise] | None = None,
) -> Pair:
    """One pair with its label, outcome and split (the rule in the module docstring).

    `judged_round`: the latest round the pair has a judgment in (0 if none).
    `premises`: a dict to share per-premise values between the pairs of one premise (pass the same one
    for every pair of a report).
    """
    payload = item.payload
    premise = _premise(item, premises)
    author_label = label_or_none(payload.get("label"))
    if gold is not None and gold.details.get("author_label"):
        author_label = label_or_none(gold.details["author_label"]) or author_label
    outcome, gold_label, number = _outcome(item, gold, judged_round)
    released = _released(item, premise)
    annotator_type = released.annotator_type
    if annotator_type not in ANNOTATOR_TYPES:
        annotator_type = project_annotator_type(settings)

    given = released.split
    if given is not None:
        split = given
        if outcome not in SETTLED and not judged_round:
            # a released pair not validated here: the release's outcome stands (dev and test pairs have
            # gold, the released label; train pairs carry the author's), in the round it recorded
            # (a train pair with a recorded round was validated without reaching gold)
            release_label = released.label or author_label
            number = _int(released.annotation_round)
            if given != TRAIN and release_label:
                outcome, gold_label = "gold", release_label
            else:
                outcome, gold_label = ("no_gold" if number else NOT_VALIDATED), None
        label = gold_label or released.label or author_label
    elif outcome == "gold":
        split = TEST_EXPERT if annotator_type == EXPERT else _lay_split(premise, seed, _dev(settings))
        label = gold_label
    elif outcome == "pending":
        split, label = PENDING, None
    elif annotator_type == EXPERT and outcome in SETTLED:
        split, label = EXCLUDED, None
    else:  # not validated, or a lay pair without gold: train with the author's label
        split, label = TRAIN, author_label
    tags = payload.get("tags") or ()
    return Pair(
        item_id=item.item_id,
        pair_id=item.external_id or str(item.item_id),
        premise_id=premise.key,
        premise=premise.text,
        hypothesis=str(payload.get("hypothesis") or ""),
        author_label=author_label,
        gold_label=gold_label,
        outcome=outcome,
        round=number,
        annotator_type=annotator_type,
        split=split,
        label=label,
        sentence_size=premise.sentence_size,
        source=premise.source,
        topics=premise.topics,
        tags=tuple(tags) if isinstance(tags, list | tuple) else (),
        author_id=item.author_id,
        author_code=item.author_code,
    )


def _lay_split(premise: _Premise, seed: int, dev_percent: int) -> str:
    key = (seed, dev_percent)
    if key not in premise.lay_split:
        premise.lay_split[key] = premise_split(premise.key, seed, dev_percent)
    return premise.lay_split[key]


def _premise_key(item: ItemRecord) -> str:
    """The premise's id: the release's premise_id, else the unit's name (nli names a premise by its id),
    else the unit's database id."""
    value = _given(item, "premise_id")
    if value not in (None, ""):
        return str(value)
    if item.unit_name:
        return item.unit_name
    return str(item.unit_id) if item.unit_id is not None else f"item-{item.item_id}"


def _dev(settings: Mapping[str, Any]) -> int:
    value = settings.get("dev_percent", DEV_PERCENT_DEFAULT)
    return value if isinstance(value, int) and 0 <= value <= 100 else DEV_PERCENT_DEFAULT
