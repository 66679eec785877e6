"""Import formats, pure parsers (annotation.importing.records):

- "indopref": the released pair layout, JSON Lines or CSV with the columns
  id, domain, language, input, response_1, response_2, actual_score
  (optionally model_1, model_2). Rows with the same (domain, input) are one prompt; equal response texts
  are one response (ids r1, r2, ... in order of first appearance; model "" when the file names none);
  each row is a human preference kept on the prompt (payload human_pairs, with the row's id and which
  response was shown first). actual_score: "Response 1" / "Response 2", 1 / 2, "Respon 1" / "Respon 2",
  "response_1" / "response_2". Prompts come in approved (released data), ready for judge runs.
- "preference-prompts": prompts to rate, CSV (id, category, prompt, input) or JSON Lines with the same keys
  and optionally "responses": [{"model", "text"}]. They come in approved. "domain" (what the gold export
  writes) stands for "category"; in a CSV, "responses" is that list as JSON (as the gold export writes it).
  The export's ratings and pairs are not read (the prompts are rated anew). An optional "known_answer" makes
  the prompt a known-answer check: the response a careful rater picks as the best, by its id in the row's
  responses (the gold export's `responses[].id`), or r1, r2, ... by position when they carry no id.

A known-answer check compares a rater's best pick with the known one, so it is a prompt with its
responses; an indopref row is one pair of a prompt, and a `known_answer` on it refuses the file.

A line that is not JSON (or a CSV without the needed columns) refuses the file; a row without its
needed values is skipped and reported.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Iterable, Iterator
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from annotation import limits
from annotation.importing.jsonstream import json_rows
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
from annotation.importing.textfile import CsvRows, check_row
from annotation.task_types.preference.payload import MODEL, RESPONSE

UNKNOWN = "unknown"
MAX_ID = 200
INDOPREF_COLUMNS = ("id", "domain", "input", "response_1", "response_2", "actual_score")
SKIPPING = frozenset({"missing_values", "bad_score", "duplicate_id"})


def _first_character(stream: BinaryStream) -> str:
    """The file's first character that is not blank (the stream is left at its start)."""
    head = stream.read(4096)
    while head and not head.strip():
        more = stream.read(4096)
        if not more:
            break
        head = head.lstrip() + more
    stream.seek(0)
    text = head.lstrip().removeprefix(b"\xef\xbb\xbf").lstrip()
    return chr(text[0]) if text else ""


def _rows(stream: BinaryStream) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line, row) of a JSON array (position in it), JSON Lines or CSV (line where the row starts) file,
    one row at a time: a 50 MB file is never held whole (it took 759 MB when it was)."""
    first = _first_character(stream)
    if first in ("{", "["):
        for number, row in json_rows(stream):
            if not isinstance(row, dict):
                raise ImportFileError(gettext("Row %(row)d is not an object; nothing was imported.") % {"row": number})
            check_row(number, row, in_array=first == "[")
            yield number, row
        return
    for number, row in CsvRows(stream):
        check_row(number, row)
        yield number, row


def _responses(value: Any) -> list[Any] | None:
    """The responses of a row: a JSON Lines list, or a CSV cell holding that list as JSON (what the gold
    export's CSV writes); None when the cell is not such a list. The row's size was checked before."""
    if isinstance(value, list):
        return value
    if not isinstance(value, str) or not value.strip():
        return []
    try:
        parsed = json.loads(value)
    except ValueError:
        return None
    return parsed if isinstance(parsed, list) else None


def _text(value: Any) -> str:
    if value is None or isinstance(value, bool | dict | list):
        return ""
    return str(value).strip()


def parse_score(value: Any) -> int | None:
    """1 or 2: which response the people preferred."""
    text = _text(value).casefold().replace("_", " ")
    for prefix in ("response ", "respon ", "respons "):
        if text.startswith(prefix):
            text = text[len(prefix) :]
    if text in ("1", "1.0"):
        return 1
    if text in ("2", "2.0"):
        return 2
    return None


def _prompt_key(domain: str, text: str) -> str:
    return "p-" + hashlib.sha256(f"{domain}\x00{text}".encode()).hexdigest()[:16]


class IndoPrefImporter(Importer):
    name = "indopref"
    label = gettext_lazy("IndoPref release (pairs: JSON Lines or CSV)")
    help = gettext_lazy(
        "id, domain, language, input, response_1, response_2, actual_score (model_1, model_2 optional). Rows "
        "with the same domain and input become one prompt; each row is a human preference between two of its "
        "responses."
    )
    judgment_kind = "rate"
    judgments_word = "ratings"
    skipping_codes = SKIPPING

    def scan(self, stream: BinaryStream, *, known_annotators: Iterable[str], max_annotators: int) -> FileScan:
        # Where each prompt's last pair is: records() yields a prompt there and forgets it, so memory
        # holds the prompts still open, not the file (a 247,000-pair file held whole took 574 MB).
        last: dict[str, int] = {}
        count = 0
        for number, row in _rows(stream):
            count += 1
            if count == 1:
                missing = [c for c in INDOPREF_COLUMNS if c not in row]
                if missing:
                    raise ImportFileError(f"Missing columns: {', '.join(missing)}; nothing was imported.")
            if known_answer_text(row.get("known_answer")):
                raise ImportFileError(
                    gettext(
                        "Row %(row)d, known_answer: an indopref row is one pair of a prompt's responses, and a "
                        "known-answer check expects the best of all of them; import checks in the "
                        "preference-prompts format (known_answer: a response's id). Nothing was imported."
                    )
                    % {"row": number}
                )
            text = _text(row.get("input"))
            if text:
                last[_prompt_key(_text(row.get("domain")) or UNKNOWN, text)] = number
        if count == 0:
            raise ImportFileError("The file has no pairs; nothing was imported.")
        return FileScan(rows=count, extra={"last_rows": last})

    def records(self, stream: BinaryStream, *, scan: FileScan) -> Iterator[ImportRecord | RowIssue]:
        last_rows: dict[str, int] = scan.extra["last_rows"]
        prompts: dict[str, dict[str, Any]] = {}
        seen_ids: dict[str, int] = {}
        for number, row in _rows(stream):
            domain = _text(row.get("domain")) or UNKNOWN
            text = _text(row.get("input"))
            key = _prompt_key(domain, text) if text else ""
            issue = self._pair(number, row, domain, text, key, prompts, seen_ids)
            if issue is not None:
                yield issue
            if key and last_rows.get(key) == number:
                prompt = prompts.pop(key, None)
                if prompt is not None and prompt["pairs"]:
                    yield _indopref_record(key, prompt)
        # Left only when the file changed between the two passes.
        for key, prompt in prompts.items():
            if prompt["pairs"]:
                yield _indopref_record(key, prompt)

    @staticmethod
    def _pair(
        number: int,
        row: dict[str, Any],
        domain: str,
        text: str,
        key: str,
        prompts: dict[str, dict[str, Any]],
        seen_ids: dict[str, int],
    ) -> RowIssue | None:
        """Add the row's pair to its prompt (in `prompts`), or the issue that skips it."""
        pair_id = _text(row.get("id"))[:MAX_ID]
        first, second = _text(row.get("response_1")), _text(row.get("response_2"))
        if not pair_id or not text or not first or not second:
            return RowIssue(
                number, pair_id, "missing_values", "id, input, response_1 and response_2 are needed; row skipped."
            )
        if pair_id in seen_ids:
            return RowIssue(
                number, pair_id, "duplicate_id", f"The id was already used in row {seen_ids[pair_id]}; row skipped."
            )
        score = parse_score(row.get("actual_score"))
        if score is None:
            return RowIssue(
                number,
                pair_id,
                "bad_score",
                f"actual_score {row.get('actual_score')!r} is not Response 1 or 2; row skipped.",
            )
        seen_ids[pair_id] = number
        prompt = prompts.setdefault(
            key,
            {
                "row": number,
                "domain": domain,
                "text": text,
                "language": _text(row.get("language")),
                "responses": {},
                "pairs": [],
            },
        )
        ids = []
        for response, model in ((first, _text(row.get("model_1"))), (second, _text(row.get("model_2")))):
            known = prompt["responses"].get(response)
            if known is None:
                known = prompt["responses"][response] = {
                    "id": f"r{len(prompt['responses']) + 1}",
                    "model": model,
                    "text": response,
                    "source": "import",
                }
            elif model and not known["model"]:
                known["model"] = model
            ids.append(known["id"])
        if ids[0] == ids[1]:
            return RowIssue(number, pair_id, "missing_values", "Both responses are the same text; row skipped.")
        chosen, rejected = (ids[0], ids[1]) if score == 1 else (ids[1], ids[0])
        prompt["pairs"].append(
            {"id": pair_id, "chosen": chosen, "rejected": rejected, "first": ids[0], "second": ids[1]}
        )
        return None


def _indopref_record(key: str, prompt: dict[str, Any]) -> ImportRecord:
    payload = {
        "prompt": prompt["text"],
        "input": "",
        "responses": list(prompt["responses"].values()),
        "human_pairs": prompt["pairs"],
    }
    if prompt["language"]:
        payload["language"] = prompt["language"]
    return ImportRecord(
        row=prompt["row"], external_id=key, payload=payload, unit=ImportUnit(category=prompt["domain"], name=key)
    )


class PromptsImporter(Importer):
    name = "preference-prompts"
    label = gettext_lazy("Prompts to rate (CSV or JSON Lines)")
    help = gettext_lazy(
        "id, category (or domain), prompt, input; JSON Lines may add responses: [{model, text}]. An optional "
        "known_answer (the best response's id: r1, r2, ...) makes the prompt a known-answer check."
    )
    judgment_kind = "rate"
    judgments_word = "ratings"
    skipping_codes = SKIPPING

    def scan(self, stream: BinaryStream, *, known_annotators: Iterable[str], max_annotators: int) -> FileScan:
        count = 0
        for _number, row in _rows(stream):
            count += 1
            if count == 1 and "prompt" not in row:
                raise ImportFileError("Missing column: prompt; nothing was imported.")
        if count == 0:
            raise ImportFileError("The file has no prompts; nothing was imported.")
        return FileScan(rows=count)

    def records(self, stream: BinaryStream, *, scan: FileScan) -> Iterator[ImportRecord | RowIssue]:
        seen: dict[str, int] = {}
        for number, row in _rows(stream):
            text = _text(row.get("prompt"))
            # "domain" is what the gold export writes for the category: its file imports back as it was.
            category = _text(row.get("category")) or _text(row.get("domain")) or UNKNOWN
            external_id = _text(row.get("id"))[:MAX_ID] or _prompt_key(category, text)
            if not text:
                yield RowIssue(number, external_id, "missing_values", "No prompt; row skipped.")
                continue
            if external_id in seen:
                yield RowIssue(
                    number,
                    external_id,
                    "duplicate_id",
                    f"The id was already used in row {seen[external_id]}; row skipped.",
                )
                continue
            seen[external_id] = number
            given = _responses(row.get("responses"))
            if given is None:
                yield RowIssue(
                    number, external_id, "bad_responses", "The responses are not a JSON list; imported without them."
                )
                given = []
            responses = []
            # The file's own response ids (the gold export writes them) -> the ids given here, so a known
            # answer names a response as the file does.
            renamed: dict[str, str] = {}
            for index, raw in enumerate(given):
                if isinstance(raw, dict) and _text(raw.get("text")):
                    responses.append(
                        {
                            "id": f"r{index + 1}",
                            "model": _text(raw.get("model")),
                            "text": _text(raw.get("text")),
                            "source": "import",
                        }
                    )
                    if _text(raw.get("id")):
                        renamed.setdefault(_text(raw.get("id")), f"r{index + 1}")
            known = known_answer_text(row.get("known_answer"))
            yield ImportRecord(
                row=number,
                external_id=external_id,
                payload={"prompt": text, "input": _text(row.get("input")), "responses": responses},
                unit=ImportUnit(category=category, name=external_id),
                known_answer=renamed.get(known, known) if renamed else known,
            )


IMPORTERS = {"indopref": IndoPrefImporter(), "preference-prompts": PromptsImporter()}


RESPONSE_COLUMNS = ("prompt_id", "model", "text")
RESPONSE_LIMITS = (("prompt_id", MAX_ID), ("model", MODEL), ("text", RESPONSE))


def parse_responses(data: bytes) -> tuple[list[tuple[int, str, str, str]], list[str]]:
    """Responses made elsewhere, for prompts already in the project: CSV or JSON Lines with prompt_id (the
    prompt's id as exported: its external id, else "<project slug>-<Gotong id>" or the bare Gotong id),
    model and text. (rows as (line, prompt_id, model, text), problems); an unreadable file raises
    ImportFileError."""
    rows, problems = [], []
    for number, row in _rows(io.BytesIO(data)):
        values = {name: _text(row.get(name)) for name in RESPONSE_COLUMNS}
        missing = [name for name, value in values.items() if not value]
        if missing:
            problems.append(f"line {number}: no {', '.join(missing)}")
            continue
        # Refused here with the line: the payload check would only drop the response (and NUL fail the write).
        wrong = [(name, limits.text_problem(values[name], max_length=limit)) for name, limit in RESPONSE_LIMITS]
        if any(problem for _, problem in wrong):
            name, problem = next((name, problem) for name, problem in wrong if problem)
            problems.append(f"line {number}, {name}: {problem}")
            continue
        rows.append((number, values["prompt_id"], values["model"], values["text"]))
    if not rows and not problems:
        problems.append("the file has no responses")
    return rows, problems
