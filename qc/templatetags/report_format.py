"""Number formatting for report pages: undefined figures (None) show as a dash, never as 0."""

from __future__ import annotations

from django import template

register = template.Library()
DASH = "—"


@register.filter
def num3(value: float | None) -> str:
    return DASH if value is None else f"{value:.3f}"


@register.filter
def pct(share: float | None) -> str:
    """0.8333 -> "83.3%"."""
    return DASH if share is None else f"{100 * share:.1f}%"


@register.filter
def heatmap(square: dict, labels_key: str):
    """{"<labels_key>": [...], "counts": [[...]]} -> the heatmap rows of qc/partials/_heatmap.html."""
    from qc.reports.tables import heatmap as build  # the tables module pulls in qc.exports

    return build(square[labels_key], square["counts"])
