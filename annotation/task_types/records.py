"""The plugin contract's records: the plain data the core hands to a task type's hooks and the hooks return."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.utils.translation import pgettext_lazy


@dataclass(frozen=True)
class PayloadCheck:
    """Result of validating an item payload.

    `errors` block submission. `warnings` block it too unless the author writes a justification
    (e.g. "the concept is not in the question" for an unusual inflection the matcher misses).
    """

    errors: dict[str, list[str]] = field(default_factory=dict)
    warnings: dict[str, list[str]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors and not self.warnings


@dataclass(frozen=True)
class UnitItem:
    """Another item written for the same catalog unit, as an author form may offer it (e.g. the base
    prompt a KALAHI variant shares): UnitVariants.author_form_kwargs input."""

    item_id: int
    external_id: str
    status: str
    payload: dict[str, Any]


@dataclass(frozen=True)
class JudgmentInput:
    """A validated judgment (cross-answer, label, rating): what a Judgment row stores."""

    value: dict[str, Any]
    flags: dict[str, Any]
    comment: str


@dataclass(frozen=True)
class JudgeItem:
    """What a judge is shown of an item (TaskType.judge_item's default): never the author or their answer."""

    item_id: int
    category: str
    view: dict[str, Any]  # TaskType.judge_view(payload)
    is_own: bool


@dataclass(frozen=True)
class IntSetting:
    """One whole-number project setting of a task type: its default and its inclusive bounds."""

    default: int
    min_value: int
    max_value: int
    label: str = ""  # the settings page's label ("" : the name, humanised)
    help: str = ""


@dataclass(frozen=True)
class BoolSetting:
    """A yes/no project setting of a task type (e.g. a QC review switch)."""

    default: bool
    label: str = ""
    help: str = ""


@dataclass(frozen=True)
class ChoiceSetting:
    """A project setting that takes one of a few named values (e.g. an annotator type, lay | expert)."""

    default: str
    choices: tuple[str, ...]
    label: str = ""
    help: str = ""
    # What a person reads for each choice, in the order of `choices` (the codes are stored, never shown).
    choice_labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class ProjectPage:
    """A page of the task type's own that the core's project page links to (its model side, its set-up).

    `route` is a URL name taking the project's slug; `roles` the Membership roles the page opens for."""

    route: str
    label: str
    roles: tuple[str, ...] = ("admin",)


@dataclass(frozen=True)
class FieldChange:
    field: str
    old: str
    new: str


# ---------------------------------------------------------------------------------------------------
# The plugin contract's data shapes. The core's engines build these from rows and hand them to the task
# type's pure hooks; a plugin never imports `qc` or `evaluation`, and never queries the database.
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class JudgingRule:
    """Who judges an approved item, how many, in which rounds (the core's judging engine plans it).

    The core always refuses the item's author and anyone who already judged the item. Round 1 is
    planned in bulk for a `share` of the approved items (sampled reproducibly from the project's
    plan_seed); round n+1 is planned, exactly once, when the gold decision after round n says
    `next_round=n+1`.
    """

    kind: str  # Assignment.kind and Judgment.kind of the judges: "answer" (cross-answering), "validate" (validation)
    per_round: tuple[int, ...]  # judges needed in round 1, 2, ...
    share: float = 1.0  # of the approved items, the share sent to judging
    # Membership.group values: when set, round 1's judges of an item come in equal shares from each
    # group (per_round[0] // len(groups) each), so every item is judged by every group.
    groups: tuple[str, ...] = ()
    # Words of the core's pages and refusals ("You can't answer your own item.", "Cross-answering needs
    # at least 6 active annotators (5 answerers per item besides its author)"), so a protocol reads in
    # its own terms while the core names none.
    # Translated when shown (lazy: the plugins are built once, before any request's language is known).
    activity: str = pgettext_lazy("judging", "Judging")
    judges: str = pgettext_lazy("judging", "judges")
    verb: str = pgettext_lazy("judging", "judge")
    verb_past: str = pgettext_lazy("judging", "judged")
    saved: str = pgettext_lazy(
        "judging", "Saved. Here is the next one."
    )  # shown after a judgment, before the next item opens
    # What one judge gives ("answer", "label", "pick"): "You can't see the author's label".
    noun: str = pgettext_lazy("judging", "judgment")


class JudgmentRow(NamedTuple):
    """One judgment as a gold policy sees it (in the project's annotator order).

    Named tuples rather than frozen dataclasses: the gold engines build one per judgment and one
    GoldCase per item, 240,000 and 120,000 per validation round, and a frozen dataclass costs several
    times more to build.
    """

    judgment_id: int
    user_id: int
    round: int
    value: dict[str, Any]
    flags: dict[str, Any]


class GoldCase(NamedTuple):
    """Everything a gold policy may look at for one item."""

    payload: dict[str, Any]  # the approved version's payload (the author's answer or label included)
    judgments: tuple[JudgmentRow, ...]
    settings: dict[str, Any]  # project_settings(project)
    judging_round: int  # the item's current round (0: not sent to judging)


@dataclass(frozen=True)
class GoldOutcome:
    """outcome: "gold" | "excluded" | "pending" | "no_gold" (GoldDecision.Outcome values).

    `next_round`: set when the judgments so far call for another round (the engine plans it once).
    `details` is stored on the GoldDecision as JSON and read by the task type's reports and export.
    """

    outcome: str
    reason: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    next_round: int | None = None


class CategoricalJudgment(NamedTuple):
    """One categorical judgment as the core's aggregation model sees it (TaskType.categorical_item)."""

    item_id: int
    annotator_id: int
    label: str


class CategoricalItem(NamedTuple):
    """An item's categorical judgments and the label its published gold rule gives (None: no label yet,
    or the rule gives none), which the aggregation model's label is shown beside."""

    judgments: tuple[CategoricalJudgment, ...]
    rule_label: str | None


class ItemRecord(NamedTuple):
    """One item as reports and exports see it (built by the core from rows, in item id order)."""

    item_id: int
    external_id: str
    status: str
    source: str
    author_id: int | None
    author_code: str  # the author's Membership.code ("" when unknown)
    unit_id: int | None  # the catalog unit (Concept) the item was written for
    unit_name: str
    category: str
    unit_data: dict[str, Any]  # Concept.data (e.g. a premise's text, genre, topic, document, size)
    slot: int
    judging_round: int
    payload: dict[str, Any]  # the current version's payload
    seconds: float | None = None  # time the author spent (assignment started -> completed), if known
    language: str = ""  # the item's ProjectLanguage code; every export row carries it, so a release splits by language


class JudgmentRecord(NamedTuple):
    """One judgment as reports and exports see it."""

    judgment_id: int
    item_id: int
    user_id: int
    user_code: str
    round: int
    value: dict[str, Any]
    flags: dict[str, Any]
    comment: str = ""
    seconds: float | None = None  # time the judge spent, if known


class GoldInfo(NamedTuple):
    item_id: int
    outcome: str
    reason: str
    details: dict[str, Any]


@dataclass(frozen=True)
class AnnotatorInfo:
    user_id: int
    code: str
    region: str


class RankedModels(NamedTuple):
    """A ranking of models: per model, best first, "model", "score", "low", "high" (the score's 95%
    interval, None when unknown), "pairs", "wins", "rank"; the comparisons it was fitted on and the
    bootstrap resamples behind the intervals."""

    models: list[dict[str, Any]]
    pairs: int
    resamples: int


@dataclass(frozen=True)
class ReportRows:
    """The plain rows a task type's report is computed from (no database access in report_sections)."""

    settings: dict[str, Any]
    seed: int  # Project.plan_seed
    items: tuple[ItemRecord, ...]
    judgments: tuple[JudgmentRecord, ...]  # ordered by item id, then the project's annotator order
    gold: dict[int, GoldInfo]  # by item id
    annotators: tuple[AnnotatorInfo, ...]  # the project's annotator order
    # Items not approved (yet): submitted, sent back, rejected. Filled only for a task type whose
    # `report_reads_unapproved` is True (e.g. a report of items rejected by QC).
    unapproved: tuple[ItemRecord, ...] = ()


@dataclass(frozen=True)
class ReportColumns:
    """The same project as ReportRows, as numpy columns (the columnar report path, see TaskType.report_columns).

    Items: the decidable items in id order. Judgments: the judges' judgments (the judging kind) of those
    items, in ReportRows' order (by item, then person). People, values, flags, categories and statuses
    are given once each, and the columns hold indexes into them. A value or a flags object is the
    decoded JSON: the task type reads each distinct one with the same Python it applies to ReportRows,
    so both paths can agree exactly.
    """

    settings: dict[str, Any]
    seed: int  # Project.plan_seed
    annotators: tuple[AnnotatorInfo, ...]  # the project's annotator order
    # User ids: the annotators in their order, then every other judge or author of the items by id
    # (the order ReportRows sorts judgments in).
    people: tuple[int, ...]
    # Each distinct JSON found at the task type's `agreement_key` in a judgment's value or an item's
    # current payload, decoded (None where the key, the value or the version is missing).
    values: tuple[Any, ...]
    flags: tuple[dict[str, Any], ...]  # each distinct Judgment.flags, decoded ({} for none) as ReportRows gives it
    categories: tuple[str, ...]  # distinct category names ("" for none)
    statuses: tuple[str, ...]  # distinct item statuses
    item_id: Any  # np.ndarray int64, ascending
    item_author: Any  # int64 index into people, -1 for none
    item_category: Any  # int64 index into categories
    item_status: Any  # int64 index into statuses
    item_value: Any  # int64 index into values (the author's value)
    judgment_item: Any  # int64 position of the judgment's item in the item columns
    judgment_person: Any  # int64 index into people
    judgment_value: Any  # int64 index into values
    judgment_flags: Any  # int64 index into flags


class ExportRecord(NamedTuple):
    """One exported item with its judgments and gold decision (export_row / export_split input)."""

    item: ItemRecord
    judgments: tuple[JudgmentRecord, ...]
    gold: GoldInfo | None
    settings: dict[str, Any]
    seed: int
    # The aggregation model's posterior of the item ({label: probability}) in the project's last fit, when
    # it has one; the core's writers add it to the row as `label_posterior`.
    posterior: dict[str, float] | None = None


@dataclass(frozen=True)
class DemoProject:
    """A task type's demo project (TaskType.demo). `manage.py load_demo` creates it with the demo team
    (admin, reviewer, annotators w1..w6), imports its units file through the catalog import and plans
    authoring once."""

    slug: str
    name: str
    languages: list[dict[str, str]]  # [{"code", "name", "direction"}]
    guidelines: str  # Markdown
    settings: dict[str, Any]  # the task type's own settings (project_create's keyword arguments)
    authors_per_unit: int
    units_file: bytes  # the units as an admin would upload them (categories x concepts, premises, ...)
    units_filename: str  # its name; the extension gives the format
    # What the project starts with beyond planned authoring, so judging, the report and the export show
    # something at once (all optional; `load_demo` writes it through the same services as the pages).
    profiles: dict[str, dict[str, Any]] = field(default_factory=dict)  # annotator -> profile fields here
    reviewers: dict[str, tuple[str, ...]] = field(default_factory=dict)  # more reviewers -> review countries
    groups: dict[str, str] = field(default_factory=dict)  # annotator -> rater group
    items_file: bytes = b""  # items as an admin would import them (e.g. prompts with model responses)
    items_format: str = ""  # its import format (annotation.importing)
    items_language: str = ""
    work: tuple[DemoWork, ...] = ()  # written, submitted and approved by a reviewer
    judged: int = 0  # judge assignments done after the judging plan (the first ones planned)
    judgment: Callable[[dict[str, Any]], dict[str, Any]] | None = None  # a judge's input, from the payload


@dataclass(frozen=True)
class DemoWork:
    """One authoring unit of a demo written and approved: `payloads` (one per item of the unit) submitted
    by the first author planned for `unit` (a concept name), or by `author` on their first open unit
    (a task type whose author picks the unit in the payload), then approved by `reviewer`."""

    payloads: tuple[dict[str, Any], ...]
    unit: str = ""
    author: str = ""
    reviewer: str = "reviewer"
    justification: str = ""


@dataclass(frozen=True)
class ContractExamples:
    """A task type's tiny examples for the contract test (tests/annotation/task_types/test_contract.py),
    which runs every registered task type through the same checks."""

    payload_valid: dict[str, Any]  # raw input: normalize_payload, then check_payload(...).ok
    payload_invalid: dict[str, Any]  # normalize_payload accepts it; check_payload reports errors
    concept: str | None = None  # passed to check_payload
    # POST data of judgment_form_class(): valid, and its judgment_data() passes normalize_judgment.
    judgment_form_data: dict[str, Any] = field(default_factory=dict)
    gold_case: GoldCase | None = None
    gold_outcome: GoldOutcome | None = None  # what gold_decide(gold_case) gives (compared whole)
    export_record: ExportRecord | None = None  # export_row(record) has exactly export_fields
    import_files: dict[str, bytes] = field(default_factory=dict)  # importer format -> a tiny file (>= 1 record)


@dataclass(frozen=True)
class BenchmarkTemplate:
    """A built-in prompt of a task type's benchmark: `{{ field }}` placeholders over BenchmarkItem.fields,
    rendered by the core's sandbox (evaluation/templating.py), so a template sees nothing else."""

    name: str  # stable: stored on every prediction (Call.template)
    label: str
    text: str
    source: str = ""  # where the text comes from (a paper's appendix), shown beside it
    # Asks without the options (an open-ended check): replies are judged by reviewers, not extracted.
    open_ended: bool = False
    # The run modes (chat, completion, likelihood) the text is meant for; empty: any. A run in another
    # mode is refused with `modes_note` as the reason (e.g. a chat format written out, for likelihood).
    modes: tuple[str, ...] = ()
    modes_note: str = ""


@dataclass(frozen=True)
class BenchmarkSpec:
    """How this task type's items become a model task (TaskType.benchmark()).

    kind: "choice" (the model answers with one of `answers`, letters of options whose texts are in
    BenchmarkItem.options) or "label" (one of the `answers` words). `gold_keys`: the answers an item can
    be scored against (the first is the default), e.g. the author's answer or the judges' majority.
    `fields`: the names a template may use (a custom template is checked against them).
    """

    kind: str
    answers: tuple[str, ...]
    gold_keys: tuple[str, ...]
    templates: tuple[BenchmarkTemplate, ...]
    fields: tuple[str, ...]
    gold_key_labels: dict[str, str] = field(default_factory=dict)
    # The human baseline is the majority of BenchmarkItem.human_answers against gold, a tie going to the
    # answer given first; or, when set, to this answer (IndoNLI: "entailment", the most frequent label).
    human_no_majority: str | None = None


class BenchmarkItem(NamedTuple):
    """One item as a model task (TaskType.benchmark_item): what templates read, the options, the gold
    answer under the chosen gold key, and what the humans answered (the human baseline)."""

    fields: dict[str, Any]  # plain text/numbers only (the template sandbox refuses anything else)
    options: tuple[str, ...]  # the option texts in `answers` order ("choice"), () for labels
    gold: str | None  # None: no answer under this gold key; the item is left out
    human_answers: tuple[str, ...] = ()  # e.g. the answerers' majority, or each validator's label


@dataclass(frozen=True)
class DataCardStats:
    """What the export engine hands to datacard_text once every record is written."""

    project_name: str
    languages: list[str]  # codes; ["und"] when the project names none
    licence: str
    fmt: str  # jsonl | csv | parquet
    hf_format: str  # the `datasets` loader: json | csv | parquet
    files: dict[str, str]  # split -> file name
    counts: dict[str, int]  # split -> items
    categories: dict[str, int]  # category -> exported items
    annotators: tuple[Any, ...]  # public order: .user_id, .code, .region, .native_languages, .education
    excluded: int  # items of the project with status excluded (never exported)
    settings: dict[str, Any]
    task: Any  # what task_type.export_stats() returned, after add(record) for every record (or None)
