"""Pieces of a Hugging Face dataset card (README.md beside an export), shared by the core's export engine
and the task types' datacard_text. Pure."""

from __future__ import annotations

from collections import Counter


def hf_licence(licence: str) -> str:
    """ "CC BY-NC 4.0" -> "cc-by-nc-4.0" (the Hub's licence identifiers)."""
    return "-".join(licence.lower().split()) or "unknown"


def fmt_figure(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.4f}"


def table(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown table; a | inside a cell is escaped."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def summary(values: list[str]) -> str:
    """ "Bali (2), West Java (1)": distinct values by count; empty ones as "not given"."""
    counts = Counter(v.strip() or "not given" for v in values)
    return ", ".join(f"{name} ({n})" for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))) or "none"
