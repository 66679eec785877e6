"""The item list's filters: read from the query string, checked against the project's own
categories and languages (an unknown value is ignored, never an error), and written back into links."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.http import QueryDict
from django.urls import reverse
from django.utils import timezone
from django.utils.text import Truncator
from django.utils.translation import gettext

from annotation.models import Category, Item, Membership, ProjectLanguage
from annotation.selectors.items import ItemFilters

MAX_SEARCH = 200


@dataclass(frozen=True)
class FilterChoices:
    categories: list[tuple[int, str]]
    languages: list[tuple[str, str, str]]  # (code, name, direction)
    members: list[tuple[int, str, str]]  # (user id, username, role's label): whom bulk re-assign may name

    @property
    def language_names(self) -> dict[str, str]:
        return {code: name for code, name, _ in self.languages}

    @property
    def language_dirs(self) -> dict[str, str]:
        return {code: direction for code, _, direction in self.languages}


def item_filter_choices(membership: Membership) -> FilterChoices:
    """Three queries whatever the list's size."""
    project = membership.project
    return FilterChoices(
        categories=list(Category.objects.filter(project=project).order_by("name").values_list("pk", "name")),
        languages=list(
            ProjectLanguage.objects.filter(project=project)
            .order_by("position", "code")
            .values_list("code", "name", "direction")
        ),
        members=[
            (user_id, username, Membership.Role(role).label)
            for user_id, username, role in Membership.objects.filter(project=project, is_active=True)
            .order_by("user__username")
            .values_list("user_id", "user__username", "role")
        ]
        if membership.role != Membership.Role.ANNOTATOR
        else [],
    )


def item_filters_from(params: QueryDict, choices: FilterChoices) -> ItemFilters:
    status = params.get("status", "")
    source = params.get("source", "")
    language = params.get("language", "")
    try:
        category = int(params.get("category") or 0) or None
    except ValueError:
        category = None
    return ItemFilters(
        q=params.get("q", "").strip()[:MAX_SEARCH],
        inside_words=params.get("inside") == "1",
        author=params.get("author", "").strip()[:150],
        category=category if category in {pk for pk, _ in choices.categories} else None,
        language=language if language in choices.language_names else "",
        status=status if status in Item.Status.values else "",
        source=source if source in Item.Source.values else "",
    )


def filter_query(filters: ItemFilters, *, per_page: int | str = "") -> str:
    """The filters as a query string for the pager's links ("" when none is set)."""
    pairs = [
        ("q", filters.q),
        ("inside", "1" if filters.inside_words and filters.q else ""),
        ("author", filters.author),
        ("category", filters.category or ""),
        ("language", filters.language),
        ("status", filters.status),
        ("source", filters.source),
        ("per_page", per_page),
    ]
    return urlencode([(key, value) for key, value in pairs if value])


@dataclass(frozen=True)
class ListRow:
    """One row of the list, its labels and links worked out once: the template only prints them (at 50
    rows a page, per-row `{% url %}`, translated choice labels and date filters were most of its time)."""

    item: Item
    pk: str  # text, not a number the template would localise four times a row
    category: str
    concept: str
    author: str
    language: str
    status: str
    version: str
    summary: str
    text_dir: str
    url: str
    status_label: str
    source_label: str
    updated: str
    select_label: str


def list_rows(items: list[Item], *, task_type, dirs: dict[str, str], slug: str) -> list[ListRow]:
    statuses = {value: str(label) for value, label in Item.Status.choices}
    sources = {value: str(label) for value, label in Item.Source.choices}
    prefix = reverse("item_list", args=[slug])
    zone = timezone.get_current_timezone()
    select = gettext("Select item %(id)d")
    return [
        ListRow(
            item=item,
            pk=str(item.pk),
            category=item.concept.category.name if item.concept else "",
            concept=item.concept.name if item.concept else "",
            author=item.author.username if item.author else "",
            language=item.language,
            status=item.status,
            version=str(item.current_version.number) if item.current_version else "",
            summary=Truncator(task_type.summary(item.current_version.payload)).chars(120)
            if item.current_version
            else "",
            text_dir=dirs.get(item.language, "auto"),
            url=f"{prefix}{item.pk}/",
            status_label=statuses.get(item.status, item.status),
            source_label=sources.get(item.source, item.source),
            updated=item.updated_at.astimezone(zone).strftime("%Y-%m-%d %H:%M"),
            select_label=select % {"id": item.pk},
        )
        for item in items
    ]
