"""What each demo project starts with (load_demo): items through review, judging planned and the first
judgments done, so judging, the report and the export show something at once; the IndoPref and
ArabCulture demos' own team (rater groups; countries and national reviewers)."""

from collections import Counter
from io import StringIO

import pytest
from django.core.management import call_command

from annotation.models import AnnotatorProfile, Assignment, Concept, Item, Judgment, Membership, Project
from qc.models import GoldDecision, Review

ANNOTATORS = ["w1", "w2", "w3", "w4", "w5", "w6"]


def run_demo() -> str:
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def project_state(slug: str) -> dict:
    project = Project.objects.get(slug=slug)
    return {
        "items": dict(Counter(Item.objects.filter(project=project).values_list("status", "source"))),
        "assignments": dict(Counter(Assignment.objects.filter(project=project).values_list("kind", "status"))),
        "reviews": dict(Counter(Review.objects.filter(item__project=project).values_list("decision", flat=True))),
        "judgments": Judgment.objects.filter(item__project=project).count(),
    }


@pytest.mark.django_db
def test_csqa_nli_and_kalahi_demos_start_with_approved_items_and_judgments():
    run_demo()

    # csqa: three concepts written and approved; five answerers each; ten answers given (two items complete)
    assert project_state("demo-csqa") == {
        "items": {("gold", "human"): 2, ("approved", "human"): 1},
        "assignments": {
            ("author", "done"): 3,
            ("author", "pending"): 97,
            ("answer", "done"): 10,
            ("answer", "pending"): 5,
        },
        "reviews": {"approve": 3},
        "judgments": 10,
    }
    # NLI: two premises written (12 pairs) and approved; every pair to 2 validators; six labels given,
    # each the author's, so three pairs have the 3 matching labels of a gold label
    assert project_state("demo-nli") == {
        "items": {("gold", "human"): 3, ("approved", "human"): 9},
        "assignments": {
            ("author", "done"): 2,
            ("author", "pending"): 10,
            ("validate", "done"): 6,
            ("validate", "pending"): 18,
        },
        "reviews": {"approve": 12},
        "judgments": 6,
    }
    # KALAHI: two base prompts written and approved; three validators each; the first one's three chose
    # the best response
    assert project_state("demo-kalahi") == {
        "items": {("gold", "human"): 1, ("approved", "human"): 1},
        "assignments": {
            ("author", "done"): 2,
            ("author", "pending"): 28,
            ("validate", "done"): 3,
            ("validate", "pending"): 3,
        },
        "reviews": {"approve": 2},
        "judgments": 3,
    }
    assert list(
        GoldDecision.objects.filter(item__project__slug__in=["demo-csqa", "demo-nli", "demo-kalahi"])
        .values_list("item__project__slug", "outcome")
        .order_by("item__project__slug", "outcome")
        .distinct()
    ) == [("demo-csqa", "gold"), ("demo-kalahi", "gold"), ("demo-nli", "gold")]


@pytest.mark.django_db
def test_preference_demo_has_imported_model_responses_two_rater_groups_and_first_ratings():
    run_demo()

    project = Project.objects.get(slug="demo-preference")
    assert (project.name, project.authors_per_concept) == ("Gotong demo: Indonesian preference (IndoPref)", 1)
    assert dict(
        Membership.objects.filter(project=project, user__username__in=ANNOTATORS).values_list("user__username", "group")
    ) == {"w1": "A", "w2": "A", "w3": "A", "w4": "B", "w5": "B", "w6": "B"}
    prompts = Item.objects.filter(project=project).order_by("external_id").select_related("current_version")
    assert [p.external_id for p in prompts] == [f"demo-pref-{n}" for n in range(1, 7)]
    assert {
        tuple((r["id"], r["model"], r["source"]) for r in p.current_version.payload["responses"]) for p in prompts
    } == {(("r1", "sahabat-7b", "import"), ("r2", "nusantara-chat", "import"), ("r3", "gpt-mini", "import"))}
    # 20 prompt slots to write (ten categories x 2) + the six imported prompts' units
    assert Concept.objects.filter(project=project).count() == 26
    assert project_state("demo-preference") == {
        "items": {("gold", "import"): 4, ("approved", "import"): 2},
        "assignments": {("author", "pending"): 20, ("rate", "done"): 8, ("rate", "pending"): 4},
        "reviews": {},
        "judgments": 8,
    }
    # the first four prompts rated by one rater of each group: decided; the last two wait for their raters
    ratings = Judgment.objects.filter(item__project=project)
    assert sorted(Counter(ratings.values_list("item__external_id", flat=True)).items()) == [
        (f"demo-pref-{n}", 2) for n in range(1, 5)
    ]
    assert sorted(GoldDecision.objects.filter(item__project=project).values_list("item__external_id", "outcome")) == [
        (f"demo-pref-{n}", "gold" if n <= 4 else "pending") for n in range(1, 7)
    ]
    for rating in ratings.select_related("user"):
        assert rating.value["group"] == {"w1": "A", "w2": "A", "w3": "A"}.get(rating.user.username, "B")
        assert len(rating.value["ratings"]) == 3


@pytest.mark.django_db
def test_arabculture_demo_has_countries_national_reviewers_and_peer_checks():
    output = run_demo()

    project = Project.objects.get(slug="demo-arabculture")
    assert (project.task_type, project.task_settings["same_country"]) == ("sentence_completion", True)
    assert list(project.languages.values_list("code", "direction")) == [("ar", "rtl")]
    assert list(
        AnnotatorProfile.objects.filter(membership__project=project, membership__user__username__in=ANNOTATORS)
        .order_by("membership__user__username")
        .values_list("membership__user__username", "country", "region", "native_languages")
    ) == [
        ("w1", "Egypt", "Nile Valley", "ar"),
        ("w2", "Egypt", "Nile Valley", "ar"),
        ("w3", "Morocco", "North Africa", "ar"),
        ("w4", "Morocco", "North Africa", "ar"),
        ("w5", "Jordan", "Levant", "ar"),
        ("w6", "Jordan", "Levant", "ar"),
    ]
    assert list(
        Membership.objects.filter(project=project, role="reviewer")
        .order_by("user__username")
        .values_list("user__username", "countries")
    ) == [
        ("reviewer", []),
        ("reviewer-egypt", ["Egypt"]),
        ("reviewer-jordan", ["Jordan"]),
        ("reviewer-morocco", ["Morocco"]),
    ]
    assert "  reviewer-egypt   reviewer       QC reviewer for Egypt (demo-arabculture)" in output

    # each writer's first item: written in their country, approved by that country's reviewer
    items = Item.objects.filter(project=project).select_related("author", "current_version").order_by("id")
    assert sorted((i.author.username, i.current_version.payload["country"]) for i in items) == [
        ("w1", "Egypt"),
        ("w2", "Egypt"),
        ("w3", "Morocco"),
        ("w4", "Morocco"),
        ("w5", "Jordan"),
        ("w6", "Jordan"),
    ]
    assert sorted(
        Review.objects.filter(item__project=project).values_list("item__author__username", "reviewer__username")
    ) == [
        ("w1", "reviewer-egypt"),
        ("w2", "reviewer-egypt"),
        ("w3", "reviewer-morocco"),
        ("w4", "reviewer-morocco"),
        ("w5", "reviewer-jordan"),
        ("w6", "reviewer-jordan"),
    ]
    assert project_state("demo-arabculture")["assignments"] == {
        ("author", "done"): 6,
        ("author", "pending"): 6,
        ("answer", "done"): 3,
        ("answer", "pending"): 3,
    }
    # stage 2: three peer checks done, each by a peer of the author's country; the item is kept when the
    # peer chose the author's completion and discarded otherwise
    peers = Judgment.objects.filter(item__project=project).select_related("item__current_version", "item__author")
    assert peers.count() == 3
    country = {f"w{n}": c for n, c in zip(range(1, 7), ["Egypt"] * 2 + ["Morocco"] * 2 + ["Jordan"] * 2, strict=True)}
    for peer in peers.select_related("user"):
        assert peer.user_id != peer.item.author_id
        assert country[peer.user.username] == country[peer.item.author.username]
        expected = "gold" if peer.value["answer"] == peer.item.current_version.payload["answer"] else "excluded"
        assert (peer.item.status, GoldDecision.objects.get(item=peer.item).outcome) == (expected, expected)
    assert Item.objects.filter(project=project, status="approved").count() == 3
