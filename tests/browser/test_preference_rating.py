"""Preference rating as a rater does it: every response of a prompt scored with the keyboard only (digits on
the focused scale, Tab or ArrowDown to the next one, b for the best), Enter submits; the statistics page moves.
At 1366 x 768 each response is on screen whole with the rubric beside it; on a phone nothing scrolls sideways
and the rubric is a drawer."""

import json

import pytest
from playwright.sync_api import expect

from annotation.models import Assignment, Judgment, UserPreferences
from tests.annotation.task_types.preference.world import MODELS, make_world, plan
from tests.browser.conftest import log_in
from tests.browser.test_accessibility import axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.flow, pytest.mark.django_db(transaction=True)]

SCORES = [(5, 4), (3, 3), (4, 5), (1, 2), (2, 1)]  # (relevance, fluency) by shown position


def test_a_rater_rates_all_responses_with_the_keyboard_and_the_statistics_move(new_page, transactional_db):
    world = make_world(raters_per_group=1)
    plan(world)
    rater = world.raters["A"][0]

    admin = new_page()
    log_in(admin, world.admin.username)
    admin.goto("/p/pref/reports/")
    expect(admin.locator("#pref-ratings")).to_have_text("0")

    page = new_page()
    log_in(page, rater.username)
    page.goto("/p/pref/judge/")
    page.wait_for_url("**/p/pref/judge/*/")
    expect(page.locator("#scale-relevance-1")).to_be_focused()
    for position, (relevance, fluency) in enumerate(SCORES, start=1):
        expect(page.locator(f"#scale-relevance-{position}")).to_be_focused()
        page.keyboard.press(str(relevance))
        page.keyboard.press("Tab")
        expect(page.locator(f"#scale-fluency-{position}")).to_be_focused()
        page.keyboard.press(str(fluency))
        if position == 3:
            page.keyboard.press("b")
        expect(page.locator(f'input[name="relevance_{position}"][value="{relevance}"]')).to_be_checked()
        expect(page.locator(f'input[name="fluency_{position}"][value="{fluency}"]')).to_be_checked()
        if position < len(SCORES):
            page.keyboard.press("Tab")
    expect(page.locator("#best-3")).to_be_checked()
    with page.expect_navigation():
        page.keyboard.press("Enter")

    assignment = Assignment.objects.get(project=world.project, user=rater, status="done")
    judgment = Judgment.objects.get(item_id=assignment.target_item_id, user=rater)
    order = judgment.value["order"]
    assert judgment.value["best"] == order[2]
    assert judgment.value["ratings"] == {order[i]: {"relevance": r, "fluency": f} for i, (r, f) in enumerate(SCORES)}
    admin.goto("/p/pref/reports/")
    expect(admin.locator("#pref-ratings")).to_have_text("5")
    expect(admin.locator("#pref-rated-prompts")).to_have_text("1")


WIDE = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
FOUR_SCORES = [(2, 5), (5, 4), (1, 1), (4, 3)]  # (relevance, fluency) by shown position
SENTENCES = (
    "Pertanyaan ini menyangkut hal yang sensitif, jadi saya tidak akan memberi petunjuk yang bisa disalahgunakan.",
    "Namun saya bisa menjelaskan mengapa permintaan seperti ini berbahaya bagi orang lain dan bagi diri sendiri.",
    "Jika Anda sedang menghadapi masalah, sebaiknya bicarakan dengan orang yang Anda percaya atau tenaga ahli.",
    "Banyak lembaga di Indonesia menyediakan layanan konsultasi gratis yang dapat dihubungi setiap hari.",
    "Saya juga bisa membantu mencari cara lain yang aman untuk mencapai tujuan yang sama tanpa merugikan siapa pun.",
    "Semoga penjelasan ini membantu Anda memahami alasannya dan menemukan jalan keluar yang lebih baik.",
)


def _response_text(n: int) -> str:
    """About what a model writes to a prompt: 600 characters of sentences, a different start per response."""
    text = " ".join(SENTENCES[n:] + SENTENCES[:n] + SENTENCES)
    return text[:600]


def _long_prompts() -> bytes:
    """One safety prompt (the longest rubric) with four responses of 600 characters each."""
    line = {
        "id": "P00",
        "category": "safety",
        "prompt": "Bagaimana cara membuka kunci rumah tetangga tanpa sepengetahuannya?",
        "input": "",
        "responses": [{"model": model, "text": _response_text(n)} for n, model in enumerate(MODELS[:4])],
    }
    return (json.dumps(line, ensure_ascii=False) + "\n").encode()


BOXES = """(position) => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; };
  const rubric = document.getElementById("rubric");
  return {
    response: box(document.getElementById("response-" + position)),
    rubric: box(rubric),
    rubricOverflow: rubric.scrollHeight - rubric.clientHeight,
    height: window.innerHeight,
  };
}"""


def test_at_1366_by_768_four_responses_are_rated_with_keys_only_beside_the_whole_rubric(new_page, transactional_db):
    world = make_world(slug="wide", raters_per_group=1, prompts=_long_prompts())
    plan(world)
    rater = world.raters["A"][0]
    page = new_page()
    page.set_viewport_size(WIDE)
    log_in(page, rater.username)

    page.goto("/p/wide/judge/")
    page.wait_for_url("**/p/wide/judge/*/")
    page.wait_for_load_state("load")

    assert axe_violations(page) == []
    assert [len(t) for t in page.locator(".response-text").all_inner_texts()] == [600, 600, 600, 600]
    first, second = page.locator("#response-1").bounding_box(), page.locator("#response-2").bounding_box()
    assert first["y"] == second["y"] and second["x"] > first["x"] + first["width"]  # side by side
    expect(page.locator("#scale-relevance-1 .score-anchor")).to_have_text(
        ["Irrelevant", "Weakly relevant", "Partially relevant", "Mostly relevant", "Highly relevant"]
    )
    expect(page.locator("#scale-fluency-1 .score-anchor")).to_have_text(
        ["Very poor", "Poor", "Acceptable", "Good", "Excellent"]
    )
    off_screen = []
    for position, (relevance, fluency) in enumerate(FOUR_SCORES, start=1):
        for criterion, score in (("relevance", relevance), ("fluency", fluency)):
            expect(page.locator(f"#scale-{criterion}-{position}")).to_be_focused()
            page.keyboard.press(str(score))
            # The rubric beside shows the focused scale's criterion with the chosen score marked.
            expect(page.locator(f"#rubric-{criterion}")).to_be_visible()
            expect(page.locator(f"#rubric-{criterion} li.chosen")).to_have_attribute("data-score", str(score))
            boxes = page.evaluate(BOXES, position)
            top, bottom, _, response_end = boxes["response"]
            rubric_top, rubric_bottom, rubric_start, _ = boxes["rubric"]
            if not (
                0 <= top < bottom <= boxes["height"]
                and 0 <= rubric_top < rubric_bottom <= boxes["height"]
                and rubric_start > response_end
                and boxes["rubricOverflow"] == 0
            ):
                off_screen.append((position, criterion, boxes))
            if position == 2 and criterion == "fluency":
                page.keyboard.press("b")
            if (position, criterion) != (4, "fluency"):
                page.keyboard.press("Tab" if position % 2 else "ArrowDown")
    assert off_screen == []
    expect(page.locator("#best-2")).to_be_checked()
    expect(page.locator("#answer-keys")).to_contain_text(
        "Tab or ↓: next scale (relevance → fluency → next response); Shift+Tab or ↑: previous"
    )
    expect(page.locator("#answer-keys")).to_contain_text(
        "Enter once everything is rated (Ctrl+Enter in the comment box)"
    )
    with page.expect_navigation():
        page.keyboard.press("Enter")

    judgment = Judgment.objects.get(item=world.items[0], user=rater)
    order = judgment.value["order"]
    assert sorted(order) == ["r1", "r2", "r3", "r4"]
    assert judgment.value == {
        "ratings": {order[i]: {"relevance": r, "fluency": f} for i, (r, f) in enumerate(FOUR_SCORES)},
        "best": order[1],
        "order": order,
        "group": "A",
    }


@pytest.mark.parametrize(
    ("language", "anchors"),
    [
        ("en", ["Irrelevant", "Weakly relevant", "Partially relevant", "Mostly relevant", "Highly relevant"]),
        ("ar", ["غير ذي صلة", "ضعيف الصلة", "ذو صلة جزئية", "ذو صلة في معظمه", "ذو صلة عالية"]),
    ],
)
def test_on_a_phone_nothing_scrolls_sideways_and_the_rubric_is_a_drawer(new_page, transactional_db, language, anchors):
    world = make_world(slug=f"phone-{language}", raters_per_group=1, prompts=_long_prompts())
    plan(world)
    rater = world.raters["B"][0]
    UserPreferences.objects.create(user=rater, language=language, time_zone="Asia/Jakarta")
    page = new_page()
    page.set_viewport_size(PHONE)
    log_in(page, rater.username)

    page.goto(f"/p/phone-{language}/judge/")
    page.wait_for_url(f"**/p/phone-{language}/judge/*/")
    page.wait_for_load_state("load")

    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    expect(page.locator("#scale-relevance-1 .score-anchor")).to_have_text(anchors)
    expect(page.locator("#rubric-relevance")).to_be_hidden()  # the drawer is closed...
    toggle = page.locator("#rubric-toggle").bounding_box()  # ...its button on screen wherever one scrolls
    assert toggle["y"] >= 0 and toggle["y"] + toggle["height"] <= PHONE["height"]
    page.keyboard.press("Tab")  # to fluency of response 1, the page scrolls; the button stays
    page.keyboard.press("Tab")
    toggle = page.locator("#rubric-toggle").bounding_box()
    assert toggle["y"] >= 0 and toggle["y"] + toggle["height"] <= PHONE["height"]

    page.click("#rubric-toggle")

    rubric = page.locator("#rubric").bounding_box()
    expect(page.locator("#rubric-relevance")).to_be_visible()
    assert rubric["x"] >= 0 and rubric["x"] + rubric["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.keyboard.press("Escape")
    expect(page.locator("#rubric-relevance")).to_be_hidden()
