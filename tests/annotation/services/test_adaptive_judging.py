"""Adaptive judging (annotation.adaptive): the minimum of judges first, one more only while the item's
label is unsure, up to the fixed overlap, never the author or a judge who already judged it."""

import pytest
from django.utils import timezone

from annotation.adaptive import adaptive_rule, posterior
from annotation.errors import InvalidInput
from annotation.models import AnnotatorProfile, Assignment, Item, Judgment, Membership
from annotation.models.aggregation import AggregatedAnnotator, AggregationFit
from annotation.services.judging import judging_plan, judging_plan_item_round
from annotation.services.judgments import judgment_record
from annotation.services.known_answers import item_set_known_answer
from annotation.task_types import get_task_type, project_settings
from annotation.task_types.base import JudgingRule
from annotation.task_types.contract.country_scope import CountryScope
from qc.gold import gold_recompute_project
from qc.models import GoldDecision
from tests.api.conftest import client_for
from tests.api.test_judging_query_counts import MAX_QUERIES_SUBMIT
from tests.qc.helpers import CLEAR, make_item, make_project

LABELS = ("A", "B", "C", "D", "E")


def test_posterior_is_the_one_coin_model():
    # Two judges of accuracy 0.8 agree on A, five labels: 0.8^2 against 0.05^2 for each other label.
    both = posterior([(1, "A"), (2, "A")], LABELS, {})
    assert both["A"] == pytest.approx(0.64 / (0.64 + 4 * 0.0025))
    assert both["B"] == pytest.approx(0.0025 / 0.65)
    # A judge the fit found more accurate weighs more: 0.95 for B against 0.6 for A.
    split = posterior([(1, "A"), (2, "B")], LABELS, {1: 0.6, 2: 0.95})
    a, b, other = 0.6 * 0.05 / 4, 0.1 * 0.95, 0.1 * 0.05 / 4
    assert split["B"] == pytest.approx(b / (a + b + 3 * other))
    assert sum(split.values()) == pytest.approx(1.0)
    # No label given: the prior, uniform.
    assert posterior([(1, None)], LABELS, {}) == {label: pytest.approx(0.2) for label in LABELS}


def test_adaptive_rule_spreads_the_overlap_one_judge_per_round():
    rule = JudgingRule(kind="answer", per_round=(5,))
    settings = {"judging_mode": "adaptive", "adaptive_min_judges": 2, "adaptive_confidence": 95}
    assert adaptive_rule(rule, settings).per_round == (2, 1, 1, 1)
    assert adaptive_rule(rule, {**settings, "judging_mode": "fixed"}).per_round == (5,)
    assert adaptive_rule(rule, {**settings, "adaptive_min_judges": 9}).per_round == (5,)


def _adaptive_project(slug, *, m=5, confidence=95):
    """A csqa project of six annotators, m answers per item, judged adaptively: (project, annotators)."""
    project, people = make_project(slug=slug, annotators=6, m=m)
    project.settings = {**project.settings, "judging_mode": "adaptive", "adaptive_confidence": confidence}
    project.save()
    return project, people


def _answer(assignment, answer):
    return judgment_record(
        assignment_id=assignment.pk,
        user=assignment.user,
        data={"answer": answer, "uncertain": False, "question_ambiguous": False, "option_ambiguous": CLEAR},
    )


def _open(item):
    return list(
        Assignment.objects.filter(target_item=item, kind="answer", status=Assignment.Status.PENDING).order_by("pk")
    )


@pytest.mark.django_db
def test_an_item_stops_when_sure_and_another_gets_one_judge_at_a_time():
    project, people = _adaptive_project("adapt")
    author = people[0]
    agreed = make_item(project, author, question="Q agreed", answer="A")
    split = make_item(project, author, question="Q split", answer="A")

    summary = judging_plan(project=project)

    assert (summary.created, summary.items) == (4, 2)  # the minimum, two judges each, never the author
    assert all(a.user_id != author.pk for a in Assignment.objects.filter(project=project))

    for assignment in _open(agreed):
        _answer(assignment, "A")
    decision = GoldDecision.objects.get(item=agreed)
    assert (decision.outcome, decision.details["majority"], decision.details["answers"]) == ("gold", "A", 2)
    assert decision.details["adaptive"]["confidence"] == pytest.approx(0.9846, abs=1e-4)
    assert _open(agreed) == []
    assert Item.objects.get(pk=agreed.pk).status == Item.Status.GOLD

    first, second = _open(split)
    _answer(first, "A")
    assert _open(split) == [second]  # the round's second judge is still out: nothing planned yet
    _answer(second, "B")
    (third,) = _open(split)  # unsure (0.49 each): one more judge, in round 2
    assert (third.round, Item.objects.get(pk=split.pk).judging_round) == (2, 2)
    assert third.user_id not in {author.pk, first.user_id, second.user_id}
    _answer(third, "A")  # A, B, A: 0.931 < 0.95, round 3
    decision = GoldDecision.objects.get(item=split)
    confidence = decision.details["adaptive"]["confidence"]
    assert (decision.outcome, confidence) == ("pending", pytest.approx(0.9309, abs=1e-4))
    (fourth,) = _open(split)
    assert fourth.round == 3
    _answer(fourth, "A")  # A, B, A, A: 0.9958
    decision = GoldDecision.objects.get(item=split)
    assert (decision.outcome, decision.details["majority"], decision.details["answers"]) == ("gold", "A", 4)
    assert _open(split) == []
    judges = set(Judgment.objects.filter(item=split).values_list("user_id", flat=True))
    assert len(judges) == 4 and author.pk not in judges


@pytest.mark.django_db
def test_a_whole_project_recompute_keeps_adaptive_decisions():
    project, people = _adaptive_project("adaptall")
    agreed = make_item(project, people[0], question="Q agreed", answer="A")
    split = make_item(project, people[0], question="Q split", answer="A")
    judging_plan(project=project)
    for assignment in _open(agreed):
        _answer(assignment, "A")
    first, second = _open(split)
    _answer(first, "A")
    _answer(second, "B")
    before = {d.item_id: (d.outcome, d.details) for d in GoldDecision.objects.filter(item__project=project)}

    # The admin's "recompute gold" (and every project-wide recompute) decides as the submits did: the
    # adaptive step needs who judged (their accuracy), so it never takes the set-based path, which
    # decides alike cases once whoever judged them.
    totals = gold_recompute_project(project=project)

    assert totals == {"gold": 1, "pending": 1}
    after = {d.item_id: (d.outcome, d.details) for d in GoldDecision.objects.filter(item__project=project)}
    assert after == before
    assert after[agreed.pk][0] == "gold" and after[agreed.pk][1]["adaptive"]["judges"] == 2
    assert Item.objects.get(pk=agreed.pk).status == Item.Status.GOLD


@pytest.mark.django_db
def test_the_overlap_is_the_ceiling_and_the_published_rule_decides_there():
    project, people = _adaptive_project("ceiling", m=3, confidence=99)
    item = make_item(project, people[0], question="Q hard")
    judging_plan(project=project)
    for answer in ("A", "B"):
        _answer(_open(item)[0], answer)
    (last,) = _open(item)
    _answer(last, "C")  # three different answers: unsure, but the overlap (m = 3) is reached
    decision = GoldDecision.objects.get(item=item)
    assert (decision.outcome, decision.details["answers"]) == ("gold", 3)
    assert _open(item) == []
    assert Assignment.objects.filter(target_item=item).count() == 3


@pytest.mark.django_db
def test_adaptive_settings_are_checked():
    task_type = get_task_type("csqa")
    with pytest.raises(InvalidInput) as refused:
        task_type.settings_clean({"judging_mode": "sometimes", "adaptive_confidence": 100})
    assert set(refused.value.field_errors) == {"judging_mode", "adaptive_confidence"}
    project, _ = make_project(slug="defaults")
    settings = project_settings(project)
    assert (settings["judging_mode"], settings["adaptive_confidence"], settings["adaptive_min_judges"]) == (
        "fixed",
        99,
        2,
    )


@pytest.mark.django_db
def test_among_equally_loaded_judges_the_added_one_is_the_first_in_the_public_order():
    project, people = _adaptive_project("adaptorder")
    item = make_item(project, people[0], question="Q", answer="A")
    judging_plan(project=project)
    first, second = _open(item)
    waiting = [p for p in people[1:] if p.pk not in {first.user_id, second.user_id}]
    # Public order against user ids and text order: the waiting annotators by id are V10, V9 and V2,
    # whose public (natural) order is V2, V9, V10.
    low, middle, high = sorted(waiting, key=lambda p: p.pk)
    for person, code in ((low, "V10"), (middle, "V9"), (high, "V2")):
        Membership.objects.filter(project=project, user=person).update(code=code)
    _answer(first, "A")

    _answer(second, "B")

    (third,) = _open(item)
    assert third.user_id == high.pk  # V2, equally loaded with V9 and V10
    # The same round planned again without V2: V9 before V10 (natural order, not text order).
    Assignment.objects.filter(pk=third.pk).delete()
    Membership.objects.filter(project=project, user=high).update(is_active=False)
    Item.objects.filter(pk=item.pk).update(judging_round=1)
    judging_plan_item_round(project=project, item=Item.objects.get(pk=item.pk), rule=_rule(project), round_=2)
    assert [a.user_id for a in _open(item)] == [middle.pk]
    assert not Assignment.objects.filter(target_item=item, user=low).exists()


class _SameCountry(CountryScope):
    countries = ("Indonesia", "Malaysia")

    def member_scope(self, settings):
        return "country"

    def author_form_defaults(self, *, profile):
        return {}


@pytest.mark.django_db
def test_an_added_judge_shares_the_authors_country_when_the_rule_is_scoped(monkeypatch):
    # csqa declares no country scope; the part is given to it here, as ArabCulture declares it.
    monkeypatch.setattr(type(get_task_type("csqa")), "country_scope", _SameCountry(), raising=False)
    project, people = _adaptive_project("adaptscope")
    author, *judges = people
    # The author and W4, W5, W6 in Indonesia; W2 and W3, first in the public order, in Malaysia.
    malaysia, indonesia = judges[:2], judges[2:]
    for person in people:
        AnnotatorProfile.objects.filter(membership__project=project, membership__user=person).update(
            country="Malaysia" if person in malaysia else "Indonesia"
        )
    item = make_item(project, author, question="Q", answer="A")
    judging_plan(project=project)
    first, second = _open(item)
    assert {first.user_id, second.user_id} < {p.pk for p in indonesia}
    _answer(first, "A")

    _answer(second, "B")

    (third,) = _open(item)
    assert {third.user_id} == {p.pk for p in indonesia} - {first.user_id, second.user_id}
    _answer(third, "C")  # A, B, C: unsure, and nobody of Indonesia is left to ask
    assert _open(item) == []
    assert GoldDecision.objects.get(item=item).outcome == "pending"
    judged = set(Judgment.objects.filter(item=item).values_list("user_id", flat=True))
    assert judged == {p.pk for p in indonesia}


def _rule(project):
    return get_task_type(project.task_type).judging_rule(project_settings(project))


# The judging API's submit on an adaptive project: a judgment that stops the item or waits for its round
# costs what a fixed project's does (tests/api/test_judging_query_counts.py) and one read more, the judges'
# accuracies in the last aggregation fit; one that plans the next judge adds the planner's reads and its
# insert, as IndoNLI's rounds do.
MAX_QUERIES_PLAN_NEXT = 19


@pytest.mark.django_db
@pytest.mark.postgres  # the counts of PostgreSQL's one-statement claim and upserts
def test_an_adaptive_submit_costs_what_a_fixed_one_does(django_assert_max_num_queries):
    project, people = _adaptive_project("adaptq")
    items = [make_item(project, people[0], question=f"Q{n}") for n in range(3)]
    judging_plan(project=project)
    base = f"/api/projects/{project.slug}/answers"

    def submit(assignment, answer):
        client = client_for(assignment.user)
        task = client.post(f"{base}/next/", {}, format="json").json()
        assert task["id"] == assignment.pk
        return client, lambda: client.post(f"{base}/{assignment.pk}/", {"answer": answer}, format="json")

    first, second = _open(items[0])
    _, send = submit(first, "A")
    assert send().status_code == 200  # warm
    _, send = submit(second, "A")
    # Stops the item as gold: and the item's status update, as a fixed item's last answer costs.
    with django_assert_max_num_queries(MAX_QUERIES_SUBMIT + 2):
        assert send().status_code == 200
    assert GoldDecision.objects.get(item=items[0]).outcome == "gold"

    first, second = _open(items[1])
    _, send = submit(first, "A")
    with django_assert_max_num_queries(MAX_QUERIES_SUBMIT + 1):
        assert send().status_code == 200  # waits for the round's other judge
    _, send = submit(second, "C")
    with django_assert_max_num_queries(MAX_QUERIES_PLAN_NEXT):
        assert send().status_code == 200  # unsure: plans one more judge
    assert len(_open(items[1])) == 1


@pytest.mark.django_db
def test_a_judge_the_last_fit_found_unreliable_weighs_less():
    project, people = _adaptive_project("fitted")
    item = make_item(project, people[0], question="Q weighed")
    judging_plan(project=project)
    first, second = _open(item)
    AggregationFit.objects.create(project=project, model="dawid_skene", labels=list(LABELS), fitted_at=timezone.now())
    AggregatedAnnotator.objects.create(
        project=project, user=second.user, judgments=40, ability=0.3, ability_low=0.2, ability_high=0.4
    )
    _answer(first, "A")
    _answer(second, "A")
    # 0.8 x 0.3 for A against 0.05 x 0.175 for each other label: 0.873, under 0.95, so one more judge.
    decision = GoldDecision.objects.get(item=item)
    confidence = decision.details["adaptive"]["confidence"]
    assert (decision.outcome, confidence) == ("pending", pytest.approx(0.8727, abs=1e-4))
    assert len(_open(item)) == 1


@pytest.mark.django_db
def test_a_known_answer_check_gets_no_adaptive_decision_and_no_added_judge():
    project, people = _adaptive_project("adapt-check")
    project.check_every = 2
    project.save()
    for n in range(4):
        make_item(project, people[0], question=f"Q ordinary {n}", answer="A")
    check = make_item(project, people[0], question="Q check", answer="A")
    item_set_known_answer(item_id=check.pk, project=project, answer="A")
    judging_plan(project=project)
    planned = list(Assignment.objects.filter(target_item=check).order_by("pk").values_list("pk", "user_id", "round"))
    first, second = _open(check)[:2]

    _answer(first, "A")
    _answer(second, "B")  # split answers: an ordinary adaptive item would get one more judge now

    assert list(Assignment.objects.filter(target_item=check).order_by("pk").values_list("pk", "user_id", "round")) == (
        planned
    )
    assert not GoldDecision.objects.filter(item=check).exists()
    check.refresh_from_db()
    assert (check.status, check.judging_round, check.known_answer) == ("check", 0, "A")
    assert Judgment.objects.filter(item=check).count() == 2
