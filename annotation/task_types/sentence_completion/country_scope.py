"""ArabCulture's country scope: 13 Arab countries; national reviewers see authors of their countries and
the peer who answers an item shares its author's country, unless the project turns it off (same_country)."""

from __future__ import annotations

from typing import Any

from annotation.task_types.contract.country_scope import CountryScope
from annotation.task_types.sentence_completion.places import COUNTRIES, country_name


class CompletionCountryScope(CountryScope):
    countries = COUNTRIES

    def member_scope(self, settings: dict[str, Any]) -> str:
        return "country" if settings.get("same_country", True) else ""

    def author_form_defaults(self, *, profile: Any) -> dict[str, Any]:
        # The country the annotator was screened for (their profile's), when it is one of ArabCulture's.
        country = country_name(getattr(profile, "country", "") or "")
        return {"country": country} if country else {}
