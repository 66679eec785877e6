"""The report engine: one report per project, whatever its task type, plus two fast paths.

`project_report` reads the project's plain rows (qc.reports.rows, three queries) and hands them to the
task type's pure `report_sections`; a task type that reads columns gets them instead on PostgreSQL
(qc.reports.columns: two grouped queries into numpy arrays) and its `report_sections_from_columns`.
`alpha_for_project` and `conflicts_for_project` are streaming fast paths over a nominal value (the
task type's agreement_key and agreement_domain) for very large projects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from django.db.models.fields.json import KT, KeyTextTransform

from annotation.aggregation.ranking import last_model_ranking, ranking_applies
from annotation.agreement import conflict_tables
from annotation.annotators import project_annotators
from annotation.gold import DECIDABLE
from annotation.models import Item, Judgment, Project
from annotation.task_types import get_task_type, project_settings
from qc.agreement import alpha_nominal_counts, conflict_counts, value_counts
from qc.reports.columns import columns_apply, report_columns
from qc.reports.model_ranking import ranking_json
from qc.reports.rows import report_rows

MODEL_RANKING = "model_ranking"


def report_sections(*, project: Project, stage: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The task type's sections for the project (JSON-serialisable): from numpy columns where the task
    type reads them (qc.reports.columns), else from its plain rows. `stage` is told what is under way
    (the background build shows it)."""
    stage = stage or (lambda _name: None)
    task_type = get_task_type(project.task_type)
    if columns_apply(project):
        stage("reading columns")
        columns = report_columns(project=project)
        stage("computing sections")
        return task_type.report_sections_from_columns(columns)
    stage("reading rows")
    rows = report_rows(project=project)
    stage("computing sections")
    return task_type.report_sections(rows)


def task_type_report(*, project: Project) -> dict[str, Any]:
    """{"project": slug, **sections}: what the report page, its JSON download and the per-task-type API show."""
    return {"project": project.slug, **report_sections(project=project)}


def project_report(*, project: Project) -> dict[str, Any]:
    """{"project": slug, "task_type": name, <name>: sections, ["model_ranking": ...]}: the `report`
    command's and the API's object."""
    return {
        "project": project.slug,
        "task_type": project.task_type,
        (get_task_type(project.task_type).report_section or project.task_type): report_sections(project=project),
        **model_ranking_report(project=project),
    }


def model_ranking_report(*, project: Project) -> dict[str, Any]:
    """{"model_ranking": the last ranking of the project's models (qc.reports.model_ranking.ranking_json),
    None before its first fit} when its models are ranked (annotation.aggregation.ranking); {} when not.
    The fit runs in the background: this reads it, one query (none when the models are not ranked)."""
    if not ranking_applies(project):
        return {}
    record = last_model_ranking(project=project)
    return {MODEL_RANKING: ranking_json(record) if record is not None else None}


def _items_qs(project: Project):
    return Item.objects.filter(project=project, status__in=DECIDABLE)


def _fast_path(project: Project) -> tuple[str, str, dict[str, int]]:
    """(judgment kind, value key, value -> index) of the project's task type; refused without a fast path."""
    task_type = get_task_type(project.task_type)
    rule = task_type.judging_rule(project_settings(project))
    if rule is None or not task_type.agreement_key:
        raise ValueError(f"{task_type.label} has no streaming agreement figures.")
    return rule.kind, task_type.agreement_key, {v: i for i, v in enumerate(task_type.agreement_domain)}


def alpha_for_project(*, project: Project) -> dict[str, float | None]:
    """Krippendorff's alpha (nominal) over the judgments, without and with the author, in two queries.

    Streams (item, value) pairs straight into arrays: half a million answers take a few MB, not the
    ~100 MB of Python tuples a plain fetch would hold. Values outside the task type's agreement_domain
    are left out.
    """
    kind, key, index = _fast_path(project)
    answers = (
        Judgment.objects.filter(project=project, kind=kind, item__status__in=DECIDABLE)
        .values_list("item_id", KT(f"value__{key}"))
        .order_by()
        .iterator(chunk_size=20_000)
    )
    authors = (
        _items_qs(project)
        .values_list("pk", KeyTextTransform(key, "current_version__payload"))
        .order_by()
        .iterator(chunk_size=20_000)
    )
    item_ids, letters = _columns(answers, index)
    author_ids, author_letters = _columns(authors, index)
    all_ids = np.union1d(item_ids, author_ids)
    units = np.searchsorted(all_ids, item_ids)
    counts = value_counts(units, letters, n_units=len(all_ids), n_values=len(index))
    with_author = counts.copy()
    np.add.at(with_author, (np.searchsorted(all_ids, author_ids), author_letters), 1)
    return {
        "alpha_nominal": alpha_nominal_counts(counts),
        "alpha_nominal_with_author": alpha_nominal_counts(with_author),
    }


def _columns(rows, index: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
    """(ids, value indexes) of the rows whose value is in the domain."""
    pairs = np.fromiter(
        ((pk, index[value]) for pk, value in rows if value in index),
        dtype=np.dtype((np.int64, 2)),
    )
    return pairs[:, 0].copy(), pairs[:, 1].copy()


def conflicts_for_project(*, project: Project) -> dict[str, Any]:
    """The judge x author conflict matrix (judgments different from the author's value), in two queries
    (annotators, judgments with their item)."""
    kind, key, _ = _fast_path(project)
    annotators = project_annotators(project_ids=[project.pk]).get(project.pk, [])
    rows = (
        Judgment.objects.filter(project=project, kind=kind, item__status__in=DECIDABLE)
        .values_list(
            "user_id",
            "item__author_id",
            KT(f"value__{key}"),
            KeyTextTransform(key, "item__current_version__payload"),
        )
        .order_by()
    )
    return conflict_tables(conflict_counts(rows), annotators)
