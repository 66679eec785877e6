"""Import formats, pure parsers (annotation.importing.records):

- "indopref": the released pair layout, JSON Lines or CSV with the columns
  id, domain, language, input, response_1, response_2, actual_score
  (optionally model_1, model_2). Rows with the same (domain, input) are one prompt; equal response texts
  are one response (ids r1, r2, ... in order of first appearance; model "" when the file names none);
  each row is a human preference kept on the prompt (payload human_pairs, with the row's id and which
  response was shown first). actual_score: "Response 1" / "Response 2", 1 / 2, "Respon 1" / "Respon 2",
  "response_1" / "response_2". Prompts come in approved (released data), ready for judge runs.
- "preference-prompts": prompts to rate, CSV (id, category, prompt, input) or JSON Lines with the same keys
  and optionally "responses": [{"model", "text"}]. They come in approved.

A line that is not JSON (or a CSV without the needed columns) refuses the file; a row without its
needed values is skipped and reported.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Iterable, Iterator
from typing import Any

from annotation.importing.records import (
    BinaryStream,
    FileScan,
    Importer,
    ImportFileError,
    ImportRecord,
    ImportUnit,
    RowIssue,
)

UNKNOWN = "unknown"
MAX_ID = 200
INDOPREF_COLUMNS = ("id", "domain", "input", "response_1", "response_2", "actual_score")
SKIPPING = frozenset({"missing_values", "bad_score", "duplicate_id"})


def _rows(stream: BinaryStream) -> Iterator[tuple[int, dict[str, Any]]]:
    raw = stream.read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ImportFileError(f"The file is not UTF-8 ({exc.reason}); nothing was imported.") from None
    stripped = text.lstrip()
    if stripped.startswith("{") or stripped.startswith("["):
        if stripped.startswith("["):
            try:
                rows = json.loads(stripped)
            except json.JSONDecodeError as exc:
                raise ImportFileError(f"Not JSON: {exc.msg}; nothing was imported.") from None
            for index, row in enumerate(rows if isinstance(rows, list) else [], 1):
                if not isinstance(row, dict):
                    raise ImportFileError(f"Row {index} is not an object; nothing was imported.")
                yield index, row
            return
        refused = []
        parsed = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                refused.append(f"line {number}: not JSON ({exc.msg})")
                continue
            if not isinstance(row, dict):
                refused.append(f"line {number}: not an object")
                continue
            parsed.append((number, row))
        if refused:
            raise ImportFileError(
                f"{len(refused)} line(s) can't be read: {'; '.join(refused[:20])}. Nothing was imported."
            )
        yield from parsed
        return
    reader = csv.DictReader(io.StringIO(text))
    for number, row in enumerate(reader, 2):
        yield number, {k.strip(): v for k, v in row.items() if k is not None}


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
    label = "IndoPref release (pairs: JSON Lines or CSV)"
    help = (
        "id, domain, language, input, response_1, response_2, actual_score (model_1, model_2 optional). Rows "
        "with the same domain and input become one prompt; each row is a human preference between two of its "
        "responses."
    )
    judgment_kind = "rate"
    judgments_word = "ratings"
    skipping_codes = SKIPPING

    def scan(self, stream: BinaryStream, *, known_annotators: Iterable[str], max_annotators: int) -> FileScan:
        count = 0
        for _number, row in _rows(stream):
            count += 1
            if count == 1:
                missing = [c for c in INDOPREF_COLUMNS if c not in row]
                if missing:
                    raise ImportFileError(f"Missing columns: {', '.join(missing)}; nothing was imported.")
        if count == 0:
            raise ImportFileError("The file has no pairs; nothing was imported.")
        return FileScan(rows=count)

    def records(self, stream: BinaryStream, *, scan: FileScan) -> Iterator[ImportRecord | RowIssue]:
        prompts: dict[str, dict[str, Any]] = {}
        seen_ids: dict[str, int] = {}
        for number, row in _rows(stream):
            pair_id = _text(row.get("id"))[:MAX_ID]
            domain = _text(row.get("domain")) or UNKNOWN
            text = _text(row.get("input"))
            first, second = _text(row.get("response_1")), _text(row.get("response_2"))
            if not pair_id or not text or not first or not second:
                yield RowIssue(
                    number, pair_id, "missing_values", "id, input, response_1 and response_2 are needed; row skipped."
                )
                continue
            if pair_id in seen_ids:
                yield RowIssue(
                    number, pair_id, "duplicate_id", f"The id was already used in row {seen_ids[pair_id]}; row skipped."
                )
                continue
            score = parse_score(row.get("actual_score"))
            if score is None:
                yield RowIssue(
                    number,
                    pair_id,
                    "bad_score",
                    f"actual_score {row.get('actual_score')!r} is not Response 1 or 2; row skipped.",
                )
                continue
            seen_ids[pair_id] = number
            key = _prompt_key(domain, text)
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
                yield RowIssue(number, pair_id, "missing_values", "Both responses are the same text; row skipped.")
                continue
            chosen, rejected = (ids[0], ids[1]) if score == 1 else (ids[1], ids[0])
            prompt["pairs"].append(
                {"id": pair_id, "chosen": chosen, "rejected": rejected, "first": ids[0], "second": ids[1]}
            )
        for key, prompt in prompts.items():
            if not prompt["pairs"]:
                continue
            payload = {
                "prompt": prompt["text"],
                "input": "",
                "responses": list(prompt["responses"].values()),
                "human_pairs": prompt["pairs"],
            }
            if prompt["language"]:
                payload["language"] = prompt["language"]
            yield ImportRecord(
                row=prompt["row"],
                external_id=key,
                payload=payload,
                unit=ImportUnit(category=prompt["domain"], name=key),
            )


class PromptsImporter(Importer):
    name = "preference-prompts"
    label = "Prompts to rate (CSV or JSON Lines)"
    help = "id, category, prompt, input; JSON Lines may add responses: [{model, text}]."
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
            category = _text(row.get("category")) or UNKNOWN
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
            responses = []
            for index, raw in enumerate(row.get("responses") or [] if isinstance(row.get("responses"), list) else []):
                if isinstance(raw, dict) and _text(raw.get("text")):
                    responses.append(
                        {
                            "id": f"r{index + 1}",
                            "model": _text(raw.get("model")),
                            "text": _text(raw.get("text")),
                            "source": "import",
                        }
                    )
            yield ImportRecord(
                row=number,
                external_id=external_id,
                payload={"prompt": text, "input": _text(row.get("input")), "responses": responses},
                unit=ImportUnit(category=category, name=external_id),
            )


IMPORTERS = {"indopref": IndoPrefImporter(), "preference-prompts": PromptsImporter()}


RESPONSE_COLUMNS = ("prompt_id", "model", "text")


def parse_responses(data: bytes) -> tuple[list[tuple[int, str, str, str]], list[str]]:
    """Responses made elsewhere, for prompts already in the project: CSV or JSON Lines with prompt_id (the
    prompt's id as exported: its external id, or its Gotong id), model and text. (rows as (line, prompt_id,
    model, text), problems); an unreadable file raises ImportFileError."""
    rows, problems = [], []
    for number, row in _rows(io.BytesIO(data)):
        values = {name: _text(row.get(name)) for name in RESPONSE_COLUMNS}
        missing = [name for name, value in values.items() if not value]
        if missing:
            problems.append(f"line {number}: no {', '.join(missing)}")
            continue
        rows.append((number, values["prompt_id"], values["model"], values["text"]))
    if not rows and not problems:
        problems.append("the file has no responses")
    return rows, problems
