"""Guidelines per project, per kind (writing / judging) and per language; the writer's queue
puts sent-back work first and the project page counts it; the judging queue's link in the navigation
counts the open assignments in a constant number of queries."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotation.errors import InvalidInput
from annotation.guidelines import guidelines_pick
from annotation.models import Assignment, Project
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.judging import judging_plan
from annotation.services.projects import project_update
from qc.services import review_request_revision
from tests.annotation.task_types.csqa.world import make_world
from tests.annotation.views.helpers import first_assignment, submitted_item
from tests.conftest import VALID_PAYLOAD
from tests.qc.helpers import make_item

TRANSLATIONS = {"id": {"writing": "Tulis pertanyaan.", "judging": "Jawab seperti orang sekitar Anda."}}


def pick(kind, language, translations=TRANSLATIONS):
    return guidelines_pick(
        default_writing="Write a question.",
        default_judging="Answer as people around you would.",
        translations=translations,
        kind=kind,
        language=language,
    )


def test_guidelines_follow_the_language_then_its_base_then_the_default():
    assert pick("writing", "id") == "Tulis pertanyaan."
    assert pick("judging", "id") == "Jawab seperti orang sekitar Anda."
    assert pick("judging", "id-ID") == "Jawab seperti orang sekitar Anda."
    assert pick("judging", "ar") == "Answer as people around you would."
    assert pick("writing", "en") == "Write a question."
    assert pick("judging", "id", {"id": {"writing": "Tulis."}}) == "Answer as people around you would."
    assert pick("writing", "id", {"id": {"writing": "  "}}) == "Write a question."


def test_an_unknown_kind_is_a_programming_error():
    with pytest.raises(ValueError, match="Unknown guidelines kind 'other'"):
        pick("other", "id")


@pytest.fixture
def judging_world(db):
    world = make_world(slug="gl", items_per_author=1)
    project_update(
        project=world.project,
        guidelines="Writing rules for authors.",
        judging_guidelines="Judging rules: answer as most people would.",
        guidelines_translations={"id": {"judging": "Aturan menjawab: seperti kebanyakan orang."}},
    )
    judging_plan(project=world.project)
    return world


def test_the_judging_page_shows_the_judging_guidelines_not_the_writing_ones(judging_world, client):
    client.force_login(judging_world.people[0])

    response = client.get(reverse("judge_queue", args=["gl"]), follow=True)

    html = response.content.decode()
    assert response.redirect_chain[-1][0].startswith("/p/gl/judge/")
    assert '<div class="guidelines" id="guidelines" data-kind="judging" dir="auto">' in html
    assert "<p>Judging rules: answer as most people would.</p>" in html
    assert "Writing rules for authors." not in html


def test_the_judging_page_shows_the_guidelines_in_the_users_language(judging_world, client):
    client.force_login(judging_world.people[0])

    html = client.get(reverse("judge_queue", args=["gl"]), follow=True, HTTP_ACCEPT_LANGUAGE="id").content.decode()
    arabic = client.get(reverse("judge_queue", args=["gl"]), follow=True, HTTP_ACCEPT_LANGUAGE="ar").content.decode()

    assert "<p>Aturan menjawab: seperti kebanyakan orang.</p>" in html
    assert "Judging rules" not in html
    assert "<p>Judging rules: answer as most people would.</p>" in arabic  # no Arabic text: the default


def test_the_authoring_page_shows_the_writing_guidelines(csqa, client):
    project_update(project=csqa.project, judging_guidelines="Only for judges.")
    assignment_plan_authoring(project=csqa.project)
    annotator = csqa.annotators[0]
    client.force_login(annotator)

    html = client.get(reverse("author_queue", args=["demo"]), follow=True).content.decode()

    assert '<div class="guidelines" id="guidelines" data-kind="writing" dir="auto">' in html
    assert "Write about <strong>the concept</strong>." in html
    assert "Only for judges." not in html


@pytest.mark.django_db
def test_the_settings_page_edits_both_kinds_in_every_project_language(csqa, client):
    client.force_login(csqa.admin)
    data = {
        "name": "Project demo",
        "languages": "id Indonesian ltr\nsu Sundanese ltr",
        "guidelines": "Write.",
        "judging_guidelines": "Judge.",
        "guidelines_writing_id": "Tulis.",
        "guidelines_judging_id": "",
        "authors_per_concept": "2",
        "answerers_per_item": "5",
        "ambiguity_threshold": "3",
        "judging_mode": "fixed",
        "adaptive_confidence": "99",
        "adaptive_min_judges": "2",
        "plan_seed": "0",
    }

    page = client.get(reverse("project_settings", args=["demo"])).content.decode()
    response = client.post(reverse("project_settings", args=["demo"]), data)

    assert 'name="guidelines_writing_id"' in page and 'name="guidelines_judging_id"' in page
    assert '<label for="id_guidelines_judging_id">Judging guidelines in Indonesian</label>' in page
    assert response.status_code == 302
    project = Project.objects.get(slug="demo")
    assert (project.guidelines, project.judging_guidelines, project.guidelines_translations) == (
        "Write.",
        "Judge.",
        {"id": {"writing": "Tulis."}},
    )


@pytest.mark.django_db
def test_guidelines_in_a_language_the_project_lacks_are_refused_and_nothing_changes(csqa):
    with pytest.raises(InvalidInput, match="“fr” is not a language of this project."):
        project_update(
            project=csqa.project, judging_guidelines="New.", guidelines_translations={"fr": {"writing": "x"}}
        )

    csqa.project.refresh_from_db()
    assert (csqa.project.judging_guidelines, csqa.project.guidelines_translations) == ("", {})


def sent_back(csqa, annotator):
    item = submitted_item(csqa, VALID_PAYLOAD, annotator=annotator)
    review_request_revision(
        item_id=item.pk,
        version_id=item.current_version_id,
        reviewer=csqa.reviewer,
        feedback="Perjelas.",
        error_type_codes=["no_valid_answer"],
    )
    return item


@pytest.mark.django_db
def test_sent_back_work_comes_first_in_the_writers_queue(csqa, client):
    annotator = csqa.annotators[0]
    item = sent_back(csqa, annotator)
    other_open = Assignment.objects.filter(user=annotator, status__in=["pending", "active"]).count()
    client.force_login(annotator)

    response = client.get(reverse("author_queue", args=["demo"]))

    assert other_open > 0  # new work was waiting too
    assert response.url == reverse("author_item", args=["demo", item.assignment_id])
    assert Assignment.objects.filter(user=annotator, status="active").count() == 0  # nothing new claimed


@pytest.mark.django_db
def test_without_sent_back_work_the_queue_opens_new_work(csqa, client):
    annotator = csqa.annotators[0]
    submitted_item(csqa, VALID_PAYLOAD, annotator=annotator)
    client.force_login(annotator)

    response = client.get(reverse("author_queue", args=["demo"]))

    assert response.url != reverse("author_item", args=["demo", first_assignment(csqa.project, annotator).pk])
    assert response.url.startswith("/p/demo/author/")


@pytest.mark.django_db
def test_the_project_page_says_how_many_items_wait_for_revision(csqa, client):
    annotator = csqa.annotators[0]
    sent_back(csqa, annotator)
    sent_back(csqa, annotator)
    client.force_login(annotator)
    own = client.get(reverse("project_detail", args=["demo"])).content.decode()
    client.force_login(csqa.admin)
    admin = client.get(reverse("project_detail", args=["demo"])).content.decode()

    assert "2 of your items wait for your revision." in own
    assert "2 items wait for revision by their authors." in admin
    assert '<a href="/p/demo/items/?status=revision_requested">See them</a>' in admin


def nav_page(client, world):
    with CaptureQueriesContext(connection) as queries:
        html = client.get(reverse("project_detail", args=[world.project.slug])).content.decode()
    return html, len(queries)


@pytest.mark.postgres
def test_the_judging_link_counts_open_assignments_in_constant_queries(judging_world, client):
    world, person = judging_world, judging_world.people[0]
    client.force_login(person)
    html, few = nav_page(client, world)

    for k in range(6):
        make_item(world.project, world.people[1], concept=f"baru{k}", question=f"Apa yang baru {k}?")
    judging_plan(project=world.project)
    more_html, many = nav_page(client, world)

    assert '<a href="/p/gl/judge/" id="nav-judge">' in html
    assert '<span class="nav-count" id="nav-judge-count" title="Open assignments">3</span>' in html
    assert '<span class="nav-count" id="nav-judge-count" title="Open assignments">9</span>' in more_html
    assert many == few


@pytest.mark.django_db
def test_reviewers_get_no_judging_link(judging_world, client):
    client.force_login(judging_world.reviewer)
    reviewer_html = client.get(reverse("project_detail", args=["gl"])).content.decode()

    assert 'id="nav-judge"' not in reviewer_html


@pytest.mark.django_db
def test_the_judging_link_speaks_the_users_language(judging_world, client):
    """A protocol's own words (csqa: "Cross-answering") are translated when shown, not fixed at start-up."""
    client.force_login(judging_world.people[0])
    english = client.get(reverse("project_detail", args=["gl"])).content.decode()
    indonesian = client.get(reverse("project_detail", args=["gl"]), HTTP_ACCEPT_LANGUAGE="id").content.decode()

    assert re.search(r'id="nav-judge">Cross-answering <span', english)
    assert re.search(r'id="nav-judge">Jawab silang <span', indonesian)
