"""An optional part of the judging contract: a project's members come from named countries, and QC stays
inside the author's."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from annotation.models import AnnotatorProfile


class CountryScope(ABC):
    """Country scope: the countries a member's profile (from the screening form) and a reviewer's review
    countries may name, reviewers and judges who share the author's country (annotation.scope), and the
    author form's country taken from the writer's profile (ArabCulture's national review and peers).

    A capability one protocol has today (ArabCulture); a new protocol with the same need declares the same
    part (`JudgingHooks.country_scope`). Without it anyone may review and judge, and a country is any text.
    """

    # The values a member's country may take, spelled as the task type spells them.
    countries: ClassVar[tuple[str, ...]]

    @abstractmethod
    def member_scope(self, settings: dict[str, Any]) -> str:
        """ "country" when the project's reviewers and judges must share the author's country: stage-1
        reviewers only see items whose author's profile country is one of their membership's `countries`,
        and judges are annotators whose profile country is the author's; "" for anyone (a setting may
        turn the scope off)."""

    @abstractmethod
    def author_form_defaults(self, *, profile: AnnotatorProfile | None) -> dict[str, Any]:
        """Initial form values of a unit not written yet, from the author's AnnotatorProfile (or None):
        the country the writer was screened for."""
