"""Template helpers for Gotong pages: sanitised Markdown, option letters, indexing."""

from __future__ import annotations

import markdown as md
import nh3
from django import template
from django.utils.safestring import SafeString, mark_safe

from annotation.agreement import LEVEL_LABELS

register = template.Library()

# Guidelines are written by project admins, but an admin account can be phished too: the rendered
# HTML is cleaned with an allow-list, which drops <script>, on* handlers and hx-* attributes.
_TAGS = set(nh3.ALLOWED_TAGS) - {"img", "map", "area"}
_ATTRIBUTES = {tag: attrs for tag, attrs in nh3.ALLOWED_ATTRIBUTES.items() if tag in _TAGS}
_URL_SCHEMES = {"http", "https", "mailto"}
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def render_markdown(text: str) -> str:
    html = md.markdown(text or "", extensions=["extra", "sane_lists"], output_format="html")
    return nh3.clean(html, tags=_TAGS, attributes=_ATTRIBUTES, url_schemes=_URL_SCHEMES)


@register.filter(name="markdown")
def markdown_filter(text: str) -> SafeString:
    return mark_safe(render_markdown(text))  # noqa: S308 - cleaned by nh3 just above


@register.filter
def letter(index: int) -> str:
    """0 -> "A": option labels for payloads that store options as a list."""
    try:
        return LETTERS[int(index)]
    except (IndexError, TypeError, ValueError):
        return ""


@register.filter
def percent(done: int, total: int) -> int:
    return round(100 * done / total) if total else 0


@register.filter
def at(sequence, index: int):
    """sequence[index], or None past its end: pairs a form's rows with per-row state in a loop."""
    try:
        return sequence[int(index)]
    except (IndexError, TypeError, ValueError):
        return None


@register.filter
def value_label(code, labels):
    """A value code in the words of a mapping (a task type's `value_labels`); the code itself if unlisted."""
    if isinstance(code, str):
        return labels.get(code, code)
    return code


@register.filter
def agreement_level(code: str) -> str:
    """A level code ("ordinal") -> its translated name (annotation.agreement.LEVEL_LABELS)."""
    return LEVEL_LABELS.get(code, code)
