"""Filters of the chart partials and the agreement readings (qc.readings) for any report template."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from qc.readings import agreement_reading

register = template.Library()


@register.filter
def reading(alpha: float | None, name: str = "alpha") -> str:
    """{{ report.alpha_nominal|reading }} -> "alpha 0.930: high agreement"."""
    return agreement_reading(alpha, name=name).text


@register.filter
def seconds(value: float | None) -> str:
    """12.0 -> "12 s", 95.0 -> "1 min 35 s", 4000.0 -> "1 h 6 min"; None -> a dash."""
    if value is None:
        return "—"
    total = round(value)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return _("%(h)d h %(m)d min") % {"h": hours, "m": minutes}
    if minutes:
        return _("%(m)d min %(s)d s") % {"m": minutes, "s": secs}
    return _("%(s)d s") % {"s": secs}
