"""An NLI writer whose reviewer sent back one hypothesis of six: the page marks that one with the
feedback, shows the five approved ones read-only, and the revision goes back to review alone."""

import re

import pytest
from playwright.sync_api import expect

from annotation.models import Item
from annotation.services.items import unit_submit
from qc.services import review_approve, review_request_revision
from tests.annotation.task_types.nli.world import PREMISES, SIX, make_nli_project, writing_assignment
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.flow, pytest.mark.django_db(transaction=True)]

FEEDBACK = "Pakai angka lain, bukan 10."
REVISED = "Gunungsitoli berjarak 500 mil laut dari Sibolga."


def test_the_writer_sees_the_sent_back_hypothesis_with_its_feedback_and_revises_it(new_page, transactional_db):
    world = make_nli_project(slug="nli", premises=PREMISES[:1])
    assignment = writing_assignment(world)
    for item in unit_submit(assignment_id=assignment.pk, user=assignment.user, data={"items": SIX}):
        if item.slot == 3:
            review_request_revision(
                item_id=item.pk,
                version_id=item.current_version_id,
                reviewer=world.reviewer,
                feedback=FEEDBACK,
                error_type_codes=["wrong_label"],
            )
        else:
            review_approve(item_id=item.pk, version_id=item.current_version_id, reviewer=world.reviewer)

    page = new_page()
    log_in(page, assignment.user.username)
    page.goto("/p/nli/author/")
    page.wait_for_url(f"/p/nli/author/{assignment.pk}/")  # sent-back work comes first
    expect(page.locator("fieldset.sent-back")).to_have_count(1)
    expect(page.locator("#row-4")).to_have_class("nli-row sent-back")
    expect(page.locator("#row-4-feedback")).to_have_text(FEEDBACK)
    expect(page.locator("#row-4-review .tag")).to_have_text("Wrong label")
    expect(page.locator("fieldset.frozen")).to_have_count(5)
    expect(page.locator("#frozen-hypothesis-1")).to_have_text(SIX[0]["hypothesis"])
    expect(page.locator("fieldset.frozen textarea, fieldset.frozen select")).to_have_count(0)

    page.locator("#id_hypothesis_4").fill(REVISED)
    page.locator("#id_hypothesis_4").press("Control+Enter")
    page.wait_for_url(re.compile(r"/p/nli/author/(\?saved=1)?$"))

    rows = [
        (i.slot, i.status, i.current_version.number, i.current_version.payload["hypothesis"])
        for i in Item.objects.filter(assignment=assignment).select_related("current_version").order_by("slot")
    ]
    assert rows == [
        (slot, "submitted", 2, REVISED) if slot == 3 else (slot, "approved", 1, SIX[slot]["hypothesis"])
        for slot in range(6)
    ]
