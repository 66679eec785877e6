"""The QC loop as people click through it: write, send back, revise, approve, see the dashboard move."""

import re

import pytest
from playwright.sync_api import expect

from annotation.models import Item
from annotation.services.assignments import assignment_plan_authoring
from tests.browser.conftest import log_in
from tests.factories import make_csqa_project

pytestmark = [pytest.mark.browser, pytest.mark.flow, pytest.mark.django_db(transaction=True)]

OPTIONS = ["Saat Lebaran", "Tengah malam", "Saat hujan deras", "Hari Senin", "Bulan puasa"]


def dashboard_counts(page, slug, author_id):
    page.goto(f"/p/{slug}/dashboard/")
    # The numbers sit in the charts' closed "Numbers" disclosures: read the text, shown or not.
    return {
        status: page.text_content(f"#status-{status}")
        for status in ("draft", "submitted", "revision_requested", "approved")
    } | {
        "too_general": page.text_content(f"#errors-{author_id}-too_general"),
        "typo": page.text_content(f"#errors-{author_id}-typo"),
    }


def test_write_review_revise_approve(new_page, transactional_db):
    csqa = make_csqa_project(slug="loop", annotators=2, categories=1, concepts_per_category=2)
    assignment_plan_authoring(project=csqa.project)
    annotator = csqa.annotators[0]
    admin_page = new_page()
    log_in(admin_page, csqa.admin.username)
    assert dashboard_counts(admin_page, "loop", annotator.pk) == {
        "draft": "0",
        "submitted": "0",
        "revision_requested": "0",
        "approved": "0",
        "too_general": "0",
        "typo": "0",
    }

    # The annotator opens the queue and lands on the first assignment.
    author = new_page()
    log_in(author, annotator.username)
    author.click("text=Open my queue")
    author.wait_for_url(re.compile(r"/p/loop/author/\d+/$"))
    first_url = author.url
    concept = author.inner_text("h1.concept")
    expect(author.locator("#guidelines strong")).to_have_text("the concept")
    author.fill("#id_question", f"Kapan orang biasanya makan {concept} bersama keluarga?")
    for label, text in zip("abcde", OPTIONS, strict=True):
        author.fill(f"#id_choice_{label}", text)

    # Draft saved through htmx (the CSRF token travels in hx-headers); the form stays in place.
    author.click("#save-draft")
    expect(author.locator("#form-notice")).to_contain_text("Draft saved at")
    assert author.url == first_url

    # Digit key outside text fields marks the answer; Ctrl+Enter submits; the next assignment opens.
    author.locator("#concept-head").click()
    author.keyboard.press("1")
    expect(author.locator("#id_answer_0")).to_be_checked()
    author.locator("#id_question").focus()
    author.keyboard.press("Control+Enter")
    author.wait_for_url(lambda url: url != first_url and re.search(r"/p/loop/author/\d+/$", url) is not None)
    expect(author.locator(".messages")).to_contain_text("Submitted for review. Here is your next one.")
    item = Item.objects.get(author=annotator)
    assert (item.status, item.current_version.payload["answer"]) == ("submitted", "A")

    # The reviewer takes it and asks for a revision with an error type and feedback.
    reviewer = new_page()
    log_in(reviewer, csqa.reviewer.username)
    reviewer.goto("/p/loop/review/")
    expect(reviewer.locator("#queue-total")).to_have_text("1")
    reviewer.click("#review-next")
    reviewer.wait_for_url(f"**/p/loop/review/{item.pk}/")
    reviewer.check("#error-type-too_general")
    reviewer.check("input[name=decision][value=revise]")
    reviewer.fill("#id_feedback", "Terlalu umum: sebutkan daerah dan suasananya.")
    reviewer.click("#decide")
    reviewer.wait_for_url("**/p/loop/review/")
    expect(reviewer.locator(".messages")).to_contain_text("Sent back to the author with your feedback.")

    # The annotator sees the feedback, revises and resubmits with Ctrl+Enter.
    author.goto("/p/loop/")
    expect(author.locator(f"#revision-{item.pk} .feedback")).to_have_text(
        "Terlalu umum: sebutkan daerah dan suasananya."
    )
    author.click(f"#revision-{item.pk} a")
    expect(author.locator("#last-review-feedback")).to_have_text("Terlalu umum: sebutkan daerah dan suasananya.")
    expect(author.locator("#last-review-error-types")).to_have_text("Context too general")
    author.fill("#id_question", f"Di Bandung, kapan orang biasanya makan {concept} bersama keluarga?")
    author.locator("#id_question").press("Control+Enter")
    author.wait_for_url(re.compile(r"/p/loop/author/\d+/$"))
    item.refresh_from_db()
    assert (item.status, item.current_version.number) == ("submitted", 2)

    # It returns to the same reviewer, who sees the diff and approves.
    reviewer.click("#review-next")
    reviewer.wait_for_url(f"**/p/loop/review/{item.pk}/")
    expect(reviewer.locator("#changes")).to_contain_text("Changes since version 1")
    # Word by word: only the changed words are marked.
    expect(reviewer.locator("#changes del")).to_have_text("Kapan")
    expect(reviewer.locator("#changes ins")).to_have_text("Di Bandung, kapan")
    expect(reviewer.locator("#changes .diff-words")).to_have_text(
        f"KapanDi Bandung, kapan orang biasanya makan {concept} bersama keluarga?"
    )
    reviewer.check("input[name=decision][value=approve]")
    reviewer.locator("#id_feedback").press("Control+Enter")
    reviewer.wait_for_url("**/p/loop/review/")
    expect(reviewer.locator(".messages")).to_contain_text("Approved.")

    # The admin's dashboard moved.
    assert dashboard_counts(admin_page, "loop", annotator.pk) == {
        "draft": "0",
        "submitted": "0",
        "revision_requested": "0",
        "approved": "1",
        "too_general": "1",
        "typo": "0",
    }
