"""What the report pages and downloads add to qc.reports: the heatmap cells of a conflict matrix and
CSV rows. Pure functions."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from qc.csv_cells import neutralise_csv_cell

# Colour steps of a heatmap cell (CSS classes heat-0 .. heat-8); 0 is kept for empty cells.
LEVELS = 8


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
