"""Judging's next and submit cost the same number of queries whatever the judge's queue size, and the
progress they show (from the per-judge tallies) is exactly what counting the assignments gives."""

import pytest
from django.db.models import Count

from annotation.models import Assignment, Membership
from annotation.selectors.judgments import judging_progress
from annotation.services.assignments import assignment_claim_next
from annotation.services.judging import judging_plan
from annotation.services.projects import membership_add
from tests.annotation.task_types.csqa.world import make_world
from tests.api.conftest import client_for
from tests.qc.helpers import make_user

pytestmark = pytest.mark.django_db

# Token and user, membership, resume-or-claim (one statement), the item with the judge's own judgment and
# progress (one query).
MAX_QUERIES_NEXT = 4
# Token and user, membership, the assignment; BEGIN, lock the assignment, lock the item (with its version),
# upsert the judgment, mark the assignment done, the annotators (tie-break order), the item's judgments,
# upsert the gold decision (it returns any override in force), COMMIT (in tests: a savepoint and its release).
MAX_QUERIES_SUBMIT = 12


def counted_progress(project, user) -> tuple[int, int]:
    """(done, total) counted row by row, independently of the tallies."""
    by_status = dict(
        Assignment.objects.filter(project=project, user=user, kind="answer")
        .values_list("status")
        .annotate(n=Count("id"))
        .order_by()
    )
    return by_status.get("done", 0), sum(n for status, n in by_status.items() if status != "cancelled")


@pytest.mark.postgres  # the counts of PostgreSQL's one-statement claim and tallies
@pytest.mark.parametrize(("items_per_author", "queue"), [(1, 3), (12, 36)])
def test_next_and_submit_query_counts_do_not_grow_with_the_queue(
    items_per_author, queue, django_assert_max_num_queries
):
    world = make_world(slug=f"q{items_per_author}", items_per_author=items_per_author)
    judging_plan(project=world.project)
    judge = world.people[0]
    client = client_for(judge)
    base = f"/api/projects/{world.project.slug}"
    # A first round trip so per-connection work (e.g. type lookups) isn't counted.
    warm = client.post(f"{base}/judgments/next/", {}, format="json").json()
    assert warm["progress"] == {"done": 0, "total": queue}
    assert client.post(f"{base}/judgments/{warm['id']}/", {"answer": "A"}, format="json").status_code == 200

    with django_assert_max_num_queries(MAX_QUERIES_NEXT):
        task = client.post(f"{base}/judgments/next/", {}, format="json")
    with django_assert_max_num_queries(MAX_QUERIES_SUBMIT):
        submitted = client.post(f"{base}/judgments/{task.json()['id']}/", {"answer": "B"}, format="json")

    assert (task.status_code, task.json()["progress"]) == (200, {"done": 1, "total": queue})
    assert task.json()["id"] != warm["id"]
    assert submitted.status_code == 200
    assert judging_progress(project=world.project, user=judge, kind="answer") == (2, queue)


def test_progress_follows_claims_submits_leaves_and_replans():
    world = make_world(slug="tally", items_per_author=3)
    newcomer = make_user("tally-new")
    membership_add(project=world.project, user=newcomer, role=Membership.Role.ANNOTATOR, code="W5")
    judging_plan(project=world.project)
    first, leaver = world.people[0], world.people[3]
    client = client_for(first)
    base = f"/api/projects/{world.project.slug}"
    for _ in range(2):
        task = client.post(f"{base}/judgments/next/", {}, format="json").json()
        client.post(f"{base}/judgments/{task['id']}/", {"answer": "C"}, format="json")
    assignment_claim_next(project=world.project, user=leaver, kind="answer")
    # The leaver's open work (one of it leased) moves to the others on the next plan.
    Membership.objects.filter(project=world.project, user=leaver).update(is_active=False)
    summary = judging_plan(project=world.project)

    people = [*world.people, newcomer]
    progress = {p.pk: judging_progress(project=world.project, user=p, kind="answer") for p in people}
    assert progress == {p.pk: counted_progress(world.project, p) for p in people}
    assert summary.moved > 0
    assert progress[leaver.pk] == (0, 0)
    assert progress[first.pk][0] == 2
    # 12 items, 3 judges each, none of it lost or counted twice.
    assert sum(total for _, total in progress.values()) == 36
