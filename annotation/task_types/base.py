from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, NamedTuple, TypeVar

from django.conf import settings as django_settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext, pgettext_lazy

from annotation.errors import InvalidInput


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
    prompt a KALAHI variant shares): TaskType.author_form_kwargs input."""

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
    language: str = ""  # the item's ProjectLanguage code (issue 13); every export row carries it


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
    # POST data of answer_form_class(): valid, and its judgment_data() passes normalize_judgment.
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


# ---------------------------------------------------------------------------------------------------
# Which hooks a task type must give. Every other hook has a default that fits a protocol which does not
# need it; docs/tutorial/task-type.md lists both, and a test keeps that list equal to these marks.
# ---------------------------------------------------------------------------------------------------

_Hook = TypeVar("_Hook", bound=Callable[..., Any])


def required(hook: _Hook) -> _Hook:
    """Mark a hook every task type must give (the base's body only raises NotImplementedError)."""
    hook.required_with = ""  # type: ignore[attr-defined]
    return hook


def required_with(switch: str) -> Callable[[_Hook], _Hook]:
    """Mark a hook a task type must give once it turns `switch` on: a class attribute that is true, or a
    hook that returns something other than None (e.g. `benchmark_item` once `benchmark()` gives a spec)."""

    def mark(hook: _Hook) -> _Hook:
        hook.required_with = switch  # type: ignore[attr-defined]
        return hook

    return mark


class TaskType:
    """Interface every task type implements. Subclasses are registered by `name`.

    Hooks marked @required (and the attributes declared without a value: name, label, author_template,
    display_template, gold_policy) have no default; required_hooks() lists them, missing_hooks() checks
    a task type, and docs/tutorial/task-type.md builds a small task type step by step.

    The hooks, by part of the contract (ARCHITECTURE.md "What a task type provides"):
      settings   settings_spec, settings_defaults, settings_clean
      payload    normalize_payload, check_payload, diff, summary, form_class, form_initial, payload_from_form
      authoring  items_per_unit, units_parse (Concept.data of the unit an author is given)
      judging    judging_rule, judge_view, answer_form_class, normalize_judgment, judgment_keys
      gold       gold_policy, gold_decide, gold_memo_key
      agreement  agreement_value, agreement_level
      reports    report_template, report_sections, report_columns + report_sections_from_columns
      export     export_fields, export_row, export_split, parquet_schema, datacard_text
      importers  importers
      benchmark  benchmark, benchmark_item
      demo       demo
    """

    name: ClassVar[str]
    label: ClassVar[str]
    # Templates (paths under templates/, or under template_dir) for the authoring form and the read-only
    # item view.
    author_template: ClassVar[str]
    display_template: ClassVar[str]
    answer_template: ClassVar[str] = ""
    # A folder of the task type's own templates, searched after templates/ (annotation.task_types.loader):
    # for a task type that lives outside this repository's folders (a plugin package, the tutorial's in
    # tests/). "": its templates are in templates/annotation/task_types/<name>/.
    template_dir: ClassVar[str | Path] = ""
    # Optional page template extending "annotation/answer_item.html" to word its blocks (heading, own_item, keys).
    answer_page_template: ClassVar[str] = ""
    # Optional template of the task type's own set-up forms on the project page (admins only, e.g. "add
    # the paper's topics"); the core's stage panel links every stage, so this holds no links to them.
    project_panels_template: ClassVar[str] = ""
    # The task type's own pages, linked from the project page's stage panel (the core's pages are linked
    # from what the task type declares: judging_rule, importers, benchmark, ...).
    project_pages: ClassVar[tuple[ProjectPage, ...]] = ()
    # The catalog unit an author is given, in the core's pages ("k authors per premise").
    unit_word: ClassVar[str] = pgettext_lazy("unit", "concept")
    unit_words: ClassVar[str] = pgettext_lazy("unit", "concepts")
    # (code, label, description) seeded into a new project's QC taxonomy.
    default_error_types: ClassVar[list[tuple[str, str, str]]] = []
    # The task type's own project settings (stored as JSON in Project.settings), by name.
    settings_spec: ClassVar[dict[str, IntSetting | BoolSetting | ChoiceSetting]] = {}

    def settings_defaults(self) -> dict[str, Any]:
        return {name: spec.default for name, spec in self.settings_spec.items()}

    def settings_clean(self, data: dict[str, Any]) -> dict[str, Any]:
        """The settings to store: `data` validated, missing ones filled with their defaults.

        Raises InvalidInput naming each refused field; unknown settings are refused, not dropped.
        """
        if not isinstance(data, dict):
            raise InvalidInput(
                gettext("Settings must be an object."), field_errors={"settings": [gettext("Give an object.")]}
            )
        field_errors: dict[str, list[str]] = {}
        for name in sorted(set(data) - set(self.settings_spec)):
            field_errors[name] = [gettext("Unknown setting for %(label)s.") % {"label": self.label}]
        cleaned = self.settings_defaults()
        for name, spec in self.settings_spec.items():
            if name not in data:
                continue
            value = data[name]
            if isinstance(spec, BoolSetting):
                if isinstance(value, bool):
                    cleaned[name] = value
                else:
                    field_errors[name] = [gettext("Give true or false.")]
            elif isinstance(spec, ChoiceSetting):
                if value in spec.choices:
                    cleaned[name] = value
                else:
                    field_errors[name] = [gettext("Choose one of: %(join)s.") % {"join": ", ".join(spec.choices)}]
            elif isinstance(value, bool) or not isinstance(value, int):
                field_errors[name] = [gettext("Give a whole number.")]
            elif not spec.min_value <= value <= spec.max_value:
                field_errors[name] = [
                    gettext("Use a whole number from %(min_value)s to %(max_value)s.")
                    % {"min_value": spec.min_value, "max_value": spec.max_value}
                ]
            else:
                cleaned[name] = value
        if field_errors:
            raise InvalidInput(
                gettext("These settings are not valid: %(join)s.") % {"join": ", ".join(sorted(field_errors))},
                field_errors=field_errors,
            )
        return cleaned

    @required
    def normalize_payload(self, data: dict[str, Any]) -> dict[str, Any]:
        """Shape raw input (form or API) into the canonical payload, without judging it."""
        raise NotImplementedError

    @required
    def check_payload(self, payload: dict[str, Any], *, concept: str | None) -> PayloadCheck:
        raise NotImplementedError

    @required
    def form_class(self) -> type:
        raise NotImplementedError

    def author_form_defaults(self, *, profile: Any) -> dict[str, Any]:
        """Initial form values of a unit not written yet, from the author's AnnotatorProfile (or None)."""
        return {}

    @required
    def form_initial(self, payload: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    @required
    def payload_from_form(self, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    @required
    def diff(self, old: dict[str, Any] | None, new: dict[str, Any]) -> list[FieldChange]:
        raise NotImplementedError

    @required
    def summary(self, payload: dict[str, Any]) -> str:
        raise NotImplementedError

    def answer_form_class(self) -> type | None:
        """The form annotators answer another's item with, or None when the protocol has no cross-answering."""
        return None

    @required
    def normalize_judgment(self, data: dict[str, Any]) -> JudgmentInput:
        """Validate a judgment of an item (form or API input); raise InvalidInput when it is not valid."""
        raise NotImplementedError

    # --- authoring ---------------------------------------------------------------------------------
    # Items an author writes per unit (one authoring assignment): one question, or six hypotheses per
    # premise (Item.slot 0..5).
    items_per_unit: ClassVar[int] = 1
    # Authors per unit for a new project that does not say (Project.authors_per_concept).
    authors_per_unit_default: ClassVar[int] = 2

    def unit_payloads_from_form(self, cleaned_data: dict[str, Any]) -> list[dict[str, Any]]:
        """The payloads of one unit's items in slot order (items_per_unit of them) from the author form."""
        return [self.payload_from_form(cleaned_data)]

    # The author picks the item's category and concept from the project's catalog: the payload keys that
    # name them (ArabCulture: ("topic", "subtopic")). The item's concept becomes the pick (reports,
    # export and benchmarks read it); a payload naming neither keeps the planned unit. None: always the
    # planned unit. The author form then takes `catalog` ({category: [concept, ...]}).
    unit_pick_keys: ClassVar[tuple[str, str] | None] = None

    def unit_pickable(self, data: dict[str, Any]) -> bool:
        """Whether an author may pick this catalog unit (Concept.data); a writing slot of the plan is not."""
        return True

    # A Concept.data key marking writing slots: when a project has units with it true, the authoring plan
    # deals out only those (one item each, balanced per category) and the author picks the item's unit.
    plan_slot_key: ClassVar[str] = ""

    # The author form is given the unit's other items (author_form_kwargs); off: no query for them.
    author_sees_unit_items: ClassVar[bool] = False

    def author_form_kwargs(self, unit_items: list[UnitItem]) -> dict[str, Any]:
        """Extra keyword arguments of form_class() on the authoring page, from the other items written
        for the same unit (submitted or later; drafts and rejected ones left out)."""
        return {}

    def author_assignment_kwargs(self, assignment: Any) -> dict[str, Any]:
        """Extra keyword arguments of form_class() from the authoring assignment itself (e.g. the base
        prompt a KALAHI variant request names in its target_item); {} for most task types."""
        return {}

    def unit_reference_errors(
        self,
        payloads: list[dict[str, Any]],
        *,
        unit_items: list[UnitItem],
        current: list[dict[str, Any]],
        assignment: Any,
    ) -> dict[str, list[str]]:
        """Field errors for a reference to another item of the unit that the unit does not hold (e.g. a
        KALAHI `prompt_id` naming no base prompt of the unit), checked on every save when
        author_sees_unit_items; `current` holds the unit's saved payloads (what they name stays valid)."""
        return {}

    def item_reviewed(self, *, item: Any, review: Any, error_codes: list[str]) -> None:
        """Called inside a QC decision's transaction once the item has its new status (e.g. KALAHI asks
        for a variant of a base prompt approved after an "add a situation variant" request)."""
        return None

    def unit_form_initial(self, payloads: list[dict[str, Any]]) -> dict[str, Any]:
        """The author form's initial data from the unit's current payloads (slot order; {} for a new one)."""
        return self.form_initial(payloads[0]) if payloads else {}

    def check_unit(
        self,
        payloads: list[dict[str, Any]],
        *,
        concept: str | None,
        unit_data: dict[str, Any],
        settings: dict[str, Any],
    ) -> PayloadCheck:
        """Checks over all of a unit's items at once (e.g. two hypotheses per label, all distinct), keyed
        by form field."""
        return self.check_payload(payloads[0], concept=concept)

    # The catalog import page's description of the task type's own unit file ("" for categories x concepts).
    units_help: ClassVar[str] = ""

    def units_parse(self, text: str, fmt: str, *, settings: dict[str, Any], existing: list[Any]) -> Any | None:
        """Parse a catalog import file into units with their Concept.data, or None for the core's
        categories x concepts format. `existing` holds the project's units as (category, name, data)."""
        return None

    # Template (under templates/) of a panel beside the author form summarising the author's own items
    # (e.g. how their phenomenon tags are spread); "" for none. Its context is `author_summary(...)`.
    author_summary_template: ClassVar[str] = ""

    def author_summary(self, payloads: list[dict[str, Any]], settings: dict[str, Any]) -> dict[str, Any]:
        """What the author-summary panel shows, from the current payloads of the author's items."""
        return {}

    def review_required(self, settings: dict[str, Any]) -> bool:
        """Whether submitted items wait for QC review; when False, a submitted item is approved at once."""
        return True

    # --- who may review and judge an item ------------------------------------------------------------
    def member_scope(self, settings: dict[str, Any]) -> str:
        """A profile attribute an item's reviewers and judges must share with its author, "" for anyone.

        "country": stage-1 reviewers only see items whose author's profile country is one of their
        membership's `countries`, and judges are annotators whose profile country is the author's
        (annotation.scope). Any task type may use it."""
        return ""

    # The values a member's country may take (profile country from the screening form, a reviewer's
    # countries), spelled as the task type spells them; empty: any text.
    countries: ClassVar[tuple[str, ...]] = ()

    # --- judging -----------------------------------------------------------------------------------
    # Keyboard key -> judgment value shown on the judging page (A-E for multiple choice, e/n/c for labels).
    judgment_keys: ClassVar[dict[str, str]] = {}

    def judgment_keys_for(self, question: Any) -> dict[str, str]:
        """The keys of this question (what judge_item_for_judge returned): the keyboard panel lists only
        these. By default every key; a task type whose questions have a varying number of options
        narrows them."""
        return self.judgment_keys

    # The judging API's shapes (annotation.api.serializers.judgments.SHAPES): "generic" serves judge_item's
    # JudgeItem (id, category, view) and the judgment's value/flags/comment as stored, with the round;
    # "multiple_choice" the flat question/choices and answer A-E shapes the cross-answering API began with.
    judging_api_shape: ClassVar[str] = "generic"

    def judging_rule(self, settings: dict[str, Any]) -> JudgingRule | None:
        """How the project's approved items are judged, or None when the protocol has no judging."""
        return None

    @required
    def judge_view(self, payload: dict[str, Any], *, unit_data: dict[str, Any] | None = None) -> dict[str, Any]:
        """What a judge sees of an item: never the author's answer or label. `unit_data` is the item's
        Concept.data (e.g. the premise a hypothesis is judged against)."""
        raise NotImplementedError

    def judge_item(
        self, *, item_id: int, category: str, payload: dict[str, Any], unit_data: dict[str, Any], is_own: bool
    ) -> Any:
        """The object the judging page's `answer_template` reads as `question` (and the judging API
        renders): by default a JudgeItem holding judge_view(payload). Never the author's answer."""
        return JudgeItem(
            item_id=item_id, category=category, view=self.judge_view(payload, unit_data=unit_data), is_own=is_own
        )

    def judge_item_for_judge(
        self,
        *,
        judge_id: int,
        seed: int,
        item_id: int,
        category: str,
        payload: dict[str, Any],
        unit_data: dict[str, Any],
        is_own: bool,
    ) -> Any:
        """judge_item for one judge (the core's judging page and API call this): by default the same for
        everyone; a task type that shows each judge its own order (seeded by `seed`, the project's
        plan_seed) overrides it."""
        return self.judge_item(item_id=item_id, category=category, payload=payload, unit_data=unit_data, is_own=is_own)

    def complete_judgment(
        self,
        judgment: JudgmentInput,
        *,
        judge_id: int,
        judge_group: str,
        seed: int,
        item_id: int,
        payload: dict[str, Any],
    ) -> JudgmentInput:
        """Check a normalized judgment against the item it judges and add what only the server knows (the
        order the judge was shown, their group); raise InvalidInput to refuse. Default: unchanged."""
        return judgment

    def own_judgment(self, judgment: JudgmentInput | None) -> Any:
        """The judge's own earlier judgment as the judging page and API show it (None: not judged yet).
        The judging form class gives its initial data with `initial_for(own_judgment(...))`."""
        return judgment

    def own_judgment_for_judge(
        self, judgment: JudgmentInput | None, *, judge_id: int, seed: int, item_id: int, payload: dict[str, Any]
    ) -> Any:
        """own_judgment for one judge (the core's judging page and API call this): by default the same for
        everyone; a task type that shows each judge its own order overrides it to answer in that order."""
        return self.own_judgment(judgment)

    def payload_for_annotator(
        self, payload: dict[str, Any], *, viewer_id: int, item_id: int, seed: int
    ) -> dict[str, Any]:
        """What an annotator (a writer, who may also judge) is shown of an item's payload on the item page,
        its history and the item API; reviewers and admins see all of it. Default: all of it."""
        return payload

    # --- gold --------------------------------------------------------------------------------------
    # The rule's name and version, stored on every GoldDecision ("csqa_majority_v1").
    gold_policy: ClassVar[str]

    @required
    def gold_decide(self, case: GoldCase) -> GoldOutcome:
        raise NotImplementedError

    # The payload keys gold_decide reads (with .get), when it reads nothing else of the payload and
    # never a judgment's id nor who judged (as gold_memo_key leaves them out): qc.gold then decides a
    # whole project set-based on PostgreSQL (each distinct case - those keys, the round, the judgments'
    # rounds, values and flags in annotator order - decided once, saved by joins). None: every item's
    # case is built in Python.
    gold_payload_keys: ClassVar[tuple[str, ...] | None] = None

    def gold_memo_key(self, case: GoldCase) -> Hashable | None:
        """A key naming everything gold_decide reads of `case`, so that cases with equal keys get
        equal outcomes; None: decide every case.

        The gold engines (qc.gold, the import engine) decide each key once per recompute or file and
        give its outcome to every case with that key: 120,000 validated pairs have a few dozen keys
        (the labels in order), so deciding them costs a dictionary lookup each. The outcome is shared
        between items: its `details` must not be changed afterwards. A key that can't be hashed (a
        value outside the task type's vocabulary) just means that case is decided on its own.
        """
        return None

    # --- aggregation model ---------------------------------------------------------------------------
    def categorical_item(
        self, *, item_id: int, author_id: int | None, case: GoldCase, outcome: GoldOutcome
    ) -> CategoricalItem | None:
        """The item's judgments as labels for the core's aggregation model (Dawid-Skene, GLAD, MACE),
        with the label the published rule gave (`outcome`, gold_decide(case)). A task type whose rule
        counts the author's own label as a vote may give it as a judgment by `author_id`. None (the
        default): the task type has no categorical judgments, and no model is fitted."""
        return None

    def model_ranking(self, rows: ReportRows) -> RankedModels | None:
        """A ranking of the models behind the items (e.g. Bradley-Terry from pairwise comparisons), fitted by
        the core's background aggregation task and shown on the report. Given the report's rows
        (settings, items and judgments only: no gold, no annotators). None (the default): the task type
        ranks no models."""
        return None

    # --- agreement ---------------------------------------------------------------------------------
    agreement_level: ClassVar[str] = "nominal"  # nominal | ordinal | interval (krippendorff levels)
    # For the core's streaming agreement figures over very large projects (qc.reports.alpha_for_project,
    # conflicts_for_project): the key holding the value in Judgment.value and in the author's payload,
    # and the values that count (anything else is left out). "" / (): the task type has no fast path.
    agreement_key: ClassVar[str] = ""
    agreement_domain: ClassVar[tuple[str, ...]] = ()
    # The words for the task type's own value codes (labels, split names) on the core's pages: code ->
    # gettext_lazy label. Stored values and exports keep the codes; a code not listed is shown as is.
    value_labels: ClassVar[Mapping[str, str]] = {}

    @required
    def agreement_value(self, value: dict[str, Any]) -> Any:
        """The value agreement is computed on (the chosen letter, the label); None if not given."""
        raise NotImplementedError

    def known_answer_choices(self, payload: dict[str, Any]) -> tuple[str, ...]:
        """The answers a known-answer check of this item may expect: values agreement_value can give
        for it. () : the task type's judgments have no single right answer (no checks)."""
        return tuple(self.agreement_domain)

    # --- reports -----------------------------------------------------------------------------------
    # Template (under templates/) the core's report page includes for this task type's sections.
    report_template: ClassVar[str] = ""
    # The key of the sections in the report object (`report --json`, API); "" : the task type's name.
    report_section: ClassVar[str] = ""
    # Also read the items QC has not approved (ReportRows.unapproved): off by default, it costs a wider read.
    report_reads_unapproved: ClassVar[bool] = False

    @required
    def report_sections(self, rows: ReportRows) -> dict[str, Any]:
        """The task type's report, computed from the core's plain rows (qc.reports), JSON-serialisable."""
        raise NotImplementedError

    # Optional columnar path: a task type that sets `report_columns` (and has an `agreement_key`) gets
    # its report from `report_sections_from_columns(ReportColumns)` on PostgreSQL, read in two grouped
    # queries instead of 600,000 Python records; it must return exactly what report_sections returns
    # for the same project. Elsewhere (SQLite), and for task types that read unapproved items, the
    # core keeps the rows.
    report_columns: ClassVar[bool] = False

    @required_with("report_columns")
    def report_sections_from_columns(self, columns: ReportColumns) -> dict[str, Any]:
        raise NotImplementedError

    # --- export ------------------------------------------------------------------------------------
    export_fields: ClassVar[tuple[str, ...]] = ()

    @required
    def export_row(self, record: ExportRecord) -> dict[str, Any]:
        raise NotImplementedError

    @required
    def export_split(self, record: ExportRecord) -> str:
        raise NotImplementedError

    @required
    def parquet_schema(self) -> Any:
        raise NotImplementedError

    @required
    def datacard_text(self, stats: DataCardStats) -> str:
        """The data card's body (Markdown) after its title, from DataCardStats; the core writes the YAML
        header (with `datacard_task_categories`), the title "# <project>: gold set" and a closing
        "## Licence" section. End the text with an empty line."""
        raise NotImplementedError

    # Hugging Face task_categories in the card's header.
    datacard_task_categories: ClassVar[tuple[str, ...]] = ()
    # Read the items' gold decisions into ExportRecord.gold (False: gold is None; a row that never looks at
    # the decision saves a join and 100,000 objects per export).
    export_reads_gold: ClassVar[bool] = True

    def export_jsonl(self, record: ExportRecord) -> str | None:
        """Optional fast path: the row as one JSON line, equal to json.dumps(export_row(record),
        ensure_ascii=False); None lets the core encode export_row."""
        return None

    def export_stats(self) -> Any:
        """Optional accumulator with `add(record)`, called for every exported record; handed to
        datacard_text as DataCardStats.task. None: the card needs no figures of the task type's own."""
        return None

    # --- importers ---------------------------------------------------------------------------------
    def importers(self) -> dict[str, Any]:
        """Format name -> importer (annotation.importing.records.Importer), e.g. {"indonli": ..., "mnli": ...}.

        By default the `IMPORTERS` dict of the `importers` module beside the plugin's, when there is one.
        """
        name = type(self).__module__.rpartition(".")[0] + ".importers"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            return {}
        return dict(getattr(module, "IMPORTERS", {}))

    # --- contract test ---------------------------------------------------------------------------
    @required
    def contract_examples(self) -> ContractExamples:
        """Tiny examples the contract test (tests/annotation/task_types/test_contract.py) runs this task type on."""
        raise NotImplementedError

    # --- benchmark ---------------------------------------------------------------------------------
    def benchmark(self) -> BenchmarkSpec | None:
        """How items become a model task (answers, gold keys, built-in templates); None: no benchmark."""
        return None

    @required_with("benchmark")
    def benchmark_item(self, record: ExportRecord, *, gold_key: str) -> BenchmarkItem | None:
        """One item (with its judgments and gold decision, `record.gold` always filled by the benchmark
        engine when the item has one) as a model task under `gold_key`; None leaves the item out."""
        raise NotImplementedError

    # --- demo --------------------------------------------------------------------------------------
    def demo(self) -> DemoProject | None:
        """A small demo project loaded by `manage.py load_demo` (None: this task type has none)."""
        return None


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
    """Hook -> the switch that makes it required ("": always), for every hook without a default: the
    attributes TaskType declares without a value and the methods marked @required / @required_with."""
    hooks = {name: "" for name in TaskType.__annotations__ if name not in vars(TaskType)}
    for name, value in vars(TaskType).items():
        if hasattr(value, "required_with"):
            hooks[name] = value.required_with
    return hooks


def missing_hooks(task_type: TaskType) -> list[str]:
    """The required hooks `task_type` does not give (its switches read on the instance), in contract order."""
    cls = type(task_type)
    missing = []
    for name, switch in required_hooks().items():
        if switch:
            value = getattr(task_type, switch)
            if not (value() is not None if callable(value) else value):
                continue
        given = hasattr(cls, name) if name not in vars(TaskType) else getattr(cls, name) is not getattr(TaskType, name)
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
