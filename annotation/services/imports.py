"""Import a released file into a project with one of the importers its task type declares.

The importers are pure parsers in the task types' folders (`TaskType.importers()`: format name ->
Importer); this service chooses one by format name, prepares the project and its imported annotators,
streams the file through the engine (annotation.importing.engine), which decides the new items' gold
as it writes them, with the gold engine's rules. The command `import_items`, the import page and the
API all call `items_import`.
"""

from __future__ import annotations

import io
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext

from annotation import hooks, limits
from annotation.batching import fewer_gc_passes
from annotation.errors import InvalidInput
from annotation.importing.engine import import_records
from annotation.importing.records import Importer, ImportFileError, RowIssue
from annotation.models import Membership, Project, ProjectLanguage
from annotation.services.projects import (
    PROFILE_MAX_LENGTHS,
    membership_add,
    profile_update,
    project_create,
    user_create,
)
from annotation.task_types import get_task_type, registered_task_types

User = get_user_model()
DEFAULT_MAX_ANNOTATORS = 200  # Project.max_annotators' default

Source = str | Path | bytes | IO[bytes]


# Languages written right to left (BCP 47 primary subtags): a project an import creates lays out its pages so.
RTL_LANGUAGES = frozenset({"ar", "arc", "ckb", "dv", "fa", "he", "ku", "ps", "sd", "ug", "ur", "yi"})


def direction_of(code: str) -> str:
    primary = code.split("-")[0].casefold()
    return ProjectLanguage.Direction.RTL if primary in RTL_LANGUAGES else ProjectLanguage.Direction.LTR


@dataclass(frozen=True)
class ImportFormat:
    name: str
    label: str
    task_type: str
    importer: Importer


def import_formats(*, task_type: str | None = None) -> list[ImportFormat]:
    """Every registered format (of one task type when given), by name."""
    out = [
        ImportFormat(name=name, label=importer.label, task_type=tt.name, importer=importer)
        for tt in registered_task_types()
        if task_type is None or tt.name == task_type
        for name, importer in tt.importers().items()
    ]
    return sorted(out, key=lambda f: f.name)


def import_format(name: str) -> ImportFormat:
    formats = {f.name: f for f in import_formats()}
    if name not in formats:
        message = f"Unknown import format “{name}”; known formats: {', '.join(formats) or 'none'}."
        raise InvalidInput(message, field_errors={"format": [message]})
    return formats[name]


@dataclass
class ImportSummary:
    project: str
    format: str
    project_created: bool
    language_added: bool
    rows: int
    items_created: int
    items_existing: int
    judgments_created: int
    annotators_created: int
    categories_created: int
    concepts_created: int
    issues: list[RowIssue] = field(default_factory=list)
    skipping_codes: frozenset[str] = frozenset()

    @property
    def rows_skipped(self) -> list[int]:
        return sorted({i.row for i in self.issues if i.code in self.skipping_codes})

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
            "format": self.format,
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


@contextmanager
def _opened(source: Source):
    """A seekable binary stream of the file (the importers read it twice)."""
    if isinstance(source, bytes):
        yield io.BytesIO(source)
    elif isinstance(source, str | Path):
        try:
            handle = open(source, "rb")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise InvalidInput(
                gettext("Can't read %(source)s: %(strerror)s.") % {"source": source, "strerror": exc.strerror}
            ) from None
        with handle:
            yield handle
    else:
        yield source


@transaction.atomic
def items_import(
    *,
    path_or_bytes: Source,
    project_slug: str,
    format: str,
    language: str,
    annotator_regions: dict[str, str] | None = None,
    creator: AbstractBaseUser | None = None,
) -> ImportSummary:
    """Import the file into the project `project_slug`, created with the format's task type if missing.

    The file's annotators become imported members (code -> user `<slug>-<code>`, with their region);
    its records become items (source and status as the importer says, external_id from the file), one
    version each, their judgments, and each new item's gold decision (and the status it gives).

    All or nothing and idempotent: a file that can't be read raises InvalidInput and nothing is
    written (the transaction is rolled back even when the problem is found half-way); items already
    in the project (same external id) are left as they are, so importing again creates nothing.
    """
    fmt = import_format(format)
    language = (language or "").strip()
    if not language:
        raise InvalidInput(
            gettext("Give the language code of the file (e.g. id, su)."),
            field_errors={"language": [gettext("Required.")]},
        )
    regions = {k.strip(): v.strip() for k, v in (annotator_regions or {}).items() if k.strip()}
    for region in regions.values():
        limits.check_text(region, field="annotator_regions", max_length=PROFILE_MAX_LENGTHS["region"])
    existing_project = Project.objects.filter(slug=project_slug).only("max_annotators").first()
    max_annotators = existing_project.max_annotators if existing_project else DEFAULT_MAX_ANNOTATORS
    try:
        # Both passes build hundreds of thousands of short-lived objects (rows, records): fewer GC passes.
        with _opened(path_or_bytes) as stream, fewer_gc_passes():
            scan = fmt.importer.scan(stream, known_annotators=regions, max_annotators=max_annotators)
            project, project_created, language_added = _project(project_slug, fmt.task_type, language, creator)
            users, annotators_created = _annotators(project, list(scan.annotators), regions)
            stream.seek(0)
            result = import_records(
                project=project,
                importer=fmt.importer,
                records=fmt.importer.records(stream, scan=scan),
                users=users,
                gold_model=hooks.gold_engine().decision_model,
                language=language,
            )
    except ImportFileError as exc:
        raise InvalidInput(str(exc), field_errors={"file": [str(exc)]}) from None
    result.issues.sort(key=lambda i: (i.row, i.code))
    return ImportSummary(
        project=project.slug,
        format=fmt.name,
        project_created=project_created,
        language_added=language_added,
        rows=scan.rows,
        items_created=result.items_created,
        items_existing=result.items_existing,
        judgments_created=result.judgments_created,
        annotators_created=annotators_created,
        categories_created=result.categories_created,
        concepts_created=result.concepts_created,
        issues=result.issues,
        skipping_codes=fmt.importer.skipping_codes,
    )


def _project(slug: str, task_type: str, language: str, creator: AbstractBaseUser | None) -> tuple[Project, bool, bool]:
    project = Project.objects.select_for_update().filter(slug=slug).first()
    if project is not None:
        if project.task_type != task_type:
            raise InvalidInput(
                gettext("Project “%(slug)s” is a %(task_type)s project, not %(task_type2)s.")
                % {"slug": slug, "task_type": project.task_type, "task_type2": task_type}
            )
        languages = list(project.languages.values_list("code", flat=True))
        if language in languages:
            return project, False, False
        ProjectLanguage.objects.create(
            project=project, code=language, name=language, position=len(languages), direction=direction_of(language)
        )
        return project, False, True
    if creator is not None:
        project = project_create(
            creator=creator,
            name=slug,
            slug=slug,
            task_type=task_type,
            languages=[{"code": language, "name": language, "direction": direction_of(language)}],
        )
        return project, True, False
    if not slugify(slug) or slugify(slug) != slug:
        raise InvalidInput(
            gettext("“%(slug)s” can't be a project address: use lower-case letters, digits and dashes.")
            % {"slug": slug}
        )
    get_task_type(task_type)  # an unknown task type is refused before anything is written
    project = Project.objects.create(name=slug, slug=slug, task_type=task_type)
    ProjectLanguage.objects.create(project=project, code=language, name=language, direction=direction_of(language))
    hooks.project_created(project=project)
    return project, True, False


def _annotators(project: Project, codes: list[str], regions: dict[str, str]) -> tuple[dict[str, int], int]:
    """code -> user id. A code is a public name inside this project only: one that an annotator of this
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
    users: dict[str, int] = {}
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
        users[code] = membership.user_id
    return users, created


def _free_username(project: Project, code: str) -> str:
    # Imported people are names in a dataset, not accounts: the name only has to be free and readable.
    base = f"{project.slug}-{slugify(code) or 'annotator'}"[:140]
    taken = set(User.objects.filter(username__startswith=base).values_list("username", flat=True))
    if base not in taken:
        return base
    return next(f"{base}-{n}" for n in range(2, len(taken) + 3) if f"{base}-{n}" not in taken)
