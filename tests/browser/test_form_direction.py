"""An Arabic (right-to-left) project seen with an English interface: on the author and answer pages the
labels and buttons follow the interface (left to right), the text a person writes or reads of the item
follows the project's language (right to left), by computed `direction`."""

import re

import pytest

from annotation.models import Assignment
from annotation.services.judging import judging_plan
from tests.annotation.task_types.sentence_completion.world import authored_world, make_world, review_all
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _direction(page, selector: str) -> str:
    return page.eval_on_selector(selector, "el => getComputedStyle(el).direction")


def test_the_author_page_keeps_english_controls_ltr_and_the_item_fields_rtl(new_page):
    world = make_world(slug="acf", password=PASSWORD)
    author, _ = world.authors["Egypt"]
    page = new_page()
    log_in(page, author.username)

    page.goto("/p/acf/author/")
    page.wait_for_url(re.compile(r"/p/acf/author/\d+/$"))

    assert page.evaluate("document.documentElement.lang") == "en"
    controls = ("#author-form", "#completion-author", "#field-premise label", "#field-answer legend", "#submit-item")
    assert {control: _direction(page, control) for control in controls} == dict.fromkeys(controls, "ltr")
    fields = ("#id_premise", "#id_completion_a", "#id_completion_b", "#id_completion_c", "#id_justification")
    assert {field: _direction(page, field) for field in fields} == dict.fromkeys(fields, "rtl")
    assert page.get_attribute("#id_premise", "lang") == "ar"


def test_the_answer_page_keeps_english_controls_ltr_and_the_item_text_rtl(new_page):
    world = authored_world(slug="acg", password=PASSWORD)
    review_all(world)
    judging_plan(project=world.project)
    assignment = Assignment.objects.filter(project=world.project, kind="answer").order_by("pk").first()
    page = new_page()
    log_in(page, assignment.user.username)

    page.goto(f"/p/acg/judge/{assignment.pk}/")

    assert page.evaluate("document.documentElement.lang") == "en"
    controls = ("#answer-form", "#completion-peer", "#field-choice legend", "#field-comment label", "#submit-answer")
    assert {control: _direction(page, control) for control in controls} == dict.fromkeys(controls, "ltr")
    texts = ("#question", "#option-A .answer-text", "#id_comment")
    assert {text: _direction(page, text) for text in texts} == dict.fromkeys(texts, "rtl")
    assert page.get_attribute("#id_comment", "lang") == "ar"
