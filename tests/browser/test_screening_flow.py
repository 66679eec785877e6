"""Screening, training and pilot as an applicant and an admin click through them (core; here on an Arabic
ArabCulture project): the applicant finds the screening from the project page, meets the five criteria,
answers the practice items and sees the feedback, fails the pilot once and passes it on the second
attempt; their queue refuses them until the admin admits them and plans authoring."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from annotation.models import Application, Assignment, Membership
from annotation.services.catalog import concepts_import
from annotation.services.projects import membership_add, project_create
from annotation.services.screening import DEFAULT_CRITERIA, GATE_MESSAGE, screening_configure
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.flow, pytest.mark.django_db(transaction=True)]
User = get_user_model()
PRACTICE = [
    {"question": "ما طعام الإفطار؟", "options": ["فول", "سمك"], "answer": 0, "feedback": "الفول طعام إفطار شائع."}
]
PILOT = [{"question": f"سؤال {n}", "options": ["نعم", "لا"], "answer": 0} for n in range(2)]


def test_an_applicant_is_screened_trained_piloted_admitted_then_works(new_page):
    admin = User.objects.create_user(username="scr-admin", password=PASSWORD)
    project = project_create(
        creator=admin,
        name="ArabCulture screening",
        slug="acs",
        task_type="sentence_completion",
        languages=[{"code": "ar", "name": "العربية", "direction": "rtl"}],
        guidelines="اكتب مقدمة وثلاث تكملات.",
        authors_per_concept=1,
    )
    concepts_import(project=project, data=b"category,concept\nFood,breakfast\nFood,lunch\n", filename="u.csv")
    applicant = User.objects.create_user(username="scr-applicant", password=PASSWORD)
    membership = membership_add(project=project, user=applicant, role=Membership.Role.ANNOTATOR, code="EG-1")
    screening_configure(project=project, training_items=PRACTICE, pilot_items=PILOT, pilot_pass=2, max_attempts=2)

    page = new_page()
    log_in(page, applicant.username)
    page.goto("/p/acs/author/")
    expect(page.locator("#gate-message")).to_have_text(GATE_MESSAGE)
    page.goto("/p/acs/")
    with page.expect_navigation():
        page.click("#stage-authoring-screening_page")
    for criterion in DEFAULT_CRITERIA:
        page.check(f"#criterion-{criterion['code']} input[value=yes]")
    page.select_option("#id_country", "Egypt")
    with page.expect_navigation():
        page.click("#screening-form button[type=submit]")
    expect(page.locator("#screening-status")).to_contain_text("Training")
    assert page.eval_on_selector("#screening", "el => getComputedStyle(el).direction") == "rtl"
    page.check("#practice-0 input[value='1']")
    with page.expect_navigation():
        page.click("#training-form button[type=submit]")
    expect(page.locator("#practice-feedback-0")).to_have_text("Not quite. الفول طعام إفطار شائع.")
    with page.expect_navigation():
        page.click("#to-pilot")
    page.check("#pilot-0 input[value='0']")
    page.check("#pilot-1 input[value='1']")
    with page.expect_navigation():
        page.click("#pilot-form button[type=submit]")
    expect(page.locator("#pilot")).to_contain_text("attempt 2 of 2")
    page.check("#pilot-0 input[value='0']")
    page.check("#pilot-1 input[value='0']")
    with page.expect_navigation():
        page.click("#pilot-form button[type=submit]")
    expect(page.locator("#passed")).to_be_visible()
    application = Application.objects.get(membership=membership)
    country = Membership.objects.get(pk=membership.pk).profile.country
    assert (application.status, application.pilot_scores, country) == ("passed", [1, 2], "Egypt")
    page.goto("/p/acs/author/")
    expect(page.locator("#gate-message")).to_have_text(GATE_MESSAGE)
    assert Assignment.objects.filter(project=project).count() == 0

    boss = new_page()
    log_in(boss, admin.username)
    boss.goto("/p/acs/")
    with boss.expect_navigation():
        boss.click("#nav-screening-setup")
    with boss.expect_navigation():
        boss.click("text=applicants")
    expect(boss.locator(f"#applicant-{membership.pk} .status")).to_have_text("Passed, waiting to be admitted")
    with boss.expect_navigation():
        boss.click(f"#applicant-{membership.pk} button")
    expect(boss.locator(f"#applicant-{membership.pk} .status")).to_have_text("Admitted")
    boss.goto("/p/acs/")
    with boss.expect_navigation():
        boss.click("#plan-button")

    page.goto("/p/acs/author/")
    page.wait_for_url(re.compile(r"/p/acs/author/\d+/$"))
    expect(page.locator("#completion-author")).to_be_visible()
    assert Assignment.objects.filter(project=project, user=applicant).count() == 2
