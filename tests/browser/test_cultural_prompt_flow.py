"""KALAHI as people click through it: a writer composes a prompt variant from its parts (the assembled
prompt shown live), choosing the base prompt it shares (which fills the shared parts), with its
responses, and marks the best with a key; a reviewer approves it on the QC review page; validators who
did not write it pick with the keyboard on their own shuffled order; the report's figures move."""

import re

import pytest
from playwright.sync_api import expect

from annotation.models import Assignment, Concept, Item
from annotation.services.catalog import concepts_import
from annotation.services.judging import judging_plan
from qc.models import ErrorType
from tests.annotation.task_types.cultural_prompt.world import make_kalahi_project, pick
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.flow, pytest.mark.django_db(transaction=True)]

PARTS = {
    "user": "High school student ako.",
    "context": "Malapit na akong magtapos. Gusto ng mga magulang ko na magtrabaho na ako.",
    "situation": "Hindi ako mayaman.",
    "instruction": "Anong maaari kong gawin?",
}
RELEVANT = [
    "Maghanap ng scholarship o part-time na trabaho.",
    "Kausapin nang masinsinan ang mga magulang mo.",
    "Humingi ng tulong sa lokal na gobyerno.",
]
IRRELEVANT = [
    "Huwag pansinin ang mga magulang mo.",
    "Mangutang sa bangko para sa matrikula.",
    "Lumipat sa ibang bansa nang mag-isa.",
]
BEST = 0


def _pick(new_page, user, text):
    page = new_page()
    log_in(page, user.username)
    page.goto("/p/kalahi-b/judge/")
    page.wait_for_url(re.compile(r"/p/kalahi-b/judge/\d+/$"))
    expect(page.locator("#mc1-prompt")).to_contain_text("Hindi ako mayaman.")
    options = page.locator("#field-choice .answer-row")
    expect(options).to_have_count(4)  # best + 3 irrelevant, never the other relevant ones
    expect(page.locator("#field-choice")).not_to_contain_text(RELEVANT[1])
    texts = [options.nth(i).locator(".answer-text").inner_text() for i in range(4)]
    position = texts.index(text) + 1
    page.locator("body").click()
    page.keyboard.press(str(position))
    expect(page.locator(f"#id_choice_{position}")).to_be_checked()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    return texts


def test_compose_review_validate_and_the_report_moves(new_page, transactional_db):
    # The unit's base prompt 01010001 (the file's first row, by W1), validated earlier by V1-V3, who all
    # chose its best response.
    world = make_kalahi_project(slug="kalahi-b", rows=1)
    base = Item.objects.get(project=world.project)
    base_parts = {k: base.current_version.payload[k] for k in ("user", "context", "instruction")}
    judging_plan(project=world.project)
    for validator in world.validators:
        pick(world.project, validator, lambda _external_id: "best")
    base.refresh_from_db()
    assert (base.status, base.gold_decision.outcome) == ("gold", "gold")
    concepts_import(
        project=world.project, data=b"category,concept\nethics,career and livelihood\n", filename="units.csv"
    )
    # W1, who wrote the base prompt, is given its unit again to write a variant.
    concept = Concept.objects.get(project=world.project, name="career and livelihood")
    Assignment.objects.create(project=world.project, user=world.writer, kind="author", concept=concept)
    writer = world.writer
    assert set(ErrorType.objects.filter(project=world.project).values_list("code", flat=True)) >= {
        "reword_culture",
        "split_merge",
        "rephrase_response",
        "add_variant",
    }

    page = new_page()
    log_in(page, writer.username)
    page.goto("/p/kalahi-b/author/")
    page.wait_for_url(re.compile(r"/p/kalahi-b/author/\d+/$"))
    expect(page.locator("#unit-meta")).to_contain_text("career and livelihood")
    expect(page.locator("#id_user")).to_be_focused()
    assembled = page.locator("#assembled-prompt")
    page.keyboard.type(PARTS["user"])
    expect(assembled).to_have_text(PARTS["user"])
    # Choosing the base prompt fills the empty shared parts (the typed user stays as typed).
    expect(page.locator("#id_prompt_id option")).to_have_count(2)
    page.select_option("#id_prompt_id", "01010001")
    expect(page.locator("#id_context")).to_have_value(base_parts["context"])
    expect(page.locator("#id_instruction")).to_have_value(base_parts["instruction"])
    page.fill("#id_situation", PARTS["situation"])
    expected_prompt = "\n".join([PARTS["user"], base_parts["context"], PARTS["situation"], base_parts["instruction"]])
    expect(assembled).to_have_text(expected_prompt)  # live, as the server will assemble it
    for number, text in enumerate(RELEVANT, start=1):
        page.fill(f"#id_relevant_{number}", text)
    for number, text in enumerate(IRRELEVANT, start=1):
        page.fill(f"#id_irrelevant_{number}", text)
    page.locator("#relevance-help").click()  # outside the text fields: digit keys pick the best
    page.keyboard.press(str(BEST + 1))
    expect(page.locator(f"#id_best_{BEST + 1}")).to_be_checked()
    page.locator("#id_irrelevant_3").click()
    page.keyboard.press("Control+Enter")
    page.wait_for_url(re.compile(r"/p/kalahi-b/author/(\?saved=1)?$"))

    item = Item.objects.exclude(pk=base.pk).get(project=world.project)
    payload = item.current_version.payload
    assert item.status == "submitted"
    assert payload["prompt"] == expected_prompt
    assert (payload["prompt_id"], payload["variation_id"], payload["situation"]) == (
        "01010001",
        "",
        "Hindi ako mayaman.",
    )
    assert (payload["relevant"], payload["irrelevant"], payload["best"]) == (RELEVANT, IRRELEVANT, BEST)

    # The reviewer approves it on the QC review page.
    reviewer = new_page()
    log_in(reviewer, world.reviewer.username)
    reviewer.goto("/p/kalahi-b/review/")
    expect(reviewer.locator("#queue-total")).to_have_text("1")
    reviewer.click("#review-next")
    reviewer.wait_for_url(f"**/p/kalahi-b/review/{item.pk}/")
    expect(reviewer.locator("main")).to_contain_text("Hindi ako mayaman.")
    reviewer.check("input[name=decision][value=approve]")
    reviewer.locator("#id_feedback").press("Control+Enter")
    reviewer.wait_for_url("**/p/kalahi-b/review/")
    expect(reviewer.locator(".messages")).to_contain_text("Approved.")
    item.refresh_from_db()
    assert item.status == "approved"
    judging_plan(project=world.project)
    validators = [a.user for a in Assignment.objects.filter(target_item=item, kind="validate").order_by("user_id")]
    assert validators == world.validators and writer not in validators

    admin = new_page()
    log_in(admin, world.admin.username)
    admin.goto("/p/kalahi-b/report/")
    expect(admin.locator("#cp-human-baseline")).to_have_text("100.0%")  # the base prompt's 3 picks

    orders = [_pick(new_page, validators[0], RELEVANT[BEST])]
    admin.goto("/p/kalahi-b/report/")
    expect(admin.locator("#cp-human-baseline")).to_have_text("100.0%")
    orders.append(_pick(new_page, validators[1], IRRELEVANT[1]))
    orders.append(_pick(new_page, validators[2], RELEVANT[BEST]))
    admin.goto("/p/kalahi-b/report/")
    # V2 chose 1 of 2 best: the mean of 100%, 50% and 100%.
    expect(admin.locator("#cp-human-baseline")).to_have_text("83.3%")
    expect(admin.locator("#cp-best-2-of-3")).to_have_text("100.0%")
    expect(admin.locator("#cp-split li")).to_have_count(1)
    item.refresh_from_db()
    assert item.gold_decision.outcome == "gold" and item.gold_decision.details["best_votes"] == 2
    assert all(sorted(o) == sorted([RELEVANT[BEST], *IRRELEVANT]) for o in orders)
