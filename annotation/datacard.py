"""Pieces of a Hugging Face dataset card (README.md beside an export), shared by the core's export engine
and the task types' datacard_text. Pure."""

from __future__ import annotations

from collections import Counter
from typing import Any


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


def aggregation_section(fit: Any) -> str:
    """The card's section on `label_posterior`: which aggregation model (an AggregationFit) produced it,
    with its parameters, beside the published gold rule. Ends with an empty line."""
    parameters = ", ".join(f"{key}={value}" for key, value in sorted(fit.parameters.items()))
    priors = ", ".join(f"{label}: {p:.4f}" for label, p in sorted(fit.priors.items()))
    return "\n".join(
        [
            "## Label posteriors",
            "",
            f"Every row with judgments carries `label_posterior`, the probability of each label under a "
            f"{fit.get_model_display()} model (`{fit.model}`, crowd-kit) fitted on {fit.judgments} judgments "
            f"of {fit.items} items on {fit.fitted_at:%Y-%m-%d %H:%M} UTC. The published gold stays the "
            f"protocol's own rule; the model's most probable label differs from it on {fit.disagreements} items.",
            "",
            f"- Parameters: {parameters or 'defaults'}",
            f"- Labels: {', '.join(fit.labels)}",
            f"- Estimated class priors: {priors}",
            "",
        ]
    )


def ranking_section(ranking: dict[str, Any], *, file_name: str = "") -> str:
    """The card's section on the ranking of the models behind the responses: a Bradley-Terry fit over
    pairwise comparisons (`ranking`: qc.reports.model_ranking.ranking_json), each model's score with its
    95% bootstrap interval. Ends with an empty line."""
    interval = round(ranking["interval"] * 100)
    rows = [
        [
            str(row["rank"]),
            row["model"] or "(no model named)",
            fmt_figure(row["score"]),
            "n/a" if row["low"] is None or row["high"] is None else f"{row['low']:.4f} to {row['high']:.4f}",
            str(row["pairs"]),
            str(row["wins"]),
        ]
        for row in ranking["models"]
    ]
    beside = f" The same figures are in `{file_name}`." if file_name else ""
    fitted = ranking["fitted_at"][:16].replace("T", " ")  # ISO 8601 in UTC, to the minute
    return "\n".join(
        [
            "## Model ranking",
            "",
            f"The models behind the responses, ranked by a Bradley-Terry fit over {ranking['pairs']} "
            f"pairwise preferences between responses of different models, fitted on {fitted} UTC. A model's score "
            "is its strength (the scores sum to 1; a model beats another with probability score / (score + other's "
            f"score)); its {interval}% interval is a percentile bootstrap over items "
            f"({ranking['resamples']} resamples).{beside}",
            "",
            table(["rank", "model", "score", f"{interval}% interval", "pairs", "wins"], rows),
            "",
        ]
    )
