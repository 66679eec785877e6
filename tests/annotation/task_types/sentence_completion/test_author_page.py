"""The author's page: a new unit starts with the country the annotator was screened for (their profile's);
a refused submission says why and saves nothing."""

import re

import pytest

from annotation.models import Assignment, Item
from tests.annotation.task_types.sentence_completion.world import make_world

pytestmark = pytest.mark.django_db


def test_a_new_unit_starts_with_the_authors_country(client):
    world = make_world()
    author = world.authors["KSA"][0]
    client.force_login(author)

    response = client.get("/p/ac/author/", follow=True)

    html = response.content.decode()
    assert re.search(r"/p/ac/author/\d+/$", response.redirect_chain[-1][0])
    assert '<option value="KSA" selected>KSA (Gulf)</option>' in html
    assert (
        '<textarea name="premise" cols="40" rows="2" dir="rtl" autocomplete="off" autofocus maxlength="2000" '
        'lang="ar" id="id_premise">' in html
    )  # the item's fields take the project's direction; the controls follow the interface


def test_two_equal_completions_are_refused_and_nothing_is_saved(client):
    world = make_world()
    author = world.authors["Egypt"][0]
    client.force_login(author)
    url = client.get("/p/ac/author/", follow=True).redirect_chain[-1][0]
    before = list(Assignment.objects.filter(user=author).values_list("pk", "status"))

    response = client.post(
        url,
        {
            "premise": "يقوم أحمد بتحضير الفول",
            "completion_a": "يتم تناوله بالخبز",
            "completion_b": "يتم تناوله بالخبز",
            "completion_c": "يتم تناوله مع الأرز",
            "answer": "A",
            "country": "Egypt",
            "relevant_to_this_country": "yes",
            "relevant_to_other_countries": "no",
            "action": "submit",
        },
    )

    assert "Completion B repeats completion A." in response.content.decode()
    assert Item.objects.filter(project=world.project).count() == 0
    assert list(Assignment.objects.filter(user=author).values_list("pk", "status")) == before


def test_the_api_refuses_the_same_item_with_the_same_message(client):
    world = make_world()
    author = world.authors["Egypt"][0]
    client.force_login(author)
    assignment = Assignment.objects.filter(user=author, kind="author").order_by("pk").first()
    before = list(Assignment.objects.filter(user=author).values_list("pk", "status"))

    response = client.post(
        f"/api/projects/ac/assignments/{assignment.pk}/submit/",
        {
            "payload": {
                "premise": "Ahmed prepares beans",
                "completions": ["يتم تناوله بالخبز", "يتم تناوله بالخبز", "يتم تناوله مع الأرز"],
                "answer": "A",
                "country": "Egypt",
                "relevant_to_this_country": True,
                "relevant_to_other_countries": False,
            },
            "justification": "",
        },
        content_type="application/json",
    )

    assert (response.status_code, response.json()) == (
        400,
        {
            "detail": "The item can't be submitted yet.",
            "code": "invalid",
            "errors": {
                "premise": ["Write the premise in Arabic script."],
                "completion_b": ["Completion B repeats completion A."],
            },
        },
    )
    assert Item.objects.filter(project=world.project).count() == 0
    assert list(Assignment.objects.filter(user=author).values_list("pk", "status")) == before
