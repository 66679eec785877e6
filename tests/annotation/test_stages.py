"""The project page's stage panel as a pure function of the task type's declarations (annotation.stages)."""

from __future__ import annotations

import pytest

from annotation.stages import StageCounts, project_stages
from annotation.task_types import get_task_type


def _stages(task_type_name: str, role: str, counts: StageCounts, *, screening: bool = False) -> list[tuple]:
    task_type = get_task_type(task_type_name)
    stages = project_stages(
        task_type=task_type, settings=task_type.settings_defaults(), role=role, counts=counts, screening=screening
    )
    return [(s.key, s.title, s.text, [(a.route, a.label) for a in s.actions]) for s in stages]


def test_an_nli_admin_sees_every_stage_in_premises_and_validation_with_counts_and_next_actions():
    counts = StageCounts(statuses={"submitted": 3, "gold": 5, "excluded": 1}, units_open=4, to_plan=12, judging_open=0)

    assert _stages("nli", "admin", counts) == [
        (
            "authoring",
            "Authoring",
            "4 premises wait for their authors",
            [
                ("project_concepts", "Import premises"),
                ("project_members", "Members"),
                ("project_skips", "Skipped work"),
            ],
        ),
        (
            "review",
            "Review",
            "3 submitted items wait for review",
            [("review_queue", "Review queue"), ("dashboard", "Dashboard")],
        ),
        (
            "judging",
            "Validation",
            "12 approved items wait for validation",
            [("judging_plan", "Plan validation"), ("judging_rounds", "Judgments by round")],
        ),
        ("gold", "Gold and report", "5 gold items, 1 excluded", [("report_page", "Report")]),
        (
            "export",
            "Export and import",
            "5 gold items to export",
            [("export_page", "Export"), ("items_import_page", "Import a file")],
        ),
        ("models", "Model runs and pages", "", [("llm_run_list", "Model runs"), ("benchmark_list", "Benchmarks")]),
    ]


@pytest.mark.parametrize(
    ("task_type", "title", "text", "plan"),
    [
        ("csqa", "Cross-answering", "1 approved item waits for cross-answering", "Plan cross-answering"),
        ("nli", "Validation", "1 approved item waits for validation", "Plan validation"),
        ("cultural_prompt", "Validation", "1 approved item waits for validation", "Plan validation"),
        ("preference", "Rating", "1 approved item waits for rating", "Plan rating"),
        (
            "sentence_completion",
            "Peer verification",
            "1 approved item waits for peer verification",
            "Plan peer verification",
        ),
    ],
)
def test_every_protocol_names_its_judging_stage_in_its_own_words(task_type, title, text, plan):
    counts = StageCounts(statuses={}, units_open=0, to_plan=1, judging_open=0)

    judging = [s for s in _stages(task_type, "admin", counts) if s[0] == "judging"]

    assert judging == [("judging", title, text, [("judging_plan", plan), ("judging_rounds", "Judgments by round")])]


def test_an_nli_annotator_sees_their_own_work_and_the_validation_queue_only():
    counts = StageCounts(statuses={"revision_requested": 2}, units_open=1, to_plan=0, judging_open=3)

    assert _stages("nli", "annotator", counts, screening=True) == [
        (
            "authoring",
            "Authoring",
            "1 premise waits for you; 2 items were sent back to you",
            [
                ("author_queue", "Open my queue"),
                ("item_list", "My items"),
                ("screening_page", "Screening, training and pilot"),
            ],
        ),
        ("judging", "Validation", "3 items wait for you to validate", [("judge_queue", "Open the queue")]),
    ]


def test_a_task_types_own_pages_are_shown_to_the_roles_it_names():
    counts = StageCounts(statuses={}, units_open=0, to_plan=0, judging_open=0)

    reviewer = _stages("cultural_prompt", "reviewer", counts)[-1]
    admin = _stages("cultural_prompt", "admin", counts)[-1]

    assert reviewer == (
        "models",
        "Model runs and pages",
        "",
        [("kalahi_scores", "KALAHI scores"), ("benchmark_list", "Benchmarks")],
    )
    assert admin == (
        "models",
        "Model runs and pages",
        "",
        [
            ("llm_run_list", "Model runs"),
            ("kalahi_variants", "Variant requests"),
            ("kalahi_scores", "KALAHI scores"),
            ("benchmark_list", "Benchmarks"),
        ],
    )
