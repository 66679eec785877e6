"""The probe's import findings: files that name thousands of annotators (or one with a 300-digit
number) are refused at once, and an import never reuses a person's account or bypasses the
membership rules."""

from __future__ import annotations

import json
import time
import tracemalloc

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.test import APIClient

from annotation.errors import InvalidInput
from annotation.models import AnnotatorProfile, Membership
from annotation.services.projects import membership_add, profile_update, project_update
from tests.annotation.importing.imports import csqa_import
from tests.annotation.importing.messy import row
from tests.api.conftest import db_state, row_counts
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
User = get_user_model()


def _file(records) -> bytes:
    return json.dumps(records).encode()


def _many_codes(n: int) -> bytes:
    """One row answered by n distinct annotators A1..An (a few hundred kB for 10,000)."""
    record = row("wide", author="W1")
    codes = [f"A{i}" for i in range(1, n + 1)]
    record["answers"] = dict.fromkeys(codes, "A")
    for key in ("answers_uncertainty", "question_ambiguity", "option_ambiguity", "reason"):
        record[key] = {}
    return _file([record])


def _refused(call) -> tuple[str, float, float]:
    """(message, seconds, peak MB of Python allocations) of a call that must raise InvalidInput."""
    tracemalloc.start()
    started = time.perf_counter()
    try:
        with pytest.raises(InvalidInput) as refused:
            call()
        seconds = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()
    return refused.value.message, seconds, peak


def test_ten_thousand_annotator_codes_are_refused_fast_and_nothing_is_created(db):
    data = _many_codes(10_000)
    before = db_state()

    message, seconds, peak_mb = _refused(lambda: csqa_import(path_or_bytes=data, project_slug="wide", language="id"))

    assert message == (
        "Row 1 names more than that: 201 annotators, but this project allows at most 200 (a project setting); "
        "nothing was imported."
    )
    assert seconds < 1.0
    assert peak_mb < 50
    assert db_state() == before


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        (
            "Z2000",
            "The code Z2000 means Z1..Z2000: 2000 annotators, but this project allows at most 200 "
            "(a project setting); nothing was imported.",
        ),
        (
            "W" + "9" * 300,
            "Row 1, answers: the annotator code " + repr("W" + "9" * 49) + "... is not a "
            "code (at most 40 printable characters, e.g. W1); nothing was imported.",
        ),
        (
            "W" + "9" * 39,
            "The code W" + "9" * 39 + " means W1..W" + "9" * 39 + ": " + "9" * 39 + " annotators, but this project "
            "allows at most 200 (a project setting); nothing was imported.",
        ),
    ],
)
def test_a_code_that_implies_a_huge_series_is_refused_at_once(db, code, expected):
    record = row("tiny", author="W1")
    for key in ("answers", "answers_uncertainty", "question_ambiguity", "option_ambiguity", "reason"):
        record[key] = {}
    record["answers"] = {code: "A"}
    data = _file([record])
    before = db_state()

    message, seconds, peak_mb = _refused(lambda: csqa_import(path_or_bytes=data, project_slug="tiny", language="id"))

    assert message == expected
    assert (seconds < 1.0, peak_mb < 50) == (True, True)
    assert db_state() == before


def test_regions_for_a_huge_code_are_refused_too(db):
    data = _file([row("r1")])
    before = db_state()

    message, seconds, _ = _refused(
        lambda: csqa_import(
            path_or_bytes=data, project_slug="regions", language="id", annotator_regions={"W100000": "x"}
        )
    )

    assert message.startswith("The code W100000 means W1..W100000: 100000 annotators")
    assert seconds < 1.0
    assert db_state() == before


def test_the_projects_own_bound_counts_its_annotators(csqa):
    """demo has annotators W1..W3 and X1; with a bound of 6, a file that adds W4..W6 is refused."""
    membership_add(project=csqa.project, user=UserFactory(username="x1"), role="annotator", code="X1")
    project_update(project=csqa.project, max_annotators=6)
    before = db_state()

    with pytest.raises(InvalidInput) as refused:
        csqa_import(path_or_bytes=_file([row("b1")]), project_slug="demo", language="id")

    assert refused.value.message == (
        "This project allows at most 6 annotators and has 6; raise the limit in the project settings first."
    )
    assert db_state() == before


def test_the_page_and_the_api_refuse_the_same_file_with_the_same_message(csqa):
    data = _many_codes(10_000)
    page, api = Client(), APIClient()
    page.force_login(csqa.admin)
    api.force_login(csqa.admin)
    before = db_state()

    html = page.post("/p/demo/import/", {"file": SimpleUploadedFile("w.json", data), "language": "id"})
    body = api.post("/api/projects/demo/imports/", {"file": SimpleUploadedFile("w.json", data)}, format="multipart")

    message = (
        "Row 1 names more than that: 201 annotators, but this project allows at most 200 (a project setting); "
        "nothing was imported."
    )
    assert html.status_code == 400
    assert message in html.content.decode()
    assert (body.status_code, body.json()["detail"]) == (400, message)
    assert db_state() == before


def test_an_import_never_reuses_an_account_that_has_the_generated_name(csqa, other_project):
    """The probe: `<slug>-w1` was the project's only admin (demoted) and `<slug>-w2` a member of
    another project (attached, region overwritten)."""
    from annotation.services.projects import project_create

    boss = UserFactory(username="xp-w1")
    project = project_create(
        creator=boss, name="XP", slug="xp", task_type="csqa", languages=[{"code": "id", "name": "Indonesian"}]
    )
    stranger = UserFactory(username="xp-w2")
    theirs = membership_add(project=other_project.project, user=stranger, role="annotator", code="S1")
    profile_update(membership=theirs, region="Papua")

    summary = csqa_import(
        path_or_bytes=_file([row("x1")]), project_slug="xp", language="id", annotator_regions={"W2": "Bali"}
    )

    assert summary.annotators_created == 6
    assert Membership.objects.get(project=project, user=boss).role == "admin"
    assert not Membership.objects.filter(project=project, user=stranger).exists()
    assert AnnotatorProfile.objects.get(membership=theirs).region == "Papua"
    imported = Membership.objects.filter(project=project, is_imported=True).select_related("user", "profile")
    assert sorted((m.code, m.user.username, m.profile.region) for m in imported) == [
        ("W1", "xp-w1-2", ""),
        ("W2", "xp-w2-2", "Bali"),
        ("W3", "xp-w3", ""),
        ("W4", "xp-w4", ""),
        ("W5", "xp-w5", ""),
        ("W6", "xp-w6", ""),
    ]
    assert not any(m.user.has_usable_password() for m in imported)
    # Importing again matches the same imported annotators: nothing new.
    again = csqa_import(path_or_bytes=_file([row("x1"), row("x2")]), project_slug="xp", language="id")
    assert (again.annotators_created, again.items_created) == (0, 1)


def test_a_code_held_by_an_admin_or_reviewer_refuses_the_file(csqa):
    reviewer = Membership.objects.get(project=csqa.project, user=csqa.reviewer)
    reviewer.code = "W4"
    reviewer.save(update_fields=["code"])
    before = db_state()

    with pytest.raises(InvalidInput) as refused:
        csqa_import(path_or_bytes=_file([row("c1")]), project_slug="demo", language="id")

    assert refused.value.message == (
        "The file's annotator codes W4 are codes of this project's admins or reviewers; an import never turns "
        "them into annotators. Change the file's codes or theirs. Nothing was imported."
    )
    assert row_counts(db_state()) == row_counts(before)
    assert Membership.objects.get(pk=reviewer.pk).role == "reviewer"
