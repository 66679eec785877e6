"""What the report pages and downloads add to qc.reports: per-category alpha with the author, the
heatmap cells of a conflict matrix, and CSV rows. Pure functions, except `csqa_report_full`, which
reads the project once (three queries) and builds everything from that one read."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from annotation.models import Project
from qc.agreement import alpha_nominal_counts, value_counts
from qc.exports import neutralise_csv_cell
from qc.reports import LABEL_INDEX, LABELS, ReportInputs, build_csqa_report, csqa_report_inputs

# Colour steps of a heatmap cell (CSS classes heat-0 .. heat-8); 0 is kept for empty cells.
LEVELS = 8


def csqa_report_full(*, project: Project) -> dict[str, Any]:
    """qc.reports' csqa report, each category also with `alpha_nominal_with_author`."""
    inputs = csqa_report_inputs(project=project)
    report = build_csqa_report(inputs)
    with_author = category_alpha_with_author(inputs)
    for category in report["categories"]:
        category["alpha_nominal_with_author"] = with_author.get(category["category"])
    return report


def category_alpha_with_author(inputs: ReportInputs) -> dict[str, float | None]:
    """Krippendorff's alpha (nominal) per category over the answerers' answers and the author's."""
    answers: dict[int, list[str | None]] = defaultdict(list)
    for row in inputs.answers:
        answers[row.item_id].append(row.answer)
    units: dict[str, list[list[str | None]]] = defaultdict(list)
    for item in inputs.items:
        units[item.category].append([*answers.get(item.item_id, []), item.author_answer])
    return {category: _alpha(per_item) for category, per_item in units.items()}


def _alpha(per_item: Sequence[Sequence[str | None]]) -> float | None:
    unit_idx, value_idx = [], []
    for u, answers in enumerate(per_item):
        for answer in answers:
            if answer in LABEL_INDEX:
                unit_idx.append(u)
                value_idx.append(LABEL_INDEX[answer])
    counts = value_counts(
        np.asarray(unit_idx, dtype=np.int64),
        np.asarray(value_idx, dtype=np.int64),
        n_units=len(per_item),
        n_values=len(LABELS),
    )
    return alpha_nominal_counts(counts)


@dataclass(frozen=True)
class HeatCell:
    count: int
    level: int


@dataclass(frozen=True)
class HeatRow:
    label: str
    cells: list[HeatCell]
    total: int


@dataclass(frozen=True)
class Heatmap:
    labels: list[str]
    rows: list[HeatRow]
    column_totals: list[int]
    total: int
    max: int


def heat_level(count: int, top: int) -> int:
    """0 for an empty cell, else 1..LEVELS in proportion to the largest cell (which gets LEVELS)."""
    if count <= 0 or top <= 0:
        return 0
    return max(1, min(LEVELS, math.ceil(LEVELS * count / top)))


def heatmap(labels: Sequence[str], counts: Sequence[Sequence[int]]) -> Heatmap:
    """A square matrix (rows answerers, columns creators) as rows of coloured cells with totals."""
    top = max((n for row in counts for n in row), default=0)
    rows = [
        HeatRow(label=label, cells=[HeatCell(count=n, level=heat_level(n, top)) for n in row], total=sum(row))
        for label, row in zip(labels, counts, strict=True)
    ]
    column_totals = [sum(row[i] for row in counts) for i in range(len(labels))]
    return Heatmap(labels=list(labels), rows=rows, column_totals=column_totals, total=sum(column_totals), max=top)


def conflict_csv_rows(labels: Sequence[str], counts: Sequence[Sequence[int]], *, corner: str) -> Iterator[list[str]]:
    """Header row of creators, then one row per answerer. Text cells are neutralised: codes and
    regions are typed by people, and a spreadsheet must not run "=..." as a formula."""
    yield [neutralise_csv_cell(corner), *(neutralise_csv_cell(label) for label in labels)]
    for label, row in zip(labels, counts, strict=True):
        yield [neutralise_csv_cell(label), *(str(n) for n in row)]
