"""The main pages work under the Content-Security-Policy: header present, nothing refused by the browser."""

import re

import pytest
from playwright.sync_api import expect

from annotation.models import Assignment
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.items import item_submit
from annotation.services.judging import judging_plan
from tests.annotation.task_types.csqa.world import make_world
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD, VALID_PAYLOAD
from tests.factories import make_csqa_project

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
    "base-uri": "'self'",
    "object-src": "'none'",
}


def directives(header: str | None) -> dict[str, str]:
    """`a x; b y z` -> {"a": "x", "b": "y z"} (django-csp doesn't keep the directives' order)."""
    return dict(part.strip().split(" ", 1) for part in (header or "").split(";") if part.strip())


def open_page(page, path: str, landing: str | None = None) -> None:
    response = page.goto(path)
    if landing:
        page.wait_for_url(re.compile(landing))
    assert (response.status, directives(response.headers.get("content-security-policy"))) == (200, POLICY), path


def test_the_main_pages_load_under_the_policy_without_violations(new_page, csp_violations):
    csqa = make_csqa_project(slug="csp", annotators=2, categories=1, concepts_per_category=2)
    assignment_plan_authoring(project=csqa.project)
    kunjung = Assignment.objects.get(user=csqa.annotators[0], concept__name="kunjung")
    item_submit(assignment_id=kunjung.pk, user=csqa.annotators[0], data=VALID_PAYLOAD)
    world = make_world(slug="cspw")
    judging_plan(project=world.project)
    for user in (world.admin, world.people[1]):
        user.set_password(PASSWORD)
        user.save(update_fields=["password"])

    # Login page, then the project list.
    author = new_page()
    open_page(author, "/accounts/login/")
    log_in(author, csqa.annotators[0].username)
    open_page(author, "/")
    expect(author.locator("main")).to_contain_text("Project csp")

    # The authoring form, with a draft saved through htmx (its request, swap and settle).
    open_page(author, "/p/csp/author/", landing=r"/p/csp/author/\d+/$")
    author.fill("#id_question", "Kapan orang biasanya makan konsep bersama keluarga?")
    author.click("#save-draft")
    expect(author.locator("#form-notice")).to_contain_text("Draft saved at")

    # The review page of the submitted item.
    reviewer = new_page()
    log_in(reviewer, csqa.reviewer.username)
    open_page(reviewer, "/p/csp/review/")
    reviewer.click("#review-next")
    reviewer.wait_for_url(re.compile(r"/p/csp/review/\d+/$"))
    expect(reviewer.locator("#decide")).to_be_visible()

    # The answering page, keys included (static/js/answer.js).
    answerer = new_page()
    log_in(answerer, world.people[1].username)
    open_page(answerer, "/p/cspw/answer/", landing=r"/p/cspw/answer/\d+/$")
    answerer.keyboard.press("u")
    expect(answerer.locator("#id_uncertain")).to_be_checked()

    # The reports page: heatmaps coloured by classes, not inline styles.
    admin = new_page()
    log_in(admin, world.admin.username)
    open_page(admin, "/p/cspw/reports/")
    expect(admin.locator("#conflict-matrix-total")).to_have_text("0")

    assert admin.evaluate("document.querySelectorAll('[style]').length") == 0
    assert csp_violations == []


def test_an_inline_script_or_style_is_refused_and_reported(new_page, csp_violations):
    page = new_page()
    open_page(page, "/accounts/login/")

    page.evaluate(
        """() => {
          const script = document.createElement("script");
          script.textContent = "window.__inlineRan = true";
          document.body.append(script);
          document.body.setAttribute("style", "background: red");
        }"""
    )
    page.wait_for_function("window.__cspViolations.length >= 2")
    page.evaluate("0")

    assert page.evaluate("window.__inlineRan === undefined") is True
    assert sorted(v["directive"] for v in page.evaluate("window.__cspViolations")) == [
        "script-src-elem",
        "style-src-attr",
    ]
    assert any("script-src-elem" in v for v in csp_violations)
    assert any(v.startswith("console") and "Content Security Policy" in v for v in csp_violations)
    csp_violations.clear()  # provoked on purpose: the teardown check must not fail this test
