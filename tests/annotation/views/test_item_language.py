"""Each item knows its language: the default and the writer's choice, the item pages' lang/dir,
imports with a language column, the report's per-language table and every export format's rows."""

from __future__ import annotations

import csv
import json

import pytest
from django.urls import reverse

from annotation.errors import InvalidInput
from annotation.models import AnnotatorProfile, Assignment, Item, Membership, Project, ProjectLanguage
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.items import unit_save_draft, unit_submit
from qc.exports import gold_export
from tests.annotation.importing.imports import csqa_import
from tests.annotation.importing.messy import row
from tests.annotation.views.helpers import author_post, db_snapshot, first_assignment, submitted_item
from tests.conftest import VALID_PAYLOAD
from tests.qc.helpers import make_item, make_project

pytestmark = pytest.mark.django_db
WHY = "Konsepnya tersirat."  # the concept checker's warning on another concept: overridden


def _languages(project) -> None:
    """id (the project's first), then Sundanese and Arabic (right to left)."""
    ProjectLanguage.objects.create(project=project, code="su", name="Sundanese", position=1)
    ProjectLanguage.objects.create(project=project, code="ar", name="Arabic", direction="rtl", position=2)


def _profile(project, user, native: str) -> None:
    membership = Membership.objects.get(project=project, user=user)
    AnnotatorProfile.objects.update_or_create(membership=membership, defaults={"native_languages": native})


def _written_by(csqa, user, **kwargs) -> Item:
    if not Assignment.objects.filter(project=csqa.project).exists():
        assignment_plan_authoring(project=csqa.project)
    assignment = Assignment.objects.filter(project=csqa.project, user=user, item__isnull=True).order_by("id").first()
    return unit_submit(assignment_id=assignment.pk, user=user, data=VALID_PAYLOAD, justification=WHY, **kwargs)[0]


def test_a_new_item_takes_the_writers_first_native_language_the_project_has(csqa):
    _languages(csqa.project)
    writer, other = csqa.annotators[0], csqa.annotators[1]
    _profile(csqa.project, writer, "jv, su, id")

    mine = _written_by(csqa, writer)
    theirs = _written_by(csqa, other)

    assert (mine.language, theirs.language) == ("su", "id")
    assert Item.objects.get(pk=mine.pk).language == "su"


def test_the_writer_chooses_the_language_and_an_unknown_one_changes_nothing(csqa):
    _languages(csqa.project)
    item = _written_by(csqa, csqa.annotators[1])
    writer = csqa.annotators[0]
    assignment = Assignment.objects.filter(project=csqa.project, user=writer).order_by("id").first()

    saved = unit_save_draft(assignment_id=assignment.pk, user=writer, data=VALID_PAYLOAD, language="ar")[0]
    before = db_snapshot()
    with pytest.raises(InvalidInput) as refused:
        unit_submit(assignment_id=assignment.pk, user=writer, data=VALID_PAYLOAD, justification=WHY, language="xx")

    assert Item.objects.get(pk=saved.pk).language == "ar"
    assert refused.value.message == "Unknown language xx: choose one of id, su, ar."
    assert db_snapshot() == before
    assert item.language == "id"


def test_the_authoring_form_offers_the_languages_only_when_there_are_several(csqa, client):
    assignment_plan_authoring(project=csqa.project)
    writer = csqa.annotators[0]
    assignment = first_assignment(csqa.project, writer)
    url = reverse("author_item", args=["demo", assignment.pk])
    client.force_login(writer)

    single = client.get(url).content.decode()
    _languages(csqa.project)
    _profile(csqa.project, writer, "su")
    several = client.get(url).content.decode()
    posted = client.post(url, {**author_post(VALID_PAYLOAD), "language": "ar"})

    assert 'name="language"' not in single
    assert '<option value="su" lang="su" selected>Sundanese (su)</option>' in several
    assert '<option value="ar" lang="ar">Arabic (ar)</option>' in several
    assert posted.status_code == 302
    assert Item.objects.get(assignment=assignment).language == "ar"


def test_item_pages_mark_the_text_with_the_items_language(csqa, client):
    _languages(csqa.project)
    item = submitted_item(csqa, VALID_PAYLOAD)
    Item.objects.filter(pk=item.pk).update(language="ar")
    client.force_login(csqa.reviewer)

    detail = client.get(reverse("item_detail", args=["demo", item.pk])).content.decode()
    listed = client.get(reverse("item_list", args=["demo"])).content.decode()

    assert '<div class="item-text" id="item-text" lang="ar" dir="rtl">' in detail
    assert '<dd id="item-language">ar</dd>' in detail
    assert '<td lang="ar" dir="rtl" class="summary">' in listed
    assert '<td class="item-language">ar</td>' in listed


def test_an_import_takes_a_language_column_and_refuses_an_unknown_code_with_its_row(db):
    csqa_import(path_or_bytes=json.dumps(row("q0")).encode(), project_slug="langs", language="id")
    project_id = Item.objects.get(external_id="q0").project_id
    ProjectLanguage.objects.create(project_id=project_id, code="su", name="Sundanese", position=1)
    good = "\n".join([json.dumps(row("q1")), json.dumps({**row("q2"), "language": "su"})]).encode()
    summary = csqa_import(path_or_bytes=good, project_slug="langs", language="id")
    bad = "\n".join([json.dumps(row("q3")), json.dumps({**row("q4"), "language": "xx"})]).encode()
    before = db_snapshot()

    with pytest.raises(InvalidInput) as refused:
        csqa_import(path_or_bytes=bad, project_slug="langs", language="id")

    assert summary.items_created == 2
    assert sorted(Item.objects.values_list("external_id", "language")) == [("q0", "id"), ("q1", "id"), ("q2", "su")]
    assert refused.value.message == "Row 2: unknown language xx (the project has id, su); nothing was imported."
    assert db_snapshot() == before


def test_the_first_import_of_a_language_column_is_all_or_nothing(db):
    data = "\n".join([json.dumps(row("q1")), json.dumps({**row("q2"), "language": "su"})]).encode()

    with pytest.raises(InvalidInput) as refused:
        csqa_import(path_or_bytes=data, project_slug="fresh", language="id")
    left_behind = (Project.objects.filter(slug="fresh").count(), Item.objects.count())
    csqa_import(path_or_bytes=data.replace(b'"su"', b'"id"'), project_slug="fresh", language="id")

    assert refused.value.message == "Row 2: unknown language su (the project has id); nothing was imported."
    assert left_behind == (0, 0)
    assert sorted(Item.objects.values_list("external_id", "language")) == [("q1", "id"), ("q2", "id")]


def test_the_report_counts_items_per_language(csqa, client):
    _languages(csqa.project)
    writer = csqa.annotators[0]
    make_item(csqa.project, writer)
    sundanese = [make_item(csqa.project, writer, status=s) for s in ("submitted", "rejected", "gold")]
    Item.objects.filter(pk__in=[i.pk for i in sundanese]).update(language="su")
    client.force_login(csqa.admin)

    html = client.get(reverse("report_page", args=["demo"])).content.decode()

    assert (
        '<tr id="language-id"><th scope="row" lang="id">Indonesian</th><td>id</td><td>1</td><td>0</td><td>1</td>'
        "<td>0</td></tr>"
    ) in html
    assert (
        '<tr id="language-su"><th scope="row" lang="su">Sundanese</th><td>su</td><td>3</td><td>1</td><td>1</td>'
        "<td>1</td></tr>"
    ) in html
    assert (
        '<tr id="language-ar"><th scope="row" lang="ar">Arabic</th><td>ar</td><td>0</td><td>0</td><td>0</td>'
        "<td>0</td></tr>"
    ) in html


@pytest.fixture
def two_language_export():
    project, w = make_project(slug="lx", annotators=3, m=2)
    ProjectLanguage.objects.create(project=project, code="su", name="Sundanese", position=1)
    first = make_item(project, w[0], external_id="a-id", question="Soal?")
    second = make_item(project, w[1], external_id="b-su", question="Patarosan?")
    Item.objects.filter(pk=second.pk).update(language="su")
    return project, {first.pk: "id", second.pk: "su"}


def test_every_export_format_names_each_rows_language(two_language_export, tmp_path):
    import pyarrow.parquet as pq

    project, _ = two_language_export
    found = {}
    for fmt in ("jsonl", "csv", "parquet"):
        out = tmp_path / fmt
        result = gold_export(project=project, fmt=fmt, out_dir=out)
        (path,) = [out / name for name in result.files.values()]
        if fmt == "jsonl":
            rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        elif fmt == "csv":
            with path.open(encoding="utf-8", newline="") as f:
                rows = list(csv.DictReader(f))
        else:
            rows = pq.read_table(path).to_pylist()
        found[fmt] = sorted((r["id"], r["language"]) for r in rows)

    assert found == {fmt: [("a-id", "id"), ("b-su", "su")] for fmt in ("jsonl", "csv", "parquet")}
