"""An admin overrides a gold decision on the item page, and the gold export follows.

Two judged items: one gold, one excluded (4 of 5 judges flag the question ambiguous). The export has
the gold one only; the admin reads the exclusion's reason on the item page, overrides it to gold with
a note, sees the override in the audit list, and the next export (downloaded through the page's
link) holds both items.
"""

import json

import pytest
from playwright.sync_api import expect

from qc.gold import gold_recompute
from tests.browser.conftest import log_in
from tests.factories import make_csqa_project
from tests.qc.helpers import add_judgment, make_item

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REASON = "Question flagged ambiguous by 4 of 5 answerers (more than the threshold of 3)."


def _export_ids(page, slug: str) -> list[str]:
    """Start a JSON Lines export on the export page and read its file through the download link."""
    page.goto(f"/p/{slug}/export/")
    page.click("#export-jsonl")
    link = page.locator("#export-runs tbody tr").first.locator("a[download][href$='.jsonl']")
    expect(link).to_have_count(1, timeout=20_000)
    with page.expect_download() as info:
        link.click()
    with open(info.value.path(), encoding="utf-8") as handle:
        return [json.loads(line)["id"] for line in handle if line.strip()]


def test_admin_overrides_an_exclusion_and_the_export_follows(new_page, transactional_db):
    world = make_csqa_project(slug="gov", annotators=6, categories=1, concepts_per_category=1)
    author, judges = world.annotators[0], world.annotators[1:]
    kept = make_item(world.project, author, category="cat0", concept="kunjung", question="Kapan mudik?")
    flagged = make_item(world.project, author, category="cat0", concept="kunjung", question="Apa itu?")
    for i, judge in enumerate(judges):
        add_judgment(kept, judge, "A")
        add_judgment(flagged, judge, "A", question_ambiguous=i < 4, comment="kabur" if i == 0 else "")
    gold_recompute(item_ids=[kept.pk, flagged.pk])

    page = new_page()
    log_in(page, world.admin.username)
    assert _export_ids(page, "gov") == [f"gov-{kept.pk}"]

    page.goto(f"/p/gov/items/{flagged.pk}/")
    expect(page.locator("#judgments tbody tr.judgment")).to_have_count(5)
    expect(page.locator("#gold-reason")).to_have_text(REASON)
    expect(page.locator("#majority")).to_have_text("answer: A (5 of 5)")
    page.select_option("#override-outcome", "gold")
    page.fill("#override-note", "Flags misread the regional word; the question is clear.")
    page.click("#override-submit")

    expect(page.locator("#gold-outcome .badge")).to_have_text("Gold")
    expect(page.locator("#gold-overridden")).to_be_visible()
    expect(page.locator("#item-status")).to_have_text("Gold")
    override = page.locator("#gold-overrides li.override-override")
    expect(override).to_contain_text("excluded → gold")
    expect(override).to_contain_text("Flags misread the regional word; the question is clear.")

    assert _export_ids(page, "gov") == [f"gov-{kept.pk}", f"gov-{flagged.pk}"]

    # Revert: the computed exclusion is back, and so is the export without the item.
    page.goto(f"/p/gov/items/{flagged.pk}/")
    page.click("#revert-submit")
    expect(page.locator("#gold-reason")).to_have_text(REASON)
    expect(page.locator("#gold-overrides li")).to_have_count(2)
    assert _export_ids(page, "gov") == [f"gov-{kept.pk}"]
