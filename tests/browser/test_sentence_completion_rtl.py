"""ArabCulture in Arabic, as people click through it: an Egyptian annotator writes an item, the Egyptian
reviewer approves it, the other Egyptian annotator verifies it as an MCQ; every page lays out right to
left (the computed `direction` of the main containers) and screenshots are kept."""

import re

import pytest
from playwright.sync_api import expect

from annotation.models import Assignment, Item
from annotation.services.judging import judging_plan
from tests.annotation.task_types.sentence_completion.world import TOPICS, make_world, peer_letter
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.flow, pytest.mark.django_db(transaction=True)]

PREMISE = "يقوم أحمد بتحضير الفول للإفطار"
COMPLETIONS = ["يتم تناول الفول مع الأرز", "يتم تناول الفول بالخبز", "يتم تناول الفول مع الفواكه"]


def _direction(page, selector: str) -> str:
    return page.eval_on_selector(selector, "el => getComputedStyle(el).direction")


def _assert_rtl(page, *selectors: str) -> None:
    # The page chrome (<html>, #main) follows the user's interface language (English in these browsers,
    # tests/browser/test_localised_ui.py covers an Arabic interface); the containers showing the
    # project's Arabic content are right to left whatever the interface language.
    assert page.evaluate("document.documentElement.dir") == "ltr"
    for selector in selectors:
        assert _direction(page, selector) == "rtl", selector


def test_author_review_and_peer_verify_in_arabic(new_page, tmp_path):
    world = make_world(slug="ac", password=PASSWORD)
    author, peer = world.authors["Egypt"]

    page = new_page()
    log_in(page, author.username)
    page.goto("/p/ac/author/")
    page.wait_for_url(re.compile(r"/p/ac/author/\d+/$"))
    page.fill("#id_premise", PREMISE)
    for letter, text in zip("abc", COMPLETIONS, strict=True):
        page.fill(f"#id_completion_{letter}", text)
    page.check("#id_answer_1")
    page.select_option("#id_country", "Egypt")
    # Topic and subtopic: the plan's unit is preset; pick another topic, whose subtopics alone are offered.
    planned = Assignment.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1])).concept
    assert page.input_value("#id_topic") == planned.category.name
    assert page.input_value("#id_subtopic") == planned.name
    topic = next(t for t in TOPICS if t != planned.category.name)
    page.select_option("#id_topic", topic)
    offered = page.eval_on_selector_all("#id_subtopic option:not([disabled])", "els => els.map(e => e.value)")
    subtopics = [f"subtopic-{j:02d}" for j in range(40) if TOPICS[j % len(TOPICS)] == topic]
    assert offered == ["", *subtopics]
    assert page.input_value("#id_subtopic") == ""  # the planned subtopic belongs to another topic
    page.select_option("#id_subtopic", subtopics[1])
    page.check("input[name=relevant_to_this_country][value=yes]")
    page.check("input[name=relevant_to_other_countries][value=no]")
    # The item's fields are right to left; the form's labels and buttons follow the interface (English).
    _assert_rtl(page, "#id_premise", "#id_completion_a")
    assert _direction(page, "#author-form") == "ltr"
    assert page.get_attribute("#id_premise", "lang") == "ar"
    page.screenshot(path=str(tmp_path / "1-author.png"), full_page=True)
    with page.expect_navigation():
        page.click("#submit-item")
    item = Item.objects.get(project=world.project, author=author)
    assert item.status == "submitted" and item.current_version.payload["answer"] == "B"
    assert (item.concept.category.name, item.concept.name) == (topic, subtopics[1])

    reviewer = new_page()
    log_in(reviewer, world.reviewers["Egypt"].username)
    reviewer.goto("/p/ac/review/")
    with reviewer.expect_navigation():
        reviewer.click("#review-next")
    expect(reviewer.locator("#current")).to_contain_text(PREMISE)
    expect(reviewer.locator("p.category")).to_have_text(topic)
    expect(reviewer.locator("h2.concept")).to_have_text(subtopics[1])
    _assert_rtl(reviewer, "#item-text", ".completion-item")
    assert _direction(reviewer, "#review-form") == "ltr"  # the controls follow the interface (English)
    reviewer.screenshot(path=str(tmp_path / "2-review.png"), full_page=True)
    reviewer.check("input[name=decision][value=approve]")
    with reviewer.expect_navigation():
        reviewer.click("#decide")
    item.refresh_from_db()
    assert item.status == "approved"

    judging_plan(project=world.project)
    assignment = Assignment.objects.get(project=world.project, kind="answer", target_item=item)
    assert assignment.user == peer
    verifier = new_page()
    log_in(verifier, peer.username)
    verifier.goto("/p/ac/judge/")
    verifier.wait_for_url(re.compile(rf"/p/ac/judge/{assignment.pk}/$"))
    expect(verifier.locator("#question")).to_contain_text(PREMISE)
    expect(verifier.locator("#answer-form")).not_to_contain_text("correct")
    _assert_rtl(verifier, "#question", "#id_comment")
    assert _direction(verifier, "#answer-form") == "ltr"
    verifier.screenshot(path=str(tmp_path / "3-peer.png"), full_page=True)
    item.refresh_from_db()
    letter = peer_letter(world, item, right=True)
    verifier.check(f"input[name=choice][value={letter}]")
    with verifier.expect_navigation():
        verifier.click("#submit-answer")
    item.refresh_from_db()
    assert item.status == "gold" and item.gold_decision.outcome == "gold"

    admin = new_page()
    log_in(admin, world.admin.username)
    admin.goto("/p/ac/report/")
    expect(admin.locator("#completion-kept")).to_have_text("1")
    expect(admin.locator("#completion-by-topic tbody th")).to_have_text([topic])
    _assert_rtl(admin, "#completion-report", "#completion-by-country")
    admin.screenshot(path=str(tmp_path / "4-report.png"), full_page=True)
    assert all(
        (tmp_path / name).stat().st_size > 0 for name in ("1-author.png", "2-review.png", "3-peer.png", "4-report.png")
    )


# Markup in every text a person types; the test fails if any of it runs (the binding records a call; the
# Content-Security-Policy check of tests/browser/conftest.py also fails on a blocked inline script).
XSS_IMG = '<img src=x onerror="__xss(1)">'
XSS_SCRIPT = "<script>__xss(2)</script>"
XSS_SVG = '"><svg onload=__xss(3)>'
XSS_PREMISE = "يقوم أحمد بتحضير الفول للإفطار كل يوم في الصباح مع عائلته الكبيرة " + XSS_IMG
XSS_COMPLETIONS = [
    "يتم تناول الفول مع الأرز والخبز والسلطة في البيت " + XSS_SCRIPT,
    "يتم تناول الفول بالخبز البلدي والزيت والكمون في البيت " + XSS_SVG,
    "يتم تناول الفول مع الفواكه والحليب والعسل في المطعم",
]


def test_no_text_a_person_typed_runs_as_script(new_page):
    world = make_world(slug="acx", password=PASSWORD)
    author, peer = world.authors["Egypt"]
    executed: list = []

    def page_for(username: str):
        page = new_page()
        page.context.expose_binding("__xss", lambda source, n: executed.append((source["page"].url, n)))
        log_in(page, username)
        return page

    page = page_for(author.username)
    page.goto("/p/acx/author/")
    page.wait_for_url(re.compile(r"/p/acx/author/\d+/$"))
    page.fill("#id_premise", XSS_PREMISE)
    for letter, text in zip("abc", XSS_COMPLETIONS, strict=True):
        page.fill(f"#id_completion_{letter}", text)
    page.check("#id_answer_0")
    page.select_option("#id_country", "Egypt")
    page.check("input[name=relevant_to_this_country][value=yes]")
    page.check("input[name=relevant_to_other_countries][value=yes]")
    with page.expect_navigation():
        page.click("#submit-item")
    item = Item.objects.get(project=world.project, author=author)
    assert item.current_version.payload["premise"] == XSS_PREMISE
    page.goto(f"/p/acx/items/{item.pk}/")
    expect(page.locator("#current .premise")).to_contain_text(XSS_IMG)

    reviewer = page_for(world.reviewers["Egypt"].username)
    reviewer.goto("/p/acx/review/")
    with reviewer.expect_navigation():
        reviewer.click("#review-next")
    expect(reviewer.locator("#current")).to_contain_text(XSS_SCRIPT)
    reviewer.check("input[name=decision][value=approve]")
    reviewer.fill("textarea[name=feedback]", "جيد " + XSS_SVG)
    with reviewer.expect_navigation():
        reviewer.click("#decide")
    item.refresh_from_db()
    assert item.status == "approved"

    judging_plan(project=world.project)
    verifier = page_for(peer.username)
    verifier.goto("/p/acx/judge/")
    expect(verifier.locator("#question")).to_contain_text(XSS_IMG)
    expect(verifier.locator("#answer-form")).to_contain_text(XSS_SVG)
    verifier.check(f"input[name=choice][value={peer_letter(world, item, right=True)}]")
    verifier.fill("textarea[name=comment]", XSS_SCRIPT)
    with verifier.expect_navigation():
        verifier.click("#submit-answer")

    admin = page_for(world.admin.username)
    for path in ("/p/acx/report/", "/p/acx/items/", f"/p/acx/items/{item.pk}/"):
        admin.goto(path)
    expect(admin.locator("#current .premise")).to_contain_text(XSS_IMG)
    for p in (page, reviewer, verifier, admin):
        p.evaluate("0")
    assert executed == []
    assert admin.locator("img[src=x], svg[onload]").count() == 0
