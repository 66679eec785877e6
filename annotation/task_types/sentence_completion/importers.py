"""Import format `arabculture`: ArabCulture's released JSON Lines layout.

worker_id (the author's code), sample_id, sub_topic (the unit: a concept of the topic category),
first_statement, options{arabic_keys, english_keys, text}, answer_key{arabic_answer_key,
english_answer_key}, relevant_to_this_country, relevant_to_other_countries ("Yes" / "No"),
should_discard ("Yes": excluded with the reason kept), country, region. An optional known_answer (the
completion a peer should choose: A, B or C) makes the row a known-answer check.

A pure streaming parser: every bad line (not UTF-8, not JSON, not an object) refuses the whole file by
line number; a row without a premise or three completions is skipped and reported; odd values are kept
as the file gave them (under the payload's "release") and reported by row.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.utils.translation import gettext_lazy

from annotation.importing.records import (
    BinaryStream,
    FileScan,
    Importer,
    ImportFileError,
    ImportRecord,
    ImportUnit,
    RowIssue,
    known_answer_text,
)
from annotation.importing.textfile import NotJson, json_line, row_problem, text_lines
from annotation.task_types.sentence_completion.payload import LETTERS, answer_letter, yes_no
from annotation.task_types.sentence_completion.places import COUNTRIES, REGION_OF, TOPICS, country_name

MAX_EXTERNAL_ID = 200
MAX_CODE = 40
MAX_UNIT_NAME = 300
REFUSED_SHOWN = 20
UNKNOWN_TOPIC = "Unknown"
SKIPPING = frozenset({"missing_id", "no_premise", "no_completions", "duplicate_id", "bad_worker"})


def _rows(stream: BinaryStream) -> Iterator[tuple[int, dict[str, Any] | str]]:
    """(line, object) or (line, reason it can't be read); blank lines skipped. The first line that is
    not UTF-8 refuses the file at once (ImportFileError)."""
    for number, text in text_lines(stream):
        if not text.strip():
            continue
        try:
            value = json_line(text)
        except NotJson as error:
            yield number, str(error)
            continue
        if not isinstance(value, dict):
            yield number, f"a JSON {type(value).__name__}, not an object with fields"
            continue
        found = row_problem(value)
        if found is not None:
            yield number, f"{found[0]}: {found[1]}"
            continue
        yield number, value


def _str(value: Any) -> str:
    return value.strip() if isinstance(value, str) else "" if value is None else str(value)


def _topic(sub_topic: str) -> str:
    folded = sub_topic.casefold()
    return next((t for t in TOPICS if t.casefold() == folded), UNKNOWN_TOPIC)


class ArabCultureImporter(Importer):
    name = "arabculture"
    label = gettext_lazy("ArabCulture release (JSON Lines)")
    help = gettext_lazy(
        "worker_id, sample_id, sub_topic, first_statement, options{arabic_keys, english_keys, text}, "
        "answer_key{arabic_answer_key, english_answer_key}, relevant_to_this_country, "
        "relevant_to_other_countries, should_discard, country, region. worker_id names the author; "
        "should_discard Yes imports the item as discarded. An optional known_answer (A, B or C) makes the row a "
        "known-answer check."
    )
    judgment_kind = "answer"
    judgments_word = "peer answers"
    default_language = "ar"  # Modern Standard Arabic
    skipping_codes = SKIPPING

    def scan(self, stream: BinaryStream, *, known_annotators: Iterable[str], max_annotators: int) -> FileScan:
        refused: list[tuple[int, str]] = []
        workers: dict[str, None] = {}
        count = 0
        for line, row in _rows(stream):
            count += 1
            if isinstance(row, str):
                refused.append((line, row))
                continue
            worker = _str(row.get("worker_id"))
            if worker and len(worker) <= MAX_CODE:
                workers.setdefault(worker)
        if refused:
            shown = "; ".join(f"line {n}: {m}" for n, m in refused[:REFUSED_SHOWN])
            more = f" (and {len(refused) - REFUSED_SHOWN} more)" if len(refused) > REFUSED_SHOWN else ""
            raise ImportFileError(f"{len(refused)} line(s) can't be read: {shown}{more}. Nothing was imported.")
        if count == 0:
            raise ImportFileError("The file has no items; nothing was imported.")
        if len(workers) > max_annotators:
            raise ImportFileError(
                f"The file names {len(workers)} workers; the project allows {max_annotators} annotators. "
                "Nothing was imported."
            )
        return FileScan(annotators=tuple(workers), rows=count)

    def records(self, stream: BinaryStream, *, scan: FileScan) -> Iterator[ImportRecord | RowIssue]:
        seen: dict[str, int] = {}
        for line, row in _rows(stream):
            if isinstance(row, str):
                raise ImportFileError(f"line {line}: {row}. Nothing was imported.")
            yield from _record(line, row, seen)


def _record(line: int, row: dict[str, Any], seen: dict[str, int]) -> Iterator[ImportRecord | RowIssue]:
    worker = _str(row.get("worker_id"))
    sample = _str(row.get("sample_id"))
    external_id = f"{worker}:{sample}" if worker else sample
    if not sample or len(external_id) > MAX_EXTERNAL_ID:
        yield RowIssue(line, "", "missing_id", "No sample_id (or too long); row skipped.")
        return
    if len(worker) > MAX_CODE:
        yield RowIssue(line, external_id, "bad_worker", f"worker_id is longer than {MAX_CODE}; row skipped.")
        return
    if external_id in seen:
        yield RowIssue(line, external_id, "duplicate_id", f"Already in row {seen[external_id]}; row skipped.")
        return
    seen[external_id] = line
    premise = _str(row.get("first_statement"))
    options = row.get("options") if isinstance(row.get("options"), dict) else {}
    texts = options.get("text") if isinstance(options.get("text"), list) else None
    if not premise:
        yield RowIssue(line, external_id, "no_premise", "No first_statement; row skipped.")
        return
    if texts is None or len(texts) != len(LETTERS) or not all(isinstance(t, str) for t in texts):
        yield RowIssue(line, external_id, "no_completions", "options.text is not three texts; row skipped.")
        return
    answer_key = row.get("answer_key") if isinstance(row.get("answer_key"), dict) else {}
    english = _str(answer_key.get("english_answer_key"))
    arabic = _str(answer_key.get("arabic_answer_key"))
    answer = answer_letter(english or arabic)
    raw: dict[str, Any] = {}
    if answer not in LETTERS:
        raw["arabic_answer_key"] = answer_key.get("arabic_answer_key")
        yield RowIssue(line, external_id, "odd_answer", f"answer_key {english or arabic!r} is not A, B or C; kept.")
    elif arabic and answer_letter(arabic) != answer:
        yield RowIssue(line, external_id, "odd_answer", "The Arabic and English answer keys disagree; English kept.")
    relevance: dict[str, bool | None] = {}
    for field in ("relevant_to_this_country", "relevant_to_other_countries"):
        relevance[field] = yes_no(row.get(field))
        if relevance[field] is None:
            raw[field] = row.get(field)
            yield RowIssue(line, external_id, f"odd_{field}", f"{field} {row.get(field)!r} is not Yes or No; kept.")
    country = country_name(_str(row.get("country"))) or _str(row.get("country"))
    region = _str(row.get("region"))
    if country not in COUNTRIES:
        yield RowIssue(line, external_id, "odd_country", f"country {country!r} is not one of the 13; kept.")
    elif region != REGION_OF[country]:
        yield RowIssue(line, external_id, "odd_region", f"region {region!r} is not {REGION_OF[country]}; corrected.")
        region = REGION_OF[country]
    release: dict[str, Any] = {"sample_id": sample, "should_discard": _str(row.get("should_discard")) or "No"}
    if raw:
        release["raw"] = raw
    sub_topic = _str(row.get("sub_topic"))[:MAX_UNIT_NAME] or UNKNOWN_TOPIC
    yield ImportRecord(
        row=line,
        external_id=external_id,
        payload={
            "premise": premise,
            "completions": [t.strip() for t in texts],
            "answer": answer,
            "country": country,
            "region": region,
            **relevance,
            "release": release,
        },
        unit=ImportUnit(category=_topic(sub_topic), name=sub_topic),
        author=worker or None,
        known_answer=known_answer_text(row.get("known_answer")),
    )


IMPORTERS: dict[str, Importer] = {ArabCultureImporter.name: ArabCultureImporter()}
