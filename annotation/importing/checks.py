"""What the database can hold, checked on every record before any of it is written.

Importers parse; this says whether a record fits its columns: text without NUL or a lone surrogate
(PostgreSQL refuses the one, UTF-8 can't spell the other), no longer than the column's max_length
(read from the models, so a migration that changes one changes the check), JSON nested no deeper than
MAX_DEPTH, small integers in range. A record that doesn't fit refuses the file with its row and field,
instead of the database failing half-way (a 500). Non-finite numbers never get this far: the import
JSON decoder refuses them (annotation.importing.textfile).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.utils.translation import gettext

from annotation import limits
from annotation.importing.records import ImportFileError, ImportRecord
from annotation.importing.textfile import MAX_DEPTH
from annotation.models import Category, Concept, Item, ItemVersion, Membership

SMALL_INT = 32767  # PositiveSmallIntegerField: rounds, slots


@cache
def _lengths() -> dict[str, int]:
    def max_length(model: Any, name: str) -> int:
        return model._meta.get_field(name).max_length

    return {
        "id": max_length(Item, "external_id"),
        "language": max_length(Item, "language"),
        "note": max_length(ItemVersion, "note"),
        "category": max_length(Category, "name"),
        "unit": max_length(Concept, "name"),
        "code": max_length(Membership, "code"),
    }


def record_problem(record: ImportRecord) -> tuple[str, str] | None:
    """(field, what is wrong) for the first part of `record` the database can't hold, else None."""
    lengths = _lengths()
    texts: list[tuple[str, Any, int]] = [
        ("id", record.external_id, lengths["id"]),
        ("language", record.language, lengths["language"]),
        ("note", record.note, lengths["note"]),
    ]
    if record.unit is not None:
        texts += [("category", record.unit.category, lengths["category"]), ("unit", record.unit.name, lengths["unit"])]
    if record.author is not None:
        texts.append(("author", record.author, lengths["code"]))
    for i, judgment in enumerate(record.judgments):
        texts.append((f"judgments[{i}].annotator", judgment.annotator, lengths["code"]))
        texts.append((f"judgments[{i}].comment", judgment.comment, limits.COMMENT))
    for where, value, max_length in texts:
        problem = limits.NOT_TEXT if not isinstance(value, str) else limits.text_problem(value, max_length=max_length)
        if problem is not None:
            return where, problem
    numbers = [("judging_round", record.judging_round), ("slot", record.slot)]
    numbers += [(f"judgments[{i}].round", j.round) for i, j in enumerate(record.judgments)]
    for where, number in numbers:
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= SMALL_INT:
            return where, gettext("Must be a whole number from 0 to %(max)d.") % {"max": SMALL_INT}
    values: list[tuple[str, Any]] = [("payload", record.payload)]
    if record.unit is not None:
        values.append(("unit", record.unit.data))
    for i, judgment in enumerate(record.judgments):
        values += [(f"judgments[{i}].value", judgment.value), (f"judgments[{i}].flags", judgment.flags)]
    for root, value in values:
        found = next(limits.unstorable_strings(value, max_depth=MAX_DEPTH, root=root), None)
        if found is not None:
            where, problem = found
            if where != root:
                where = f"{root}{where}" if where.startswith("[") else f"{root}.{where}"
            return where, problem
    return None


def check_record(record: ImportRecord) -> None:
    """Refuse the file (ImportFileError naming the row and the field) when `record` can't be stored."""
    found = record_problem(record)
    if found is not None:
        where, problem = found
        raise ImportFileError(
            gettext("Row %(row)d, %(field)s: %(problem)s Nothing was imported.")
            % {"row": record.row, "field": where, "problem": problem}
        )
