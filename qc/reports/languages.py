"""The report's per-language table: how many items each of the project's languages has, and
how far they got. One grouped query; a language without items still gets its row."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q

from annotation.models import Item, Project, ProjectLanguage

ACCEPTED = (Item.Status.APPROVED, Item.Status.JUDGED, Item.Status.GOLD)
REFUSED = (Item.Status.REJECTED, Item.Status.EXCLUDED)


@dataclass(frozen=True)
class LanguageRow:
    code: str
    name: str
    direction: str
    items: int
    in_progress: int  # draft, submitted, sent back
    accepted: int  # approved, judged or gold
    refused: int  # rejected or excluded


def language_breakdown(*, project: Project) -> list[LanguageRow]:
    counts = {
        row["language"]: row
        for row in Item.objects.filter(project=project)
        .values("language")
        .annotate(
            items=Count("id"),
            accepted=Count("id", filter=Q(status__in=ACCEPTED)),
            refused=Count("id", filter=Q(status__in=REFUSED)),
        )
        .order_by()
    }
    rows = []
    for language in ProjectLanguage.objects.filter(project=project).order_by("position", "code"):
        row = counts.pop(language.code, {"items": 0, "accepted": 0, "refused": 0})
        rows.append(_row(language.code, language.name, language.direction, row))
    for code, row in sorted(counts.items()):  # a code the project no longer lists (or none recorded)
        rows.append(_row(code, code or "—", "auto", row))
    return rows


def _row(code: str, name: str, direction: str, row: dict) -> LanguageRow:
    return LanguageRow(
        code=code,
        name=name,
        direction=direction,
        items=row["items"],
        in_progress=row["items"] - row["accepted"] - row["refused"],
        accepted=row["accepted"],
        refused=row["refused"],
    )
