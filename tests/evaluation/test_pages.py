"""Endpoint pages (site staff) and run pages (project admins): permissions, the Test button, a run
started from the page, escaping."""

from __future__ import annotations

import pytest
from django.test import Client

from evaluation.models import Call, Endpoint, Run
from evaluation.services.runs import run_create
from tests.evaluation.helpers import make_endpoint, runs_stay_pending
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def staff_client():
    client = Client()
    client.force_login(UserFactory(username="root", is_staff=True))
    return client


@pytest.fixture
def eager(eager_tasks):
    return eager_tasks


def _endpoint_form(url: str, **extra) -> dict:
    return {
        "name": "local",
        "base_url": url,
        "model": "test-model",
        "api_key_env": "",
        "is_local": "on",
        "timeout_seconds": "5",
        "max_concurrency": "2",
        **extra,
    }


def test_staff_registers_an_endpoint_and_tests_it(staff_client, llm_server):
    llm_server.configure(replies=[{"match": "are you there", "reply": "Ada <b>di sini</b>."}])

    created = staff_client.post("/evaluation/endpoints/new/", _endpoint_form(llm_server.url))
    endpoint = Endpoint.objects.get()
    listed = staff_client.get("/evaluation/endpoints/").content.decode()
    tested = staff_client.post(f"/evaluation/endpoints/{endpoint.pk}/test/", HTTP_HX_REQUEST="true").content.decode()

    assert created.status_code == 302
    assert (endpoint.name, endpoint.base_url, endpoint.is_local, endpoint.max_concurrency) == (
        "local",
        llm_server.url,
        True,
        2,
    )
    assert f'hx-post="/evaluation/endpoints/{endpoint.pk}/test/"' in listed
    assert 'Answered in <span class="latency">' in tested
    assert '<q dir="auto">Ada &lt;b&gt;di sini&lt;/b&gt;.</q>' in tested


def test_a_refused_base_url_is_shown_and_nothing_is_saved(staff_client):
    response = staff_client.post("/evaluation/endpoints/new/", _endpoint_form("http://169.254.169.254/", is_local=""))

    assert response.status_code == 400
    assert (
        "“169.254.169.254” is a link-local address (cloud metadata lives there): refused." in response.content.decode()
    )
    assert Endpoint.objects.count() == 0


def test_endpoint_pages_are_for_staff_only(llm_server, csqa):
    endpoint = make_endpoint(llm_server)
    client = Client()
    client.force_login(csqa.admin)  # a project admin, not site staff

    statuses = [
        client.get("/evaluation/endpoints/").status_code,
        client.get("/evaluation/endpoints/new/").status_code,
        client.post("/evaluation/endpoints/new/", _endpoint_form(llm_server.url, name="other")).status_code,
        client.post(f"/evaluation/endpoints/{endpoint.pk}/", _endpoint_form(llm_server.url, name="x")).status_code,
        client.post(f"/evaluation/endpoints/{endpoint.pk}/test/").status_code,
    ]

    assert statuses == [404] * 5
    assert list(Endpoint.objects.values_list("name", flat=True)) == ["test"]
    assert llm_server.stats()["requests"] == 0


def test_a_project_admin_starts_a_run_and_reads_its_calls(llm_server, csqa, eager):
    make_endpoint(llm_server)
    client = Client()
    client.force_login(csqa.admin)

    started = client.post(
        "/p/demo/runs/", {"endpoint": "test", "prompts": "Siapa <script>alert(1)</script>?\nApa kabar?"}
    )
    run = Run.objects.get()
    page = client.get(f"/p/demo/runs/{run.pk}/").content.decode()
    partial = client.get(f"/p/demo/runs/{run.pk}/", HTTP_HX_REQUEST="true").content.decode()
    call = Call.objects.get(unit_key="p1")
    detail = client.get(f"/p/demo/runs/{run.pk}/calls/{call.pk}/").content.decode()
    calls = client.get(f"/p/demo/runs/{run.pk}/calls/").content.decode()

    assert started.status_code == 302 and started.url == f"/p/demo/runs/{run.pk}/"
    assert (run.project_id, run.status, run.calls_done, run.total) == (csqa.project.pk, "done", 2, 2)
    assert '<progress id="run-bar" value="2" max="2"></progress>' in page
    assert '<span id="run-percent">100%</span>' in partial
    assert "hx-trigger" not in partial  # finished: the page stops polling
    assert partial.lstrip().startswith('<section class="panel" id="run-progress"')
    assert "<script>alert(1)</script>" not in detail
    assert "Siapa &lt;script&gt;alert(1)&lt;/script&gt;?" in detail
    assert "Reply to: Siapa &lt;script&gt;" in calls


def test_a_running_run_polls_and_can_be_paused_resumed_and_cancelled_from_the_page(llm_server, csqa):
    endpoint = make_endpoint(llm_server)
    with runs_stay_pending():
        run = run_create(kind="responses", endpoints=[endpoint], parameters={"prompts": ["a"]}, project=csqa.project)
        client = Client()
        client.force_login(csqa.admin)
        polling = client.get(f"/p/demo/runs/{run.pk}/", HTTP_HX_REQUEST="true").content.decode()
        client.post(f"/p/demo/runs/{run.pk}/pause/")
        paused = Run.objects.get(pk=run.pk).status
        refused = client.post(f"/p/demo/runs/{run.pk}/pause/", follow=True).content.decode()
        client.post(f"/p/demo/runs/{run.pk}/cancel/")

    assert 'hx-trigger="every 1s"' in polling
    assert paused == "paused"
    assert "A paused run cannot be paused." in refused
    assert Run.objects.get(pk=run.pk).status == "cancelled"


def test_another_projects_admin_gets_404_and_changes_nothing(llm_server, csqa, other_project, eager):
    endpoint = make_endpoint(llm_server)
    run = run_create(kind="responses", endpoints=[endpoint], parameters={"prompts": ["a"]}, project=csqa.project)
    call = Call.objects.get()
    outsider = Client()
    outsider.force_login(other_project.admin)

    statuses = [
        outsider.get(f"/p/demo/runs/{run.pk}/").status_code,
        outsider.get(f"/p/demo/runs/{run.pk}/calls/").status_code,
        outsider.get(f"/p/demo/runs/{run.pk}/calls/{call.pk}/").status_code,
        outsider.post(f"/p/demo/runs/{run.pk}/cancel/").status_code,
        # their own project's address with our run's id
        outsider.get(f"/p/other/runs/{run.pk}/").status_code,
        outsider.get(f"/p/other/runs/{run.pk}/calls/{call.pk}/").status_code,
        outsider.post(f"/p/other/runs/{run.pk}/cancel/").status_code,
    ]

    assert statuses == [404] * 7
    assert Run.objects.get(pk=run.pk).status == "done"


def test_the_model_pages_are_linked_where_their_users_look(csqa):
    """Admins find "Model runs" in the project's navigation, staff "Model endpoints"; a csqa project's
    runs page links the task type's own pages (an NLI project has none); annotators see no link."""
    from tests.annotation.task_types.nli.world import make_nli_project

    nli = make_nli_project(slug="nli-links", premises=())
    admin, annotator = Client(), Client()
    admin.force_login(csqa.admin)
    annotator.force_login(csqa.annotators[0])
    staff = Client()
    staff.force_login(UserFactory(username="root", is_staff=True))

    runs = admin.get(f"/p/{csqa.project.slug}/runs/").content.decode()
    nli_admin = Client()
    nli_admin.force_login(nli.admin)
    nli_runs = nli_admin.get("/p/nli-links/runs/").content.decode()
    home_for_annotator = annotator.get(f"/p/{csqa.project.slug}/").content.decode()

    assert f'<a href="/p/{csqa.project.slug}/runs/">Model runs</a>' in runs
    assert (
        f'<p id="task-type-pages"><a href="/p/{csqa.project.slug}/generate/">Generate drafts</a> · '
        f'<a href="/p/{csqa.project.slug}/adapt/">Adapt CommonsenseQA</a> · '
        f'<a href="/p/{csqa.project.slug}/human-vs-llm/">Human vs LLM</a></p>'
    ) in runs
    assert 'id="task-type-pages"' not in nli_runs
    assert "Model runs" not in home_for_annotator
    assert "Model endpoints" not in runs  # a project admin who is not site staff
    assert '<a href="/evaluation/endpoints/">Model endpoints</a>' in staff.get("/").content.decode()
