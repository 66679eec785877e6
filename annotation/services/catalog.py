from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from annotation.errors import InvalidInput
from annotation.importing.concepts import decode, detect_format, parse_concepts
from annotation.models import Category, Concept, Project


@dataclass(frozen=True)
class ConceptImportSummary:
    rows: int
    categories_created: int
    concepts_created: int
    concepts_updated: int


@transaction.atomic
def concepts_import(*, project: Project, data: bytes, filename: str = "", fmt: str = "") -> ConceptImportSummary:
    """Import categories x concepts. All or nothing: any bad line refuses the whole file.

    Idempotent: categories and concepts are matched by name (case-insensitively), so importing the
    same file again creates nothing; changed translations are updated.
    """
    try:
        text = decode(data)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    fmt = fmt or detect_format(filename, text)
    languages = set(project.languages.values_list("code", flat=True))
    parsed = parse_concepts(text, fmt, languages)
    if parsed.errors:
        raise InvalidInput(
            f"Nothing was imported: {len(parsed.errors)} problem(s) in the file.",
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
                Concept(project=project, category=category, name=row.concept, translations=row.translations)
            )
        elif row.translations and {**concept.translations, **row.translations} != concept.translations:
            concept.translations = {**concept.translations, **row.translations}
            to_update.append(concept)
    Concept.objects.bulk_create(to_create, batch_size=2000)
    Concept.objects.bulk_update(to_update, ["translations"], batch_size=2000)
    return ConceptImportSummary(
        rows=len(parsed.rows),
        categories_created=categories_created,
        concepts_created=len(to_create),
        concepts_updated=len(to_update),
    )
