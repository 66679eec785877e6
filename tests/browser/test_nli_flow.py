"""NLI as people click through it: a writer writes six hypotheses with the keyboard, two validators
disagree, the pair goes to round 2, a third validator settles it, and the labels-by-round page and the
report page show it."""

import re

import pytest
from playwright.sync_api import expect

from annotation.models import Assignment, Item, Membership
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.judging import judging_plan
from qc.models import GoldDecision
from tests.annotation.task_types.nli.world import PREMISES, SIX, make_nli_project
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.flow, pytest.mark.django_db(transaction=True)]

KEYS = {"entailment": "e", "neutral": "n", "contradiction": "c"}
LABELS = {key: label for label, key in KEYS.items()}


def _validate(new_page, assignment, key):
    page = new_page()
    log_in(page, assignment.user.username)
    page.goto(f"/p/nli/judge/{assignment.pk}/")
    expect(page.locator("#premise")).to_contain_text("Gunungsitoli")
    # the validator sees premise and hypothesis, never the author's label
    expect(page.locator("#answer-form")).not_to_contain_text("entailment (author)")
    page.keyboard.press(key)
    expect(
        page.locator(f"#label-{ {'e': 'entailment', 'n': 'neutral', 'c': 'contradiction'}[key] } input")
    ).to_be_checked()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert Assignment.objects.get(pk=assignment.pk).status == "done"
    return page


def test_write_validate_disagree_settle(new_page, transactional_db):
    world = make_nli_project(slug="nli", annotators=4, qc_review=False, premises=PREMISES[:1])
    world.project.settings = {**world.project.settings, "validation_percent": 100}
    world.project.save()
    assignment_plan_authoring(project=world.project)
    writer = Assignment.objects.get(project=world.project, kind="author").user

    # The writer writes the six hypotheses with the keyboard only: type, Tab, label key, Tab, ...
    page = new_page()
    log_in(page, writer.username)
    page.goto("/p/nli/author/")
    page.wait_for_url(re.compile(r"/p/nli/author/\d+/$"))
    expect(page.locator("#premise")).to_contain_text("Pulau Nias")
    expect(page.locator("#nli-instruction")).to_contain_text("two for each label")
    expect(page.locator("#id_hypothesis_1")).to_be_focused()
    for number, row in enumerate(SIX, start=1):
        page.keyboard.type(row["hypothesis"])
        page.keyboard.press("Tab")
        expect(page.locator(f"#id_label_{number}")).to_be_focused()
        page.keyboard.press(KEYS[row["label"]])
        expect(page.locator(f"#id_label_{number}")).to_have_value(row["label"])
        page.keyboard.press("Tab")
    page.keyboard.press("Control+Enter")
    page.wait_for_url(re.compile(r"/p/nli/author/(\?saved=1)?$"))
    items = list(Item.objects.filter(project=world.project).order_by("slot"))
    assert [(i.slot, i.status, i.current_version.payload["label"]) for i in items] == [
        (slot, "approved", row["label"]) for slot, row in enumerate(SIX)
    ]

    judging_plan(project=world.project)
    pair = items[0]  # the author chose entailment
    first, second = Assignment.objects.filter(target_item=pair, kind="validate", round=1).order_by("id")
    _validate(new_page, first, "e")
    _validate(new_page, second, "n")
    pair.refresh_from_db()
    assert pair.judging_round == 2
    third = Assignment.objects.get(target_item=pair, kind="validate", round=2)
    assert third.user_id not in {first.user_id, second.user_id, writer.pk}
    _validate(new_page, third, "e")

    decision = GoldDecision.objects.get(item=pair)
    assert (decision.outcome, decision.details["label"], decision.details["round"]) == ("gold", "entailment", 2)

    # The labels-by-round page shows it to the project's admin.
    admin = new_page()
    log_in(admin, world.admin.username)
    admin.goto("/p/nli/rounds/")
    row = admin.locator(f"#round-row-{pair.pk}")
    expect(row.locator(".author-value")).to_have_text("entailment")
    expect(row.locator(".round-1")).to_have_text("entailment, neutral")
    expect(row.locator(".round-2")).to_have_text("entailment")
    expect(row.locator(".outcome")).to_have_text("Gold")
    expect(row.locator(".gold")).to_have_text("entailment")

    # The report page gives the same story in IndoNLI's figures. Every pair was sent to validation
    # (100%): six pairs reached round 1, one (the contested one) round 2, none round 3; one has gold,
    # five still wait for their round-1 labels.
    admin.goto("/p/nli/report/")
    expect(admin.locator("#nli-rounds")).to_contain_text("Over the 6 validated pairs of 6.")
    for number, pairs, gold, share in [("1", "6", "0", "0.0%"), ("2", "1", "1", "16.7%"), ("3", "0", "1", "16.7%")]:
        cells = admin.locator(f"#nli-round-{number} td")
        expect(cells.nth(0)).to_have_text(pairs)
        expect(cells.nth(1)).to_have_text(gold)
        expect(cells.nth(2)).to_have_text(share)
    expect(admin.locator("#nli-outcomes")).to_have_text("1 / 0 / 5")
    # authoring + 2 + 1 labels for the settled pair (4), authoring only for the five waiting (5 x 1)
    expect(admin.locator("#nli-annotations")).to_have_text("9")
    expect(admin.locator("#nli-annotations-mnli")).to_have_text("30")
    expect(admin.locator("#nli-saving")).to_have_text("70.0%")
    expect(admin.locator("#nli-with-gold")).to_have_text("1 (16.7%)")
    expect(admin.locator("#nli-agreement-2 td").nth(0)).to_have_text("1")  # one pair went to round 2
    # the gold pair is the only one in a split; the five waiting ones are in none
    expect(admin.locator("#nli-corpus tbody tr")).to_have_count(1)
    expect(admin.locator("#nli-corpus")).to_contain_text("Pairs still in validation (5)")
    codes = dict(Membership.objects.filter(project=world.project).values_list("user_id", "code"))
    writer_row = admin.locator("#nli-writer-0")
    expect(writer_row.locator("th")).to_have_text(codes[writer.pk])
    expect(writer_row.locator("td")).to_have_text(["1", "6", "6", "1", "0", "100.0%", re.compile(r"\d+ s")])
    # one label each: the round-1 validators who chose entailment and neutral, the round-2 one entailment
    expected = {
        codes[first.user_id]: ["1", "1", "0", "0", "100.0%", "100.0%"],
        codes[second.user_id]: ["1", "1", "0", "0", "0.0%", "0.0%"],
        codes[third.user_id]: ["1", "0", "1", "0", "100.0%", "100.0%"],
    }
    rows = admin.locator("#nli-validators tbody tr")
    expect(rows).to_have_count(3)
    for index, code in enumerate(sorted(expected)):
        expect(rows.nth(index).locator("th")).to_have_text(code)
        # labels, rounds 1-3, = gold, = author's (the time per label, last, varies)
        expect(rows.nth(index).locator("td:nth-child(-n+7)")).to_have_text(expected[code])
