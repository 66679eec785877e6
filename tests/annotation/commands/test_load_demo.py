from collections import Counter
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from annotation.models import (
    AnnotatorProfile,
    Assignment,
    Category,
    Concept,
    Item,
    Judgment,
    Membership,
    Project,
    ProjectLanguage,
)
from qc.models import ErrorType, GoldDecision, Review

User = get_user_model()

ANNOTATORS = ["w1", "w2", "w3", "w4", "w5", "w6"]


def run_demo() -> str:
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def snapshot() -> dict:
    return {
        "projects": list(Project.objects.values_list("slug", "name", "authors_per_concept", "settings")),
        "users": list(User.objects.order_by("username").values_list("username", "password", "is_staff")),
        "memberships": list(Membership.objects.order_by("id").values_list("user__username", "role", "code")),
        "categories": list(Category.objects.order_by("id").values_list("name", "translations")),
        "concepts": list(Concept.objects.order_by("id").values_list("name", "translations")),
        "assignments": list(
            Assignment.objects.order_by("id").values_list("id", "user__username", "concept__name", "position", "status")
        ),
        "error_types": ErrorType.objects.count(),
        "items": list(Item.objects.order_by("id").values_list("id", "status", "current_version__payload")),
        "judgments": list(Judgment.objects.order_by("id").values_list("id", "user__username", "value")),
        "reviews": list(Review.objects.order_by("id").values_list("id", "item_id", "decision")),
        "gold": list(GoldDecision.objects.order_by("id").values_list("item_id", "outcome")),
    }


@pytest.mark.django_db
def test_load_demo_creates_the_project_team_catalogue_and_balanced_plan():
    output = run_demo()

    assert list(Project.objects.order_by("slug").values_list("slug", "task_type")) == [
        ("demo-arabculture", "sentence_completion"),
        ("demo-csqa", "csqa"),
        ("demo-kalahi", "cultural_prompt"),
        ("demo-nli", "nli"),
        ("demo-preference", "preference"),
    ]
    project = Project.objects.get(slug="demo-csqa")
    assert (project.slug, project.name, project.task_type) == (
        "demo-csqa",
        "Gotong demo: Indonesian commonsense QA",
        "csqa",
    )
    task_settings = project.task_settings
    assert (
        project.authors_per_concept,
        task_settings["answerers_per_item"],
        task_settings["ambiguity_threshold"],
    ) == (2, 5, 3)
    assert project.guidelines.startswith("# Writing commonsense questions\n")
    assert list(ProjectLanguage.objects.filter(project=project).values_list("code", "name", "direction")) == [
        ("id", "Indonesian", "ltr"),
        ("su", "Sundanese", "ltr"),
    ]
    assert ErrorType.objects.filter(project=project).count() == 11

    assert User.objects.count() == 11  # + the ArabCulture demo's three national reviewers
    assert list(User.objects.filter(is_staff=True).values_list("username", flat=True)) == ["admin"]
    assert list(
        Membership.objects.filter(project=project)
        .order_by("user__username")
        .values_list("user__username", "role", "code", "is_active")
    ) == [
        ("admin", "admin", "", True),
        ("reviewer", "reviewer", "", True),
        ("w1", "annotator", "W1", True),
        ("w2", "annotator", "W2", True),
        ("w3", "annotator", "W3", True),
        ("w4", "annotator", "W4", True),
        ("w5", "annotator", "W5", True),
        ("w6", "annotator", "W6", True),
    ]
    assert list(
        AnnotatorProfile.objects.filter(membership__project=project, membership__user__username__in=ANNOTATORS)
        .order_by("membership__user__username")
        .values_list("region", "native_languages", "ethnicity", "years_in_region", "country")
    ) == [
        ("West Java", "su,id", "Sundanese", 23, "Indonesia"),
        ("Central Java", "jv,id", "Javanese", 25, "Indonesia"),
        ("East Java", "jv,id", "Javanese", 21, "Indonesia"),
        ("Greater Jakarta", "id", "Betawi", 26, "Indonesia"),
        ("Greater Jakarta", "id,min", "Minangkabau", 12, "Indonesia"),
        ("Bali", "ban,id", "Balinese", 24, "Indonesia"),
    ]

    assert list(Category.objects.filter(project=project).order_by("name").values_list("name", "translations")) == [
        ("activity", {"id": "aktivitas", "su": "kagiatan"}),
        ("culinary", {"id": "kuliner", "su": "kuliner"}),
        ("culture", {"id": "budaya", "su": "budaya"}),
        ("history", {"id": "sejarah", "su": "sajarah"}),
        ("place", {"id": "tempat", "su": "tempat"}),
    ]
    concepts = Concept.objects.filter(project=project)
    assert concepts.count() == 50
    assert dict(Counter(concepts.values_list("category__name", flat=True))) == {
        "activity": 10,
        "culinary": 10,
        "culture": 10,
        "history": 10,
        "place": 10,
    }
    assert concepts.exclude(translations={}).count() == 9
    assert concepts.get(name="ketupat").translations == {"su": "kupat"}

    author = Assignment.objects.filter(project=project, kind=Assignment.Kind.AUTHOR)
    assert author.count() == 100
    assert Assignment.objects.filter(project=project).count() == 100 + 15  # + 3 approved items x 5 answerers
    # + the ArabCulture, KALAHI, NLI and preference demos
    assert (Assignment.objects.count(), Concept.objects.count()) == (
        115 + 18 + 36 + 36 + 32,
        50 + 12 + 15 + 12 + 26,
    )
    # the demo's three written concepts
    assert dict(Counter(author.values_list("status", flat=True))) == {"pending": 97, "done": 3}
    # k = 2: every concept has exactly two distinct authors.
    assert set(Counter(author.values_list("concept_id", flat=True)).values()) == {2}
    assert author.values("concept_id", "user_id").distinct().count() == 100
    # 100 slots over 6 annotators: four get 17 and two get 16 (the planner's seed decides who).
    per_user = Counter(author.values_list("user__username", flat=True))
    assert dict(sorted(per_user.items())) == {"w1": 17, "w2": 16, "w3": 17, "w4": 17, "w5": 17, "w6": 16}
    # 20 slots per category over 6 annotators: two get 4, four get 3.
    per_cell = Counter(author.values_list("concept__category__name", "user__username"))
    assert {cat: [per_cell[(cat, u)] for u in ANNOTATORS] for cat in sorted({c for c, _ in per_cell})} == {
        "activity": [4, 3, 3, 3, 4, 3],
        "culinary": [3, 3, 4, 4, 3, 3],
        "culture": [3, 4, 3, 3, 3, 4],
        "history": [3, 3, 4, 4, 3, 3],
        "place": [4, 3, 3, 3, 4, 3],
    }

    assert "Demo loaded." in output
    assert "all with the password: gotong-demo" in output
    for line in [
        # usernames padded to the longest, reviewer-morocco
        "  admin            admin          platform and project admin",
        "  reviewer         reviewer       QC reviewer",
        "  reviewer-egypt   reviewer       QC reviewer for Egypt (demo-arabculture)",
        "  w1               annotator W1   West Java (Sundanese)",
        "  w6               annotator W6   Bali (Balinese)",
    ]:
        assert line in output


@pytest.mark.django_db
def test_demo_users_log_in_with_the_demo_password():
    run_demo()

    for username in ["admin", "reviewer", *ANNOTATORS]:
        assert User.objects.get(username=username).check_password("gotong-demo") is True


@pytest.mark.django_db
def test_load_demo_twice_changes_nothing_and_still_prints_the_accounts():
    run_demo()
    before = snapshot()

    output = run_demo()

    assert snapshot() == before
    # commonsense QA, ArabCulture, KALAHI, NLI, preference
    assert len(before["assignments"]) == 115 + 18 + 36 + 36 + 32
    assert len(before["concepts"]) == 50 + 12 + 15 + 12 + 26
    assert len(before["users"]) == 11
    # items: ArabCulture 6, csqa 3, KALAHI 2, NLI 12, preference 6; judgments 3 + 10 + 3 + 6 + 8
    assert (len(before["items"]), len(before["judgments"]), len(before["reviews"])) == (29, 30, 23)
    assert "The demo was already loaded; nothing changed." in output
    assert "all with the password: gotong-demo" in output
    assert "  w3               annotator W3   East Java (Javanese)" in output


@pytest.mark.django_db
def test_demo_password_can_be_overridden(monkeypatch):
    monkeypatch.setenv("GOTONG_DEMO_PASSWORD", "another-demo-secret")

    output = run_demo()

    assert User.objects.get(username="w2").check_password("another-demo-secret") is True
    assert User.objects.get(username="w2").check_password("gotong-demo") is False
    assert "all with the password: another-demo-secret" in output


@pytest.mark.django_db
def test_load_demo_refuses_production_settings_and_creates_nothing(settings):
    settings.SETTINGS_MODULE = "config.settings.production"

    with pytest.raises(CommandError, match="refusing with production settings"):
        run_demo()

    assert (User.objects.count(), Project.objects.count(), Concept.objects.count()) == (0, 0, 0)


@pytest.mark.django_db
def test_load_demo_creates_the_nli_project_from_its_task_type_with_premises_and_one_writer_each():
    run_demo()

    project = Project.objects.get(slug="demo-nli")
    assert (project.name, project.task_type, project.authors_per_concept) == ("Gotong demo: Indonesian NLI", "nli", 1)
    assert project.task_settings == {
        "annotator_type": "lay",
        "validation_percent": 100,
        "premises_per_document": 5,
        "paragraph_word_limit": 200,
        "qc_review": True,
    }
    assert project.guidelines.startswith("# Writing hypotheses for a premise\n")
    assert list(ProjectLanguage.objects.filter(project=project).values_list("code", "name", "direction")) == [
        ("id", "Indonesian", "ltr")
    ]
    assert ErrorType.objects.filter(project=project).count() == 8
    # the same team as the commonsense-QA demo, with the same profiles
    assert list(
        Membership.objects.filter(project=project)
        .order_by("user__username")
        .values_list("user__username", "role", "code")
    ) == [
        ("admin", "admin", ""),
        ("reviewer", "reviewer", ""),
        *((u, "annotator", u.upper()) for u in ANNOTATORS),
    ]
    assert list(
        AnnotatorProfile.objects.filter(membership__project=project, membership__user__username__in=ANNOTATORS)
        .order_by("membership__user__username")
        .values_list("region", flat=True)
    ) == ["West Java", "Central Java", "East Java", "Greater Jakarta", "Greater Jakarta", "Bali"]

    # premises came in through the premise import: category = source genre, name = premise id, data = premise
    premises = Concept.objects.filter(project=project)
    assert list(Category.objects.filter(project=project).order_by("name").values_list("name", flat=True)) == [
        "news",
        "web",
        "wiki",
    ]
    assert dict(Counter(premises.values_list("category__name", flat=True))) == {"news": 4, "web": 4, "wiki": 4}
    assert premises.get(name="demo-wiki-4").data == {
        "text": "Kota Gunungsitoli terletak di Pulau Nias dan berjarak sekitar 85 mil laut dari Kota Sibolga.",
        "source": "wiki",
        "topic": "geografi",
        "document_id": "wiki-nias",
        "sentence_size": "single",
    }
    assert dict(Counter(premises.values_list("data__sentence_size", flat=True))) == {"single": 10, "double": 2}

    author = Assignment.objects.filter(project=project, kind="author")
    assert dict(Counter(author.values_list("status", "round"))) == {("pending", 1): 10, ("done", 1): 2}
    # one writer per premise; 12 premises over 6 annotators: two each, never two of one genre
    assert set(Counter(author.values_list("concept_id", flat=True)).values()) == {1}
    assert author.count() == 12
    assert dict(Counter(author.values_list("user__username", flat=True))) == dict.fromkeys(ANNOTATORS, 2)
    assert set(Counter(author.values_list("concept__category__name", "user__username")).values()) == {1}


@pytest.mark.django_db
def test_load_demo_twice_leaves_the_nli_project_as_it_was():
    run_demo()
    project = Project.objects.get(slug="demo-nli")
    before = (
        list(Concept.objects.filter(project=project).order_by("id").values_list("id", "name", "data")),
        list(Assignment.objects.filter(project=project).order_by("id").values_list("id", "user_id", "concept_id")),
        list(Membership.objects.filter(project=project).order_by("id").values_list("id", "user_id", "role")),
    )

    output = run_demo()

    after = (
        list(Concept.objects.filter(project=project).order_by("id").values_list("id", "name", "data")),
        list(Assignment.objects.filter(project=project).order_by("id").values_list("id", "user_id", "concept_id")),
        list(Membership.objects.filter(project=project).order_by("id").values_list("id", "user_id", "role")),
    )
    assert after == before
    assert (len(before[0]), len(before[1]), len(before[2])) == (12, 12 + 24, 8)  # + 12 approved pairs x 2
    assert "The demo was already loaded; nothing changed." in output
    assert "Demo project: Gotong demo: Indonesian NLI (demo-nli)" in output
