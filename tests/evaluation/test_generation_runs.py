"""LLM_GEN end to end: the released drafts served by the real test server as a model's replies, through
the engine (eager, in this process), into the QC queue; then the human corrections applied as revisions
through the QC services give the QC yield report."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from annotation.errors import IllegalTransition, InvalidInput, NotAllowed
from annotation.models import Category, Concept, Item, Membership
from annotation.services.projects import membership_add, project_create
from evaluation.models import Call, FilteredDraft, GeneratedItem, Run
from evaluation.services.draft_summary import drafts_summary
from evaluation.services.runs import run_create
from evaluation.task_types.csqa.generation.batching import ConceptRef, plan_batches
from evaluation.task_types.csqa.reports.qc_yield import idcsqa_payload
from evaluation.task_types.csqa.reports.selectors import human_vs_llm
from qc.services import draft_revise, error_types_seed, review_approve, review_claim_next, review_request_revision
from tests.evaluation.helpers import make_endpoint
from tests.evaluation.released_drafts import released_by_concept
from tests.evaluation.shared_data import idcsqa
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

HANDLER = "tests.evaluation.released_drafts:reply"
MODEL = "gpt-4-1106-preview"


@pytest.fixture
def eager(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.GOTONG_LLM_BACKOFF_SECONDS = 0.05
    return settings


def released_project(slug="idcsqa"):
    admin = UserFactory(username=f"{slug}-admin")
    project = project_create(
        creator=admin, name="id-csqa", slug=slug, task_type="csqa", languages=[{"code": "id", "name": "Indonesian"}]
    )
    reviewers = []
    for i in range(2):
        reviewer = UserFactory(username=f"{slug}-reviewer{i + 1}")
        membership_add(project=project, user=reviewer, role=Membership.Role.REVIEWER)
        reviewers.append(reviewer)
    categories = {}
    for category, name in released_by_concept():
        if category not in categories:
            categories[category] = Category.objects.create(project=project, name=category)
        Concept.objects.create(project=project, category=categories[category], name=name)
    return project, admin, reviewers


def expected_calls(rounds=3):
    refs = [ConceptRef(c, n) for c, n in released_by_concept()]
    return len(plan_batches(refs, rounds=rounds))


def test_released_drafts_become_qc_items_with_exact_counts_and_corrections_give_the_qc_yield(llm_server, eager):
    llm_server.configure(handler=HANDLER)
    project, admin, (reviewer, second_reviewer) = released_project()
    endpoint = make_endpoint(llm_server, name="gpt4", model=MODEL, max_concurrency=8)

    run = run_create(
        kind="llm_gen", endpoints=[endpoint], parameters={"items_per_concept": 3}, project=project, user=admin
    )

    run.refresh_from_db()
    calls = expected_calls()
    assert (run.status, run.total, run.calls_done, run.calls_failed) == ("done", calls, calls, 0)
    assert calls == 354  # 118 batches of up to 5 concepts of one category, 3 rounds
    # 1,063 drafts served to 583 concepts x 3 rounds: the other requests for a concept get no item.
    assert drafts_summary(run) == {
        "items_created": 980,
        "filtered": 83 + 3 * 583 - 1063,
        "filtered_by_reason": {"duplicate_in_run": 83, "no_item": 3 * 583 - 1063},
    }
    items = Item.objects.filter(project=project)
    assert items.count() == 980
    assert set(items.values_list("source", "status", "author")) == {("llm_gen", "submitted", None)}
    assert GeneratedItem.objects.filter(run=run, model=MODEL, item__concept__isnull=False).count() == 980
    assert Call.objects.filter(run=run, status="done").count() == calls
    duplicate = FilteredDraft.objects.filter(run=run, reason="duplicate_in_run").first()
    assert duplicate.detail == "The same question was generated earlier in this run."
    assert duplicate.record["id"]  # the model's object as written, its released id included

    # The 300 human-corrected drafts (a sample), applied through the QC services.
    error_types_seed(
        project=project,
        error_types=[(f"changed_{f}", f"{f} changed", "") for f in ("question", "options", "answer", "concept")],
    )
    corrected = {r["id"]: r for r in idcsqa("v3_llm_gen", "filtered_test_clean.json")}
    by_released_id = {
        g.steps["generate"]["id"]: g.item
        for g in GeneratedItem.objects.filter(run=run).select_related("item__current_version")
    }
    applied = {"unchanged": 0, "revised": 0}
    for released_id, row in corrected.items():
        item = by_released_id.get(released_id)
        if item is None:
            continue  # filtered as a duplicate of an earlier question
        fixed = idcsqa_payload(row)
        before = item.current_version.payload
        changed = [
            f"changed_{name}"
            for name, a, b in (
                ("question", before["question"], fixed["question"]),
                ("options", before["choices"], fixed["choices"]),
                ("answer", before["answer"], fixed["answer"]),
            )
            if a != b
        ]
        if not changed:
            review_approve(item_id=item.pk, version_id=item.current_version_id, reviewer=reviewer)
            applied["unchanged"] += 1
            continue
        review_request_revision(
            item_id=item.pk,
            version_id=item.current_version_id,
            reviewer=reviewer,
            feedback="Fix it.",
            error_type_codes=changed,
        )
        revised = draft_revise(item_id=item.pk, user=reviewer, data=fixed)
        review_approve(item_id=item.pk, version_id=revised.current_version_id, reviewer=second_reviewer)
        applied["revised"] += 1
    assert applied == {"unchanged": 170, "revised": 110}

    report = human_vs_llm(project=project)
    assert report.yield_table == [
        {
            "source": "llm_gen",
            "source_label": "LLM generated",
            "model": MODEL,
            "total": 980,
            "outcomes": {"approved_unchanged": 170, "approved_revised": 110, "rejected": 0, "unreviewed": 700},
            "shares": {"approved_unchanged": 60.71, "approved_revised": 39.29, "rejected": 0.0},
            "error_types": {"changed_question": 94, "changed_options": 20, "changed_answer": 9},
        }
    ]


def test_a_draft_is_revised_only_by_a_reviewer_and_only_when_sent_back(llm_server, eager):
    llm_server.configure(handler=HANDLER)
    project, admin, (reviewer, _) = released_project(slug="small")
    concept = Concept.objects.filter(project=project).order_by("pk").first()
    endpoint = make_endpoint(llm_server, name="gpt4", model="small-model")
    run = run_create(
        kind="llm_gen", endpoints=[endpoint], parameters={"concepts": [concept.pk]}, project=project, user=admin
    )
    item = Item.objects.get(project=project)
    annotator = UserFactory(username="ann")
    membership_add(project=project, user=annotator, role=Membership.Role.ANNOTATOR)
    payload = dict(item.current_version.payload)
    version = item.current_version_id

    with pytest.raises(IllegalTransition, match="Only a draft sent back for revision"):
        draft_revise(item_id=item.pk, user=reviewer, data=payload)
    review_request_revision(
        item_id=item.pk, version_id=version, reviewer=reviewer, feedback="Typo.", error_type_codes=["typo"]
    )
    with pytest.raises(NotAllowed):
        draft_revise(item_id=item.pk, user=annotator, data=payload)
    with pytest.raises(InvalidInput):
        draft_revise(item_id=item.pk, user=reviewer, data={**payload, "answer": "Z"})
    item.refresh_from_db()
    assert (item.status, item.current_version_id, item.versions.count()) == ("revision_requested", version, 1)
    assert review_claim_next(project=project, reviewer=reviewer) is None  # nothing submitted
    assert Run.objects.get(pk=run.pk).status == "done"


def test_generate_command_prints_the_run_and_with_wait_its_counts(llm_server, eager, capsys):
    llm_server.configure(handler=HANDLER)
    project, _, _ = released_project(slug="cli")
    make_endpoint(llm_server, name="gpt4", model="cli-model")
    category = Category.objects.filter(project=project).order_by("pk").first()

    call_command("generate", "--project", "cli", "--endpoint", "gpt4", "--categories", category.name, "--wait")

    lines = capsys.readouterr().out.strip().splitlines()
    run = Run.objects.get(pk=int(lines[0]))
    shown = json.loads(lines[1])
    concepts = Concept.objects.filter(category=category).count()
    assert (shown["id"], shown["status"], shown["kind"], shown["failed"]) == (run.pk, "done", "llm_gen", 0)
    assert shown["done"] == shown["total"] == -(-concepts // 5)
    assert shown["items_created"] == Item.objects.filter(project=project, source="llm_gen").count() > 0
    assert shown["items_created"] + shown["filtered_by_reason"].get("duplicate_in_run", 0) == concepts
