"""A two-country ArabCulture project (Egypt, KSA), two annotators and one national reviewer each.

`authored_world` has every annotator write 10 items (40 subtopic units, one author each), the item of
unit j by author a with the answer "ABC"[j % 3]. `two_stage_world` then runs both stages:

- stage 1: each national reviewer rejects item 0 of each author of their country, sends item 1 back
  once (resubmitted unchanged, then approved) and approves the rest;
- stage 2: the peer (the other annotator of the author's country) answers every approved item, wrongly
  for items 2 and 3 of Egypt's authors and item 2 of KSA's.

So per country: written 20, rejected 2; discarded Egypt 4, KSA 2; kept Egypt 14, KSA 16.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model

from annotation.models import Assignment, Item, Membership, Project
from annotation.services.assignments import assignment_claim_next, assignment_plan_authoring
from annotation.services.catalog import concepts_import
from annotation.services.items import unit_submit
from annotation.services.judging import judging_plan
from annotation.services.judgments import judgment_record
from annotation.services.members import member_set_countries
from annotation.services.projects import membership_add, profile_update, project_create
from annotation.task_types.sentence_completion.judging import shuffled_order
from annotation.task_types.sentence_completion.payload import LETTERS
from qc.services import review_claim_next, review_decide
from tests.annotation.task_types.sentence_completion.data import payload

User = get_user_model()
COUNTRIES = ("Egypt", "KSA")
TOPICS = ("Food", "Weddings", "Celebrations", "Habits")
ITEMS_PER_AUTHOR = 10
WRONG = {"Egypt": (2, 3), "KSA": (2,)}


@dataclass
class World:
    project: Project
    admin: object
    authors: dict[str, list] = field(default_factory=dict)  # country -> [user, user]
    reviewers: dict[str, object] = field(default_factory=dict)  # country -> reviewer
    country_of: dict[int, str] = field(default_factory=dict)  # user id -> country
    items: dict[int, list[Item]] = field(default_factory=dict)  # author id -> items in writing order


def make_world(*, slug: str = "ac", password: str | None = None) -> World:
    admin = User.objects.create_user(username=f"{slug}-admin", password=password)
    project = project_create(
        creator=admin,
        name="ArabCulture pilot",
        slug=slug,
        task_type="sentence_completion",
        languages=[{"code": "ar", "name": "العربية", "direction": "rtl"}],
        guidelines="اكتب مقدمة وثلاث تكملات.",
        authors_per_concept=1,
        plan_seed=7,
    )
    world = World(project=project, admin=admin)
    for country in COUNTRIES:
        world.authors[country] = []
        for n in (1, 2):
            user = User.objects.create_user(username=f"{slug}-{country.lower()}-{n}", password=password)
            membership = membership_add(
                project=project, user=user, role=Membership.Role.ANNOTATOR, code=f"{country}-{n}"
            )
            profile_update(membership=membership, country=country)
            world.authors[country].append(user)
            world.country_of[user.pk] = country
        reviewer = User.objects.create_user(username=f"{slug}-{country.lower()}-reviewer", password=password)
        membership = membership_add(project=project, user=reviewer, role=Membership.Role.REVIEWER)
        member_set_countries(membership=membership, countries=[country])
        world.reviewers[country] = reviewer
    units = "category,concept\n" + "".join(
        f"{TOPICS[j % len(TOPICS)]},subtopic-{j:02d}\n" for j in range(ITEMS_PER_AUTHOR * 4)
    )
    concepts_import(project=project, data=units.encode(), filename="units.csv")
    assignment_plan_authoring(project=project)
    return world


def author_all(world: World) -> None:
    k = 0
    for country, users in world.authors.items():
        for user in users:
            world.items[user.pk] = []
            for j in range(ITEMS_PER_AUTHOR):
                assignment = assignment_claim_next(project=world.project, user=user, kind=Assignment.Kind.AUTHOR)
                data = payload(k, answer=LETTERS[j % 3], country=country, other=j % 2 == 0)
                item = unit_submit(assignment_id=assignment.pk, user=user, data=data)[0]
                world.items[user.pk].append(item)
                k += 1


def authored_world(**kwargs) -> World:
    world = make_world(**kwargs)
    author_all(world)
    return world


def review_all(world: World) -> None:
    for reviewer in world.reviewers.values():
        revised: set[int] = set()
        while (item := review_claim_next(project=world.project, reviewer=reviewer)) is not None:
            position = next(j for j, i in enumerate(world.items[item.author_id]) if i.pk == item.pk)
            item.refresh_from_db()
            version = item.current_version_id
            if position == 0:
                review_decide(item_id=item.pk, version_id=version, reviewer=reviewer, decision="reject", feedback="خطأ")
            elif position == 1 and item.pk not in revised:
                revised.add(item.pk)
                review_decide(
                    item_id=item.pk,
                    version_id=version,
                    reviewer=reviewer,
                    decision="revise",
                    feedback="راجع اللغة",
                    error_type_codes=["language"],
                )
                author = User.objects.get(pk=item.author_id)
                unit_submit(assignment_id=item.assignment_id, user=author, data=item.current_version.payload)
            else:
                review_decide(item_id=item.pk, version_id=version, reviewer=reviewer, decision="approve")


def peer_letter(world: World, item: Item, *, right: bool) -> str:
    """The letter, as the peer sees the options, of the author's completion (or of another one)."""
    order = shuffled_order(item.pk, world.project.plan_seed)
    author_index = LETTERS.index(item.current_version.payload["answer"])
    shown = order.index(author_index) if right else order.index((author_index + 1) % 3)
    return LETTERS[shown]


def verify_all(world: World) -> None:
    judging_plan(project=world.project)
    for assignment in Assignment.objects.filter(project=world.project, kind="answer").select_related(
        "target_item__current_version", "user"
    ):
        item = assignment.target_item
        position = next(j for j, i in enumerate(world.items[item.author_id]) if i.pk == item.pk)
        right = position not in WRONG[world.country_of[item.author_id]]
        judgment_record(
            assignment_id=assignment.pk, user=assignment.user, data={"choice": peer_letter(world, item, right=right)}
        )


def two_stage_world(**kwargs) -> World:
    world = authored_world(**kwargs)
    review_all(world)
    verify_all(world)
    return world
