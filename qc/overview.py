"""The charts and figures the dashboard and the report page share, built from qc.activity's reads and
qc.selectors.dashboard_stats (which the caller has already made): one place, so both pages draw
the same numbers."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from annotation.models import Assignment, Item, Project
from qc.activity import category_agreement, per_day, throughput_rows, work_times
from qc.charts import agreement_chart, bar_chart, stacked_chart, time_chart
from qc.readings import agreement_reading


def annotator_label(a: dict[str, Any]) -> str:
    return a["code"] or a["username"]


def agreement_rows(agreement: dict[str, Any] | None) -> dict[str, Any] | None:
    """The overall figure and one row per category, each with its reading."""
    if agreement is None:
        return None
    alpha, reason, judgments = agreement["overall"]
    rows = []
    for name, c_alpha, c_reason, c_judgments in agreement["categories"]:
        reading = agreement_reading(c_alpha, undefined_because=c_reason)
        rows.append(
            {
                "category": name,
                "alpha": c_alpha,
                "judgments": c_judgments,
                "reading": reading.text,
                "short": reading.short,
                "band": reading.band,
            }
        )
    overall = agreement_reading(alpha, undefined_because=reason)
    return {
        "alpha": alpha,
        "judgments": judgments,
        "reading": overall.text,
        "band": overall.band,
        "categories": rows,
        "chart": agreement_chart([(r["category"] or "—", r["alpha"], r["short"], r["band"]) for r in rows]),
    }


def overview(*, project: Project, stats: dict[str, Any], work: bool = True) -> dict[str, Any]:
    """Context for templates/qc/partials/_overview_charts.html and, with `work` (the dashboard), for
    _work_times.html (time spent, throughput: three more queries)."""
    days = per_day(project=project, judgments=work)
    status_rows = [(value, str(label), stats["status_counts"][value]) for value, label in Item.Status.choices]
    annotators = stats["annotators"]
    errors_total = sum(sum(a["errors"]) for a in annotators)
    times = work_times(project=project) if work else {"kinds": [], "overall": {}, "by_user": {}}
    timing_rows = [
        {
            "annotator": annotator_label(a),
            "user_id": a["user_id"],
            "kinds": [times["by_user"].get(a["user_id"], {}).get(kind) for kind in times["kinds"]],
        }
        for a in annotators
        if a["user_id"] in times["by_user"]
    ]
    kind_labels = _kind_labels()
    codes = [e["code"] for e in stats["error_types"]]
    return {
        "progress_chart": time_chart(days["items"]),
        "status_chart": bar_chart([(label, n, str(n)) for _, label, n in status_rows]),
        "status_rows": status_rows,
        "errors_chart": stacked_chart(
            [annotator_label(a) for a in annotators],
            [e["label"] for e in stats["error_types"]],
            [a["errors"] for a in annotators],
        )
        if errors_total
        else None,
        "error_types": [(e["code"], e["label"]) for e in stats["error_types"]],
        # (user id, annotator, [(error code, count), ...]): the cells' ids name both.
        "error_rows": [
            (a["user_id"], annotator_label(a), list(zip(codes, a["errors"], strict=True))) for a in annotators
        ],
        "agreement": agreement_rows(category_agreement(project=project)),
        "times": {
            "kinds": [(kind, kind_labels[kind], times["overall"][kind]) for kind in times["kinds"]],
            "rows": timing_rows,
        },
        "throughput": throughput_rows(days),
        "judgments_chart": time_chart(days["judgments"]),
    }


def _kind_labels() -> dict[str, str]:
    return {
        Assignment.Kind.AUTHOR: _("Writing (per unit)"),
        Assignment.Kind.REVIEW: _("Reviewing (per item)"),
        Assignment.Kind.ANSWER: _("Answering (per item)"),
        Assignment.Kind.VALIDATE: _("Validating (per item)"),
        Assignment.Kind.RATE: _("Rating (per item)"),
    }
