"""A ranking of models as the report and the export give it (pure): the report page's table, each row
with the pixel positions of its score and 95% interval on one scale shared by the rows; and the JSON
object of the report's JSON (`report --json`, report.json, the API) and the export's ranking.json."""

from __future__ import annotations

from typing import Any

from annotation.models import ModelRanking

INTERVAL = 0.95
MODEL_FIELDS = ("rank", "model", "score", "low", "high", "pairs", "wins")

BAR_WIDTH = 120


def ranking_table(ranking: list[dict[str, Any]], *, width: int = BAR_WIDTH) -> list[dict[str, Any]]:
    """The stored ranking's rows, each with "bar": x of its score, interval low and high (None when the
    interval is unknown), on 0..width where width is the largest score or interval end."""
    top = max((v for row in ranking for v in (row["score"], row["high"]) if v is not None), default=0.0)
    scale = width / top if top > 0 else 0.0

    def x(value: float | None) -> float | None:
        return None if value is None else round(value * scale, 1)

    return [{**row, "bar": {"score": x(row["score"]), "low": x(row["low"]), "high": x(row["high"])}} for row in ranking]


def ranking_json(record: ModelRanking) -> dict[str, Any]:
    """The last ranking as plain JSON: how and when it was fitted, and per model, best first, its rank,
    Bradley-Terry score (the scores sum to 1), the score's 95% bootstrap interval (low, high: null when
    unknown), the pairs it was in and the pairs it won. Numbers as the fit stored them (4 decimals)."""
    return {
        "method": "bradley-terry",
        "fitted_at": record.fitted_at.isoformat(),
        "pairs": record.pairs,
        "resamples": record.resamples,
        "interval": INTERVAL,
        "models": [{field: row.get(field) for field in MODEL_FIELDS} for row in record.ranking],
    }
