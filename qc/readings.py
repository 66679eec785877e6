"""A one-line reading of an agreement figure ("alpha 0.930: high agreement"), for the report and the dashboard.

The bands are Krippendorff's usual ones (Content Analysis, 2004, ch. 11.4): alpha >= 0.800 is reliable
(high agreement); 0.667 <= alpha < 0.800 allows tentative conclusions only; below 0.667 the data are
not reliable (low agreement). They live in `agreement_band` alone, so every page reads a figure alike.
An undefined figure (None) says why when the caller knows it: every answer was the same (no variation,
so no expected disagreement), or no item had two judgments to compare.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

HIGH = 0.800
TENTATIVE = 0.667

# Why a figure is undefined (qc.activity computes it; other callers may not know).
NO_VARIATION = "no_variation"
TOO_FEW = "too_few"


@dataclass(frozen=True)
class Reading:
    band: str  # high | tentative | low | undefined (also the CSS class suffix of a chart's bar)
    text: str
    short: str = ""  # the figure and its band only ("0.930 high"), for a chart's bar


def agreement_band(alpha: float | None) -> str:
    """Krippendorff's thresholds: >= 0.800 high (reliable), >= 0.667 tentative, else low."""
    if alpha is None:
        return "undefined"
    if alpha >= HIGH:
        return "high"
    if alpha >= TENTATIVE:
        return "tentative"
    return "low"


def agreement_reading(alpha: float | None, *, undefined_because: str = "", name: str = "alpha") -> Reading:
    """The figure and what it means in one line; `name` is the figure's short name (alpha, kappa)."""
    band = agreement_band(alpha)
    if alpha is None:
        short = _("undefined")
        if undefined_because == NO_VARIATION:
            return Reading(band, _("undefined: the judges gave the same answer on every item"), short)
        if undefined_because == TOO_FEW:
            return Reading(band, _("undefined: too few judgments (no item has two to compare)"), short)
        return Reading(band, _("undefined: no variation in the answers, or too few judgments"), short)
    figure = f"{alpha:.3f}"
    bands = {"high": _("high"), "tentative": _("tentative"), "low": _("low")}
    if band == "high":
        text = _("%(name)s %(figure)s: high agreement") % {"name": name, "figure": figure}
    elif band == "tentative":
        text = _("%(name)s %(figure)s: tentative agreement (draw tentative conclusions only)") % {
            "name": name,
            "figure": figure,
        }
    elif alpha < 0:
        text = _("%(name)s %(figure)s: low agreement (below chance)") % {"name": name, "figure": figure}
    else:
        text = _("%(name)s %(figure)s: low agreement") % {"name": name, "figure": figure}
    return Reading(band, text, f"{figure} {bands[band]}")
