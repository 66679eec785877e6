"""Work is never lost, in a browser: the authoring form autosaves, comes back after leaving, and skips."""

import re

import pytest
from playwright.sync_api import expect

from annotation.models import Assignment, Judgment, Skip, WorkDraft
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.judging import judging_plan
from tests.annotation.task_types.csqa.world import make_world
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD
from tests.factories import make_csqa_project

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

QUESTION = "Kapan orang biasanya makan ketupat bersama keluarga?"


@pytest.fixture
def author_page(new_page, transactional_db):
    csqa = make_csqa_project(slug="auto", annotators=2, categories=1, concepts_per_category=3)
    assignment_plan_authoring(project=csqa.project)
    page = new_page()
    dialogs = []

    def on_dialog(dialog):
        dialogs.append(dialog.type)
        dialog.accept()

    page.on("dialog", on_dialog)
    log_in(page, csqa.annotators[0].username)
    page.goto("/p/auto/author/")
    page.wait_for_url(re.compile(r"/p/auto/author/\d+/$"))
    return page, dialogs, csqa


def test_a_typed_question_is_there_after_leaving_and_coming_back(author_page):
    page, dialogs, _ = author_page
    url = page.url

    page.fill("#id_question", QUESTION)
    expect(page.locator("#autosave-status")).to_have_text(re.compile(r"^Draft saved at \d\d:\d\d$"), timeout=8000)
    page.goto("/")
    page.goto(url)

    expect(page.locator("#id_question")).to_have_value(QUESTION)
    expect(page.locator("#autosave-status")).to_have_text(re.compile(r"^Draft saved at \d\d:\d\d$"))
    assert dialogs == []  # saved: leaving asked nothing


def test_leaving_at_once_warns_and_still_keeps_the_text(author_page):
    page, dialogs, _ = author_page
    url = page.url
    page.click("#id_question")
    page.keyboard.type("Siapa yang ")

    # Left before the autosave's delay: the page asks first, then sends the text as it goes.
    page.goto("/")
    assert dialogs == ["beforeunload"]
    # The beacon may reach the server just after the next page: wait for it rather than race it.
    for _ in range(20):
        if WorkDraft.objects.filter(fields__question="Siapa yang ").exists():
            break
        page.wait_for_timeout(250)
    page.goto(url)

    expect(page.locator("#id_question")).to_have_value("Siapa yang ")


def test_a_normal_submit_leaves_without_a_warning(author_page):
    page, dialogs, _ = author_page
    concept = page.inner_text("h1.concept")
    page.fill("#id_question", f"Kapan orang biasanya makan {concept} bersama keluarga?")
    for label, text in zip(
        "abcde", ["Saat Lebaran", "Tengah malam", "Saat hujan", "Hari Senin", "Bulan puasa"], strict=True
    ):
        page.fill(f"#id_choice_{label}", text)
    page.check("#id_answer_0")
    first = page.url

    page.click("#submit-item")
    page.wait_for_url(lambda u: u != first)

    assert dialogs == []
    assert not WorkDraft.objects.exists()


def test_skip_with_a_reason_opens_the_next_one_and_the_admin_sees_it(author_page, new_page):
    page, dialogs, csqa = author_page
    first = page.url
    skipped = Assignment.objects.get(pk=int(first.rstrip("/").rsplit("/", 1)[1]))
    page.fill("#id_question", "Setengah ditulis")  # unsaved text: the skip discards it on purpose

    page.click("#skip-box summary")
    page.check("#id_skip_reason_0")
    page.fill("#id_skip_note", "Belum pernah dengar")
    page.click("#skip-submit")
    page.wait_for_url(lambda u: u != first and re.search(r"/p/auto/author/\d+/$", u) is not None)

    assert dialogs == []
    expect(page.locator("#messages")).to_contain_text("Skipped. Someone else will get it")
    skip = Skip.objects.get()
    assert (skip.assignment_id, skip.reason, skip.note) == (skipped.pk, "unknown_concept", "Belum pernah dengar")
    other = csqa.annotators[1]
    assert Assignment.objects.get(concept=skipped.concept, user=other).status in ("pending", "active", "done")
    admin = new_page()
    log_in(admin, csqa.admin.username)
    admin.goto("/p/auto/")
    admin.click("#open-skips")
    expect(admin.locator(f"#skip-{skip.pk}")).to_contain_text("I don't know this concept")
    expect(admin.locator(f"#skip-{skip.pk}")).to_contain_text("Belum pernah dengar")


def test_a_judge_goes_back_to_the_last_answer_changes_it_and_skips_the_next(new_page, transactional_db):
    world = make_world(slug="undo")
    judging_plan(project=world.project)
    judge = world.people[1]
    judge.set_password(PASSWORD)
    judge.save(update_fields=["password"])
    first, second, third = Assignment.objects.filter(user=judge, kind="answer").order_by("position", "id")[:3]
    page = new_page()
    log_in(page, judge.username)
    page.goto("/p/undo/answer/")
    page.wait_for_url(f"**/p/undo/answer/{first.pk}/")

    page.check("#id_answer_1")  # B
    page.click("#submit-answer")
    page.wait_for_url(f"**/p/undo/answer/{second.pk}/")
    page.click("#previous-answer")
    page.wait_for_url(f"**/p/undo/answer/{first.pk}/")
    expect(page.locator("#id_answer_1")).to_be_checked()
    page.check("#id_answer_3")  # D
    page.click("#submit-answer")
    page.wait_for_url(f"**/p/undo/answer/{second.pk}/")
    page.click("#skip-box summary")
    page.check("#id_skip_reason_1")
    page.click("#skip-submit")
    page.wait_for_url(f"**/p/undo/answer/{third.pk}/")

    assert list(Judgment.objects.filter(user=judge).values_list("value", flat=True)) == [{"answer": "D"}]
    assert (Skip.objects.get().assignment_id, Skip.objects.get().reason) == (second.pk, "unsuitable")
