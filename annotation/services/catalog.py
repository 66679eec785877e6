from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext

from annotation.errors import InvalidInput
from annotation.importing.concepts import decode, detect_format, parse_concepts
from annotation.models import Category, Concept, Project
from annotation.task_types import get_task_type, project_settings


@dataclass(frozen=True)
class ConceptImportSummary:
    rows: int
    categories_created: int
    concepts_created: int
    concepts_updated: int


@transaction.atomic
def concepts_import(*, project: Project, data: bytes, filename: str = "", fmt: str = "") -> ConceptImportSummary:
    """Import categories x concepts. All or nothing: any bad line refuses the whole file.

    A task type whose units carry attributes (e.g. premises) parses the file itself (`unit_authoring.units_parse`):
    its rows hold each unit's Concept.data. Idempotent: categories and concepts are matched by name
    (case-insensitively), so importing the same file again creates nothing; changed translations and
    unit attributes are updated.
    """
    try:
        text = decode(data)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    fmt = fmt or detect_format(filename, text)
    tt = get_task_type(project.task_type)
    parsed = None
    # Only a task type with its own format reads the project's units (their attributes) first.
    if tt.unit_authoring is not None:
        existing = list(Concept.objects.filter(project=project).values_list("category__name", "name", "data"))
        parsed = tt.unit_authoring.units_parse(text, fmt, settings=project_settings(project), existing=existing)
    if parsed is None:
        languages = set(project.languages.values_list("code", flat=True))
        parsed = parse_concepts(text, fmt, languages)
    if parsed.errors:
        raise InvalidInput(
            gettext("Nothing was imported: %(len)s problem(s) in the file.") % {"len": len(parsed.errors)},
            field_errors={"file": parsed.errors},
        )

    categories = {c.name.casefold(): c for c in Category.objects.filter(project=project)}
    categories_created = 0
    for row in parsed.rows:
        key = row.category.casefold()
        category = categories.get(key)
        if category is None:
            category = Category.objects.create(
                project=project, name=row.category, translations=row.category_translations
            )
            categories[key] = category
            categories_created += 1
        elif (
            row.category_translations
            and {**category.translations, **row.category_translations} != category.translations
        ):
            category.translations = {**category.translations, **row.category_translations}
            category.save(update_fields=["translations"])

    existing = {(c.category_id, c.name.casefold()): c for c in Concept.objects.filter(project=project)}
    to_create, to_update = [], []
    for row in parsed.rows:
        category = categories[row.category.casefold()]
        concept = existing.get((category.pk, row.concept.casefold()))
        if concept is None:
            to_create.append(
                Concept(
                    project=project,
                    category=category,
                    name=row.concept,
                    translations=row.translations,
                    data=row.data,
                )
            )
            continue
        changed = False
        if row.translations and {**concept.translations, **row.translations} != concept.translations:
            concept.translations = {**concept.translations, **row.translations}
            changed = True
        if row.data and row.data != concept.data:
            concept.data = row.data
            changed = True
        if changed:
            to_update.append(concept)
    Concept.objects.bulk_create(to_create, batch_size=2000)
    Concept.objects.bulk_update(to_update, ["translations", "data"], batch_size=2000)
    return ConceptImportSummary(
        rows=len(parsed.rows),
        categories_created=categories_created,
        concepts_created=len(to_create),
        concepts_updated=len(to_update),
    )
