"""A project above GOTONG_REPORT_INLINE_JUDGMENTS gets its report from a snapshot built in the background
(qc.tasks.build_report): the page never builds it, shows the build's stage, then the same report."""

import json

import pytest
from django.urls import reverse

from qc.models import ReportSnapshot
from qc.reports import task_type_report
from tests.annotation.task_types.csqa.world import answered_world
from tests.qc.helpers import add_judgment

pytestmark = pytest.mark.django_db


@pytest.fixture
def big(settings):
    settings.GOTONG_REPORT_INLINE_JUDGMENTS = 5  # the world's 12 judgments make it "big"
    return answered_world(slug="snap")


def _get(client, user, name):
    client.force_login(user)
    return client.get(reverse(name, args=["snap"]))


def test_the_first_page_queues_one_build_and_then_shows_the_same_report(
    big, client, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    expected = json.loads(json.dumps(task_type_report(project=big.project)))
    with django_capture_on_commit_callbacks(execute=True) as queued:
        first = _get(client, big.admin, "report_page")
    built = _get(client, big.admin, "report_json")  # the build ran when the first request's transaction ended

    snapshot = ReportSnapshot.objects.get(project=big.project)
    assert first.status_code == 200
    assert b'id="report-building"' in first.content
    assert b'id="conflict-heatmap"' not in first.content
    assert len(queued) == 1
    assert (snapshot.judgments, snapshot.building_since, snapshot.stage, snapshot.error) == (12, None, "", "")
    assert {"project": "snap", **snapshot.data} == expected
    assert (built.status_code, built.json()) == (200, expected)

    with django_capture_on_commit_callbacks() as queued_again, django_assert_max_num_queries(7):
        # Session, user, membership, the judgment count, the snapshot, the page's direction, the aggregation
        # model's last fit (none here): never the report's rows.
        second = client.get(reverse("report_page", args=["snap"]))
    download = _get(client, big.admin, "report_json")
    assert queued_again == []
    assert second.status_code == 200
    assert b'id="report-snapshot"' in second.content and b'id="report-building"' not in second.content
    assert b"from 12 judgments" in second.content
    assert download.json() == expected


def test_a_new_judgment_queues_a_rebuild_while_the_old_snapshot_is_shown(
    big, client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        _get(client, big.admin, "report_page")
    old = ReportSnapshot.objects.get(project=big.project).data
    add_judgment(big.items[0], big.reviewer, "E")

    with django_capture_on_commit_callbacks() as queued:
        page = _get(client, big.admin, "report_page")
        again = _get(client, big.admin, "report_page")  # the build is queued: not queued twice
    assert len(queued) == 1
    assert b'id="report-building"' in page.content and b'id="report-snapshot"' in page.content
    assert b"from 12 judgments" in again.content
    assert ReportSnapshot.objects.get(project=big.project).data == old

    for callback in queued:
        callback()
    snapshot = ReportSnapshot.objects.get(project=big.project)
    assert snapshot.judgments == 13
    assert {"project": "snap", **snapshot.data} == json.loads(json.dumps(task_type_report(project=big.project)))


def test_the_json_download_answers_202_while_the_first_build_runs(big, client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as queued:
        response = _get(client, big.admin, "report_json")

    assert (response.status_code, response.json(), response["Retry-After"]) == (
        202,
        {"building": True, "stage": "queued"},
        "10",
    )
    assert len(queued) == 1


def test_small_projects_build_their_report_on_the_request(client):
    world = answered_world(slug="snap")
    response = _get(client, world.admin, "report_page")

    assert response.status_code == 200
    assert b'id="report-snapshot"' not in response.content
    assert not ReportSnapshot.objects.exists()


def test_the_api_answers_202_then_the_snapshot_in_its_own_shapes(big, django_capture_on_commit_callbacks):
    from qc.reports import project_report
    from tests.api.conftest import client_for

    api = client_for(big.admin)
    expected = json.loads(json.dumps(project_report(project=big.project)))
    with django_capture_on_commit_callbacks(execute=True):
        building = api.get("/api/projects/snap/report/")
    built = api.get("/api/projects/snap/report/")
    sections = api.get("/api/projects/snap/reports/csqa/")

    assert (building.status_code, building.json()) == (202, {"building": True, "stage": "queued"})
    assert (built.status_code, built.json()) == (200, expected)
    assert sections.json() == json.loads(json.dumps(task_type_report(project=big.project)))


def test_the_snapshot_page_shows_the_items_per_language_counted_by_its_build(
    big, client, django_capture_on_commit_callbacks
):
    from annotation.models import Item

    items = list(Item.objects.filter(project=big.project).order_by("pk"))
    Item.objects.filter(pk=items[0].pk).update(language="su")
    with django_capture_on_commit_callbacks(execute=True):
        _get(client, big.admin, "report_page")
    # A change after the build: the page still shows the build's counts (it reads no item).
    Item.objects.filter(pk=items[1].pk).update(language="su")
    page = _get(client, big.admin, "report_page").content.decode()

    snapshot = ReportSnapshot.objects.get(project=big.project)
    # The world's four items: items[0] (now Sundanese) and two more accepted, one excluded by its flags.
    assert [i.status for i in items] == ["gold", "gold", "gold", "excluded"]
    assert [(r["code"], r["items"], r["in_progress"], r["accepted"], r["refused"]) for r in snapshot.languages] == [
        ("id", 3, 0, 2, 1),
        ("su", 1, 0, 1, 0),
    ]
    assert 'id="language-table"' in page
    assert '<tr id="language-su"><th scope="row" lang="su">su</th><td>su</td><td>1</td><td>0</td><td>1</td>' in page
