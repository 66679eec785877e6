"""Which guidelines a page shows: per project, per kind (writing or judging) and per language.

A project keeps its default guidelines in `Project.guidelines` (writing) and `Project.judging_guidelines`
(judging), and may give them in other languages in `Project.guidelines_translations`
({"id": {"writing": "...", "judging": "..."}}). The user's active UI language picks the text; a language
the project has not translated falls back to its base language ("id" for "id-ID"), then to the default.
No query: everything is on the project row every page already holds.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext

from annotation import limits
from annotation.errors import InvalidInput

WRITING = "writing"
JUDGING = "judging"
KINDS = (WRITING, JUDGING)


def guidelines_pick(
    *, default_writing: str, default_judging: str, translations: dict[str, Any], kind: str, language: str
) -> str:
    """The text for `kind` in `language`, or the default; pure, so it is tested without a database."""
    if kind not in KINDS:
        raise ValueError(f"Unknown guidelines kind {kind!r}.")
    language = (language or "").lower()
    for code in (language, language.split("-")[0]):
        text = ((translations or {}).get(code) or {}).get(kind, "")
        if text and text.strip():
            return text
    return default_writing if kind == WRITING else default_judging


def guidelines_for(*, project, kind: str, language: str | None = None) -> str:
    """The guidelines of `project` for `kind` in the active UI language (or the one given)."""
    return guidelines_pick(
        default_writing=project.guidelines,
        default_judging=project.judging_guidelines,
        translations=project.guidelines_translations,
        kind=kind,
        language=language if language is not None else (translation.get_language() or ""),
    )


def guidelines_check(*, judging: str | None, translations: dict[str, Any] | None, language_codes: set[str]) -> None:
    """Refuse guidelines a project can't hold: an unknown kind or language, text over the length limit."""
    if judging is not None:
        limits.check_text(judging, field="judging_guidelines", max_length=limits.GUIDELINES)
    for code, texts in (translations or {}).items():
        if code not in language_codes:
            raise InvalidInput(gettext("“%(code)s” is not a language of this project.") % {"code": code})
        if not isinstance(texts, dict) or set(texts) - set(KINDS):
            raise InvalidInput(gettext("Guidelines come in two kinds only: writing and judging."))
        for kind, text in texts.items():
            if not isinstance(text, str):
                raise InvalidInput(gettext("Guidelines are text."))
            limits.check_text(text, field=f"guidelines_{kind}_{code}", max_length=limits.GUIDELINES)
