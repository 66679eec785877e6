"""The report engine's columnar read (PostgreSQL): a project as numpy columns (ReportColumns) in two queries.

For task types that set `report_columns`. ReportRows builds a Python record per item and judgment:
11.8 s and 560 MB for 100,000 items with 500,000 judgments. Here the database groups the items and the
judgments by what the report reads of them (category, status, author and the author's value; judge,
value and flags) and sends each group's ids packed as one bytea (int8send), which numpy reads without a
Python object per row. A group holds one JSON text of a value and of flags, decoded once here.
"""

from __future__ import annotations

import json

import numpy as np
from django.db import connection, transaction

from annotation.annotators import project_annotators
from annotation.db_settings import local_settings
from annotation.gold import DECIDABLE
from annotation.models import Category, Concept, Item, ItemVersion, Judgment, Project
from annotation.task_types import get_task_type, project_settings
from annotation.task_types.base import AnnotatorInfo, ReportColumns, TaskType

NO_USER = -1


def columns_apply(project: Project) -> bool:
    task_type = get_task_type(project.task_type)
    return (
        connection.vendor == "postgresql"
        and task_type.report_columns
        and bool(task_type.agreement_key)
        and not task_type.report_reads_unapproved
    )


class _Distinct:
    """Index of each distinct JSON text (None: SQL NULL), decoded once by `decode`."""

    def __init__(self, decode) -> None:
        self.decode = decode
        self.index: dict[str | None, int] = {}
        self.decoded: list = []

    def __call__(self, text: str | None) -> int:
        at = self.index.get(text)
        if at is None:
            at = self.index[text] = len(self.decoded)
            self.decoded.append(self.decode(text))
        return at


def _value(text: str | None):
    return json.loads(text) if text is not None else None


def _flags(text: str | None) -> dict:
    # As ReportRows decodes them: no flags, JSON null or an empty value read as {}.
    return (json.loads(text) if text else None) or {}


def _ids(packed: bytes) -> np.ndarray:
    # Big-endian int8s, as int8send writes them.
    return np.frombuffer(packed, dtype=">i8").astype(np.int64)


def report_columns(*, project: Project) -> ReportColumns:
    task_type = get_task_type(project.task_type)
    annotators = project_annotators(project_ids=[project.pk]).get(project.pk, [])
    values = _Distinct(_value)
    # Hash aggregates of 500,000 judgments: in memory, not on disk. (JIT costs more than it saves here.)
    # The planner can't know that 100,000 items fall into a few hundred groups and would sort them
    # with their payloads (0.8 s of CPU at that size, against 0.3 s for the hash aggregate). The JSON
    # is turned into text by parallel workers, which the planner would not start for a cheap-looking
    # scan: measured at 500,000 judgments, 1.3-1.6 s instead of 2.0-2.4 s on a loaded 2-core machine.
    # The caller's settings are put back afterwards (annotation.db_settings); the block is a transaction
    # of its own when the caller has none, as the settings need one.
    planned = {"work_mem": "128MB", "jit": "off", "enable_sort": "off"}
    parallel = {"parallel_setup_cost": "0", "parallel_tuple_cost": "0"}
    with (
        transaction.atomic(savepoint=False),
        connection.cursor() as cursor,
        local_settings(cursor, **planned, **parallel),
    ):
        items = _read_items(cursor, project, task_type, values)
        judgments = _read_judgments(cursor, project, task_type, values)
    return _columns(project, annotators, values, items, judgments)


def _read_items(cursor, project: Project, task_type: TaskType, values: _Distinct) -> dict:
    # Grouped by everything the columns hold but the id: a few hundred groups of packed ids.
    # Grouped by the JSON's text, not the JSON: text compares cheaply, and text equal in JSON terms but
    # written apart (1 and 1.0) only makes two groups that the task type reads alike.
    cursor.execute(
        "SELECT category, status, value, author, string_agg(int8send(id), ''::bytea) "
        "FROM (SELECT i.id, coalesce(cat.name, '') AS category, i.status, (v.payload -> %s)::text AS value, "
        f"coalesce(i.author_id, {NO_USER}) AS author FROM {Item._meta.db_table} i "
        f"LEFT JOIN {ItemVersion._meta.db_table} v ON v.id = i.current_version_id "
        f"LEFT JOIN {Concept._meta.db_table} c ON c.id = i.concept_id "
        f"LEFT JOIN {Category._meta.db_table} cat ON cat.id = c.category_id "
        "WHERE i.project_id = %s AND i.status = ANY(%s)) AS item GROUP BY 1, 2, 3, 4",
        [task_type.agreement_key, project.pk, list(DECIDABLE)],
    )
    categories: dict[str, int] = {}
    statuses: dict[str, int] = {}
    authors: dict[int, int] = {}
    ids, author, category, status, value = [], [], [], [], []
    for name, state, text, author_id, packed in cursor.fetchall():
        pk = _ids(packed)
        ids.append(pk)
        author.append(np.full(len(pk), authors.setdefault(author_id, len(authors)), dtype=np.int64))
        category.append(np.full(len(pk), categories.setdefault(name, len(categories)), dtype=np.int64))
        status.append(np.full(len(pk), statuses.setdefault(state, len(statuses)), dtype=np.int64))
        value.append(np.full(len(pk), values(text), dtype=np.int64))
    item_id = _joined(ids)
    order = np.argsort(item_id, kind="stable")
    return {
        "authors": tuple(authors),  # user ids (NO_USER for none); item_author indexes them
        "categories": tuple(categories),
        "statuses": tuple(statuses),
        "item_id": item_id[order],
        "item_author": _joined(author)[order],
        "item_category": _joined(category)[order],
        "item_status": _joined(status)[order],
        "item_value": _joined(value)[order],
    }


def _read_judgments(cursor, project: Project, task_type: TaskType, values: _Distinct) -> dict:
    rule = task_type.judging_rule(project_settings(project))
    kind_filter, params = "", [task_type.agreement_key, project.pk]
    if rule is not None:
        kind_filter = "AND kind = %s"
        params.append(rule.kind)
    # Grouped by judge, value and flags (a few thousand groups at most); the item status is not joined:
    # judgments of items outside the list are dropped by id below.
    cursor.execute(
        "SELECT value, flags, user_id, string_agg(int8send(item_id), ''::bytea) "
        "FROM (SELECT (value -> %s)::text AS value, flags::text AS flags, user_id, item_id "
        f"FROM {Judgment._meta.db_table} WHERE project_id = %s {kind_filter}) AS judgment GROUP BY 1, 2, 3",
        params,
    )
    flags = _Distinct(_flags)
    judges: dict[int, int] = {}
    items, users, value, flag = [], [], [], []
    for text, flags_text, user_id, packed in cursor.fetchall():
        item = _ids(packed)
        items.append(item)
        users.append(np.full(len(item), judges.setdefault(user_id, len(judges)), dtype=np.int64))
        value.append(np.full(len(item), values(text), dtype=np.int64))
        flag.append(np.full(len(item), flags(flags_text), dtype=np.int64))
    return {
        "judges": tuple(judges),  # user ids; "user" indexes them
        "flags": tuple(flags.decoded),
        "item": _joined(items),
        "user": _joined(users),
        "value": _joined(value),
        "flag": _joined(flag),
    }


def _joined(parts: list[np.ndarray]) -> np.ndarray:
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def _positions(item_id: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Each id's position in the ascending item_id; len(item_id) for an id not there."""
    n = len(item_id)
    if not n:
        return np.zeros(len(ids), dtype=np.int64)
    low, high = int(item_id[0]), int(item_id[-1])
    if high - low >= 8 * n:  # ids far apart: a binary search each
        at = np.searchsorted(item_id, ids)
        found = at < n
        found[found] = item_id[at[found]] == ids[found]
        return np.where(found, at, n)
    # A project's items have near-consecutive ids: a table by id is 5x faster than 500,000 binary searches.
    table = np.full(high - low + 1, n, dtype=np.int64)
    table[item_id - low] = np.arange(n)
    inside = (ids >= low) & (ids <= high)
    position = np.full(len(ids), n, dtype=np.int64)
    position[inside] = table[ids[inside] - low]
    return position


def _columns(project: Project, annotators, values: _Distinct, items: dict, judgments: dict) -> ReportColumns:
    item_id = items["item_id"]
    # Judgments of items not in the list (not approved yet, or another project's) are in no report.
    position = _positions(item_id, judgments["item"])
    known = position < len(item_id)
    position, judge = position[known], judgments["user"][known]
    # People in ReportRows' order: the listed annotators, then any other judge or author by id.
    judges, authors = judgments["judges"], items["authors"]
    judging = np.flatnonzero(np.bincount(judge, minlength=len(judges)))
    listed = [a.user_id for a in annotators]
    others = ({judges[k] for k in judging.tolist()} | set(authors)) - set(listed) - {NO_USER}
    people = [*listed, *sorted(others)]
    index = {user_id: k for k, user_id in enumerate(people)}
    person = np.array([index.get(u, NO_USER) for u in judges], dtype=np.int64)[judge]
    item_author = np.array([index.get(u, NO_USER) for u in authors], dtype=np.int64)[items["item_author"]]
    # Judgments by item, then person (one sort of one key).
    order = np.argsort(position * max(len(people), 1) + person, kind="stable")
    return ReportColumns(
        settings=project_settings(project),
        seed=project.plan_seed,
        annotators=tuple(AnnotatorInfo(user_id=a.user_id, code=a.code, region=a.region) for a in annotators),
        people=tuple(people),
        values=tuple(values.decoded),
        flags=judgments["flags"],
        categories=items["categories"],
        statuses=items["statuses"],
        item_id=item_id,
        item_author=item_author,
        item_category=items["item_category"],
        item_status=items["item_status"],
        item_value=items["item_value"],
        judgment_item=position[order],
        judgment_person=person[order],
        judgment_value=judgments["value"][known][order],
        judgment_flags=judgments["flag"][known][order],
    )
