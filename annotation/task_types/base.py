from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.conf import settings as django_settings
from django.core.exceptions import ImproperlyConfigured

from annotation.task_types.contract.authoring import AuthoringHooks
from annotation.task_types.contract.benchmark import BenchmarkHooks
from annotation.task_types.contract.examples import ExampleHooks
from annotation.task_types.contract.export import ExportHooks
from annotation.task_types.contract.gold import GoldHooks
from annotation.task_types.contract.imports import ImportHooks
from annotation.task_types.contract.judging import JudgingHooks
from annotation.task_types.contract.marks import required, required_with
from annotation.task_types.contract.project import ProjectHooks
from annotation.task_types.contract.reports import ReportHooks
from annotation.task_types.records import (
    AnnotatorInfo,
    BenchmarkItem,
    BenchmarkSpec,
    BenchmarkTemplate,
    BoolSetting,
    CategoricalItem,
    CategoricalJudgment,
    ChoiceSetting,
    ContractExamples,
    DataCardStats,
    DemoProject,
    DemoWork,
    ExportRecord,
    FieldChange,
    GoldCase,
    GoldInfo,
    GoldOutcome,
    IntSetting,
    ItemRecord,
    JudgeItem,
    JudgingRule,
    JudgmentInput,
    JudgmentRecord,
    JudgmentRow,
    PayloadCheck,
    ProjectPage,
    RankedModels,
    ReportColumns,
    ReportRows,
    UnitItem,
)

# The records and the marks are re-exported: plugins and the core import them from here.
__all__ = [
    "AnnotatorInfo",
    "AuthoringHooks",
    "BenchmarkHooks",
    "BenchmarkItem",
    "BenchmarkSpec",
    "BenchmarkTemplate",
    "BoolSetting",
    "CategoricalItem",
    "CategoricalJudgment",
    "ChoiceSetting",
    "ContractExamples",
    "DataCardStats",
    "DemoProject",
    "DemoWork",
    "ExampleHooks",
    "ExportHooks",
    "ExportRecord",
    "FieldChange",
    "GoldCase",
    "GoldHooks",
    "GoldInfo",
    "GoldOutcome",
    "ImportHooks",
    "IntSetting",
    "ItemRecord",
    "JudgeItem",
    "JudgingHooks",
    "JudgingRule",
    "JudgmentInput",
    "JudgmentRecord",
    "JudgmentRow",
    "PayloadCheck",
    "ProjectHooks",
    "ProjectPage",
    "RankedModels",
    "ReportColumns",
    "ReportHooks",
    "ReportRows",
    "TaskType",
    "UnitItem",
    "autodiscover",
    "get_task_type",
    "has_categorical_judgments",
    "hook_parts",
    "missing_hooks",
    "project_settings",
    "ranks_models",
    "register",
    "registered",
    "registered_task_types",
    "required",
    "required_hooks",
    "required_with",
    "task_type_choices",
]


class TaskType(
    ProjectHooks,
    AuthoringHooks,
    JudgingHooks,
    GoldHooks,
    ReportHooks,
    ExportHooks,
    ImportHooks,
    BenchmarkHooks,
    ExampleHooks,
):
    """Interface every task type implements. Subclasses are registered by `name`.

    The contract comes in parts, one class each under annotation/task_types/contract/, whose docstrings
    say what the part is for and which of its hooks a task type must give:
      project    ProjectHooks    name, label, settings, templates' folder, project page additions
      authoring  AuthoringHooks  the payload, the author form and its checks, catalog units, QC review
      judging    JudgingHooks    judging_rule, judge_view, the judging form, normalize_judgment
      gold       GoldHooks       gold_policy, gold_decide, the aggregation model, agreement
      reports    ReportHooks     report_sections (and its columnar path), the report template
      export     ExportHooks     export_row, export_split, parquet_schema, datacard_text
      import     ImportHooks     importers
      benchmark  BenchmarkHooks  benchmark, benchmark_item
      examples   ExampleHooks    contract_examples, demo

    A capability one protocol has today is an optional part instead, an attribute defaulting to None that
    the protocol sets to its implementation of the part's abstract class (contract/<part>.py):
      unit_authoring  UnitAuthoring  units with their own data and file, a unit's items on one form
      unit_variants   UnitVariants   an author writes variants of the unit's other items, shown them
      unit_picking    UnitPicking    the author picks the item's unit; the plan deals out writing slots
      country_scope   CountryScope   members' countries, QC inside the author's country

    Hooks marked @required (and the attributes declared without a value: name, label, author_template,
    display_template, gold_policy) have no default; required_hooks() lists them, missing_hooks() checks
    a task type, and docs/tutorial/task-type.md builds a small task type step by step.
    """


_REGISTRY: dict[str, TaskType] = {}


def register(cls: type[TaskType]) -> type[TaskType]:
    """Class decorator of a plugin: register one instance of the task type under its `name`."""
    _REGISTRY[cls.name] = cls()
    return cls


@contextmanager
def registered(task_type: TaskType) -> Iterator[TaskType]:
    """Register `task_type` for the length of a block (a test's own task type), then forget it.

    Pages and services find it like any other; what reads the registry once at start-up (the report
    API's routes) does not see it: a task type every test should see is listed in the test settings'
    GOTONG_EXTRA_TASK_TYPES instead.
    """
    if task_type.name in _REGISTRY:
        raise ImproperlyConfigured(f"A task type named {task_type.name!r} is registered already.")
    _REGISTRY[task_type.name] = task_type
    try:
        yield task_type
    finally:
        del _REGISTRY[task_type.name]


def get_task_type(name: str) -> TaskType:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise LookupError(f"Unknown task type {name!r}; known: {', '.join(sorted(_REGISTRY))}") from None


def task_type_choices() -> list[tuple[str, str]]:
    return [(name, tt.label) for name, tt in sorted(_REGISTRY.items())]


def registered_task_types() -> list[TaskType]:
    return [tt for _, tt in sorted(_REGISTRY.items())]


def required_hooks() -> dict[str, str]:
    """Hook -> the switch that makes it required ("": always), for every hook without a default, part by
    part in TaskType's order: the attributes a part declares without a value and the methods marked
    @required / @required_with."""
    hooks: dict[str, str] = {}
    for part in TaskType.__bases__:
        hooks |= {name: "" for name in inspect.get_annotations(part) if name not in vars(part)}
        for name, value in vars(part).items():
            if hasattr(value, "required_with"):
                hooks[name] = value.required_with
    return hooks


def hook_parts() -> dict[str, type]:
    """Hook -> the part of the contract declaring it, for every public attribute and method of TaskType."""
    return {
        name: part
        for part in TaskType.__bases__
        for name in [*inspect.get_annotations(part), *vars(part)]
        if not name.startswith("_")
    }


def missing_hooks(task_type: TaskType) -> list[str]:
    """The required hooks `task_type` does not give (its switches read on the instance), in contract order."""
    cls = type(task_type)
    missing = []
    for name, switch in required_hooks().items():
        if switch:
            value = getattr(task_type, switch)
            if not (value() is not None if callable(value) else value):
                continue
        given = hasattr(cls, name) if not hasattr(TaskType, name) else getattr(cls, name) is not getattr(TaskType, name)
        if not given:
            missing.append(name)
    return missing


def has_categorical_judgments(task_type: TaskType) -> bool:
    """Whether the task type gives categorical judgments to the aggregation model."""
    return type(task_type).categorical_item is not TaskType.categorical_item


def ranks_models(task_type: TaskType) -> bool:
    """Whether the task type gives a ranking of models to the core's background fit."""
    return type(task_type).model_ranking is not TaskType.model_ranking


def project_settings(project: Any) -> dict[str, Any]:
    """The one way to read a project's task-type settings: the stored ones over the defaults.

    Stored settings were validated on write (`settings_clean`); a setting added to a task type later
    reads as its default until the project is saved again.
    """
    return {**get_task_type(project.task_type).settings_defaults(), **project.settings}


def autodiscover() -> None:
    """Register every task type: each folder `annotation/task_types/<name>/` with a `plugin` module, then
    each plugin module the deployment lists in settings.GOTONG_EXTRA_TASK_TYPES (a protocol kept outside
    this folder: the tutorial's, which the test settings list).

    Called from AnnotationConfig.ready(), so adding a protocol is adding a folder; nothing in the core
    names one. A folder without `plugin.py` (pure parts still being built) is skipped.
    """
    package = Path(__file__).resolve().parent
    for info in sorted(pkgutil.iter_modules([str(package)]), key=lambda m: m.name):
        if info.ispkg and (package / info.name / "plugin.py").exists():
            importlib.import_module(f"annotation.task_types.{info.name}.plugin")
    for module in getattr(django_settings, "GOTONG_EXTRA_TASK_TYPES", ()):
        importlib.import_module(module)
