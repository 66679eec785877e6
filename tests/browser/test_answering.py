"""Cross-answering as an annotator does it, keyboard only, and the admin's report moving with it."""

import re

import pytest
from playwright.sync_api import expect

from annotation.models import Assignment, Judgment
from annotation.services.judging import judging_plan
from tests.annotation.task_types.csqa.world import make_world
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.flow, pytest.mark.django_db(transaction=True)]

KEYS = {"A": "1", "B": "2", "C": "3", "D": "4", "E": "5"}


def report_figures(page, slug, answerer_row, creator_col, creator_row):
    page.goto(f"/p/{slug}/reports/")
    return {
        "answers": page.inner_text("#report-judgments"),
        "conflict": page.inner_text(f"#conflict-matrix-{answerer_row}-{creator_col}"),
        "conflicts_total": page.inner_text("#conflict-matrix-total"),
        "uncertain": page.inner_text(f"#annotator-{answerer_row} .uncertain"),
        "question_flags_given": page.inner_text(f"#annotator-{answerer_row} .question-flags-given"),
        "option_flags_given": page.inner_text(f"#annotator-{answerer_row} .option-flags-given"),
        "option_flags_received": page.inner_text(f"#annotator-{creator_row} .option-flags-received"),
    }


def test_annotator_answers_with_the_keyboard_and_the_report_updates(new_page, transactional_db):
    world = make_world(slug="brw")
    judging_plan(project=world.project)
    w2 = world.people[1]
    for user in (world.admin, w2):
        user.set_password(PASSWORD)
        user.save(update_fields=["password"])
    first, second = Assignment.objects.filter(user=w2, kind="answer").order_by("position", "id")[:2]
    items = {item.pk: (k, item) for k, item in enumerate(world.items)}
    author1, _ = items[first.target_item_id]
    author2, _ = items[second.target_item_id]
    truth1, truth2 = "ABCD"[author1], "ABCD"[author2]
    wrong = "E"  # no author's answer is E: a conflict with the creator

    admin = new_page()
    log_in(admin, world.admin.username)
    assert report_figures(admin, "brw", 1, author1, author1) == {
        "answers": "0",
        "conflict": "0",
        "conflicts_total": "0",
        "uncertain": "0",
        "question_flags_given": "0",
        "option_flags_given": "0",
        "option_flags_received": "0",
    }

    page = new_page()
    log_in(page, w2.username)
    page.goto("/p/brw/answer/")
    page.wait_for_url(f"**/p/brw/answer/{first.pk}/")
    expect(page.locator("#answer-progress-count")).to_have_text("0 of 3")
    expect(page.locator("#option-E .answer-keys")).to_have_text("5 / E")

    # First question: digit key selects E, U marks "uncertain", Shift+2 flags option B, Enter submits.
    page.keyboard.press(KEYS[wrong])
    page.keyboard.press("u")
    page.keyboard.press("Shift+Digit2")
    expect(page.locator(f"#id_answer_{'ABCDE'.index(wrong)}")).to_be_checked()
    expect(page.locator("#id_uncertain")).to_be_checked()
    expect(page.locator("#field-flags .when-uncertain")).to_be_visible()
    expect(page.locator("#id_option_ambiguous_1")).to_be_checked()
    expect(page.locator("#id_option_ambiguous_0")).not_to_be_checked()
    page.keyboard.press("Enter")

    # The next question opens by itself; a letter key selects, Q flags the question, Enter submits.
    page.wait_for_url(f"**/p/brw/answer/{second.pk}/")
    expect(page.locator(".message.success")).to_have_text("Answer saved. Here is the next question.")
    expect(page.locator("#answer-progress-count")).to_have_text("1 of 3")
    expect(page.locator("#id_uncertain")).not_to_be_checked()
    page.keyboard.press(truth2.lower())
    page.keyboard.press("q")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/p/brw/answer/\d+/$"))
    expect(page.locator("#answer-progress-count")).to_have_text("2 of 3")

    assert list(
        Judgment.objects.filter(user=w2).order_by("item_id").values_list("item_id", "value", "flags", "comment")
    ) == sorted(
        [
            (
                first.target_item_id,
                {"answer": wrong},
                {
                    "uncertain": True,
                    "question_ambiguous": False,
                    "option_ambiguous": [False, True, False, False, False],
                },
                "",
            ),
            (
                second.target_item_id,
                {"answer": truth2},
                {"uncertain": False, "question_ambiguous": True, "option_ambiguous": [False] * 5},
                "",
            ),
        ]
    )
    assert truth1 != wrong
    # W2 is row 1; the creator of the first item gets the conflict and the option flag.
    assert report_figures(admin, "brw", 1, author1, author1) == {
        "answers": "2",
        "conflict": "1",
        "conflicts_total": "1",
        "uncertain": "1",
        "question_flags_given": "1",
        "option_flags_given": "1",
        "option_flags_received": "1",
    }
