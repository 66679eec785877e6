"""Independent re-computations from a raw id-csqa file, to check what the platform computes."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from tests.qc.helpers import require, shared_data_dir

LETTERS = set("ABCDE")


def load(path: str | Path) -> list[dict]:
    return json.loads(require(Path(path)).read_text(encoding="utf-8"))


def codes(records: list[dict]) -> list[str]:
    found = {code for r in records for code in r["answers"]}
    return sorted(found, key=lambda c: int(c[1:]))


def author_of(record: dict, all_codes: list[str]) -> str | None:
    missing = [c for c in all_codes if c not in record["answers"]]
    return missing[0] if len(missing) == 1 else None


def majority_first_seen(record: dict, all_codes: list[str]) -> str:
    ordered = [record["answers"][c] for c in all_codes if c in record["answers"]]
    counts = Counter(ordered)
    top = max(counts.values())
    return next(a for a in ordered if counts[a] == top)


def conflict_matrix(records: list[dict]) -> dict:
    all_codes = codes(records)
    counts = Counter()
    for r in records:
        creator = author_of(r, all_codes)
        for code, answer in r["answers"].items():
            if creator is not None and answer != r["answer_creator"]:
                counts[(code, creator)] += 1
    return {"annotators": all_codes, "counts": [[counts[(a, c)] for c in all_codes] for a in all_codes]}


def readme_figure() -> dict:
    """The paper's Figure 6 as transcribed in ../shared/data/README.md (rows answerer, columns creator)."""
    text = require(shared_data_dir() / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\s*(W\d)((?:\s+\d+){6})\s*$", text, flags=re.MULTILINE)
    return {"annotators": [code for code, _ in rows], "counts": [[int(n) for n in cells.split()] for _, cells in rows]}
