"""The set-based project recompute (qc.gold_sets, PostgreSQL) saves exactly what the per-item path saves:
the same decisions (judgment ids in annotator order included), the same item statuses and totals."""

import random
from pathlib import Path

import pytest
from django.db import connection

from annotation.gold import DECIDABLE
from annotation.models import Item, Judgment, Project
from annotation.services.imports import items_import
from qc.gold import gold_recompute, gold_recompute_project
from qc.gold_sets import set_based_applies
from qc.models import GoldDecision
from tests.qc.helpers import add_judgment, make_item, make_project, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def snapshot(project):
    decisions = {
        d.item_id: (d.policy, d.outcome, d.reason, d.details, d.judgment_ids)
        for d in GoldDecision.objects.filter(item__project=project)
    }
    items = {
        pk: (status, reason)
        for pk, status, reason in Item.objects.filter(project=project).values_list("pk", "status", "status_reason")
    }
    return decisions, items


def varied_project():
    """40 items: 0-5 answers each, ties, ambiguity flags, option flags, a judge outside the annotators,
    one not yet approved and one without a version."""
    project, people = make_project(slug="gsets", annotators=6, m=3, threshold=1)
    outsider = make_user("gsets-outsider")
    rng = random.Random(5)
    items = []
    for k in range(40):
        author = people[k % 6]
        status = Item.Status.SUBMITTED if k == 7 else Item.Status.APPROVED
        item = make_item(project, author, concept=f"k{k}", answer="ABCDE"[k % 5], status=status)
        judges = [p for p in people if p != author] + [outsider]
        rng.shuffle(judges)
        for judge in judges[: rng.randrange(6)]:
            add_judgment(
                item,
                judge,
                rng.choice("ABCAB"),
                uncertain=rng.random() < 0.3,
                question_ambiguous=rng.random() < 0.25,
                options=[rng.random() < 0.2 for _ in range(5)],
            )
        items.append(item)
    Item.objects.filter(pk=items[9].pk).update(current_version=None)
    return project, items


def test_set_based_and_per_item_recomputes_save_the_same_rows():
    assert connection.vendor == "postgresql"
    project, items = varied_project()
    assert set_based_applies(project)
    # An earlier recompute, and one of its gold items promoted to gold (a recompute must keep it so).
    gold_recompute(item_ids=[i.pk for i in items])
    promoted = GoldDecision.objects.filter(item__project=project, outcome="gold").order_by("item_id").first().item_id
    Item.objects.filter(pk=promoted).update(status=Item.Status.GOLD)
    before = snapshot(project)
    decidable = list(
        Item.objects.filter(project=project, status__in=DECIDABLE).order_by("pk").values_list("pk", flat=True)
    )
    per_item_totals = gold_recompute(item_ids=decidable)
    per_item = snapshot(project)

    # Back to the state before, then the set-based path from scratch and over its own decisions.
    GoldDecision.objects.filter(item__project=project).delete()
    for pk, (status, reason) in before[1].items():
        Item.objects.filter(pk=pk).update(status=status, status_reason=reason)
    set_totals = gold_recompute_project(project=project)
    first = snapshot(project)
    again_totals = gold_recompute_project(project=project)

    assert set_totals == per_item_totals == again_totals
    assert first == per_item == snapshot(project)
    assert sum(per_item_totals.values()) == 39
    assert {v[1] for v in per_item[0].values()} == {"gold", "excluded", "pending"}
    # A gold decision puts the item in the gold status: "judged" is left for no_gold.
    assert {s for s, _ in per_item[1].values()} == {"gold", "excluded", "approved", "submitted"}
    assert per_item[1][promoted] == (Item.Status.GOLD, "")
    assert per_item[1][items[7].pk] == (Item.Status.SUBMITTED, "")


def row_versions(project):
    """Each decision's and item's physical row version (ctid): any write to a row gives it a new one."""
    decision_t, item_t = GoldDecision._meta.db_table, Item._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT d.item_id, d.ctid::text FROM {decision_t} d JOIN {item_t} i ON i.id = d.item_id "
            "WHERE i.project_id = %s",
            [project.pk],
        )
        decisions = dict(cursor.fetchall())
        cursor.execute(f"SELECT id, ctid::text FROM {item_t} WHERE project_id = %s", [project.pk])
        return decisions, dict(cursor.fetchall())


def changed(before: dict, after: dict) -> set:
    return {key for key in after if before.get(key) != after[key]}


def test_a_recompute_where_nothing_changed_writes_nothing():
    project, _ = varied_project()
    totals = gold_recompute_project(project=project)
    saved, versions = snapshot(project), row_versions(project)

    assert gold_recompute_project(project=project) == totals

    assert snapshot(project) == saved
    assert row_versions(project) == versions
    assert len(versions[0]) == 39


def test_one_changed_judgment_rewrites_one_decision_and_moves_one_status():
    project, _ = varied_project()
    gold_recompute_project(project=project)
    # A gold item with one question flag: one more flag puts it over the threshold (1), so it is excluded.
    flagged = {
        item_id: sum(1 for j in judgments if j.flags["question_ambiguous"])
        for item_id, judgments in _judgments_by_item(project).items()
    }
    target = min(
        d.item_id for d in GoldDecision.objects.filter(item__project=project, outcome="gold") if flagged[d.item_id] == 1
    )
    judgment = Judgment.objects.filter(item_id=target, flags__question_ambiguous=False).order_by("pk").first()
    Judgment.objects.filter(pk=judgment.pk).update(flags={**judgment.flags, "question_ambiguous": True})
    before = row_versions(project)

    totals = gold_recompute_project(project=project)

    after = row_versions(project)
    assert changed(before[0], after[0]) == {target}
    assert changed(before[1], after[1]) == {target}
    decision = GoldDecision.objects.get(item_id=target)
    assert (decision.outcome, decision.reason) == (
        "excluded",
        f"Question flagged ambiguous by 2 of {len(decision.judgment_ids)} answerers (more than the threshold of 1).",
    )
    assert Item.objects.get(pk=target).status == Item.Status.EXCLUDED
    # The same rows as the per-item path saves from the same judgments.
    set_based = snapshot(project)
    decidable = Item.objects.filter(project=project, status__in=DECIDABLE).values_list("pk", flat=True)
    assert gold_recompute(item_ids=list(decidable)) == totals
    assert snapshot(project) == set_based


def _judgments_by_item(project):
    out = {}
    for judgment in Judgment.objects.filter(project=project).order_by("pk"):
        out.setdefault(judgment.item_id, []).append(judgment)
    return out


def test_a_decision_that_fails_while_the_cases_stream_in_saves_nothing(monkeypatch):
    # The cases stream in on the connection while they are decided: an error between two of them must
    # leave the stream closed, the transaction rolled back and the connection usable.
    from annotation.task_types import get_task_type

    project, _ = varied_project()
    task_type = get_task_type(project.task_type)
    decide, calls = task_type.gold_decide, []

    def failing(case):
        calls.append(case)
        if len(calls) == 3:
            raise RuntimeError("decide failed")
        return decide(case)

    monkeypatch.setattr(task_type, "gold_decide", failing)
    before = snapshot(project)

    with pytest.raises(RuntimeError, match="decide failed"):
        gold_recompute_project(project=project)

    assert len(calls) == 3
    assert snapshot(project) == before
    monkeypatch.undo()
    assert sum(gold_recompute_project(project=project).values()) == 39


MNLI_DEV = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "mnli-id" / "dev.jsonl"


def test_nli_rounds_set_based_and_per_item_save_the_same_rows():
    """IndoNLI's rule (gold_payload_keys: the writer's label) over MNLI's released labels replayed through
    the rounds: the set-based recompute the bulk round planner uses saves what the per-item path saves."""
    lines = MNLI_DEV.read_text(encoding="utf-8").splitlines()[:300]
    items_import(path_or_bytes="\n".join(lines).encode(), project_slug="nsets", format="mnli", language="id")
    project = Project.objects.get(slug="nsets")
    assert set_based_applies(project)
    decidable = list(
        Item.objects.filter(project=project, status__in=DECIDABLE).order_by("pk").values_list("pk", flat=True)
    )
    per_item_totals = gold_recompute(item_ids=decidable)
    per_item = snapshot(project)
    GoldDecision.objects.filter(item__project=project).delete()
    Item.objects.filter(project=project).update(status=Item.Status.APPROVED, status_reason="")

    set_totals = gold_recompute_project(project=project)

    assert set_totals == per_item_totals
    assert snapshot(project) == per_item
    assert sum(set_totals.values()) == 300
    assert set(set_totals) == {"gold", "no_gold"}
    rounds = {d[3]["round"] for d in per_item[0].values()}
    assert rounds == {1, 2, 3}
