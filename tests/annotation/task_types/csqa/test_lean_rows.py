"""The lean reader of common id-csqa rows gives exactly the careful path's records, and declines the rest."""

from __future__ import annotations

import copy
import io
import json
import random

import pytest

from annotation.importing.jsonstream import json_rows
from annotation.task_types.csqa.importers import LeanRows, _parsed_rows, _record, scan_annotators
from bench.import_items import write_file
from tests.annotation.importing.messy import messy_bytes, row
from tests.qc.helpers import ind_file


def _careful(number, value, annotators, seen):
    out = []
    for parsed, issues in _parsed_rows([(number, value)], annotators, seen):
        record, more = _record(parsed) if parsed is not None else (None, [])
        out.append((record, issues + more))
    return out[0]


def _compare(data: bytes) -> tuple[int, int]:
    """(rows read lean, rows declined); every lean record equals the careful one, which has no issue."""
    rows = list(json_rows(io.BytesIO(data)))
    annotators, _ = scan_annotators(rows, (), 200)
    lean, lean_seen, careful_seen = LeanRows(annotators), {}, {}
    taken = declined = 0
    for number, value in rows:
        fast = lean.record(number, copy.deepcopy(value), lean_seen)
        record, issues = _careful(number, value, annotators, careful_seen)
        if fast is None:
            declined += 1
            lean_seen = dict(careful_seen)
            continue
        taken += 1
        assert (fast, issues) == (record, [])
    return taken, declined


def test_the_release_is_read_lean_with_the_careful_paths_records():
    taken, declined = _compare(ind_file().read_bytes())

    assert taken > 1000
    assert declined < taken / 10  # rows with odd values still take the careful path


def test_every_odd_row_takes_the_careful_path():
    assert _compare(messy_bytes()) == (1, 11)  # only "ok-1" is common


def test_generated_rows_are_all_lean(tmp_path):
    path = tmp_path / "gen.json"
    write_file(path, items=300, seed=3)

    assert _compare(path.read_bytes()) == (300, 0)


ODD = {
    "spaces in a value": lambda r: r["answers_uncertainty"].update(W2=" certain"),
    "upper case": lambda r: r["question_ambiguity"].update(W3="Clear"),
    "list value": lambda r: r["answers"].update(W4=["A"]),
    "dict flag": lambda r: r["option_ambiguity"].update(W5=[{"x": 1}] * 5),
    "four flags": lambda r: r["option_ambiguity"].update(W5=["clear"] * 4),
    "reason not text": lambda r: r["reason"].update(W2=3),
    "reason of a non-answerer": lambda r: r["reason"].update(W1="?"),
    "missing uncertainty": lambda r: r["answers_uncertainty"].pop("W6"),
    "unknown field": lambda r: r.update(extra=1),
    "spaced question": lambda r: r.update(question=" Q? "),
    "same options": lambda r: r["choices"].update(text=["Ä", "a", "b", "c", "d"]),
    "numeric id": lambda r: r.update(id=7),
    "lower labels": lambda r: r["choices"].update(label=list("abcde")),
    "spaced code": lambda r: r.update(answers={f" {k}": v for k, v in r["answers"].items()}),
}


@pytest.mark.parametrize("odd", list(ODD))
def test_a_row_with_one_oddity_is_declined(odd):
    value = row("x")
    ODD[odd](value)
    annotators = [f"W{n}" for n in range(1, 7)]

    assert LeanRows(annotators).record(1, value, {}) is None


def test_shared_values_are_one_object_per_combination():
    rows = [row(f"q{i}", answer=random.Random(i).choice("AB")) for i in range(20)]
    lean = LeanRows([f"W{n}" for n in range(1, 7)])

    records = [lean.record(i, json.loads(json.dumps(r)), {}) for i, r in enumerate(rows, start=1)]

    assert len({id(j.flags) for r in records for j in r.judgments}) == 1
    assert len({id(j.value) for r in records for j in r.judgments}) == 2
