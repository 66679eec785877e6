"""The csqa gold policy: majority beside the author's answer, exclusion above the ambiguity threshold."""

import pytest

from annotation.models import Assignment, Item, Judgment
from annotation.services.judging import judging_plan
from annotation.services.judgments import judgment_record
from annotation.task_types.csqa.gold import Answer, csqa_gold_decide
from qc.gold import gold_recompute, gold_recompute_project
from qc.models import GoldDecision
from tests.qc.helpers import add_judgment, make_item, make_project


def _answers(letters, *, question_flags=0, option_flags=()):
    return [
        Answer(
            judgment_id=i + 1,
            answer=letter,
            question_ambiguous=i < question_flags,
            option_ambiguous=option_flags[i] if i < len(option_flags) else [False] * 5,
        )
        for i, letter in enumerate(letters)
    ]


def test_majority_excludes_nothing_below_the_threshold():
    gold = csqa_gold_decide(
        answers=_answers(
            "CCBCA", question_flags=3, option_flags=[[True, False, False, False, True], [True] + [False] * 4]
        ),
        author_answer="C",
        required=5,
        threshold=3,
    )

    assert gold.outcome == "gold"
    assert gold.details() == {
        "majority": "C",
        "author_answer": "C",
        "matches_author": True,
        "answers": 5,
        "question_ambiguous": 3,
        "option_ambiguous": 2,
        "option_flags": [2, 0, 0, 0, 1],
        "uncertain": 0,
        "agreement": 0.6,
        "threshold": 3,
    }


def test_more_than_threshold_flags_exclude_with_the_reason():
    gold = csqa_gold_decide(answers=_answers("ABBBB", question_flags=4), author_answer="A", required=5, threshold=3)

    assert (gold.outcome, gold.reason) == (
        "excluded",
        "Question flagged ambiguous by 4 of 5 answerers (more than the threshold of 3).",
    )
    assert (gold.majority, gold.matches_author) == ("B", False)


def test_tie_goes_to_the_answer_given_first_and_fewer_answers_are_pending():
    tie = csqa_gold_decide(answers=_answers("BCCBA"), author_answer="C", required=5, threshold=3)
    pending = csqa_gold_decide(answers=_answers("DD"), author_answer=None, required=5, threshold=3)

    assert (tie.majority, tie.matches_author) == ("B", False)
    assert (pending.outcome, pending.reason, pending.majority, pending.matches_author) == (
        "pending",
        "2 of 5 answers so far.",
        "D",
        None,
    )


@pytest.mark.django_db
def test_exclusion_follows_answer_changes_and_nothing_is_deleted():
    project, people = make_project(annotators=6, threshold=3)
    item = make_item(project, people[0], answer="A")
    judging_plan(project=project)
    assignments = {a.user_id: a for a in Assignment.objects.filter(target_item=item)}
    for n, user in enumerate(people[1:]):
        judgment_record(
            assignment_id=assignments[user.pk].pk, user=user, data={"answer": "A", "question_ambiguous": n < 4}
        )
    decision = GoldDecision.objects.get(item=item)
    item.refresh_from_db()
    assert (item.status, item.status_reason) == (
        "excluded",
        "Question flagged ambiguous by 4 of 5 answerers (more than the threshold of 3).",
    )
    assert (decision.outcome, decision.details["question_ambiguous"]) == ("excluded", 4)

    judgment_record(assignment_id=assignments[people[1].pk].pk, user=people[1], data={"answer": "B"})

    item.refresh_from_db()
    again = GoldDecision.objects.get(item=item)
    assert (item.status, item.status_reason) == ("gold", "")
    assert (again.pk, again.outcome, again.details["question_ambiguous"], again.details["majority"]) == (
        decision.pk,
        "gold",
        3,
        "A",
    )
    assert Judgment.objects.filter(item=item).count() == 5
    assert Item.objects.filter(pk=item.pk).exists()


@pytest.mark.django_db
def test_recompute_in_batches_writes_one_decision_per_item_and_skips_unapproved(django_assert_max_num_queries):
    project, people = make_project(annotators=6)
    items = [make_item(project, people[i % 6], answer="B", question=f"Q{i}") for i in range(7)]
    draft = make_item(project, people[0], status=Item.Status.SUBMITTED, question="draft")
    for item in items[:4]:
        for user in [p for p in people if p.pk != item.author_id]:
            add_judgment(item, user, "B", question_ambiguous=item is items[0])

    # Per batch: lock, judgments, save, status moves, the overrides in force (qc.overrides).
    with django_assert_max_num_queries(4 + 5 * 4):
        totals = gold_recompute(item_ids=[i.pk for i in items] + [draft.pk], batch_size=2)

    assert totals == {"excluded": 1, "gold": 3, "pending": 3}
    assert dict(GoldDecision.objects.values_list("item_id", "outcome")) == {
        **{i.pk: "gold" for i in items[1:4]},
        items[0].pk: "excluded",
        **{i.pk: "pending" for i in items[4:]},
    }
    assert dict(Item.objects.filter(project=project).values_list("pk", "status")) == {
        **{i.pk: "gold" for i in items[1:4]},
        items[0].pk: "excluded",
        **{i.pk: "approved" for i in items[4:]},
        draft.pk: "submitted",
    }
    assert gold_recompute_project(project=project) == totals
    assert GoldDecision.objects.count() == 7


@pytest.mark.postgres  # the COPY path exists on PostgreSQL only
@pytest.mark.django_db
def test_copy_save_writes_the_same_rows_as_the_upsert_special_characters_included(monkeypatch):
    from django.db import connection

    import qc.gold

    # The COPY save is PostgreSQL's: a run on another database must fail here, not pass quietly.
    assert connection.vendor == "postgresql"
    project, people = make_project(annotators=6)
    items = [make_item(project, people[0], answer="B", question=f"Q{i}") for i in range(3)]
    GoldDecision.objects.create(item=items[0], policy="old", outcome="pending", reason="old", details={"x": 1})
    reason = 'Tab\there, line\nbreak, back\\slash, "quotes", \r and ünïcode'
    decisions = [
        qc.gold._Decision(items[0].pk, "p1", "gold", reason, {"label": "a\tb\\c\n", "n": [1, 2]}, [3, 4]),
        qc.gold._Decision(items[1].pk, "p1", "excluded", "", {}, []),
        qc.gold._Decision(items[2].pk, "p1", "no_gold", "ünï", {"k": None}, [5]),
    ]
    monkeypatch.setattr(qc.gold, "COPY_FROM", 1)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_class WHERE relname = 'gold_decision_stage'")
        assert cursor.fetchone() == (0,)

    qc.gold._save_decisions(decisions)
    qc.gold._save_decisions(decisions[1:])  # a second batch in the same transaction reuses the table

    assert list(
        GoldDecision.objects.order_by("item_id").values_list(
            "item_id", "policy", "outcome", "reason", "details", "judgment_ids"
        )
    ) == [tuple(d) for d in decisions]
