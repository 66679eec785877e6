"""Pair exports of a preference project: the released IndoPref shape or chosen/rejected pairs, as JSON
Lines, CSV or Parquet, with a data card. Pairs are derived from the report's rows (the same rule as the
report), so a file and the statistics page always agree."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from json.encoder import encode_basestring as encode_string  # the C encoder json.dumps uses for a str
from pathlib import Path
from typing import Any

from annotation.models import Project
from annotation.task_types.preference.export import (
    PAIR_SHAPES,
    PROTOCOL,
    pair_parquet_schema,
    pair_row,
    pair_row_id,
)
from annotation.task_types.preference.judging import GROUPS
from annotation.task_types.preference.pairs import (
    Decision,
    Prompt,
    ResponseScore,
    decide,
    imported,
    prompt_pairs,
    rated_by_all,
    response_scores,
)
from annotation.task_types.preference.reports import all_pairs, prompts_from_rows
from qc.csv_cells import neutralise_csv_cell
from qc.reports.rows import report_rows

FORMATS = ("jsonl", "csv", "parquet")
# The pair layouts `manage.py export_pairs` offers, its default first.
SHAPES = tuple(PAIR_SHAPES)
PARQUET_BATCH = 10_000


def project_language(project: Project) -> str:
    first = project.languages.order_by("position", "code").values_list("code", flat=True).first()
    return first or "id"


def project_pairs(project: Project) -> list[dict[str, Any]]:
    rows = report_rows(project=project)
    pairs, _ = all_pairs(prompts_from_rows(rows), rows.settings)
    return pairs


def pairs_by_prompt(project: Project) -> Iterator[list[dict[str, Any]]]:
    """Each prompt's pairs in turn (the report's rule), so an export never holds every pair at once."""
    rows = report_rows(project=project)
    settings = rows.settings
    min_margin, tie_break = settings.get("min_margin", 1), settings.get("tie_break", "none")
    for prompt in prompts_from_rows(rows):
        pairs, _ = prompt_pairs(prompt, groups=GROUPS, min_margin=min_margin, tie_break=tie_break)
        if pairs:
            yield pairs


def pair_rows(*, project: Project, shape: str) -> Iterator[dict[str, Any]]:
    if shape not in PAIR_SHAPES:
        raise ValueError(f"shape must be one of {', '.join(PAIR_SHAPES)}")
    language = project_language(project)
    for pairs in pairs_by_prompt(project):
        for pair in pairs:
            yield pair_row(pair, shape=shape, language=language)


class LineEncoder:
    """JSON Lines of pairs, equal to json.dumps(pair_row(...), ensure_ascii=False) line by line.

    A prompt's 5 responses appear in up to 10 pairs, and encoding their texts, models and scores per pair
    was most of an export's time: a prompt's lines are written together, the prompt encoded once and each
    response once (keyed by response id, which names one response within a prompt). `decided_lines` writes
    them straight from the rule's decisions (pairs.decide) without building each pair's dict; `lines` from
    pair dicts (a file's imported pairs). Strings go through the json module's C string encoder directly
    (what json.dumps does for a str)."""

    def __init__(self, shape: str, language: str) -> None:
        if shape not in PAIR_SHAPES:
            raise ValueError(f"shape must be one of {', '.join(PAIR_SHAPES)}")
        self.shape = shape
        self.language = encode_string(language)

    def lines(self, pairs: list[dict[str, Any]]) -> str:
        """The lines (each ending in a new line) of one prompt's pairs."""
        if not pairs:
            return ""
        texts, models, scores = {}, {}, {}
        for pair in pairs:
            for side in ("chosen", "rejected"):
                rid = pair[side]
                texts[rid], models[rid], scores[rid] = (
                    pair[f"{side}_text"],
                    pair[f"{side}_model"],
                    pair[f"{side}_scores"],
                )
        rows = [(pair_row_id(p), p["first"], p["second"], p["chosen"], p["rejected"], p["rule"]) for p in pairs]
        first = pairs[0]
        return self._encode(first["category"], first["prompt"], first["input"], rows, texts, models, scores)

    def decided_lines(self, prompt: Prompt, scores: dict[str, ResponseScore], decisions: list[Decision]) -> str:
        """The lines of one rated prompt's pairs, from the rule's decisions."""
        if not decisions:
            return ""
        payload = prompt.payload
        prompt_id = prompt.external_id or str(prompt.item_id)
        rows = [
            (f"{prompt_id}-{d.first}-{d.second}", d.first, d.second, d.winner.response_id, d.loser.response_id, d.rule)
            for d in decisions
        ]
        texts = {r["id"]: r["text"] for r in payload.get("responses") or []}
        models = {rid: s.model for rid, s in scores.items()}
        kept = {rid: s.scores for rid, s in scores.items()}
        text, input_text = payload.get("prompt", ""), payload.get("input", "")
        return self._encode(prompt.category, text, input_text, rows, texts, models, kept)

    def _encode(self, category, text, input_text, rows, texts, models, scores) -> str:
        encoded: dict[str, tuple[str, str, str]] = {}
        out = []
        if self.shape == "indopref":
            joined = text + ("\n\n" + input_text if input_text else "")
            head = (
                f'"domain": {encode_string(category)}, "language": {self.language}, "input": {encode_string(joined)}, '
            )
            for pair_id, first, second, chosen, _rejected, _rule in rows:
                a = encoded.get(first) or encoded.setdefault(first, (encode_string(texts[first]), "", ""))
                b = encoded.get(second) or encoded.setdefault(second, (encode_string(texts[second]), "", ""))
                score = '"Response 1"' if chosen == first else '"Response 2"'
                out.append(
                    f'{{"id": {encode_string(pair_id)}, {head}"response_1": {a[0]}, "response_2": {b[0]}, '
                    f'"actual_score": {score}}}\n'
                )
            return "".join(out)
        head = (
            f'"domain": {encode_string(category)}, "language": {self.language}, '
            f'"prompt": {encode_string(text)}, "input": {encode_string(input_text)}, '
        )
        for pair_id, _first, _second, chosen, rejected, rule in rows:
            c = encoded.get(chosen)
            if c is None:
                c = encoded[chosen] = self._response(chosen, texts, models, scores)
            r = encoded.get(rejected)
            if r is None:
                r = encoded[rejected] = self._response(rejected, texts, models, scores)
            out.append(
                f'{{"id": {encode_string(pair_id)}, {head}"chosen": {c[0]}, "rejected": {r[0]}, '
                f'"chosen_model": {c[1]}, "rejected_model": {r[1]}, "chosen_scores": {c[2]}, '
                f'"rejected_scores": {r[2]}, "rule": {encode_string(rule)}}}\n'
            )
        return "".join(out)

    @staticmethod
    def _response(rid: str, texts, models, scores) -> tuple[str, str, str]:
        return encode_string(texts[rid]), encode_string(models[rid]), scores_json(scores[rid])


SCORE_KEYS = ("relevance", "fluency", "combined", "best_picks", "by_group")
_NUMBER = (int, float)


def scores_json(scores: dict[str, Any]) -> str:
    """json.dumps(scores, ensure_ascii=False) for the scores a derived pair keeps (pairs.response_scores),
    written directly (json.dumps was a fifth of an export's time); any other shape goes to json.dumps.
    json writes a float or an int as its repr, which is what the f-strings below do."""
    if tuple(scores) == SCORE_KEYS and all(type(scores[k]) in _NUMBER for k in SCORE_KEYS[:4]):
        groups = []
        for group, means in scores["by_group"].items():
            relevance, fluency = means.get("relevance"), means.get("fluency")
            if (
                type(group) is not str
                or tuple(means) != ("relevance", "fluency")
                or type(relevance) not in _NUMBER
                or type(fluency) not in _NUMBER
            ):
                return json.dumps(scores, ensure_ascii=False)
            groups.append(f'{encode_string(group)}: {{"relevance": {relevance!r}, "fluency": {fluency!r}}}')
        return (
            f'{{"relevance": {scores["relevance"]!r}, "fluency": {scores["fluency"]!r}, '
            f'"combined": {scores["combined"]!r}, "best_picks": {scores["best_picks"]!r}, '
            f'"by_group": {{{", ".join(groups)}}}}}'
        )
    return json.dumps(scores, ensure_ascii=False)


def export_lines(project: Project, encoder: LineEncoder) -> Iterator[tuple[str, int]]:
    """(lines, count) per prompt, in the report's order: a rated prompt's lines come from the rule's
    decisions (the same rule as the report), an unrated one's from the file's pairs."""
    rows = report_rows(project=project)
    settings = rows.settings
    min_margin, tie_break = settings.get("min_margin", 1), settings.get("tie_break", "none")
    ratings: dict[int, list[dict[str, Any]]] = {}
    for judgment in rows.judgments:
        value = judgment.value
        if isinstance((value or {}).get("ratings"), dict):
            ratings.setdefault(judgment.item_id, []).append(value)
    for item in rows.items:
        prompt = Prompt(
            item.item_id, item.external_id, item.category, item.payload, tuple(ratings.get(item.item_id, ()))
        )
        if rated_by_all(prompt, GROUPS):
            scores = response_scores(prompt)
            decisions, _ = decide(scores, min_margin=min_margin, tie_break=tie_break)
            if decisions:
                yield encoder.decided_lines(prompt, scores, decisions), len(decisions)
        else:
            pairs = imported(prompt)
            if pairs:
                yield encoder.lines(pairs), len(pairs)


def _cell(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return neutralise_csv_cell(text)


def write_rows(rows: Iterator[dict[str, Any]], *, shape: str, fmt: str, out: io.IOBase | Path) -> int:
    """Write rows to a text stream (jsonl, csv) or a path (parquet); the number of rows written."""
    fields = PAIR_SHAPES[shape]
    count = 0
    if fmt == "jsonl":
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
    elif fmt == "csv":
        writer = csv.writer(out)
        writer.writerow(fields)
        for row in rows:
            writer.writerow([_cell(row[name]) for name in fields])
            count += 1
    elif fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        schema = pair_parquet_schema(shape)
        writer = pq.ParquetWriter(out, schema)
        buffer: list[dict[str, Any]] = []
        for row in rows:
            buffer.append(row)
            count += 1
            if len(buffer) >= PARQUET_BATCH:
                writer.write_table(pa.Table.from_pylist(buffer, schema=schema))
                buffer = []
        if buffer:
            writer.write_table(pa.Table.from_pylist(buffer, schema=schema))
        writer.close()
    else:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}")
    return count


def data_card(*, project: Project, shape: str, fmt: str, file_name: str, count: int) -> str:
    fields = ", ".join(f"`{f}`" for f in PAIR_SHAPES[shape])
    loader = {"jsonl": "json", "csv": "csv", "parquet": "parquet"}[fmt]
    return "\n".join(
        [
            "---",
            f"language: [{project_language(project)}]",
            "task_categories: [text-classification]",
            f"license: {project.licence or 'other'}",
            "---",
            f"# {project.name}: preference pairs ({shape})",
            "",
            f'{count} pairs in `{file_name}` ({fmt}); load with `datasets.load_dataset("{loader}", data_files=...)`.',
            "",
            f"Fields: {fields}.",
            "",
            'In the IndoPref shape `actual_score` is "Response 1" or "Response 2" (the preferred one); `input` is '
            "the prompt, followed by its input text after a blank line when it has one.",
            "",
            "## Annotation protocol",
            "",
            PROTOCOL,
            "",
        ]
    )


def export_pairs(*, project: Project, shape: str, fmt: str, folder: Path) -> dict[str, Any]:
    """Write `pairs.<ext>` and README.md into `folder`; {"file", "rows"}."""
    folder.mkdir(parents=True, exist_ok=True)
    name = f"pairs.{fmt}"
    path = folder / name
    if fmt == "jsonl":
        encoder = LineEncoder(shape, project_language(project))
        count = 0
        with path.open("w", encoding="utf-8", newline="\n") as handle:
            for lines, n in export_lines(project, encoder):
                handle.write(lines)
                count += n
    elif fmt == "parquet":
        count = write_rows(pair_rows(project=project, shape=shape), shape=shape, fmt=fmt, out=path)
    else:
        with path.open("w", encoding="utf-8", newline="") as handle:
            count = write_rows(pair_rows(project=project, shape=shape), shape=shape, fmt=fmt, out=handle)
    (folder / "README.md").write_text(
        data_card(project=project, shape=shape, fmt=fmt, file_name=name, count=count), encoding="utf-8"
    )
    return {"file": str(path), "rows": count}
