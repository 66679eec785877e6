"""Import an id-csqa HUMAN_GEN file (Putri et al. 2024) as approved items with their cross-answers."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from annotation import limits
from annotation.errors import InvalidInput
from annotation.importing.csqa import DEFAULT_MAX_ANNOTATORS, CsqaFileError, Issue, ParsedFile, ParsedRow, parse_csqa
from annotation.models import (
    Category,
    Concept,
    Item,
    ItemVersion,
    Judgment,
    Membership,
    Project,
    ProjectLanguage,
)
from annotation.services.projects import (
    PROFILE_MAX_LENGTHS,
    membership_add,
    profile_update,
    project_create,
    user_create,
)
from annotation.task_types import get_task_type

User = get_user_model()
BULK_BATCH = 2000
TASK_TYPE = "csqa"
# Issue codes after which the row is not imported at all.
SKIPPING = frozenset({"not_an_object", "missing_id", "duplicate_id", "missing_question", "bad_choices"})


@dataclass
class CsqaImportSummary:
    project: str
    project_created: bool
    language_added: bool
    rows: int
    items_created: int
    items_existing: int
    judgments_created: int
    annotators_created: int
    categories_created: int
    concepts_created: int
    issues: list[Issue] = field(default_factory=list)

    @property
    def rows_skipped(self) -> list[int]:
        return sorted({i.row for i in self.issues if i.code in SKIPPING})

    @property
    def issue_counts(self) -> dict[str, int]:
        return dict(sorted(Counter(i.code for i in self.issues).items()))

    @property
    def issue_rows(self) -> dict[str, list[int]]:
        rows: dict[str, set[int]] = {}
        for issue in self.issues:
            rows.setdefault(issue.code, set()).add(issue.row)
        return {code: sorted(r) for code, r in sorted(rows.items())}

    def as_dict(self) -> dict[str, Any]:
        return {
            "project": self.project,
            "project_created": self.project_created,
            "language_added": self.language_added,
            "rows": self.rows,
            "items_created": self.items_created,
            "items_existing": self.items_existing,
            "judgments_created": self.judgments_created,
            "annotators_created": self.annotators_created,
            "categories_created": self.categories_created,
            "concepts_created": self.concepts_created,
            "rows_skipped": self.rows_skipped,
            "issue_counts": self.issue_counts,
            "issue_rows": self.issue_rows,
            "issues": [{"row": i.row, "id": i.external_id, "code": i.code, "message": i.message} for i in self.issues],
        }


def _read(path_or_bytes: str | Path | bytes) -> bytes:
    if isinstance(path_or_bytes, bytes):
        return path_or_bytes
    try:
        return Path(path_or_bytes).read_bytes()
    except OSError as exc:
        raise InvalidInput(f"Can't read {path_or_bytes}: {exc.strerror}.") from None


@transaction.atomic
def csqa_import(
    *,
    path_or_bytes: str | Path | bytes,
    project_slug: str,
    language: str,
    annotator_regions: dict[str, str] | None = None,
    creator: AbstractBaseUser | None = None,
) -> CsqaImportSummary:
    """Import the file into the project `project_slug` (created, task type csqa, if it does not exist).

    Annotators W1..Wn become users `<slug>-w1`... with membership code W1... and their region; items
    are approved, source "import", external_id = the file's `id`, author = the one Wk missing from
    `answers`, one version {question, choices, answer}; every answer becomes a judgment with its
    flags and the reason as comment; then the gold decisions are computed.

    All or nothing and idempotent: an unreadable file raises InvalidInput before anything is written;
    items already in the project (same id) are left as they are, so importing again creates nothing.
    Odd rows and values are handled as described in annotation.importing.csqa and listed in the summary.
    """
    language = (language or "").strip()
    if not language:
        raise InvalidInput(
            "Give the language code of the file (e.g. id, su).", field_errors={"language": ["Required."]}
        )
    regions = {k.strip(): v.strip() for k, v in (annotator_regions or {}).items() if k.strip()}
    for region in regions.values():
        limits.check_text(region, field="annotator_regions", max_length=PROFILE_MAX_LENGTHS["region"])
    existing_project = Project.objects.filter(slug=project_slug).only("max_annotators").first()
    max_annotators = existing_project.max_annotators if existing_project else DEFAULT_MAX_ANNOTATORS
    try:
        parsed = parse_csqa(_read(path_or_bytes), known_annotators=regions, max_annotators=max_annotators)
    except CsqaFileError as exc:
        raise InvalidInput(str(exc), field_errors={"file": [str(exc)]}) from None

    project, project_created, language_added = _project(project_slug, language, creator)
    users, annotators_created = _annotators(project, parsed.annotators, regions)
    concepts, categories_created, concepts_created = _concepts(project, parsed.rows)

    tt = get_task_type(TASK_TYPE)
    issues = list(parsed.issues)
    existing = dict(
        Item.objects.filter(project=project, external_id__in=[r.external_id for r in parsed.rows]).values_list(
            "external_id", "current_version__payload"
        )
    )
    new_rows: list[tuple[ParsedRow, dict[str, Any]]] = []
    for row in parsed.rows:
        payload = tt.normalize_payload({"question": row.question, "choices": row.choices, "answer": row.answer_creator})
        if payload["question"] != row.question or payload["choices"] != row.choices:
            issues.append(
                Issue(row.row, row.external_id, "trimmed_text", "Spaces around the question or options removed.")
            )
        check = tt.check_payload(payload, concept=None)
        for field_name, messages in check.errors.items():
            if field_name != "answer":  # an unknown creator answer is already reported
                issues.append(Issue(row.row, row.external_id, "payload_problem", f"{field_name}: {' '.join(messages)}"))
        if row.external_id in existing:
            if existing[row.external_id] != payload:
                issues.append(
                    Issue(
                        row.row,
                        row.external_id,
                        "already_imported_differs",
                        "Already imported with other content; not updated.",
                    )
                )
            continue
        new_rows.append((row, payload))

    items_created, judgments_created = _create_items(project, new_rows, users, concepts)

    from qc.gold import gold_recompute  # qc depends on annotation, not the reverse at import time
    from qc.models import GoldDecision

    gold_recompute(item_ids=items_created)
    computed = dict(
        GoldDecision.objects.filter(item_id__in=items_created).values_list("item__external_id", "details__majority")
    )
    for row, _ in new_rows:
        if row.answer_majority is not None and computed.get(row.external_id) != row.answer_majority:
            issues.append(
                Issue(
                    row.row,
                    row.external_id,
                    "majority_differs",
                    f"The file says answer_majority {row.answer_majority!r}; the answers give "
                    f"{computed.get(row.external_id)!r} (kept: it is recomputed from the answers).",
                )
            )
    issues.sort(key=lambda i: (i.row, i.code))
    return CsqaImportSummary(
        project=project.slug,
        project_created=project_created,
        language_added=language_added,
        rows=parsed.total_rows,
        items_created=len(items_created),
        items_existing=len(parsed.rows) - len(new_rows),
        judgments_created=judgments_created,
        annotators_created=annotators_created,
        categories_created=categories_created,
        concepts_created=concepts_created,
        issues=issues,
    )


def _project(slug: str, language: str, creator: AbstractBaseUser | None) -> tuple[Project, bool, bool]:
    project = Project.objects.select_for_update().filter(slug=slug).first()
    if project is not None:
        if project.task_type != TASK_TYPE:
            raise InvalidInput(f"Project “{slug}” is a {project.task_type} project, not {TASK_TYPE}.")
        languages = list(project.languages.values_list("code", flat=True))
        if language in languages:
            return project, False, False
        ProjectLanguage.objects.create(project=project, code=language, name=language, position=len(languages))
        return project, False, True
    if creator is not None:
        project = project_create(
            creator=creator, name=slug, slug=slug, task_type=TASK_TYPE, languages=[{"code": language, "name": language}]
        )
        return project, True, False
    from qc.services import error_types_seed

    if not slugify(slug) or slugify(slug) != slug:
        raise InvalidInput(f"“{slug}” can't be a project address: use lower-case letters, digits and dashes.")
    tt = get_task_type(TASK_TYPE)
    project = Project.objects.create(name=slug, slug=slug, task_type=TASK_TYPE)
    ProjectLanguage.objects.create(project=project, code=language, name=language)
    error_types_seed(project=project, error_types=tt.default_error_types)
    return project, True, False


def _annotators(project: Project, codes: list[str], regions: dict[str, str]) -> tuple[dict[str, Any], int]:
    """code -> user. A code is a public name inside this project only: one that an annotator of this
    project already has is that annotator (answers collected elsewhere by the team's own people); any
    other code becomes a new account of the project's namespace (`<slug>-<code>`, suffixed when that
    name is taken), joined through membership_add so the project's rules hold (the bound on
    annotators included). Nobody outside the project is ever matched, no role ever changes, and a
    code held by an admin or reviewer of the project refuses the file."""
    members = {m.code: m for m in Membership.objects.filter(project=project, code__in=codes).select_related("user")}
    staff = sorted(code for code, m in members.items() if m.role != Membership.Role.ANNOTATOR)
    if staff:
        message = (
            f"The file's annotator codes {', '.join(staff[:10])} are codes of this project's admins or reviewers; "
            "an import never turns them into annotators. Change the file's codes or theirs. Nothing was imported."
        )
        raise InvalidInput(message, field_errors={"file": [message]})
    created = 0
    users: dict[str, Any] = {}
    for code in codes:
        membership = members.get(code)
        if membership is None:
            user = user_create(username=_free_username(project, code), password=None)
            membership = membership_add(
                project=project, user=user, role=Membership.Role.ANNOTATOR, code=code, is_imported=True
            )
            created += 1
        if code in regions:
            profile_update(membership=membership, region=regions[code])
        users[code] = membership.user
    return users, created


def _free_username(project: Project, code: str) -> str:
    # Imported people are names in a dataset, not accounts: the name only has to be free and readable.
    base = f"{project.slug}-{slugify(code) or 'annotator'}"[:140]
    taken = set(User.objects.filter(username__startswith=base).values_list("username", flat=True))
    if base not in taken:
        return base
    return next(f"{base}-{n}" for n in range(2, len(taken) + 3) if f"{base}-{n}" not in taken)


def _concepts(project: Project, rows: list[ParsedRow]) -> tuple[dict[tuple[str, str], Concept], int, int]:
    """Names match exactly (not case-insensitively as in the catalog upload): an exported item must give
    back the category and concept as the file spelled them (the ind release has both "organisasi" and
    "Organisasi")."""
    categories = {c.name: c for c in Category.objects.filter(project=project)}
    concepts = {(c.category_id, c.name): c for c in Concept.objects.filter(project=project)}
    out: dict[tuple[str, str], Concept] = {}
    categories_created = concepts_created = 0
    for row in rows:
        if not row.category or (row.category, row.concept) in out:
            continue
        category = categories.get(row.category)
        if category is None:
            category = Category.objects.create(project=project, name=row.category)
            categories[row.category] = category
            categories_created += 1
        concept = concepts.get((category.pk, row.concept))
        if concept is None:
            concept = Concept.objects.create(project=project, category=category, name=row.concept)
            concepts[(category.pk, row.concept)] = concept
            concepts_created += 1
        out[(row.category, row.concept)] = concept
    return out, categories_created, concepts_created


def _create_items(
    project: Project,
    rows: list[tuple[ParsedRow, dict[str, Any]]],
    users: dict[str, Any],
    concepts: dict[tuple[str, str], Concept],
) -> tuple[list[int], int]:
    items = Item.objects.bulk_create(
        [
            Item(
                project=project,
                task_type=TASK_TYPE,
                source=Item.Source.IMPORT,
                status=Item.Status.APPROVED,
                author=users.get(row.author_code) if row.author_code else None,
                concept=concepts.get((row.category, row.concept)),
                external_id=row.external_id,
            )
            for row, _ in rows
        ],
        batch_size=BULK_BATCH,
    )
    now = timezone.now()
    versions = ItemVersion.objects.bulk_create(
        [
            ItemVersion(
                item=item,
                number=1,
                payload=payload,
                created_by=item.author,
                note=f"import (row {row.row})",
                submitted_at=now,
            )
            for item, (row, payload) in zip(items, rows, strict=True)
        ],
        batch_size=BULK_BATCH,
    )
    for item, version in zip(items, versions, strict=True):
        item.current_version = version
    Item.objects.bulk_update(items, ["current_version"], batch_size=BULK_BATCH)
    judgments = [
        Judgment(
            project=project,
            item=item,
            user=users[answer.code],
            item_author=item.author,
            kind="answer",
            value={"answer": answer.answer},
            flags=answer.flags(),
            comment=answer.reason,
        )
        for item, (row, _) in zip(items, rows, strict=True)
        for answer in row.answers
    ]
    Judgment.objects.bulk_create(judgments, batch_size=BULK_BATCH)
    return [item.pk for item in items], len(judgments)


def parsed_preview(data: bytes) -> ParsedFile:
    """Parse without importing (for an upload page that shows the oddities before confirming)."""
    try:
        return parse_csqa(data)
    except CsqaFileError as exc:
        raise InvalidInput(str(exc), field_errors={"file": [str(exc)]}) from None
