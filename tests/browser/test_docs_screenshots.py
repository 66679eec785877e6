"""The manual's screenshots, taken from the demo (load_demo) so they show the product as it is.

Every run loads the demo, opens each page the manual shows and checks that it rendered. The PNGs go to a
temporary folder, unless GOTONG_WRITE_DOCS_SCREENSHOTS=1, when they replace the ones in docs/img/ (so a
test run never changes the work tree by accident):

    GOTONG_WRITE_DOCS_SCREENSHOTS=1 .venv/bin/pytest tests/browser/test_docs_screenshots.py
"""

from __future__ import annotations

import os
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import expect

from annotation.models import Assignment, Project
from annotation.task_types import get_task_type, project_settings
from qc.management.commands.load_demo import demo_password
from tests.browser.conftest import log_in_by_cookie

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DOCS_IMG = Path(settings.BASE_DIR) / "docs" / "img"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
# Each protocol's demo project, and the file name its project page is saved under.
PROJECTS = {
    "demo-csqa": "project-csqa.png",
    "demo-nli": "project-nli.png",
    "demo-kalahi": "project-kalahi.png",
    "demo-preference": "project-preference.png",
    "demo-arabculture": "project-arabculture.png",
}


@pytest.fixture
def shots(tmp_path) -> Path:
    if os.environ.get("GOTONG_WRITE_DOCS_SCREENSHOTS") == "1":
        DOCS_IMG.mkdir(parents=True, exist_ok=True)
        return DOCS_IMG
    return tmp_path


def _judge_with_open_work(slug: str):
    """The first annotator (by user name) with a pending judging assignment in the demo project."""
    project = Project.objects.get(slug=slug)
    kind = get_task_type(project.task_type).judging_rule(project_settings(project)).kind
    return (
        get_user_model()
        .objects.filter(assignments__project=project, assignments__kind=kind, assignments__status="pending")
        .order_by("username")
        .first()
    )


def test_the_manual_screenshots_show_the_demo_as_it_renders(new_page, live_server, transactional_db, shots, settings):
    # The live server overrides settings, which hides the settings module's name that load_demo checks.
    settings.SETTINGS_MODULE = "config.settings.test"
    call_command("load_demo", stdout=StringIO())
    admin = get_user_model().objects.get(username="admin")
    assert admin.check_password(demo_password())

    page = new_page(viewport=DESKTOP)
    log_in_by_cookie(page, admin, live_server.url)
    for slug, name in PROJECTS.items():
        assert page.goto(f"/p/{slug}/").status == 200, slug
        expect(page.locator("#stages")).to_be_visible()
        page.screenshot(path=str(shots / name), full_page=True)

    assert page.goto("/p/demo-csqa/report/").status == 200
    expect(page.locator("#overview-heading")).to_be_visible()
    page.screenshot(path=str(shots / "report-csqa.png"), full_page=True)

    judge = _judge_with_open_work("demo-csqa")
    phone = new_page(**PHONE)
    log_in_by_cookie(phone, judge, live_server.url)
    phone.goto("/p/demo-csqa/judge/")
    expect(phone.locator("#answer-form")).to_be_visible()
    assert Assignment.objects.filter(user=judge, project__slug="demo-csqa", status="active").count() == 1
    phone.screenshot(path=str(shots / "judge-phone.png"))  # what a phone shows first, not the whole page

    for name in [*PROJECTS.values(), "report-csqa.png", "judge-phone.png"]:
        assert (shots / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
