"""32 clients asking for their next assignment at the same moment (SKIP LOCKED + lease + unique constraint)."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone

from annotation.models import Assignment
from annotation.services.assignments import assignment_claim_next, assignment_plan_authoring
from tests.annotation.concurrency.helpers import make_project, run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

CLIENTS = 32


def _claim(project, user):
    return lambda: assignment_claim_next(project=project, user=user, kind=Assignment.Kind.AUTHOR)


def _queue(project, user) -> list[int]:
    return list(
        Assignment.objects.filter(project=project, user=user, kind=Assignment.Kind.AUTHOR)
        .order_by("position", "id")
        .values_list("id", flat=True)
    )


def _assert_leased_to(claimed_ids, users):
    rows = Assignment.objects.filter(pk__in=claimed_ids).in_bulk()
    now = timezone.now()
    for assignment_id, user in zip(claimed_ids, users, strict=True):
        row = rows[assignment_id]
        assert row.user_id == user.pk
        assert row.status == Assignment.Status.ACTIVE
        assert row.lease_expires_at > now
        assert row.started_at is not None


def _assert_unique_per_concept_user_kind(project):
    pairs = list(Assignment.objects.filter(project=project).values_list("concept_id", "user_id", "kind"))
    assert len(pairs) == len(set(pairs))


def test_32_annotators_at_once_each_get_their_own_first_assignment():
    setup = make_project(slug="claims32", annotators=CLIENTS, categories=2, concepts=32)
    assignment_plan_authoring(project=setup.project)
    firsts = [_queue(setup.project, user)[0] for user in setup.annotators]

    outcomes = run_together([_claim(setup.project, user) for user in setup.annotators])

    assert [o.error for o in outcomes] == [None] * CLIENTS
    claimed = [o.value.pk for o in outcomes]
    assert claimed == firsts
    assert len(set(claimed)) == CLIENTS
    _assert_leased_to(claimed, setup.annotators)
    assert Assignment.objects.filter(project=setup.project, status=Assignment.Status.ACTIVE).count() == CLIENTS
    _assert_unique_per_concept_user_kind(setup.project)


def test_one_annotator_in_32_tabs_gets_32_different_assignments():
    # Two annotators and k = 2: each of them authors every one of the 40 concepts.
    setup = make_project(slug="tabs32", annotators=2, categories=2, concepts=20)
    assignment_plan_authoring(project=setup.project)
    annotator, other = setup.annotators
    queue = _queue(setup.project, annotator)
    assert len(queue) == 40

    outcomes = run_together([_claim(setup.project, annotator) for _ in range(CLIENTS)])

    assert [o.error for o in outcomes] == [None] * CLIENTS
    claimed = [o.value.pk for o in outcomes]
    assert len(set(claimed)) == CLIENTS
    # Every skipped row was locked by a request that took it, so the claims are the head of the queue.
    assert sorted(claimed, key=queue.index) == queue[:CLIENTS]
    _assert_leased_to(claimed, [annotator] * CLIENTS)
    statuses = dict(
        Assignment.objects.filter(project=setup.project, user=annotator)
        .values_list("status")
        .annotate(n=Count("id"))
        .order_by()
    )
    assert statuses == {Assignment.Status.ACTIVE: 32, Assignment.Status.PENDING: 8}
    assert not Assignment.objects.filter(user=other).exclude(status=Assignment.Status.PENDING).exists()
    _assert_unique_per_concept_user_kind(setup.project)


def test_more_tabs_than_work_hand_out_each_assignment_once_and_then_nothing():
    setup = make_project(slug="scarce", annotators=2, categories=1, concepts=10)
    assignment_plan_authoring(project=setup.project)
    annotator = setup.annotators[0]

    outcomes = run_together([_claim(setup.project, annotator) for _ in range(CLIENTS)])

    assert [o.error for o in outcomes] == [None] * CLIENTS
    claimed = [o.value.pk for o in outcomes if o.value is not None]
    assert sorted(claimed) == sorted(_queue(setup.project, annotator))
    assert len(claimed) == 10
    assert sum(o.value is None for o in outcomes) == CLIENTS - 10


def test_database_refuses_a_second_assignment_of_the_same_concept_user_and_kind():
    setup = make_project(slug="uniq", annotators=2, categories=1, concepts=2)
    assignment_plan_authoring(project=setup.project)
    existing = Assignment.objects.filter(project=setup.project).order_by("id").first()
    before = list(Assignment.objects.order_by("id").values_list("id", "concept_id", "user_id", "status"))

    with pytest.raises(IntegrityError) as refused, transaction.atomic():
        Assignment.objects.create(
            project=setup.project, user_id=existing.user_id, kind=existing.kind, concept_id=existing.concept_id
        )

    assert "uniq_assignment_concept_user_kind" in str(refused.value)
    assert list(Assignment.objects.order_by("id").values_list("id", "concept_id", "user_id", "status")) == before


def test_an_active_unexpired_assignment_is_not_handed_out_again():
    setup = make_project(slug="lease", annotators=2, categories=1, concepts=2)
    assignment_plan_authoring(project=setup.project)
    annotator = setup.annotators[0]
    first = assignment_claim_next(project=setup.project, user=annotator, kind=Assignment.Kind.AUTHOR)
    second = assignment_claim_next(project=setup.project, user=annotator, kind=Assignment.Kind.AUTHOR)
    leases = dict(Assignment.objects.filter(user=annotator).values_list("id", "lease_expires_at"))

    third = assignment_claim_next(project=setup.project, user=annotator, kind=Assignment.Kind.AUTHOR)

    assert (first.pk != second.pk, third) == (True, None)
    assert dict(Assignment.objects.filter(user=annotator).values_list("id", "lease_expires_at")) == leases


def test_an_expired_lease_makes_the_assignment_claimable_again_by_one_request_only():
    setup = make_project(slug="expired", annotators=2, categories=1, concepts=2)
    assignment_plan_authoring(project=setup.project)
    annotator = setup.annotators[0]
    first = assignment_claim_next(project=setup.project, user=annotator, kind=Assignment.Kind.AUTHOR)
    second = assignment_claim_next(project=setup.project, user=annotator, kind=Assignment.Kind.AUTHOR)
    started_at = first.started_at
    Assignment.objects.filter(pk=first.pk).update(lease_expires_at=timezone.now() - timedelta(seconds=1))

    outcomes = run_together([_claim(setup.project, annotator) for _ in range(8)])

    assert [o.error for o in outcomes] == [None] * 8
    assert sorted((o.value.pk if o.value else 0) for o in outcomes) == [0] * 7 + [first.pk]
    first.refresh_from_db()
    assert first.status == Assignment.Status.ACTIVE
    lease = timedelta(seconds=settings.GOTONG_ASSIGNMENT_LEASE_SECONDS)
    assert timezone.now() + lease - timedelta(minutes=1) < first.lease_expires_at <= timezone.now() + lease
    # The lease is renewed, the original start time is kept.
    assert first.started_at == started_at
    second.refresh_from_db()
    assert second.status == Assignment.Status.ACTIVE


def test_32_tabs_claiming_again_and_again_never_get_the_same_assignment_twice():
    setup = make_project(slug="sustained", annotators=2, categories=5, concepts=40)
    assignment_plan_authoring(project=setup.project)
    annotator = setup.annotators[0]
    queue = _queue(setup.project, annotator)
    assert len(queue) == 200

    def five_claims():
        return [_claim(setup.project, annotator)().pk for _ in range(5)]

    outcomes = run_together([five_claims for _ in range(CLIENTS)])

    assert [o.error for o in outcomes] == [None] * CLIENTS
    claimed = [pk for o in outcomes for pk in o.value]
    assert len(claimed) == len(set(claimed)) == 5 * CLIENTS
    assert sorted(claimed, key=queue.index) == queue[: 5 * CLIENTS]
    _assert_leased_to(claimed, [annotator] * len(claimed))
