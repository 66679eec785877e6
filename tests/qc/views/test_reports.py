"""Report, import and export pages: exact figures, downloads, permissions, constant query counts."""

import json
import re

import pytest
from django.urls import reverse

from annotation.models import AnnotatorProfile, Item, Judgment, Membership
from qc.models import ExportRun
from qc.reports import task_type_report as csqa_report
from qc.reports.tables import conflict_csv_rows, heat_level, heatmap
from tests.annotation.task_types.csqa.world import answered_world, id_csqa_file
from tests.annotation.views.helpers import db_snapshot

pytestmark = pytest.mark.django_db

# Each: session, user, membership (+ the page's direction for HTML), then the page's own reads:
# the report's six on PostgreSQL (qc.reports.columns: annotators, then items and judgments between the
# planner settings set and the caller's put back, annotation.db_settings; +1: the judgment count that
# chooses an inline or a background report, qc.reports.snapshots), the cross-answer overview's five, the
# export runs' one.
MAX_QUERIES = {
    # 11 + qc.overview's charts (dashboard_stats 6, items per day 1, agreement 2) + languages 2 + the aggregation fit
    "report_page": 23,
    "report_json": 10,
    "conflicts_csv": 10,
    "judging_plan": 9,
    "export_page": 6,  # with the count of known-answer checks its panel shows
}


@pytest.fixture
def world():
    return answered_world()


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def _get(client, user, name, *args, **extra):
    client.force_login(user)
    return client.get(reverse(name, args=["xa", *args]), **extra)


# --- pure helpers --------------------------------------------------------------------------------


def test_heat_levels_scale_with_the_largest_cell():
    assert [heat_level(n, 8) for n in (0, 1, 2, 3, 7, 8)] == [0, 1, 2, 3, 7, 8]
    assert [heat_level(n, 3) for n in (0, 1, 2, 3)] == [0, 3, 6, 8]
    assert heat_level(0, 0) == 0
    heat = heatmap(["W1", "W2"], [[0, 3], [1, 0]])
    assert [(r.label, [(c.count, c.level) for c in r.cells], r.total) for r in heat.rows] == [
        ("W1", [(0, 0), (3, 8)], 3),
        ("W2", [(1, 3), (0, 0)], 1),
    ]
    assert (heat.column_totals, heat.total, heat.max) == ([1, 3], 4, 3)


def test_csv_rows_neutralise_text_cells_only():
    rows = list(conflict_csv_rows(["=SUM(A1)", "W2"], [[0, 2], [1, 0]], corner="answerer \\ creator"))

    assert rows == [["answerer \\ creator", "'=SUM(A1)", "W2"], ["'=SUM(A1)", "0", "2"], ["W2", "1", "0"]]


# --- the report page -----------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["admin", "reviewer"])
def test_report_page_shows_agreement_conflicts_and_tables(world, client, who):
    response = _get(client, getattr(world, who), "report_page")

    html = response.content.decode()
    assert response.status_code == 200
    for fragment in [
        '<td id="report-items">4</td>',
        '<td id="report-judgments">12</td>',
        '<td id="report-excluded">1</td>',
        '<td id="report-majority">3 (75.0%)</td>',
        '<td id="report-alpha">0.353</td>',
        '<td id="report-alpha-author">0.462</td>',
        # category, items, answers, excluded, majority = author, alpha, alpha with author, mean agreement
        '<th scope="row" dir="auto">culinary</th>\n          <td>2</td><td>6</td><td>0</td><td>1</td>\n'
        "          <td>0.231</td><td>0.290</td><td>66.7%</td>",
        '<th scope="row" dir="auto">family</th>\n          <td>2</td><td>6</td><td>1</td><td>2</td>\n'
        "          <td>0.545</td><td>0.632</td><td>83.3%</td>",
        # Conflicts: rows answerers, columns creators; every non-empty cell is the largest (1).
        '<td class="heat heat-8" id="conflict-matrix-0-2">1</td>',
        '<td class="heat heat-8" id="conflict-matrix-1-2">1</td>',
        '<td class="heat heat-8" id="conflict-matrix-2-0">1</td>',
        '<td class="heat heat-8" id="conflict-matrix-3-1">1</td>',
        '<td class="heat heat-0" id="conflict-matrix-0-0">0</td>',
        '<td class="heat-total" id="conflict-matrix-total">4</td>',
        # By region (Jawa Barat, Bali, Aceh): Jawa Barat answering Bali's question twice.
        '<td class="heat heat-8" id="region-matrix-0-1">2</td>',
        '<td class="heat heat-4" id="region-matrix-1-0">1</td>',
        '<td class="heat heat-4" id="region-matrix-2-0">1</td>',
        '<th scope="col" dir="auto">Jawa Barat</th><th scope="col" dir="auto">Bali</th>'
        '<th scope="col" dir="auto">Aceh</th>',
        # W4: uncertain once, flagged an option once, received two question flags; W2 received the option flag.
        '<th scope="row" dir="auto">W4</th><td dir="auto">Aceh</td>\n          <td>1</td><td>3</td>'
        '<td class="uncertain">1</td>\n          <td class="question-flags-given">0</td>'
        '<td class="option-flags-given">1</td>\n          <td class="question-flags-received">2</td>'
        '<td class="option-flags-received">0</td>\n          <td class="accuracy">66.7%</td>',
        '<td class="option-flags-received">1</td>',
        '<tr id="kappa-0"><td dir="auto">W1</td><td dir="auto">W2</td><td>2</td><td>—</td></tr>',
        '<tr id="kappa-1"><td dir="auto">W1</td><td dir="auto">W3</td><td>2</td><td>1.000</td></tr>',
        '<tr id="kappa-3"><td dir="auto">W2</td><td dir="auto">W3</td><td>2</td><td>0.333</td></tr>',
    ]:
        assert fragment in html, fragment
    assert html.count('<td class="heat heat-8"') == 5
    # Nothing loaded from elsewhere: every src/href is local.
    assert re.findall(r'(?:src|href)="(?:https?:)?//', html) == []
    assert "<script" not in html.split('<main id="main">')[1]


def test_report_escapes_what_people_typed(world, client):
    Membership.objects.filter(project=world.project, code="W1").update(code="<b>W1</b>")
    AnnotatorProfile.objects.filter(membership__user=world.people[0]).update(region="<script>x</script>")

    html = _get(client, world.admin, "report_page").content.decode()

    assert "<b>W1</b>" not in html
    assert "&lt;b&gt;W1&lt;/b&gt;" in html
    assert "<script>x</script>" not in html


def test_report_is_for_reviewers_and_admins(world, client):
    for name in ("report_page", "report_json", "conflicts_csv"):
        assert _get(client, world.people[0], name).status_code == 404


def test_report_json_download_is_the_report(world, client):
    response = _get(client, world.admin, "report_json")

    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="xa-csqa-report.json"'
    data = json.loads(response.content)
    assert data == json.loads(json.dumps(csqa_report(project=world.project)))
    assert {k: data[k] for k in ("items", "judgments", "excluded", "majority_equals_author")} == {
        "items": 4,
        "judgments": 12,
        "excluded": 1,
        "majority_equals_author": 3,
    }
    assert data["conflicts"] == {
        "annotators": ["W1", "W2", "W3", "W4"],
        "counts": [[0, 0, 1, 0], [0, 0, 1, 0], [1, 0, 0, 0], [0, 1, 0, 0]],
    }


def test_conflicts_csv_downloads_are_exact_and_formula_safe(world, client):
    Membership.objects.filter(project=world.project, code="W4").update(code="=HYPERLINK(1)")
    AnnotatorProfile.objects.filter(membership__user=world.people[2]).update(region="@Bali")

    plain = _get(client, world.admin, "conflicts_csv")
    regional = _get(client, world.admin, "conflicts_csv", data={"by": "region"})

    assert plain["Content-Type"] == "text/csv; charset=utf-8"
    assert plain["Content-Disposition"] == 'attachment; filename="xa-conflicts.csv"'
    assert plain.content.decode() == (
        # Public order sorts the code "=HYPERLINK(1)" (W4's) first.
        "answerer \\ creator,'=HYPERLINK(1),W1,W2,W3\r\n"
        "'=HYPERLINK(1),0,0,1,0\r\nW1,0,0,0,1\r\nW2,0,0,0,1\r\nW3,0,1,0,0\r\n"
    )
    assert regional["Content-Disposition"] == 'attachment; filename="xa-conflicts-by-region.csv"'
    assert regional.content.decode() == (
        # Regions in the order of their first annotator: W4 (Aceh), W1 (Jawa Barat), W3 (@Bali).
        "answerer \\ creator,Aceh,Jawa Barat,'@Bali\r\nAceh,0,1,0\r\nJawa Barat,0,0,2\r\n'@Bali,0,1,0\r\n"
    )


@pytest.mark.parametrize("items_per_author", [1, 10])
def test_report_pages_use_a_fixed_number_of_queries(client, django_assert_max_num_queries, items_per_author):
    world = answered_world(items_per_author=items_per_author)
    assert Judgment.objects.filter(project=world.project).count() == 12 * items_per_author
    client.force_login(world.admin)
    client.get(reverse("report_page", args=["xa"]))  # warm up the connection

    for name, limit in MAX_QUERIES.items():
        with django_assert_max_num_queries(limit):
            assert client.get(reverse(name, args=["xa"])).status_code == 200


# --- import ----------------------------------------------------------------------------------------


def _upload(data: bytes, name="ind.json"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, data, content_type="application/json")


def test_import_page_imports_into_this_project_and_shows_the_oddities(world, client):
    client.force_login(world.admin)
    url = reverse("items_import_page", args=["xa"])

    form = client.get(url)
    first = client.post(url, {"file": _upload(id_csqa_file()), "language": "id", "annotator_regions": "W1=Sunda"})
    again = client.post(url, {"file": _upload(id_csqa_file()), "language": "id", "annotator_regions": ""})

    assert 'name="language" value="id"' in form.content.decode()
    html = first.content.decode()
    assert first.status_code == 200
    for fragment in [
        "Imported 3 items and 6 answers from 4 rows (0 were already here).",
        '<td id="summary-rows">4</td>',
        '<td id="summary-items-created">3</td>',
        '<td id="summary-judgments-created">6</td>',
        '<td id="summary-annotators-created">0</td>',
        '<td id="summary-rows-skipped">4</td>',
        '<tr id="issue-missing_id"><th scope="row"><code>missing_id</code></th><td>1</td><td>4</td></tr>',
        '<tr id="issue-normalised_value"><th scope="row"><code>normalised_value</code></th><td>1</td><td>1</td></tr>',
    ]:
        assert fragment in html, fragment
    imported = Item.objects.filter(project=world.project, source="import").order_by("external_id")
    assert [(i.external_id, i.status, i.author.username) for i in imported] == [
        # Two answers each, m = 3: approved, waiting for a third answer.
        ("orig_h_test_0", "approved", "xa-w1"),
        ("orig_h_test_1", "approved", "xa-w2"),
        ("orig_h_test_2", "approved", "xa-w3"),
    ]
    assert AnnotatorProfile.objects.get(membership__user=world.people[0]).region == "Sunda"
    assert '<td id="summary-items-created">0</td>' in again.content.decode()
    assert '<td id="summary-items-existing">3</td>' in again.content.decode()
    assert Item.objects.filter(project=world.project).count() == 7


def test_unreadable_import_is_refused_and_changes_nothing(world, client):
    client.force_login(world.admin)
    before = db_snapshot()

    response = client.post(reverse("items_import_page", args=["xa"]), {"file": _upload(b"{not json"), "language": "id"})
    bad_regions = client.post(
        reverse("items_import_page", args=["xa"]),
        {"file": _upload(id_csqa_file()), "language": "id", "annotator_regions": "W1 Sunda"},
    )

    assert response.status_code == 400
    assert 'class="message error"' in response.content.decode()
    assert bad_regions.status_code == 400
    assert "“W1 Sunda” is not CODE=REGION (e.g. W1=West Java)." in bad_regions.content.decode()
    assert db_snapshot() == before


def test_import_and_export_pages_are_for_admins(world, client, media):
    for user in (world.reviewer, world.people[0]):
        client.force_login(user)
        before = db_snapshot()
        answers = [
            client.get(reverse("items_import_page", args=["xa"])),
            client.post(reverse("items_import_page", args=["xa"]), {"file": _upload(id_csqa_file()), "language": "id"}),
            client.get(reverse("export_page", args=["xa"])),
            client.post(reverse("export_page", args=["xa"]), {"format": "jsonl"}),
        ]
        assert [r.status_code for r in answers] == [404] * 4
        assert db_snapshot() == before
        assert ExportRun.objects.count() == 0


# --- export ----------------------------------------------------------------------------------------


def test_export_button_runs_the_export_after_commit_and_offers_the_files(
    world, client, media, django_capture_on_commit_callbacks
):
    client.force_login(world.admin)
    url = reverse("export_page", args=["xa"])

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.post(url, {"format": "jsonl"})
    run = ExportRun.objects.get()
    page = client.get(url)
    lines = _download(client, reverse("export_download", args=["xa", run.pk, "test.jsonl"])).splitlines()
    readme = _download(client, reverse("export_download", args=["xa", run.pk, "README.md"]))

    assert (response.status_code, response.url) == (302, url)
    assert len(callbacks) == 1
    assert (run.format, run.status, run.progress, run.total, run.created_by) == ("jsonl", "done", 3, 3, world.admin)
    assert run.files == {"test": "test.jsonl", "readme": "README.md"}
    html = page.content.decode()
    assert f"Export #{run.pk} (JSON Lines) started." in html
    assert f'<span class="badge status-done" id="run-{run.pk}-status">Done</span>' in html
    assert '<progress value="3" max="3"></progress> 3 of 3 items' in html
    assert f'<a href="/p/xa/export/{run.pk}/test.jsonl" download>test.jsonl</a>' in html
    assert 'hx-trigger="every 2s"' not in html
    assert [json.loads(line)["question"] for line in lines] == [
        "Apa hidangan utama saat Lebaran di kampung?",
        "Apa yang dilakukan keluarga pada pagi Lebaran?",
        "Kapan biasanya orang berbuka puasa bersama?",
    ]
    assert readme.startswith(b"---") or b"# " in readme


def _download(client, url) -> bytes:
    response = client.get(url)
    assert response.status_code == 200, url
    assert response["Content-Disposition"].startswith("attachment;")
    # Reading to the end closes the file, as a WSGI server would.
    return b"".join(response.streaming_content)


def test_export_waits_for_the_commit_and_the_page_polls_while_it_runs(world, client, media):
    client.force_login(world.admin)
    url = reverse("export_page", args=["xa"])

    client.post(url, {"format": "csv"})  # the test transaction never commits: the task is not sent
    run = ExportRun.objects.get()
    page = client.get(url)
    ExportRun.objects.filter(pk=run.pk).update(status="running", total=10, progress=4)
    partial = client.get(url, HTTP_HX_REQUEST="true")
    ExportRun.objects.filter(pk=run.pk).update(status="failed", error="OSError: disk full")
    stopped = client.get(url, HTTP_HX_REQUEST="true")

    assert run.status == "pending"
    assert 'hx-trigger="every 2s"' in page.content.decode()
    body = partial.content.decode()
    assert body.lstrip().startswith('<section class="panel scroll runs" id="export-runs" hx-get="/p/xa/export/"')
    assert 'hx-trigger="every 2s"' in body
    assert '<progress value="4" max="10"></progress> 4 of 10 items' in body
    assert "<html" not in body
    body = stopped.content.decode()
    assert 'hx-trigger="every 2s"' not in body
    assert '<span class="error" dir="auto">OSError: disk full</span>' in body


def test_export_files_are_served_only_to_admins_of_the_project_and_only_what_the_run_wrote(
    world, client, media, django_capture_on_commit_callbacks
):
    from tests.annotation.task_types.csqa.world import make_world

    other = make_world(slug="other")
    client.force_login(world.admin)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("export_page", args=["xa"]), {"format": "jsonl"})
    run = ExportRun.objects.get()
    (media / run.path / "secret.txt").write_text("x")

    client.force_login(world.admin)
    wrong_name = client.get(reverse("export_download", args=["xa", run.pk, "secret.txt"]))
    client.force_login(other.admin)
    foreign = [
        client.get(reverse("export_download", args=["other", run.pk, "test.jsonl"])),
        client.get(reverse("export_download", args=["xa", run.pk, "test.jsonl"])),
    ]
    client.force_login(world.reviewer)
    reviewer = client.get(reverse("export_download", args=["xa", run.pk, "test.jsonl"]))

    assert wrong_name.status_code == 404
    assert [r.status_code for r in foreign] == [404, 404]
    assert reviewer.status_code == 404
