"""Importing id-csqa files into a project: messy rows, all-or-nothing, idempotence, the command."""

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from annotation.errors import InvalidInput
from annotation.models import AnnotatorProfile, Item, ItemVersion, Judgment, Membership, Project
from qc.models import GoldDecision
from tests.annotation.importing.imports import csqa_import
from tests.annotation.importing.messy import EXPECTED_ISSUE_COUNTS, EXPECTED_ISSUE_ROWS, messy_bytes, row

pytestmark = pytest.mark.django_db
User = get_user_model()


def _counts():
    return (
        Project.objects.count(),
        User.objects.count(),
        Membership.objects.count(),
        Item.objects.count(),
        ItemVersion.objects.count(),
        Judgment.objects.count(),
        GoldDecision.objects.count(),
    )


def test_messy_file_is_imported_with_a_summary_of_every_oddity():
    summary = csqa_import(path_or_bytes=messy_bytes(), project_slug="messy", language="id")

    assert (
        summary.rows,
        summary.items_created,
        summary.items_existing,
        summary.judgments_created,
        summary.annotators_created,
        summary.categories_created,
        summary.concepts_created,
        summary.project_created,
    ) == (12, 7, 0, 32, 6, 1, 1, True)
    assert summary.rows_skipped == [7, 8, 9, 10, 11]
    assert summary.issue_counts == EXPECTED_ISSUE_COUNTS
    assert summary.issue_rows == EXPECTED_ISSUE_ROWS
    items = {i.external_id: i for i in Item.objects.filter(project__slug="messy").select_related("author")}
    assert sorted(items) == [
        "bad-labels",
        "empty-flags",
        "lower-labels",
        "missing-answer",
        "odd-vocab",
        "ok-1",
        "two-authors",
    ]
    assert items["ok-1"].author.username == "messy-w1"
    assert items["two-authors"].author is None
    # Rows with only four readable answers stay approved (pending): m = 5.
    assert dict(Item.objects.filter(project__slug="messy").values_list("external_id", "status")) == {
        "ok-1": "gold",
        "odd-vocab": "gold",
        "empty-flags": "gold",
        "lower-labels": "gold",
        "missing-answer": "approved",
        "two-authors": "approved",
        "bad-labels": "approved",
    }
    assert set(Item.objects.filter(project__slug="messy").values_list("source", flat=True)) == {"import"}
    assert items["bad-labels"].current_version.payload == {
        "question": "Kapan ketupat biasanya disajikan? (bad-labels)",
        "choices": ["Lebaran", "Natal", "Imlek", "Nyepi", "Waisak"],
        "answer": "",
    }
    odd = {j.user.username: j.flags for j in Judgment.objects.filter(item=items["odd-vocab"]).select_related("user")}
    assert odd["messy-w2"] == {
        "uncertain": None,
        "question_ambiguous": False,
        "option_ambiguous": [False] * 5,
        "raw": {"answers_uncertainty": "maybe"},
    }
    assert odd["messy-w3"]["uncertain"] is True
    assert Judgment.objects.filter(item=items["two-authors"]).count() == 4
    assert set(Judgment.objects.filter(item=items["two-authors"]).values_list("item_author", flat=True)) == {None}
    decision = GoldDecision.objects.get(item=items["two-authors"])
    # The creator's answer is in the file even when who created it is not.
    assert (decision.outcome, decision.details["majority"], decision.details["matches_author"]) == (
        "pending",
        "A",
        True,
    )


def test_reimport_creates_nothing():
    csqa_import(path_or_bytes=messy_bytes(), project_slug="messy", language="id")
    before = _counts()

    again = csqa_import(path_or_bytes=messy_bytes(), project_slug="messy", language="id")

    assert _counts() == before
    assert (again.items_created, again.items_existing, again.judgments_created, again.annotators_created) == (
        0,
        7,
        0,
        0,
    )
    assert (again.project_created, again.categories_created, again.concepts_created) == (False, 0, 0)


def test_bad_json_imports_nothing():
    before = _counts()
    good_then_bad = (json.dumps(row("a")) + "\n" + json.dumps(row("b")) + "\n{oops\n").encode()

    with pytest.raises(InvalidInput) as refused:
        csqa_import(path_or_bytes=good_then_bad, project_slug="broken", language="id")

    assert refused.value.message == (
        "Line 3 is not valid JSON (Expecting property name enclosed in double quotes, column 2); nothing was imported."
    )
    assert _counts() == before
    assert not Project.objects.filter(slug="broken").exists()


def test_regions_go_to_profiles_and_name_annotators():
    csqa_import(
        path_or_bytes=messy_bytes(),
        project_slug="messy",
        language="su",
        annotator_regions={"W1": "West Java", "W2": "Bali", "W7": "Papua"},
    )

    regions = dict(
        AnnotatorProfile.objects.filter(membership__project__slug="messy").values_list(
            "membership__user__username", "region"
        )
    )
    assert regions == {
        "messy-w1": "West Java",
        "messy-w2": "Bali",
        "messy-w3": "",
        "messy-w4": "",
        "messy-w5": "",
        "messy-w6": "",
        "messy-w7": "Papua",
    }
    assert list(Membership.objects.filter(project__slug="messy").order_by("code").values_list("code", "role")) == [
        (f"W{n}", "annotator") for n in range(1, 8)
    ]
    assert list(Project.objects.get(slug="messy").languages.values_list("code", flat=True)) == ["su"]


def test_existing_project_of_another_task_type_is_refused():
    Project.objects.create(name="NLI", slug="nli", task_type="nli")
    before = _counts()

    with pytest.raises(InvalidInput) as refused:
        csqa_import(path_or_bytes=messy_bytes(), project_slug="nli", language="id")

    assert refused.value.message == "Project “nli” is a nli project, not csqa."
    assert _counts() == before


def test_command_prints_the_summary(tmp_path):
    path = tmp_path / "messy.json"
    path.write_bytes(messy_bytes())
    out = StringIO()

    call_command(
        "import_csqa",
        str(path),
        "--project",
        "messy",
        "--language",
        "id",
        "--annotator-regions",
        "W1=West Java",
        stdout=out,
    )

    lines = out.getvalue().splitlines()
    assert lines[0] == (
        "Project messy (created): 12 rows, 7 items created, 0 already there, 32 answers, 6 annotators, "
        "1 categories and 1 concepts created."
    )
    assert lines[1] == "Rows skipped: 7, 8, 9, 10, 11"
    assert "  unknown_uncertainty: 1 (rows 2)" in lines
    assert "  normalised_value: 3 (rows 2, 6, 12)" in lines
    with pytest.raises(CommandError, match="“Bali” is not CODE=REGION"):
        call_command("import_csqa", str(path), "--project", "messy", "--language", "id", "--annotator-regions", "Bali")
