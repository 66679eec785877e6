"""What the benchmark pages show beyond the report (evaluation/benchmarks/report.py, which they call):
the category x endpoint grid of the heatmap, the geometry of the server-drawn charts, the prompt a
prediction was asked with, the rows of the downloads and the items whose correctness changed between
two runs. Each function reads the database in a fixed number of queries, whatever the run's size.

The charts are inline SVG drawn here from numbers (no JavaScript: the Content-Security-Policy allows
scripts and styles only from our own files, and SVG presentation attributes such as `fill-opacity`
are neither). Every shape carries a <title> with its figure, and the page shows the same figures in
a table next to the chart.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import Any, NamedTuple

from django.utils.translation import gettext

from evaluation.benchmarks import metrics
from evaluation.benchmarks.report import CALL_FAILED
from evaluation.models import Prediction, Run

BAR_WIDTH = 400  # px of the longest possible bar (accuracy 1.0)
BAR_HEIGHT = 22
CELL_WIDTH = 90
CELL_HEIGHT = 28
LABEL_WIDTH = 160

DOWNLOAD_FIELDS = (
    "item",
    "endpoint",
    "model",
    "template",
    "category",
    "source",
    "split",
    "gold",
    "answer",
    "parsed",
    "correct",
    "rule",
    "reply",
)


def percent(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.1f}%"


class Bar(NamedTuple):
    label: str
    y: int
    width: float
    text_x: float
    figure: str
    title: str
    human: bool


def bar_chart(by_endpoint: dict[str, dict[str, Any]], human: dict[str, Any] | None) -> dict[str, Any]:
    """One bar per model (its accuracy over every template), and the human baseline as the last bar."""
    rows = [(name, row, False) for name, row in by_endpoint.items()]
    if human is not None:
        rows.append((gettext("humans"), human, True))
    bars = []
    for index, (name, row, is_human) in enumerate(rows):
        accuracy = row["accuracy"] or 0.0
        width = round(accuracy * BAR_WIDTH, 1)
        figure = f"{percent(row['accuracy'])} [{percent(row['ci_low'])}, {percent(row['ci_high'])}], n={row['n']}"
        y = index * (BAR_HEIGHT + 6)
        bars.append(Bar(name, y, width, LABEL_WIDTH + width + 6, figure, f"{name}: {figure}", is_human))
    return {
        "bars": bars,
        "label_width": LABEL_WIDTH,
        "width": LABEL_WIDTH + BAR_WIDTH + 230,  # room for the figure after a full bar
        "height": max(len(bars), 1) * (BAR_HEIGHT + 6),
        "bar_height": BAR_HEIGHT,
        "text_dy": BAR_HEIGHT * 0.7,
    }


class Cell(NamedTuple):
    x: int
    y: int
    opacity: float
    text: str
    title: str
    dark: bool


def category_grid(run: Run) -> dict[str, Any]:
    """Accuracy (with its interval) per (category, endpoint): one query over the run's predictions."""
    outcomes: dict[tuple[str, str], list[bool]] = defaultdict(list)
    # A failed call has no reply: left out, as in report.py; unparsed is wrong.
    answered = Prediction.objects.filter(run=run).exclude(rule=CALL_FAILED)
    for category, endpoint, parsed, correct in answered.values_list(
        "case__category", "endpoint__name", "parsed", "correct"
    ):
        outcomes[(category, endpoint)].append(parsed and correct)
    categories = sorted({category for category, _ in outcomes})
    endpoints = sorted({endpoint for _, endpoint in outcomes})
    scores = {key: metrics.summarise(values, seed=metrics.SEED) for key, values in outcomes.items()}
    rows = [(category, [scores.get((category, endpoint)) for endpoint in endpoints]) for category in categories]
    return {"categories": categories, "endpoints": endpoints, "rows": rows}


def heatmap(grid: dict[str, Any]) -> dict[str, Any]:
    """The grid as SVG cells: the darker, the more accurate; an empty cell when nothing was asked."""
    cells = []
    for row_index, (category, scores) in enumerate(grid["rows"]):
        for column, (endpoint, score) in enumerate(zip(grid["endpoints"], scores, strict=True)):
            if score is None:
                continue
            accuracy = score["accuracy"] or 0.0
            cells.append(
                Cell(
                    x=LABEL_WIDTH + column * CELL_WIDTH,
                    y=CELL_HEIGHT + row_index * CELL_HEIGHT,
                    opacity=round(0.1 + 0.9 * accuracy, 3),
                    text=percent(score["accuracy"]),
                    title=f"{category} × {endpoint}: {percent(score['accuracy'])} "
                    f"[{percent(score['ci_low'])}, {percent(score['ci_high'])}], n={score['n']}",
                    dark=accuracy >= 0.5,
                )
            )
    return {
        "cells": cells,
        "columns": [(LABEL_WIDTH + i * CELL_WIDTH + CELL_WIDTH / 2, name) for i, name in enumerate(grid["endpoints"])],
        "row_labels": [
            (CELL_HEIGHT + i * CELL_HEIGHT + CELL_HEIGHT * 0.65, name) for i, (name, _) in enumerate(grid["rows"])
        ],
        "width": LABEL_WIDTH + max(len(grid["endpoints"]), 1) * CELL_WIDTH,
        "height": CELL_HEIGHT * (len(grid["rows"]) + 1),
        "cell_width": CELL_WIDTH - 2,
        "cell_height": CELL_HEIGHT - 2,
        "text_dx": CELL_WIDTH / 2,
        "text_dy": CELL_HEIGHT * 0.65,
    }


def prompt_text(request: dict[str, Any] | None) -> str:
    """What the model was sent, as text: chat messages one per paragraph, or the completion prompt."""
    if not request:
        return ""
    if "messages" in request:
        return "\n\n".join(f"[{m.get('role', '')}]\n{m.get('content', '')}" for m in request["messages"])
    if "prompt" in request:
        return str(request["prompt"])
    if "context" in request:  # likelihood: the context and the continuation scored
        return f"{request['context']}⟨{request.get('continuation', '')}⟩"
    return ""


def download_rows(run: Run) -> Iterator[dict[str, Any]]:
    """Every prediction of the run as a flat record (the CSV and JSON downloads), in item order."""
    rows = (
        Prediction.objects.filter(run=run)
        .order_by("item_id", "endpoint__name", "template")
        .values_list(
            "item_id",
            "endpoint__name",
            "endpoint__model",
            "template",
            "case__category",
            "case__source",
            "case__split",
            "gold",
            "answer",
            "parsed",
            "correct",
            "rule",
            "reply",
        )
    )
    for row in rows.iterator(chunk_size=2000):
        record = dict(zip(DOWNLOAD_FIELDS, row, strict=True))
        record["correct"] = bool(record["parsed"] and record["correct"])  # unparsed counts as wrong
        yield record


class Change(NamedTuple):
    item: int
    endpoint: str
    template: str
    gold: str
    answer_a: str
    answer_b: str
    correct_a: bool
    correct_b: bool


def changed_items(a: Run, b: Run) -> list[Change]:
    """Predictions of the same (item, endpoint name, template) in both runs whose correctness differs."""

    def outcomes(run: Run) -> dict[tuple[int, str, str], tuple[str, str, bool]]:
        return {
            (item, endpoint, template): (gold, answer, parsed and correct)
            for item, endpoint, template, gold, answer, parsed, correct in Prediction.objects.filter(run=run)
            .values_list("item_id", "endpoint__name", "template", "gold", "answer", "parsed", "correct")
            .iterator(chunk_size=2000)
        }

    first, second = outcomes(a), outcomes(b)
    changes = []
    for key in sorted(first.keys() & second.keys()):
        (gold, answer_a, right_a), (_gold, answer_b, right_b) = first[key], second[key]
        if right_a != right_b:
            changes.append(Change(*key, gold, answer_a, answer_b, right_a, right_b))
    return changes
