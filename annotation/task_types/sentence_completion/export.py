"""The completion export in ArabCulture's released layout (one JSON object per line):

worker_id, sample_id, sub_topic, first_statement, options{arabic_keys, english_keys, text},
answer_key{arabic_answer_key, english_answer_key}, relevant_to_this_country, relevant_to_other_countries,
should_discard, country, region.

Pure: the core's export engine streams ExportRecords in and writes JSONL, CSV or Parquet and the card.
Importing an export (format `arabculture`) gives back the same rows.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from annotation.task_types.base import ExportRecord
from annotation.task_types.sentence_completion.payload import LETTERS
from annotation.task_types.sentence_completion.places import ARABIC_KEYS, ENGLISH_KEYS

SPLIT = "test"  # the release ships one test set
FIELDS = (
    "worker_id",
    "sample_id",
    "sub_topic",
    "first_statement",
    "options",
    "answer_key",
    "relevant_to_this_country",
    "relevant_to_other_countries",
    "should_discard",
    "country",
    "region",
)


def _yes_no(value: Any, raw: Any) -> Any:
    if value is True:
        return "Yes"
    if value is False:
        return "No"
    return raw  # what the file said when it was neither (kept by the importer), else None


def release_row(
    *,
    worker_id: str,
    sample_id: str,
    sub_topic: str,
    payload: dict[str, Any],
    discarded: bool,
) -> dict[str, Any]:
    release = payload.get("release") if isinstance(payload.get("release"), dict) else {}
    raw = release.get("raw") or {}
    answer = payload.get("answer") or ""
    index = LETTERS.index(answer) if answer in LETTERS else None
    return {
        "worker_id": worker_id,
        "sample_id": sample_id,
        "sub_topic": sub_topic,
        "first_statement": payload.get("premise", ""),
        "options": {
            "arabic_keys": list(ARABIC_KEYS),
            "english_keys": list(ENGLISH_KEYS),
            "text": list(payload.get("completions") or []),
        },
        "answer_key": {
            "arabic_answer_key": ARABIC_KEYS[index] if index is not None else raw.get("arabic_answer_key", answer),
            "english_answer_key": answer,
        },
        "relevant_to_this_country": _yes_no(
            payload.get("relevant_to_this_country"), raw.get("relevant_to_this_country")
        ),
        "relevant_to_other_countries": _yes_no(
            payload.get("relevant_to_other_countries"), raw.get("relevant_to_other_countries")
        ),
        "should_discard": "Yes" if discarded else "No",
        "country": payload.get("country", ""),
        "region": payload.get("region", ""),
    }


def export_row(record: ExportRecord) -> dict[str, Any]:
    item = record.item
    payload = item.payload
    release = payload.get("release") if isinstance(payload.get("release"), dict) else {}
    return release_row(
        worker_id=release.get("worker_id") or item.author_code,
        sample_id=release.get("sample_id") or item.external_id,
        sub_topic=item.unit_name,
        payload=payload,
        discarded=record.gold is not None and record.gold.outcome == "excluded",
    )


def parquet_schema() -> Any:
    import pyarrow as pa  # imported on use: JSON Lines and CSV exports don't need it

    keys = pa.list_(pa.string())
    return pa.schema(
        [
            ("worker_id", pa.string()),
            ("sample_id", pa.string()),
            ("sub_topic", pa.string()),
            ("first_statement", pa.string()),
            ("options", pa.struct([("arabic_keys", keys), ("english_keys", keys), ("text", keys)])),
            ("answer_key", pa.struct([("arabic_answer_key", pa.string()), ("english_answer_key", pa.string())])),
            ("relevant_to_this_country", pa.string()),
            ("relevant_to_other_countries", pa.string()),
            ("should_discard", pa.string()),
            ("country", pa.string()),
            ("region", pa.string()),
        ]
    )


class CompletionExportStats:
    """Counts for the data card: items per country and the country-specific share."""

    def __init__(self) -> None:
        self.countries: Counter = Counter()
        self.country_specific = 0
        self.items = 0

    def add(self, record: ExportRecord) -> None:
        payload = record.item.payload
        self.items += 1
        self.countries[payload.get("country") or "unknown"] += 1
        if payload.get("relevant_to_other_countries") is False:
            self.country_specific += 1


FIELD_HELP = {
    "worker_id": "the author's public code (W1... or the release's worker id)",
    "sample_id": "the item's id in the release",
    "sub_topic": "the subtopic (the catalog unit the item was written for)",
    "first_statement": "the premise: the start of the sentence",
    "options": "the three completions with their Arabic (أ ب ج) and English (A B C) keys",
    "answer_key": "the culturally right completion, as an Arabic and an English key",
    "relevant_to_this_country": "Yes / No: the author says it holds in their country",
    "relevant_to_other_countries": "Yes / No: it holds in other Arab countries too (No: country-specific)",
    "should_discard": "Yes when the peer of the author's country answered it wrongly (never exported)",
    "country": "the author's country",
    "region": "Gulf, Levant, North Africa or Nile Valley",
}

PROTOCOL = """\
ArabCulture protocol (Sadallah et al., ACL 2025): screened native annotators write a premise and three
completions that are all grammatical and logical, of which only one is culturally right in their
country. Stage 1: a reviewer of the same country checks language and guideline compliance. Stage 2: another
annotator of the same country answers the item as a multiple-choice question with the completions
shuffled and without seeing the author's answer; an item the peer gets wrong is discarded."""


def datacard_text(stats: Any) -> str:
    task = getattr(stats, "task", None)
    countries = dict(sorted(task.countries.items())) if task is not None else {}
    items = task.items if task is not None else 0
    specific = task.country_specific if task is not None else 0
    lines = ["## Items per country", ""]
    lines += ["| country | items |", "|---|---|"] + [f"| {c} | {n} |" for c, n in countries.items()]
    share = f"{specific / items:.1%}" if items else "n/a"
    lines += ["", f"Country-specific items (not relevant to other countries): {specific} of {items} ({share}).", ""]
    lines += ["## Fields", "", *(f"- `{f}`: {FIELD_HELP[f]}" for f in FIELDS), "", "## Annotation protocol", ""]
    lines += [PROTOCOL, ""]
    return "\n".join(lines)
