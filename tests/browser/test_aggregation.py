"""An admin reads the aggregation model's last fit: an item's posterior bars and its disagreement with the
published rule, each annotator's ability with its interval, and `label_posterior` in the exported rows.

The project is made so that a real Dawid-Skene fit disagrees with the majority on one item: two judges
answer E on every item while the three others answer the item's label (A-D), so the model learns that
their E says nothing; on the last item those two outvote one good judge (the rule: E, 2 of 3), and the
model follows the good judge (A).
"""

import json

import pytest
from playwright.sync_api import expect

from annotation.aggregation.store import aggregation_refit
from annotation.models import AggregatedItem
from annotation.services.projects import project_update
from qc.gold import gold_recompute
from tests.browser.conftest import log_in
from tests.factories import make_csqa_project
from tests.qc.helpers import add_judgment, make_item

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# (good judges, spammers) per item, and the item's label; the spammers always answer E.
TRAINING = [
    ((1, 2), (4,), "A"),
    ((2, 3), (5,), "B"),
    ((1, 3), (4,), "C"),
    ((1, 2), (5,), "D"),
    ((2, 3), (4,), "A"),
    ((1, 3), (5,), "B"),
    ((1, 2), (4,), "C"),
    ((2, 3), (5,), "D"),
]


def _project():
    world = make_csqa_project(slug="agg", annotators=6, categories=1, concepts_per_category=1)
    project_update(project=world.project, answerers_per_item=3)
    author, judges = world.annotators[0], world.annotators
    items = []
    for n, (good, spammers, label) in enumerate(TRAINING):
        item = make_item(world.project, author, category="cat0", concept="kunjung", question=f"Soal {n}?")
        for j in good:
            add_judgment(item, judges[j], label)
        for j in spammers:
            add_judgment(item, judges[j], "E")
        items.append(item)
    outvoted = make_item(world.project, author, category="cat0", concept="kunjung", question="Soal terakhir?")
    add_judgment(outvoted, judges[1], "A")
    add_judgment(outvoted, judges[4], "E")
    add_judgment(outvoted, judges[5], "E")
    items.append(outvoted)
    gold_recompute(item_ids=[item.pk for item in items])
    aggregation_refit(project=world.project)
    return world, items


def _export_rows(page, slug: str) -> list[dict]:
    """Start a JSON Lines export on the export page and read its file through the download link."""
    page.goto(f"/p/{slug}/export/")
    page.click("#export-jsonl")
    link = page.locator("#export-runs tbody tr").first.locator("a[download][href$='.jsonl']")
    expect(link).to_have_count(1, timeout=20_000)
    with page.expect_download() as info:
        link.click()
    with open(info.value.path(), encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def test_admin_reads_the_posterior_the_disagreement_the_abilities_and_the_exported_posterior(
    new_page, transactional_db
):
    world, items = _project()
    outvoted = items[-1]
    fitted = {row.item_id: (row.label, row.rule_label, row.agrees) for row in AggregatedItem.objects.all()}
    assert fitted[outvoted.pk] == ("A", "E", False)
    assert [fitted[item.pk] for item in items[:-1]] == [(label, label, True) for _, _, label in TRAINING]

    page = new_page()
    log_in(page, world.admin.username)
    page.goto("/p/agg/")
    page.click("#count-gold >> xpath=.. >> th a")
    page.click(f"a:text-is('{outvoted.pk}')")

    page.wait_for_url(f"**/p/agg/items/{outvoted.pk}/")
    expect(page.locator("#aggregation-disagrees")).to_have_text(
        "The model and the published rule disagree on this item."
    )
    expect(page.locator("#aggregation-rule-label")).to_contain_text("E")
    bars = page.locator("#aggregation-posterior .progress-row")
    expect(bars).to_have_count(5)
    expect(page.locator("#aggregation-posterior .progress-row.current")).to_have_attribute("data-label", "A")
    expect(page.locator("#aggregation-posterior .progress-row[data-label='A'] .num")).to_have_text("0.927")
    expect(page.locator("#aggregation-posterior .progress-row[data-label='E'] .num")).to_have_text("0.073")
    expect(page.locator("#aggregation-posterior progress[aria-label='A']")).to_have_attribute("value", "0.9274")

    page.goto("/p/agg/dashboard/")
    expect(page.locator("#ability-heading")).to_have_text("Estimated ability (95% interval)")
    good, spammer = world.annotators[1], world.annotators[4]
    expect(page.locator(f"#ability-{good.pk}")).to_have_text("0.98 [0.58, 1.00]")
    expect(page.locator(f"#ability-{spammer.pk}")).to_have_text("0.04 [0.00, 0.48]")

    rows = _export_rows(page, "agg")
    assert len(rows) == len(items)
    assert all(abs(sum(row["label_posterior"].values()) - 1.0) <= 1e-5 for row in rows)
    by_id = {row["id"]: row for row in rows}
    assert by_id[f"agg-{outvoted.pk}"]["label_posterior"] == {
        "A": 0.927405,
        "B": 0.0,
        "C": 0.0,
        "D": 0.0,
        "E": 0.072595,
    }
