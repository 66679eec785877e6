"""Adjudication on the item page, gold overrides (kept, audited, reversible) and the gold status.

A csqa project of 6 annotators, 5 judges per item, ambiguity threshold 3: one item everybody answers
"A" (gold), one with 4 question-ambiguous flags (excluded), one with 2 judgments (pending).
"""

from types import SimpleNamespace

import pytest
from django.urls import reverse

from annotation.errors import InvalidInput, NotAllowed
from annotation.models import Item, Membership
from annotation.selectors.items import item_list_page
from annotation.services.projects import membership_add
from qc.adjudication import item_adjudication
from qc.exports import gold_records
from qc.gold import gold_recompute, gold_recompute_project
from qc.models import GoldDecision, GoldOverride
from qc.overrides import gold_override, gold_override_revert
from qc.selectors import dashboard_stats
from tests.qc.helpers import add_judgment, make_item, make_project, make_user

pytestmark = pytest.mark.django_db

EXCLUDED_REASON = "Question flagged ambiguous by 4 of 5 answerers (more than the threshold of 3)."


def _world(*, gold_items: int = 1):
    project, people = make_project(slug="adj", annotators=6, m=5, threshold=3)
    admin = project.memberships.get(role=Membership.Role.ADMIN).user
    reviewer = make_user("adj-reviewer")
    membership_add(project=project, user=reviewer, role=Membership.Role.REVIEWER)
    author, judges = people[0], people[1:]
    golds = []
    for n in range(gold_items):
        item = make_item(project, author, answer="A", question=f"Gold {n}?")
        for i, judge in enumerate(judges):
            add_judgment(item, judge, "A" if i != 4 else "B", comment="clear" if i == 0 else "")
        golds.append(item)
    excluded = make_item(project, author, answer="A", question="Ambiguous?")
    for i, judge in enumerate(judges):
        add_judgment(excluded, judge, "A", question_ambiguous=i < 4)
    pending = make_item(project, author, answer="A", question="Pending?")
    for judge in judges[:2]:
        add_judgment(pending, judge, "C")
    gold_recompute(item_ids=[i.pk for i in [*golds, excluded, pending]])
    return SimpleNamespace(
        project=project,
        admin=admin,
        reviewer=reviewer,
        author=author,
        judges=judges,
        gold=golds[0],
        golds=golds,
        excluded=excluded,
        pending=pending,
    )


def _state(item: Item):
    item.refresh_from_db()
    decision = GoldDecision.objects.get(item=item)
    return item.status, item.status_reason, decision.outcome, decision.reason, decision.override_id is not None


def test_adjudication_lists_every_judgment_the_majority_and_the_decision():
    w = _world()

    gold = item_adjudication(item=w.gold)
    excluded = item_adjudication(item=w.excluded)
    pending = item_adjudication(item=w.pending)

    assert [(j.judge, j.round, j.answer, j.flags, j.comment) for j in gold.judgments] == [
        ("adj-w2", 1, "answer: A", (), "clear"),
        ("adj-w3", 1, "answer: A", (), ""),
        ("adj-w4", 1, "answer: A", (), ""),
        ("adj-w5", 1, "answer: A", (), ""),
        ("adj-w6", 1, "answer: B", (), ""),
    ]
    assert (gold.majority, gold.majority_count, gold.decision.outcome, gold.decision.reason) == (
        "answer: A",
        4,
        "gold",
        "",
    )
    assert dict(gold.details)["majority"] == "A"
    assert [j.flags for j in excluded.judgments] == [("question ambiguous",)] * 4 + [()]
    assert (excluded.decision.outcome, excluded.decision.reason) == ("excluded", EXCLUDED_REASON)
    # Two judgments of five: pending; "C" twice is the majority of what there is.
    assert (pending.majority, pending.majority_count, pending.decision.outcome) == ("answer: C", 2, "pending")
    assert gold.overrides == () and [v for v, _ in gold.outcomes] == ["gold", "excluded", "no_gold"]


def test_item_page_shows_adjudication_to_reviewers_and_admins_but_not_the_author(client, django_assert_max_num_queries):
    w = _world()
    url = reverse("item_detail", args=[w.project.slug, w.excluded.pk])

    client.force_login(w.reviewer)
    with django_assert_max_num_queries(20):
        html = client.get(url).content.decode()
    assert 'id="adjudication"' in html
    assert html.count('<tr class="judgment">') == 5
    assert '<dd id="gold-reason" dir="auto">' + EXCLUDED_REASON + "</dd>" in html
    assert 'id="gold-override-form"' not in html  # reviewers see, admins decide

    client.force_login(w.admin)
    html = client.get(url).content.decode()
    assert 'id="gold-override-form"' in html and 'id="gold-revert-form"' not in html

    client.force_login(w.author)
    html = client.get(url).content.decode()
    assert 'id="adjudication"' not in html and "adj-w2" not in html


def test_override_is_kept_through_every_recompute_and_revert_restores_the_computed_decision(client):
    w = _world()
    client.force_login(w.admin)

    response = client.post(
        reverse("item_gold_override", args=[w.project.slug, w.excluded.pk]),
        {"outcome": "gold", "note": "The ambiguity flags were a misreading."},
    )

    assert response.status_code == 302
    row = GoldOverride.objects.get()
    assert (row.item_id, row.user_id, row.action, row.outcome_before, row.outcome_after, row.note) == (
        w.excluded.pk,
        w.admin.pk,
        "override",
        "excluded",
        "gold",
        "The ambiguity flags were a misreading.",
    )
    assert _state(w.excluded) == ("gold", "", "gold", "The ambiguity flags were a misreading.", True)

    # A later recompute (per item, then the whole project set-based) keeps the override.
    gold_recompute(item_ids=[w.excluded.pk, w.gold.pk])
    assert _state(w.excluded) == ("gold", "", "gold", "The ambiguity flags were a misreading.", True)
    gold_recompute_project(project=w.project)
    assert _state(w.excluded) == ("gold", "", "gold", "The ambiguity flags were a misreading.", True)
    assert _state(w.gold) == ("gold", "", "gold", "", False)
    # The computed details stay for reports (4 flags), the outcome is the admin's.
    assert GoldDecision.objects.get(item=w.excluded).details["question_ambiguous"] == 4

    html = client.get(reverse("item_detail", args=[w.project.slug, w.excluded.pk])).content.decode()
    assert f'id="gold-override-{row.pk}"' in html and 'id="gold-overridden"' in html and 'id="gold-revert-form"' in html

    response = client.post(
        reverse("item_gold_revert", args=[w.project.slug, w.excluded.pk]), {"note": "Second look: flags stand."}
    )

    assert response.status_code == 302
    assert _state(w.excluded) == ("excluded", EXCLUDED_REASON, "excluded", EXCLUDED_REASON, False)
    assert list(
        GoldOverride.objects.order_by("pk").values_list("action", "outcome_before", "outcome_after", "note")
    ) == [
        ("override", "excluded", "gold", "The ambiguity flags were a misreading."),
        ("revert", "gold", "excluded", "Second look: flags stand."),
    ]
    gold_recompute_project(project=w.project)
    assert _state(w.excluded) == ("excluded", EXCLUDED_REASON, "excluded", EXCLUDED_REASON, False)


def test_refusals_change_nothing(client):
    w = _world()
    before = (_state(w.gold), _state(w.excluded), GoldOverride.objects.count())
    url = reverse("item_gold_override", args=[w.project.slug, w.gold.pk])

    client.force_login(w.reviewer)
    response = client.post(url, {"outcome": "excluded", "note": "no"})
    assert response.status_code == 403
    assert "Only a project admin can change a gold decision." in response.content.decode()

    client.force_login(w.judges[0])  # an annotator: the item is not theirs to see
    assert client.post(url, {"outcome": "excluded", "note": "no"}).status_code == 404

    client.force_login(w.admin)
    response = client.post(url, {"outcome": "excluded", "note": "  "})
    assert response.status_code == 400
    assert "Write a note saying why the decision is overridden." in response.content.decode()
    assert client.post(url, {"outcome": "pending", "note": "x"}).status_code == 400
    response = client.post(reverse("item_gold_revert", args=[w.project.slug, w.gold.pk]))
    assert response.status_code == 400
    assert "This decision is not overridden: there is nothing to revert." in response.content.decode()

    with pytest.raises(NotAllowed):
        gold_override(item=w.gold, user=w.reviewer, outcome="excluded", note="no")
    with pytest.raises(NotAllowed):
        gold_override_revert(item=w.gold, user=w.author)
    undecided = make_item(w.project, w.author, question="No judgments")
    with pytest.raises(InvalidInput, match="no gold decision yet"):
        gold_override(item=undecided, user=w.admin, outcome="gold", note="x")

    assert (_state(w.gold), _state(w.excluded), GoldOverride.objects.count()) == before


def _gold_counts(w):
    admin_membership = w.project.memberships.get(user=w.admin)
    # The export's rows say the item's status: its gold rows are the items the dashboard counts as gold.
    exported = [r.item.item_id for r in gold_records(project=w.project) if r.item.status == "gold"]
    return (
        dashboard_stats(project=w.project)["status_counts"]["gold"],
        item_list_page(membership=admin_membership, status="gold").count,
        len(exported),
        sorted(exported) == sorted(Item.objects.filter(project=w.project, status="gold").values_list("pk", flat=True)),
    )


def test_dashboard_item_list_and_export_agree_on_the_gold_items(client):
    w = _world(gold_items=3)

    assert _gold_counts(w) == (3, 3, 3, True)
    statuses = dict(Item.objects.filter(project=w.project).values_list("pk", "status"))
    assert sorted(statuses.values()) == ["approved", "excluded", "gold", "gold", "gold"]

    gold_override(item=w.golds[1], user=w.admin, outcome="excluded", note="Off topic.")
    assert _gold_counts(w) == (2, 2, 2, True)
    exported = {r.item.item_id for r in gold_records(project=w.project)}
    assert w.golds[1].pk not in exported and w.excluded.pk not in exported

    gold_recompute_project(project=w.project)
    assert _gold_counts(w) == (2, 2, 2, True)

    client.force_login(w.admin)
    html = client.get(reverse("item_list", args=[w.project.slug]) + "?status=gold").content.decode()
    for item in (w.golds[0], w.golds[2]):
        assert reverse("item_detail", args=[w.project.slug, item.pk]) in html
    assert reverse("item_detail", args=[w.project.slug, w.golds[1].pk]) not in html
