"""A big judging plan stored in blocks (annotation.services.planned_blocks) behaves as the same plan
written at once: the same queues in the same order, the same progress, counts and overview, whatever
reads them, and re-plans, skips and items sent back meanwhile all see the slots not written yet.

Each test builds two identical cross-answer projects (4 annotators, m = 3, 24 items: 72 slots) and
plans them with one seed: `lazy` with blocks from one slot up, 3 slots a block (one item: 24 blocks),
`eager` written at once. Items are compared by their index in the world."""

import pytest
from django.db import connection
from django.db.models import Count

from annotation.models import Assignment, AssignmentTally, Item, Membership, PlannedBlock
from annotation.selectors.judgments import judging_overview, judging_progress
from annotation.services.assignments import assignment_claim_next
from annotation.services.judging import judging_plan
from annotation.services.planned_blocks import CLAIMS_AT_ONCE, PLANNED
from annotation.services.projects import membership_add
from annotation.services.skips import assignment_skip
from annotation.views.nav import judging_nav
from tests.annotation.concurrency.helpers import run_together
from tests.annotation.task_types.csqa.world import make_world
from tests.api.conftest import client_for
from tests.qc.helpers import make_user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

SEED = 11
SLOTS = 72  # 24 items x 3 judges


@pytest.fixture(autouse=True)
def _postgresql_only():
    assert connection.vendor == "postgresql", "plans are stored in blocks on PostgreSQL only"


def plan_both(settings, *, extra: int = 0):
    """The two worlds, with `extra` annotators beyond the four, planned with the same seed."""
    planned = []
    for slug, blocks_from in (("eager", 10**9), ("lazy", 1)):
        settings.GOTONG_PLAN_BLOCKS_FROM = blocks_from
        settings.GOTONG_PLAN_BLOCK_SLOTS = 3
        world = make_world(slug=slug, items_per_author=6)
        for n in range(extra):
            newcomer = make_user(f"{slug}-extra{n}")
            membership_add(project=world.project, user=newcomer, role=Membership.Role.ANNOTATOR, code=f"X{n}")
            world.people.append(newcomer)
        assert judging_plan(project=world.project, seed=SEED).created == SLOTS
        world.blocks_from = blocks_from  # for a re-plan
        planned.append(world)
    eager, lazy = planned
    return lazy, eager


@pytest.fixture
def worlds(settings):
    return plan_both(settings)


def index_of(world) -> dict[int, int]:
    return {item.pk: n for n, item in enumerate(world.items)}


def rows(world) -> list[tuple[int, int, int, str]]:
    """(judge number, item index, position, status) of every answer assignment."""
    people, items = {p.pk: n for n, p in enumerate(world.people)}, index_of(world)
    return sorted(
        (people[user_id], items[item_id], position, status)
        for user_id, item_id, position, status in Assignment.objects.filter(
            project=world.project, kind="answer"
        ).values_list("user_id", "target_item_id", "position", "status")
    )


def tallies(world) -> dict[tuple[int, str], int]:
    people = {p.pk: n for n, p in enumerate(world.people)}
    return {
        (people[user_id], status): n
        for user_id, status, n in AssignmentTally.objects.filter(project=world.project, kind="answer").values_list(
            "user_id", "status", "n"
        )
        if n
    }


def answer_everything_through_the_api(world) -> dict[int, list[int]]:
    """Each judge in turn asks for their next item and answers it until nothing is left: the items in
    the order they were handed out."""
    items, handed = index_of(world), {}
    active = set(Membership.objects.filter(project=world.project, is_active=True).values_list("user_id", flat=True))
    for n, judge in enumerate(world.people):
        if judge.pk not in active:
            continue
        client, base = client_for(judge), f"/api/projects/{world.project.slug}/answers"
        handed[n] = []
        while (task := client.post(f"{base}/next/", {}, format="json")).status_code == 200:
            handed[n].append(items[task.json()["item"]["id"]])
            assert client.post(f"{base}/{task.json()['id']}/", {"answer": "A"}, format="json").status_code == 200
        assert task.status_code == 204
    return handed


def test_a_big_plan_is_stored_in_blocks_and_counted_as_planned(worlds):
    lazy, eager = worlds

    assert Assignment.objects.filter(project=lazy.project).exclude(kind="author").count() == 0
    assert PlannedBlock.objects.filter(project=lazy.project).count() == 24
    assert list(PlannedBlock.objects.filter(project=lazy.project).values_list("slots", flat=True)) == [3] * 24
    # Each judge's planned count is their share of the plan written at once, and so is their progress.
    assert tallies(lazy) == {(n, PLANNED): slots for (n, status), slots in tallies(eager).items()}
    for lazy_judge, eager_judge in zip(lazy.people, eager.people, strict=True):
        assert judging_progress(project=lazy.project, user=lazy_judge, kind="answer") == judging_progress(
            project=eager.project, user=eager_judge, kind="answer"
        )
        assert judging_progress(project=lazy.project, user=lazy_judge, kind="answer")[1] == 18
        lazy_nav = judging_nav(Membership.objects.get(project=lazy.project, user=lazy_judge))
        assert lazy_nav["judge_nav"]["open"] == 18


def test_the_queues_hand_out_the_same_items_in_the_same_order(worlds):
    lazy, eager = worlds

    handed = answer_everything_through_the_api(lazy)

    assert handed == answer_everything_through_the_api(eager)
    assert sum(len(items) for items in handed.values()) == SLOTS
    assert rows(lazy) == rows(eager)
    assert PlannedBlock.objects.filter(project=lazy.project).count() == 0
    assert tallies(lazy) == tallies(eager) == {(n, "done"): 18 for n in range(4)}


def test_a_dry_queue_writes_only_the_blocks_it_needs(worlds):
    lazy, _ = worlds
    judge = lazy.people[0]
    # Blocks are written in queue order until the judge has CLAIMS_AT_ONCE (8) pending units, no further.
    theirs, written = [], 0
    for block in PlannedBlock.objects.filter(project=lazy.project).order_by("first_position"):
        if len(theirs) >= CLAIMS_AT_ONCE:
            break
        items = [int(i) for i in block.item_ids.strip("{}").split(",")]
        users = [int(u) for u in block.user_ids.strip("{}").split(",")]
        theirs += [item for item, user in zip(items, users, strict=True) if user == judge.pk]
        written = block.first_position + block.slots

    first = assignment_claim_next(project=lazy.project, user=judge, kind="answer")

    assert (first.user_id, first.status, first.target_item_id) == (judge.pk, "active", theirs[0])
    assert Assignment.objects.filter(project=lazy.project, kind="answer").count() == written
    assert Assignment.objects.filter(user=judge, kind="answer", status="pending").count() == CLAIMS_AT_ONCE - 1
    assert PlannedBlock.objects.filter(project=lazy.project).count() == 24 - written // 3
    # What was written moved from planned to pending (and active), nothing counted twice.
    assert sum(tallies(lazy).values()) == SLOTS
    assert sum(n for (_, status), n in tallies(lazy).items() if status == PLANNED) == SLOTS - written


def test_the_overview_counts_planned_slots_as_the_plan_written_at_once(worlds):
    lazy, eager = worlds
    assignment_claim_next(project=lazy.project, user=lazy.people[1], kind="answer")  # some blocks written

    seen, expected = judging_overview(project=lazy.project), judging_overview(project=eager.project)

    assert seen["fully_planned"] == expected["fully_planned"] == 24
    assert seen["histogram"] == expected["histogram"] == [(0, 24, 0), (1, 0, 0), (2, 0, 0), (3, 0, 24)]
    # Per annotator: open work is pending (written) or planned (not yet); one item is leased.
    assert [a["pending"] + a["active"] for a in seen["annotators"]] == [18, 18, 18, 18]
    assert [a["active"] for a in seen["annotators"]] == [0, 1, 0, 0]


def test_a_replan_writes_the_waiting_blocks_first(worlds, settings):
    lazy, eager = worlds
    for world in (lazy, eager):
        newcomer = make_user(f"{world.project.slug}-new")
        membership_add(project=world.project, user=newcomer, role=Membership.Role.ANNOTATOR, code="W5")
        world.people.append(newcomer)
        client, base = client_for(world.people[0]), f"/api/projects/{world.project.slug}/answers"
        for _ in range(2):
            task = client.post(f"{base}/next/", {}, format="json").json()
            client.post(f"{base}/{task['id']}/", {"answer": "C"}, format="json")
        Membership.objects.filter(project=world.project, user=world.people[3]).update(is_active=False)

    summaries = []
    for world in (lazy, eager):
        settings.GOTONG_PLAN_BLOCKS_FROM = world.blocks_from
        summaries.append(judging_plan(project=world.project, seed=SEED))

    assert summaries[0] == summaries[1]
    assert summaries[0].moved == 18  # the leaver's open work
    # The first plan's blocks were all written before the re-plan read the assignments; the re-plan's
    # own 18 slots are big enough here to wait in blocks in their turn, after every earlier position.
    assert min(PlannedBlock.objects.filter(project=lazy.project).values_list("first_position", flat=True)) == SLOTS
    folded = {}
    for (n, status), count in tallies(lazy).items():
        key = (n, "pending" if status == PLANNED else status)
        folded[key] = folded.get(key, 0) + count
    assert folded == tallies(eager)
    assert answer_everything_through_the_api(lazy) == answer_everything_through_the_api(eager)
    assert rows(lazy) == rows(eager)
    assert tallies(lazy) == tallies(eager)
    assert sum(n for (_, status), n in tallies(lazy).items() if status != "cancelled") == SLOTS


def test_a_skip_while_blocks_wait_goes_to_the_least_loaded_judge_at_the_end_of_the_queue(settings):
    # Six annotators: an item's three judges and its author leave two to choose from, by their open
    # work, which counts the slots not written yet.
    lazy, eager = plan_both(settings, extra=2)
    replacements = []
    for world in (lazy, eager):
        judge = world.people[0]
        claimed = assignment_claim_next(project=world.project, user=judge, kind="answer")
        assignment_skip(assignment_id=claimed.pk, user=judge, reason="unknown_concept")
        replacements.append(Assignment.objects.get(project=world.project, position=SLOTS))

    lazy_new, eager_new = replacements
    assert (lazy_new.status, index_of(lazy)[lazy_new.target_item_id]) == (
        eager_new.status,
        index_of(eager)[eager_new.target_item_id],
    )
    assert lazy.people.index(lazy_new.user) == eager.people.index(eager_new.user)
    assert answer_everything_through_the_api(lazy) == answer_everything_through_the_api(eager)
    assert rows(lazy) == rows(eager)


def test_an_item_sent_back_before_its_block_is_written_gets_no_judges(worlds):
    lazy, _ = worlds
    last_block = PlannedBlock.objects.filter(project=lazy.project).order_by("-first_position").first()
    sent_back = int(last_block.item_ids.strip("{}").split(",")[0])
    Item.objects.filter(pk=sent_back).update(status=Item.Status.REVISION_REQUESTED)

    handed = answer_everything_through_the_api(lazy)

    assert sum(len(items) for items in handed.values()) == SLOTS - 3
    assert not Assignment.objects.filter(target_item_id=sent_back).exists()
    assert all(index_of(lazy)[sent_back] not in items for items in handed.values())
    # Every planned slot is accounted for: written and done, or dropped with its block.
    assert tallies(lazy) == {(n, "done"): n_done for n, n_done in _done_per_judge(lazy).items()}
    assert sum(_done_per_judge(lazy).values()) == SLOTS - 3


def _done_per_judge(world) -> dict[int, int]:
    people = {p.pk: n for n, p in enumerate(world.people)}
    return {
        people[user_id]: n
        for user_id, n in Assignment.objects.filter(project=world.project, kind="answer", status="done")
        .values_list("user_id")
        .annotate(n=Count("id"))
        .order_by()
    }


@pytest.mark.django_db(transaction=True)
def test_judges_claiming_at_once_while_blocks_wait_never_share_a_unit(settings):
    settings.GOTONG_PLAN_BLOCKS_FROM = 1
    settings.GOTONG_PLAN_BLOCK_SLOTS = 3
    world = make_world(slug="race-blocks", items_per_author=6)
    judging_plan(project=world.project, seed=SEED)
    # Two tabs per judge, all eight claiming at the same moment, four rounds.
    claimers = [judge for judge in world.people for _ in range(2)]
    claimed = []
    for _ in range(4):
        outcomes = run_together(
            [lambda j=judge: assignment_claim_next(project=world.project, user=j, kind="answer") for judge in claimers]
        )
        assert [o.error for o in outcomes] == [None] * 8
        claimed += [o.value for o in outcomes]

    ids = [a.pk for a in claimed]
    assert len(ids) == len(set(ids)) == 32
    assert len({(a.user_id, a.target_item_id) for a in claimed}) == 32
    written = Assignment.objects.filter(project=world.project, kind="answer")
    assert written.count() == written.values("user_id", "target_item_id").distinct().count()
    assert written.filter(status="active").count() == 32
    assert (
        sum(n for n in AssignmentTally.objects.filter(project=world.project, kind="answer").values_list("n", flat=True))
        == SLOTS
    )


def test_the_slots_of_a_deleted_account_are_dropped_when_their_block_is_written(settings):
    lazy, _ = plan_both(settings, extra=2)
    gone = lazy.people[4]  # an extra annotator: wrote no item, so the account can be deleted
    planned_for_gone = AssignmentTally.objects.get(project=lazy.project, user=gone, status=PLANNED).n
    gone.delete()
    lazy.people.remove(gone)

    handed = answer_everything_through_the_api(lazy)

    assert planned_for_gone == 12
    assert sum(len(items) for items in handed.values()) == SLOTS - planned_for_gone
    assert PlannedBlock.objects.filter(project=lazy.project).count() == 0
    assert Assignment.objects.filter(project=lazy.project, kind="answer").count() == SLOTS - planned_for_gone


def test_next_costs_its_usual_queries_while_blocks_wait_and_a_few_more_once_a_block(
    settings, django_assert_max_num_queries
):
    from tests.api.test_judging_query_counts import MAX_QUERIES_NEXT

    settings.GOTONG_PLAN_BLOCKS_FROM = 1
    settings.GOTONG_PLAN_BLOCK_SLOTS = 60  # 20 items: the judge gets 14 or 15 of them, one block is enough
    world = make_world(slug="q-blocks", items_per_author=6)
    judging_plan(project=world.project, seed=SEED)
    judge = world.people[0]
    client, base = client_for(judge), f"/api/projects/{world.project.slug}/answers"
    first_block = PlannedBlock.objects.get(project=world.project, first_position=0)
    theirs = first_block.user_ids.strip("{}").split(",").count(str(judge.pk))

    # The usual next, then: the lock, the judge's pending units counted (up to 8), the first block's id, its
    # rows written, the block dropped with the tallies lowered, counted again, the claim again, and the
    # savepoint and its release that the test's transaction adds around the write.
    with django_assert_max_num_queries(MAX_QUERIES_NEXT + 9):
        writing = client.post(f"{base}/next/", {}, format="json")
    client.post(f"{base}/{writing.json()['id']}/", {"answer": "A"}, format="json")
    with django_assert_max_num_queries(MAX_QUERIES_NEXT):
        usual = client.post(f"{base}/next/", {}, format="json")

    assert (writing.status_code, usual.status_code) == (200, 200)
    assert list(PlannedBlock.objects.filter(project=world.project).values_list("first_position", flat=True)) == [60]
    assert Assignment.objects.filter(project=world.project, kind="answer").count() == 60
    assert theirs >= 8
    assert Assignment.objects.filter(project=world.project, user=judge, kind="answer").count() == theirs
