"""LLM drafts into the QC loop: items created by a run (no human author), and their correction.

A draft enters as a submitted item with one version written by nobody (`created_by` None) and a
`GeneratedItem` row naming the run, the call and the model. It is always submitted for review,
whatever the project's review setting says: a model's output is never approved unseen.
Reviewers decide on it with the QC services like any item (approve, request a revision, reject).
As a draft has no author to send it back to, a reviewer or admin writes the revision
(`draft_revise`): a new submitted version, reviewed again; the QC yield report then counts the item
as "approved after revision".
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from annotation.models import Concept, Item, ItemVersion
from evaluation.models import Call, FilteredDraft, GeneratedItem, Run

LLM_SOURCES = (Item.Source.LLM_GEN, Item.Source.LLM_ADAPT)


def draft_create(
    *,
    run: Run,
    call: Call | None,
    payload: dict[str, Any],
    source: str,
    model: str,
    language: str,
    concept: Concept | int | None = None,
    concept_name: str = "",
    steps: dict[str, Any] | None = None,
    dedup_key: str = "",
    backtranslation: tuple[str, float] | None = None,
) -> Item | None:
    """Create the submitted item and its provenance; None when the run already has this question
    (the unique (run, dedup_key) constraint: another worker accepted it first). `language`: a code of the
    project's languages (callers read `first_language(project)` once per reply, not once per item)."""
    now = timezone.now()
    try:
        with transaction.atomic():  # a savepoint: a refused duplicate leaves the caller's transaction usable
            item = Item.objects.create(
                project_id=run.project_id,
                task_type=run.project.task_type,
                source=source,
                status=Item.Status.SUBMITTED,
                author=None,
                language=language,
                concept_id=concept.pk if isinstance(concept, Concept) else concept,
            )
            version = ItemVersion.objects.create(
                item=item, number=1, payload=payload, created_by=None, note=f"{source} run {run.pk}", submitted_at=now
            )
            item.current_version = version
            item.save(update_fields=["current_version"])
            GeneratedItem.objects.create(
                run=run,
                call_id=call.pk if call is not None else None,
                item=item,
                kind=run.kind,
                model=model[:200],
                concept_name=concept_name[:300],
                steps=steps or {},
                dedup_key=dedup_key[:1000],
                backtranslation_method=backtranslation[0] if backtranslation else "",
                backtranslation_score=backtranslation[1] if backtranslation else None,
            )
    except IntegrityError:
        if dedup_key and GeneratedItem.objects.filter(run=run, dedup_key=dedup_key[:1000]).exists():
            return None
        raise
    return item


def filtered_record(
    *, run: Run, call: Call | None, reason: str, detail: str = "", concept_name: str = "", record: Any = None
) -> FilteredDraft:
    return FilteredDraft.objects.create(
        run=run,
        call_id=call.pk if call is not None else None,
        reason=reason,
        detail=detail[:5000],
        concept_name=(concept_name or "")[:300],
        record=record,
    )
