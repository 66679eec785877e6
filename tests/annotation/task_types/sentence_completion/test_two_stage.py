"""Both QC stages of ArabCulture on 2 countries x 2 annotators x 10 items: national review (stage 1) by a
reviewer of the author's country, peer verification (stage 2) by the other annotator of that country."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from annotation.errors import NotAllowed
from annotation.models import Assignment, Item, Judgment
from annotation.services.judging import judging_plan
from qc.gold import gold_recompute_project
from qc.models import Review
from qc.services import review_claim_next, review_decide
from tests.annotation.task_types.sentence_completion.world import (
    authored_world,
    review_all,
    two_stage_world,
)

pytestmark = pytest.mark.django_db


def _report(world) -> dict:
    out = StringIO()
    call_command("report", world.project.slug, "--json", stdout=out)
    return json.loads(out.getvalue())["completion"]


def test_both_stages_give_the_exact_counts_per_country():
    world = two_stage_world()

    section = _report(world)

    assert (section["items"], section["rejected"], section["discarded"], section["kept"], section["pending"]) == (
        40,
        4,
        6,
        30,
        0,
    )
    assert section["by_country"] == {
        "KSA": {"written": 20, "rejected": 2, "discarded": 2, "kept": 16, "pending": 0},
        "Egypt": {"written": 20, "rejected": 2, "discarded": 4, "kept": 14, "pending": 0},
    }
    assert section["by_region"] == {
        "Gulf": {"written": 20, "rejected": 2, "discarded": 2, "kept": 16, "pending": 0},
        "Nile Valley": {"written": 20, "rejected": 2, "discarded": 4, "kept": 14, "pending": 0},
    }
    assert section["by_annotator"]["Egypt-1"] == {"written": 10, "rejected": 1, "discarded": 2, "kept": 7, "pending": 0}
    assert section["by_annotator"]["KSA-2"] == {"written": 10, "rejected": 1, "discarded": 1, "kept": 8, "pending": 0}
    # Items at an odd position are country-specific (relevant_to_other_countries false). Kept ones: Egypt
    # positions 1, 4..9 per author (odd: 1, 5, 7, 9), KSA 1, 3..9 (odd: 1, 3, 5, 7, 9): 2 x 4 + 2 x 5 = 18.
    assert section["country_specific"] == {"kept": 30, "country_specific": 18, "shared": 12, "unknown": 0, "share": 0.6}
    assert sum(t["written"] for t in section["by_topic"].values()) == 40
    statuses = sorted(Item.objects.filter(project=world.project).values_list("status", flat=True))
    assert statuses.count("rejected") == 4 and statuses.count("excluded") == 6 and statuses.count("gold") == 30


def test_a_discarded_item_keeps_its_reason_and_nothing_is_deleted():
    world = two_stage_world()
    egypt_author = world.authors["Egypt"][0]
    item = world.items[egypt_author.pk][2]

    item.refresh_from_db()

    assert item.status == "excluded"
    assert item.status_reason.startswith("The peer chose completion ")
    assert item.gold_decision.details["author_answer"] == "C"
    assert Item.objects.filter(project=world.project).count() == 40
    judgment = Judgment.objects.get(item=item)
    assert judgment.value["answer"] != "C" and sorted(judgment.value["order"]) == [0, 1, 2]
    assert judgment.value["shown"] == "ABC"[judgment.value["order"].index("ABC".index(judgment.value["answer"]))]


def test_peers_are_always_the_other_annotator_of_the_authors_country():
    world = two_stage_world()

    pairs = list(
        Assignment.objects.filter(project=world.project, kind="answer").values_list("user_id", "target_item__author_id")
    )

    assert len(pairs) == 36  # every approved item, one peer each
    for judge, author in pairs:
        assert judge != author
        assert world.country_of[judge] == world.country_of[author]


def test_a_reviewer_only_gets_and_decides_items_of_their_country():
    world = authored_world()
    egypt_reviewer, ksa_reviewer = world.reviewers["Egypt"], world.reviewers["KSA"]
    ksa_item = world.items[world.authors["KSA"][0].pk][5]
    ksa_item.refresh_from_db()

    claimed = []
    while (item := review_claim_next(project=world.project, reviewer=egypt_reviewer)) is not None:
        claimed.append(item)
        review_decide(item_id=item.pk, version_id=item.current_version_id, reviewer=egypt_reviewer, decision="approve")
    with pytest.raises(NotAllowed, match="your country list only \\(Egypt\\); this author's is KSA"):
        review_decide(
            item_id=ksa_item.pk, version_id=ksa_item.current_version_id, reviewer=egypt_reviewer, decision="approve"
        )

    assert len(claimed) == 20 and {world.country_of[i.author_id] for i in claimed} == {"Egypt"}
    ksa_item.refresh_from_db()
    assert (ksa_item.status, ksa_item.reviewer_id) == ("submitted", None)
    assert not Review.objects.filter(item=ksa_item).exists()
    assert review_claim_next(project=world.project, reviewer=ksa_reviewer).author_id in {
        u.pk for u in world.authors["KSA"]
    }


def test_no_peer_of_the_country_means_no_plan():
    world = authored_world()
    review_all(world)
    # The second KSA annotator moves to Egypt: KSA items have no peer left.
    from annotation.models import AnnotatorProfile

    AnnotatorProfile.objects.filter(membership__user=world.authors["KSA"][1]).update(country="Egypt")
    from annotation.errors import InvalidInput

    with pytest.raises(InvalidInput, match="needs 1 annotators per item"):
        judging_plan(project=world.project)
    assert not Assignment.objects.filter(project=world.project, kind="answer").exists()
    gold_recompute_project(project=world.project)
