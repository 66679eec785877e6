"""The import engine: an importer's records become units, items, versions, judgments and gold
decisions, in batches.

Memory stays flat whatever the file's size: records are consumed in batches of BATCH; what is kept
across batches is the catalog units already matched and one small tuple per issue. On PostgreSQL the
rows go in with COPY (ids reserved from the sequences first, so items, versions, judgments and gold
decisions of a batch are written in four COPYs with no round trip per row); elsewhere (SQLite) with
bulk_create. The caller holds the transaction: a file refused half-way leaves nothing behind. The
versions are written waiting for the search indexes, which a task fills after the commit
(annotation.search_index): the import does not wait for them.

Gold is decided inline: each new item's record already holds its payload and judgments, so the task
type's gold_decide runs on them here, exactly as the gold engine would after reading them back, and the
item is written with the status the decision gives (the rules of annotation.gold, which the engine
follows too). Re-reading 100,000 items and 500,000 judgments to decide them afterwards took a third of a
large import.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext

from annotation.aggregation.tasks import aggregation_request
from annotation.annotators import annotator_ranks, project_annotators, rank_of
from annotation.batching import fewer_gc_passes
from annotation.foreign_keys import BulkWrite, references_checked_once
from annotation.gold import DECIDABLE, item_status, status_reason
from annotation.importing.bulkwrite import (
    NULL,
    BackgroundCopies,
    SharedJson,
    copy_json,
    copy_statement,
    copy_text,
    reserve_ids,
)
from annotation.importing.checks import check_record
from annotation.importing.records import Importer, ImportFileError, ImportRecord, RowIssue
from annotation.models import Category, Concept, Item, ItemVersion, Judgment, Project, ProjectLanguage
from annotation.search_index import search_index_request
from annotation.task_types import get_task_type, project_settings
from annotation.task_types.base import GoldCase, JudgmentRow
from annotation.task_types.memo import GoldMemo

BATCH = 5000


class Decision(NamedTuple):
    """One new item's gold decision, as the GoldDecision row and the item's status will hold it."""

    policy: str
    outcome: str
    reason: str
    details: dict[str, Any]
    judgment_ids: list[int]
    status: str
    status_reason: str


@dataclass
class EngineResult:
    items_created: int = 0
    items_existing: int = 0
    judgments_created: int = 0
    categories_created: int = 0
    concepts_created: int = 0
    issues: list[RowIssue] = field(default_factory=list)


def _batches(records: Iterable[ImportRecord | RowIssue], size: int) -> Iterator[list[ImportRecord | RowIssue]]:
    iterator = iter(records)
    while batch := list(islice(iterator, size)):
        yield batch


class _Units:
    """Category and Concept rows matched by exact name (an export must give back the file's spelling:
    the ind release has both "organisasi" and "Organisasi"), created in bulk when new."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.categories = {c.name: c.pk for c in Category.objects.filter(project=project)}
        self.concepts = {
            (category_id, name): pk
            for pk, category_id, name in Concept.objects.filter(project=project).values_list(
                "pk", "category_id", "name"
            )
        }
        self.categories_created = self.concepts_created = 0

    def ids(self, records: list[ImportRecord], *, before_query: Callable[[], None]) -> dict[tuple[str, str], int]:
        units = {(r.unit.category, r.unit.name): r.unit for r in records if r.unit is not None and r.unit.category}
        new_categories = sorted({category for category, _ in units} - set(self.categories))
        if new_categories or any((self.categories[category], name) not in self.concepts for category, name in units):
            before_query()
        for category in Category.objects.bulk_create([Category(project=self.project, name=n) for n in new_categories]):
            self.categories[category.name] = category.pk
        self.categories_created += len(new_categories)
        new_concepts = [
            Concept(project=self.project, category_id=self.categories[category], name=name, data=unit.data)
            for (category, name), unit in units.items()
            if (self.categories[category], name) not in self.concepts
        ]
        for concept in Concept.objects.bulk_create(new_concepts, batch_size=BATCH):
            self.concepts[(concept.category_id, concept.name)] = concept.pk
        self.concepts_created += len(new_concepts)
        return {key: self.concepts[(self.categories[key[0]], key[1])] for key in units}


class GoldDecider:
    """Decides new items as the gold engine's recompute would: the task type's gold_decide on a GoldCase
    whose judgments are those of the judging rule's kind, in the project's annotator order."""

    def __init__(self, project: Project, importer: Importer, users: dict[str, int]) -> None:
        self.task_type = get_task_type(project.task_type)
        self.policy = self.task_type.gold_policy
        self.memo = GoldMemo(self.task_type)
        self.moves: dict[tuple[str, str, str], tuple[str, str]] = {}
        self.settings = project_settings(project)
        rule = self.task_type.judging_rule(self.settings)
        # An import's judgments all have the importer's kind: they count if it is the judges' kind.
        self.counted = rule is None or rule.kind == importer.judgment_kind
        ranks = annotator_ranks(project_annotators(project_ids=[project.pk]).get(project.pk, []))
        self.users = users
        self.order = {user_id: rank_of(ranks, user_id) for user_id in users.values()}

    def decide_batch(
        self, records: Sequence[ImportRecord], judgment_ids: Sequence[Sequence[int]]
    ) -> list[Decision | None]:
        return [self.decide(r, ids) for r, ids in zip(records, judgment_ids, strict=True)]

    def decide(self, record: ImportRecord, judgment_ids: Sequence[int]) -> Decision | None:
        if record.status not in DECIDABLE:
            return None  # the gold engine decides approved items and later states only
        rows: list[JudgmentRow] = []
        if self.counted:
            users = self.users
            rows = [
                JudgmentRow(judgment_id, users[j.annotator], j.round, j.value, j.flags)
                for j, judgment_id in zip(record.judgments, judgment_ids, strict=True)
            ]
            order = self.order
            keys = [order[r.user_id] for r in rows]
            if any(a > b for a, b in zip(keys, keys[1:], strict=False)):  # importers mostly yield them in order
                rows.sort(key=lambda r: order[r.user_id])
        outcome = self.memo.decide(GoldCase(record.payload, tuple(rows), self.settings, record.judging_round))
        # (status, outcome, reason) -> the item's status and status reason: few distinct triples.
        move_key = (record.status, outcome.outcome, outcome.reason)
        move = self.moves.get(move_key)
        if move is None:
            status = item_status(outcome.outcome)
            move = self.moves[move_key] = (status, status_reason(status, outcome.outcome, outcome.reason))
        return Decision(
            self.policy, outcome.outcome, outcome.reason, outcome.details, [r.judgment_id for r in rows], *move
        )


def import_records(
    *,
    project: Project,
    importer: Importer,
    records: Iterable[ImportRecord | RowIssue],
    users: dict[str, int],
    gold_model: type[Model] | None,
    batch_size: int | None = None,
    language: str = "",
) -> EngineResult:
    """Write the records of one file into `project`. `users` maps annotator codes to user ids (every
    annotator of the project is a member by now: their order is the tie-break of gold decisions).
    With `gold_model` (the gold engine's decision model, annotation.hooks), each new item's gold decision is
    written into it with the item (None: items are left undecided).

    Idempotent: an item whose external id is already in the project is left as it is (reported when
    the file now says something else), so importing a file again creates nothing and decides nothing.
    """
    result = EngineResult()
    units = _Units(project)
    decider = GoldDecider(project, importer, users) if gold_model is not None else None
    # Hundreds of thousands of records, freed batch by batch: the default GC thresholds would scan
    # them over and over (a tenth of a 100,000-item import). (items_import does the same for its scan.)
    with references_checked_once() as bulk, fewer_gc_passes():
        writer = _CopyWriter if connection.vendor == "postgresql" else _OrmWriter
        write = writer(project, importer, users, decider, gold_model, bulk)
        # Every item has a language of its project: a row without one gets the import's (else the project's
        # first); a row naming one the project doesn't have refuses the file (the caller's transaction undoes
        # what was written).
        codes = list(
            ProjectLanguage.objects.filter(project=project).order_by("position", "code").values_list("code", flat=True)
        )
        write.language = language if language in codes else (codes[0] if codes else "")
        try:
            _import_batches(project, importer, records, units, write, result, batch_size or BATCH, frozenset(codes))
        except BaseException:
            # What is under way ends before the caller rolls back on the same connection; the error to
            # report is the first one, not what the interrupted COPY says about it.
            write.close(quietly=True)
            raise
        write.close()  # the last batch's COPYs, before the references are checked
    result.categories_created, result.concepts_created = units.categories_created, units.concepts_created
    aggregation_request(project=project)
    if result.items_created:
        search_index_request()
    return result


def _import_batches(
    project: Project,
    importer: Importer,
    records: Iterable[ImportRecord | RowIssue],
    units: _Units,
    write: _Writer,
    result: EngineResult,
    batch_size: int,
    languages: frozenset[str] = frozenset(),
) -> None:
    # Into a project without items (the caller holds its row lock) nothing can exist yet: the query per
    # batch is skipped. Importers yield an external id once per file (ImportRecord).
    had_items = Item.objects.filter(project=project).exists()
    for batch in _batches(records, batch_size):
        # The previous batch's COPYs run while this one is read, checked and formatted; a query of this
        # batch's (known external ids, new units) waits for them first: the connection does one thing.
        rows = [r for r in batch if isinstance(r, ImportRecord)]
        for record in rows:
            if not importer.storable_rows:
                check_record(record)
            if record.language and record.language not in languages:
                raise ImportFileError(
                    gettext("Row %(row)d: unknown language %(code)s (the project has %(codes)s); nothing was imported.")
                    % {"row": record.row, "code": record.language, "codes": ", ".join(sorted(languages)) or "-"}
                )
        if any(record.known_answer for record in rows):
            rows = [_as_check(project, record) if record.known_answer else record for record in rows]
        result.issues.extend(r for r in batch if isinstance(r, RowIssue))
        if had_items:
            write.wait()
        existing = (
            dict(
                Item.objects.filter(project=project, external_id__in=[r.external_id for r in rows]).values_list(
                    "external_id", "current_version__payload"
                )
            )
            if had_items
            else {}
        )
        new: list[ImportRecord] = []
        for record in rows:
            if record.external_id not in existing:
                new.append(record)
            elif existing[record.external_id] != record.payload:
                result.issues.append(
                    RowIssue(
                        record.row,
                        record.external_id,
                        "already_imported_differs",
                        "Already imported with other content; not updated.",
                    )
                )
        result.items_existing += len(rows) - len(new)
        if not new:
            continue
        decisions, judgments = write(new, units.ids(new, before_query=write.wait))
        result.items_created += len(new)
        result.judgments_created += judgments
        for record, decision in zip(new, decisions, strict=True):
            if record.known_answer:  # a check has no gold decision to compare with the file's
                continue
            result.issues.extend(importer.gold_issues(record, decision.details if decision is not None else None))


def _as_check(project: Project, record: ImportRecord) -> ImportRecord:
    """A row with a known answer: a known-answer check (never decided, never gold), its answer one the
    task type can expect of this item; any other refuses the file with the row and the field (the
    caller's transaction undoes what was written)."""
    choices = get_task_type(project.task_type).known_answer_choices(record.payload)
    if record.known_answer not in choices:
        raise ImportFileError(
            gettext(
                "Row %(row)d, known_answer: “%(value)s” is not an answer of this item (one of: %(choices)s); "
                "nothing was imported."
            )
            % {"row": record.row, "value": record.known_answer[:200], "choices": ", ".join(choices) or "-"}
        )
    return record._replace(status=Item.Status.CHECK)


def _unit_id(record: ImportRecord, concept_ids: dict[tuple[str, str], int]) -> int | None:
    if record.unit is None or not record.unit.category:
        return None
    return concept_ids[(record.unit.category, record.unit.name)]


def _note(record: ImportRecord) -> str:
    return record.note or f"import (row {record.row})"


def _slices(ids: Sequence[int], records: Sequence[ImportRecord]) -> list[Sequence[int]]:
    """The judgment ids of each record, from the ids of the whole batch in record order."""
    out, start = [], 0
    for record in records:
        end = start + len(record.judgments)
        out.append(ids[start:end])
        start = end
    return out


class _Writer:
    def __init__(
        self,
        project: Project,
        importer: Importer,
        users: dict[str, int],
        decider: GoldDecider | None,
        gold_model: type[Model] | None,
        bulk: BulkWrite,
    ) -> None:
        self.project, self.importer, self.users, self.decider = project, importer, users, decider
        self.gold_model = gold_model
        self.bulk = bulk
        self.language = ""  # the rows' default language code, set by import_records

    def wait(self) -> None:
        """Until what this writer sent in the background is written (nothing, unless it says otherwise)."""

    def close(self, *, quietly: bool = False) -> None:
        """Wait for what was sent and stop sending (`quietly`: its error is not raised)."""

    def _decide(self, records: list[ImportRecord], judgment_ids: list[Sequence[int]]) -> list[Decision | None]:
        if self.decider is None:
            return [None] * len(records)
        return self.decider.decide_batch(records, judgment_ids)


class IdPool:
    """Primary keys reserved ahead, a run per model that doubles at each refill up to four batches' worth,
    so a large import asks the sequences for ids a few times instead of once per batch.

    Reserving needs the connection, and the connection is busy while the previous batch's COPYs run: each
    refill waits for them (`before_query`). With ids in hand the next batch is formatted while the server
    writes the previous one (the GIN indexes of item versions make that the longer half). Ids left over at
    the end are never used, as a rolled-back insert leaves its ids.
    """

    def __init__(self, before_query: Callable[[], None]) -> None:
        self.before_query = before_query
        self.free: dict[Any, Sequence[int]] = {}
        self.next_size: dict[Any, int] = {}

    def take(self, model: Any, count: int) -> Sequence[int]:
        free = self.free.get(model, ())
        if len(free) < count:
            self.before_query()
            size = max(count, self.next_size.get(model, 0))
            self.next_size[model] = min(2 * size, 4 * count)
            fresh = reserve_ids(model, size - len(free))
            free = [*free, *fresh] if free else fresh
        self.free[model] = free[count:]
        return free[:count]


class _CopyWriter(_Writer):
    """Items, versions, judgments and gold decisions of a batch in four COPYs, their foreign keys
    checked once for the whole import (annotation.foreign_keys) where the database role may, else by
    PostgreSQL at commit (Django makes them DEFERRABLE: Item.current_version points at a version
    written after it)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.user_text = {code: str(user_id) for code, user_id in self.users.items()}
        self.shared = SharedJson()
        self.item_head = f"{self.project.pk}\t{copy_text(self.project.task_type)}\t"
        self.kind = copy_text(self.importer.judgment_kind)
        self.copies = BackgroundCopies(skip_triggers=self.bulk.skipping_triggers)
        self.ids = IdPool(self.copies.wait)
        self._declare_parents()

    def _declare_parents(self) -> None:
        """The rows outside this write that the new rows point at (annotation.foreign_keys): the check at
        the end then locks these few parents by id instead of reading every new row back twice per foreign
        key (at 100,000 items the check took 1.0 s, 0.7 s now). The project, the file's annotators, and
        nothing in the columns the COPYs leave empty; the concepts are declared per batch; the items and
        versions are this write's own (checked against it, as before)."""
        bulk, users = self.bulk, set(self.users.values())
        bulk.points_at(Item, "project", [self.project.pk])
        bulk.points_at(Item, "author", users)
        bulk.points_at(ItemVersion, "created_by", users)
        bulk.points_at(Judgment, "user", users)
        for model, written in ((Item, ITEM_FIELDS), (Judgment, JUDGMENT_FIELDS), (self.gold_model, GOLD_FIELDS)):
            for column in model._meta.concrete_fields if model is not None else ():
                if column.is_relation and column.name not in written:
                    bulk.points_at(model, column.name, ())

    def wait(self) -> None:
        self.copies.wait()

    def close(self, *, quietly: bool = False) -> None:
        self.copies.close(quietly=quietly)

    def __call__(
        self, records: list[ImportRecord], concept_ids: dict[tuple[str, str], int]
    ) -> tuple[list[Decision | None], int]:
        count = len(records)
        item_ids = self.ids.take(Item, count)
        version_ids = self.ids.take(ItemVersion, count)
        judgment_ids = _slices(self.ids.take(Judgment, sum(len(r.judgments) for r in records)), records)
        decisions = self._decide(records, judgment_ids)
        now = copy_text(timezone.now().isoformat())
        user_text = self.user_text
        authors = [user_text.get(r.author, NULL) if r.author else NULL for r in records]
        rows = list(zip(records, item_ids, version_ids, authors, strict=True))
        all_judgment_ids = [i for ids in judgment_ids for i in ids]
        gold_ids = self.ids.take(self.gold_model, sum(d is not None for d in decisions)) if self.gold_model else []
        bulk = self.bulk
        copies = [
            (copy_statement(Item, ITEM_FIELDS), "".join(self._item_lines(rows, decisions, concept_ids, now))),
            (copy_statement(ItemVersion, VERSION_FIELDS), "".join(self._version_lines(rows, now))),
            (copy_statement(Judgment, JUDGMENT_FIELDS), "".join(self._judgment_lines(rows, judgment_ids, now))),
        ]
        if self.gold_model is not None:
            copies.append(
                (
                    copy_statement(self.gold_model, GOLD_FIELDS),
                    "".join(self._gold_lines(gold_ids, item_ids, decisions, now)),
                )
            )
        # Sent while the engine reads and formats the next batch (the ids come from the pool, so nothing
        # waits for them but a refill).
        self.copies.submit(copies)
        bulk.wrote(Item, item_ids)
        bulk.points_at(Item, "concept", concept_ids.values())
        bulk.wrote(ItemVersion, version_ids)
        bulk.wrote(Judgment, all_judgment_ids)
        if self.gold_model is not None:
            bulk.wrote(self.gold_model, gold_ids)
        return decisions, len(all_judgment_ids)

    def _item_lines(self, rows, decisions, concept_ids, now) -> Iterator[str]:
        head = self.item_head
        default_language = copy_text(self.language)
        for (r, item_id, version_id, author), decision in zip(rows, decisions, strict=True):
            if decision is None:
                status, reason = copy_text(r.status), ""
            else:
                status, reason = copy_text(decision.status), copy_text(decision.status_reason)
            concept = NULL if r.unit is None or not r.unit.category else concept_ids[(r.unit.category, r.unit.name)]
            language = copy_text(r.language) if r.language else default_language
            yield (
                f"{item_id}\t{head}{copy_text(r.source)}\t{status}\t{author}\t{concept}\t{r.slot}\t"
                f"{r.judging_round}\t{version_id}\t{copy_text(r.external_id)}\t{reason}\t{now}\t{now}\t"
                f"{language}\t{copy_text(r.known_answer)}\n"
            )

    def _version_lines(self, rows, now) -> Iterator[str]:
        for r, item_id, version_id, author in rows:
            note = copy_text(r.note) if r.note else f"import (row {r.row})"
            # Waiting for the search indexes (search_ready false): they are filled after the commit.
            yield f"{version_id}\t{item_id}\t1\t{copy_json(r.payload)}\t{author}\t{now}\t{note}\t\t{now}\tf\n"

    def _judgment_lines(self, rows, judgment_ids, now) -> Iterator[str]:
        user_text, shared, project, kind = self.user_text, self.shared, self.project.pk, self.kind
        tail = f"\t{now}\t{now}\n"
        for (r, item_id, _, author), ids in zip(rows, judgment_ids, strict=True):
            head = f"\t{project}\t{item_id}\t"
            middle = f"\t{author}\t{kind}\t"
            for j, judgment_id in zip(r.judgments, ids, strict=True):
                comment = copy_text(j.comment) if j.comment else ""
                yield (
                    f"{judgment_id}{head}{user_text[j.annotator]}{middle}{j.round}\t{shared(j.value)}\t"
                    f"{shared(j.flags)}\t{comment}{tail}"
                )

    def _gold_lines(self, gold_ids, item_ids, decisions, now) -> Iterator[str]:
        # Items decided alike share their outcome's details (GoldMemo): each is encoded once.
        gold_id, shared = iter(gold_ids), self.shared
        for item_id, d in zip(item_ids, decisions, strict=True):
            if d is not None:
                ids = ", ".join(map(str, d.judgment_ids))
                yield (
                    f"{next(gold_id)}\t{item_id}\t{copy_text(d.policy)}\t{copy_text(d.outcome)}\t{copy_text(d.reason)}\t"
                    f"{shared(d.details)}\t[{ids}]\t{now}\n"
                )


ITEM_FIELDS = (
    "id",
    "project",
    "task_type",
    "source",
    "status",
    "author",
    "concept",
    "slot",
    "judging_round",
    "current_version",
    "external_id",
    "status_reason",
    "created_at",
    "updated_at",
    "language",
    "known_answer",
)
VERSION_FIELDS = (
    "id",
    "item",
    "number",
    "payload",
    "created_by",
    "created_at",
    "note",
    "justification",
    "submitted_at",
    "search_ready",
)
JUDGMENT_FIELDS = (
    "id",
    "project",
    "item",
    "user",
    "item_author",
    "kind",
    "round",
    "value",
    "flags",
    "comment",
    "created_at",
    "updated_at",
)
GOLD_FIELDS = ("id", "item", "policy", "outcome", "reason", "details", "judgment_ids", "computed_at")


class _OrmWriter(_Writer):
    """bulk_create (SQLite): the judgments' ids come back from the insert, so the decisions follow it.
    Its versions are ready for search as they are written (SQLite has no search indexes to wait for)."""

    def __call__(
        self, records: list[ImportRecord], concept_ids: dict[tuple[str, str], int]
    ) -> tuple[list[Decision | None], int]:
        project, users = self.project, self.users
        items = Item.objects.bulk_create(
            [
                Item(
                    project=project,
                    task_type=project.task_type,
                    source=r.source,
                    status=r.status,
                    author_id=users.get(r.author) if r.author else None,
                    concept_id=_unit_id(r, concept_ids),
                    slot=r.slot,
                    judging_round=r.judging_round,
                    external_id=r.external_id,
                    language=r.language or self.language,
                    known_answer=r.known_answer,
                )
                for r in records
            ]
        )
        now = timezone.now()
        versions = ItemVersion.objects.bulk_create(
            [
                ItemVersion(
                    item=item,
                    number=1,
                    payload=r.payload,
                    created_by_id=item.author_id,
                    note=_note(r),
                    submitted_at=now,
                )
                for item, r in zip(items, records, strict=True)
            ]
        )
        for item, version in zip(items, versions, strict=True):
            item.current_version = version
        judgments = Judgment.objects.bulk_create(
            [
                Judgment(
                    project=project,
                    item=item,
                    user_id=users[j.annotator],
                    item_author_id=item.author_id,
                    kind=self.importer.judgment_kind,
                    round=j.round,
                    value=j.value,
                    flags=j.flags,
                    comment=j.comment,
                )
                for item, r in zip(items, records, strict=True)
                for j in r.judgments
            ]
        )
        decisions = self._decide(records, _slices([j.pk for j in judgments], records))
        for item, decision in zip(items, decisions, strict=True):
            if decision is not None:
                item.status, item.status_reason = decision.status, decision.status_reason
        Item.objects.bulk_update(items, ["current_version", "status", "status_reason"])
        if self.gold_model is not None:
            self.gold_model.objects.bulk_create(
                [
                    self.gold_model(
                        item_id=item.pk,
                        policy=d.policy,
                        outcome=d.outcome,
                        reason=d.reason,
                        details=d.details,
                        judgment_ids=d.judgment_ids,
                    )
                    for item, d in zip(items, decisions, strict=True)
                    if d is not None
                ]
            )
        return decisions, len(judgments)
