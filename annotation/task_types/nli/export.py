"""NLI export hooks: the released IndoNLI fields, one row per pair, its split, a Parquet schema and the
data card's NLI sections. Pure: the core's export engine streams ExportRecords in and writes the files.

Labels are written as the release writes them (e, n, c). `label` is the released label: the gold one for
dev and test, the author's for train (the paper's footnote 5). `labels_round_1..3` hold the validators'
labels of each round (code order: the project's annotator order), so the rounds can be replayed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from annotation.task_types.base import ExportRecord
from annotation.task_types.nli.labels import CODES
from annotation.task_types.nli.rounds import ROUND_SIZES
from annotation.task_types.nli.splits import (
    EXCLUDED,
    PENDING,
    RELEASED,
    SPLITS,
    Pair,
    build_pair,
    label_or_none,
)

ROUNDS = tuple(sorted(ROUND_SIZES))
ROUND_FIELDS = tuple(f"labels_round_{n}" for n in ROUNDS)
EXPORT_FIELDS: tuple[str, ...] = (
    "pair_id",
    "premise_id",
    "premise",
    "hypothesis",
    "label",
    "author_label",
    "annotation_round",
    "data_split",
    "annotator_type",
    "sentence_size",
    "source",
    "topics",
    *ROUND_FIELDS,
)
TABLE_4_ORDER = ("entailment", "contradiction", "neutral")
NOT_EXPORTED = ""  # export_split of a pair that is in no released split (still in validation, or excluded)


def _code(label: str | None) -> str | None:
    return CODES.get(label) if label else None


def pair_of(record: ExportRecord) -> Pair:
    judged = max((j.round for j in record.judgments if label_or_none(j.value.get("label"))), default=0)
    return build_pair(record.item, record.gold, judged, record.settings, record.seed)


def export_split(record: ExportRecord) -> str:
    """train, dev, test_lay or test_expert; NOT_EXPORTED ("") for a pair still in validation or an expert
    pair without gold (the paper leaves those out of the release)."""
    split = pair_of(record).split
    return NOT_EXPORTED if split in (EXCLUDED, PENDING) else split


def export_row(record: ExportRecord) -> dict[str, Any]:
    """One pair in the released IndoNLI fields plus the validators' labels by round."""
    pair = pair_of(record)
    by_round: dict[int, list[str]] = {n: [] for n in ROUNDS}
    for judgment in record.judgments:
        label = label_or_none(judgment.value.get("label"))
        if label is not None and judgment.round in by_round:
            by_round[judgment.round].append(CODES[label])
    data_split, annotator_type = RELEASED.get(pair.split, (None, pair.annotator_type))
    return {
        "pair_id": pair.pair_id,
        "premise_id": pair.premise_id,
        "premise": pair.premise,
        "hypothesis": pair.hypothesis,
        "label": _code(pair.label),
        "author_label": _code(pair.author_label),
        "annotation_round": pair.round or None,
        "data_split": data_split,
        "annotator_type": annotator_type,
        "sentence_size": pair.sentence_size,
        "source": pair.source,
        "topics": list(pair.topics),
        **{field: by_round[n] for field, n in zip(ROUND_FIELDS, ROUNDS, strict=True)},
    }


def parquet_schema() -> Any:
    import pyarrow as pa  # imported on use: JSON Lines and CSV exports don't need it

    labels = pa.list_(pa.string())
    return pa.schema(
        [
            ("pair_id", pa.string()),
            ("premise_id", pa.string()),
            ("premise", pa.string()),
            ("hypothesis", pa.string()),
            ("label", pa.string()),
            ("author_label", pa.string()),
            ("annotation_round", pa.int8()),
            ("data_split", pa.string()),
            ("annotator_type", pa.string()),
            ("sentence_size", pa.string()),
            ("source", pa.string()),
            ("topics", labels),
            *((field, labels) for field in ROUND_FIELDS),
        ]
    )


# --- data card --------------------------------------------------------------------------------------

FIELD_HELP: dict[str, str] = {
    "pair_id": "the pair's id (the item's external id)",
    "premise_id": "the premise's id; all pairs of one premise are in one of dev and test_lay, never both",
    "premise": "the premise text (a sentence, two sentences or a paragraph)",
    "hypothesis": "the hypothesis written by the author for this premise",
    "label": "e (entailment), n (neutral) or c (contradiction): the gold label for dev and test, the author's "
    "label for train",
    "author_label": "the label the author wrote the hypothesis for",
    "annotation_round": "the validation round the gold label was reached in (1, 2 or 3); empty when not validated",
    "data_split": "train, dev or test",
    "annotator_type": "lay or expert (who wrote and validated the pair)",
    "sentence_size": "single, double or multiple (the paper's SINGLE-SENT, DOUBLE-SENTS, PARAGRAPH)",
    "source": "the premise's genre (wiki, news, web)",
    "topics": "the premise's topics",
    "labels_round_1": "the validators' labels in round 1 (two validators, never the author)",
    "labels_round_2": "the validator's label in round 2 (only pairs not settled in round 1)",
    "labels_round_3": "the validator's label in round 3 (only pairs not settled in round 2)",
}

PROTOCOL = """\
Each premise was given to one writer, who wrote six hypotheses: two entailed by the premise, two
contradicting it and two neutral (Mahendra et al. 2021, "IndoNLI: A Natural Language Inference Dataset
for Indonesian", EMNLP 2021). A share of the pairs was validated in up to three rounds; validators saw
the premise and the hypothesis only, never the author's label:

1. two validators label the pair; if both chose the author's label, it is the gold label;
2. otherwise one more validator: a label chosen by 3 of the 4 (author included) is gold;
3. otherwise one more validator: a label chosen by 3 of the 5 is gold; else the pair has no gold label.

Splits follow the paper: expert pairs with gold form test_expert; lay pairs with gold are divided into
dev and test_lay by premise (drawn from a hash of the premise id and the project's seed), so no premise
is in both; pairs not validated and lay pairs without gold form train, with the author's label. Expert
pairs without gold are not released. Pairs imported from a release keep the split the release gave them."""


def _get(stats: Any, name: str, default: Any = None) -> Any:
    if isinstance(stats, Mapping):
        return stats.get(name, default)
    return getattr(stats, name, default)


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def datacard_text(stats: Any) -> str:
    """The NLI sections of the data card (Markdown, Hugging Face dataset card style).

    `stats`: a mapping or object with `counts` ({split: pairs}) and optionally `files` ({split: file
    name}) and `labels` ({split: {label: pairs}}), e.g. what the export engine counted while writing.
    """
    counts: Mapping[str, int] = _get(stats, "counts", None) or {}
    files: Mapping[str, str] = _get(stats, "files", None) or {}
    labels: Mapping[str, Mapping[str, int]] = _get(stats, "labels", None) or {}
    order = [split for split in SPLITS if split in counts] + sorted(set(counts) - set(SPLITS))
    split_rows = []
    for split in order:
        data_split, annotator_type = RELEASED.get(split, ("", ""))
        by_label = labels.get(split, {})
        shown = ", ".join(f"{label} {by_label[label]}" for label in TABLE_4_ORDER if label in by_label)
        split_rows.append([split, files.get(split, ""), data_split, annotator_type, str(counts[split]), shown])
    return "\n".join(
        [
            "## Splits",
            "",
            _table(["split", "file", "data_split", "annotator_type", "pairs", "labels"], split_rows)
            if split_rows
            else "No pairs were exported.",
            "",
            "## Fields",
            "",
            *(f"- `{field}`: {FIELD_HELP[field]}" for field in EXPORT_FIELDS),
            "",
            "## Annotation protocol",
            "",
            PROTOCOL,
            "",
        ]
    )
