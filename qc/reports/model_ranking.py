"""The report's table of a ranking of models: each row with the pixel positions of its score and 95%
interval on one scale shared by the rows (pure)."""

from __future__ import annotations

from typing import Any

BAR_WIDTH = 120


def ranking_table(ranking: list[dict[str, Any]], *, width: int = BAR_WIDTH) -> list[dict[str, Any]]:
    """The stored ranking's rows, each with "bar": x of its score, interval low and high (None when the
    interval is unknown), on 0..width where width is the largest score or interval end."""
    top = max((v for row in ranking for v in (row["score"], row["high"]) if v is not None), default=0.0)
    scale = width / top if top > 0 else 0.0

    def x(value: float | None) -> float | None:
        return None if value is None else round(value * scale, 1)

    return [{**row, "bar": {"score": x(row["score"]), "low": x(row["low"]), "high": x(row["high"])}} for row in ranking]
