"""The known-answer checks' pages: the item page's form (admins only), the settings' rate and pause rule,
the dashboard's table of each annotator's checks (exact figures, queries that don't grow), and the judging
page and API, where a check looks exactly like any other item."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from annotation.models import Assignment, Item, Membership, Project
from annotation.services.judging import judging_plan
from annotation.services.judgments import judgment_record
from annotation.services.known_answers import item_set_known_answer
from annotation.services.projects import membership_add
from tests.annotation.views.helpers import db_snapshot
from tests.api.conftest import client_for
from tests.qc.helpers import CLEAR, make_item, make_project, make_user

pytestmark = pytest.mark.django_db


def _staff(project, slug):
    reviewer = make_user(f"{slug}-reviewer")
    membership_add(project=project, user=reviewer, role=Membership.Role.REVIEWER)
    return reviewer


# --- the item page's form --------------------------------------------------------------------------


def test_an_admin_makes_an_item_a_check_from_its_page_and_back():
    project, people = make_project(slug="ka-page", annotators=2, m=1)
    item = make_item(project, people[0])
    client = Client()
    client.force_login(project.created_by)
    page = client.get(reverse("item_detail", args=[project.slug, item.pk])).content.decode()
    assert 'id="known-answer"' in page
    assert "Make it a check" in page

    response = client.post(
        reverse("item_known_answer", args=[project.slug, item.pk]), {"known_answer": "C"}, follow=True
    )

    assert response.redirect_chain == [(f"/p/{project.slug}/items/{item.pk}/", 302)]
    assert "This item is now a known-answer check." in response.content.decode()
    assert 'value="C"' in response.content.decode()
    assert Item.objects.filter(pk=item.pk).values_list("status", "known_answer").get() == ("check", "C")

    client.post(reverse("item_known_answer", args=[project.slug, item.pk]), {"known_answer": ""})

    assert Item.objects.filter(pk=item.pk).values_list("status", "known_answer").get() == ("approved", "")


def test_an_answer_outside_the_items_answers_is_refused_on_the_page_and_changes_nothing():
    project, people = make_project(slug="ka-bad", annotators=2, m=1)
    item = make_item(project, people[0])
    client = Client()
    client.force_login(project.created_by)
    before = db_snapshot()

    response = client.post(reverse("item_known_answer", args=[project.slug, item.pk]), {"known_answer": "F"})

    assert response.status_code == 400
    html = response.content.decode()
    assert "“F” is not an answer of this item." in html
    assert db_snapshot() == before


@pytest.mark.parametrize("who", ["reviewer", "annotator"])
def test_a_reviewer_or_annotator_neither_sees_the_form_nor_may_post_it(who):
    project, people = make_project(slug=f"ka-{who}", annotators=2, m=1)
    item = make_item(project, people[0])
    user = _staff(project, f"ka-{who}") if who == "reviewer" else people[0]
    client = Client()
    client.force_login(user)
    page = client.get(reverse("item_detail", args=[project.slug, item.pk]))
    before = db_snapshot()

    response = client.post(reverse("item_known_answer", args=[project.slug, item.pk]), {"known_answer": "A"})

    assert page.status_code == 200
    assert 'id="known-answer"' not in page.content.decode()
    assert response.status_code == 404
    assert db_snapshot() == before


# --- settings --------------------------------------------------------------------------------------


def _settings_data(project, **changes):
    data = {
        "name": project.name,
        "languages": "id Indonesian",
        "answerers_per_item": "1",
        "ambiguity_threshold": "3",
        "authors_per_concept": "1",
        "plan_seed": "0",
        "judging_mode": "fixed",
        "adaptive_confidence": "95",
        "adaptive_min_judges": "2",
        "aggregation_model": "dawid_skene",
        "check_every": "10",
        "pause_below_percent": "70",
        "pause_after_checks": "5",
    }
    return {**data, **changes}


def test_the_settings_page_sets_the_check_rate_and_the_pause_rule():
    project, _ = make_project(slug="ka-set", annotators=2, m=1)
    client = Client()
    client.force_login(project.created_by)
    page = client.get(reverse("project_settings", args=[project.slug])).content.decode()
    for name in ("check_every", "pause_below_percent", "pause_after_checks"):
        assert f'name="{name}"' in page

    response = client.post(reverse("project_settings", args=[project.slug]), _settings_data(project))

    assert response.status_code == 302
    saved = Project.objects.get(pk=project.pk)
    assert (saved.check_every, saved.pause_below_percent, saved.pause_after_checks) == (10, 70, 5)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("check_every", "1", "Use 0 (no checks) or 2 and more: every item can&#x27;t be a check."),
        ("pause_below_percent", "101", "Ensure this value is less than or equal to 100."),
        ("pause_after_checks", "0", "Ensure this value is greater than or equal to 1."),
    ],
)
def test_the_settings_page_refuses_a_check_setting_out_of_range_and_changes_nothing(field, value, message):
    project, _ = make_project(slug="ka-refuse", annotators=2, m=1)
    client = Client()
    client.force_login(project.created_by)
    before = db_snapshot()

    response = client.post(reverse("project_settings", args=[project.slug]), _settings_data(project, **{field: value}))

    assert response.status_code == 400
    assert message in response.content.decode()
    assert db_snapshot() == before


# --- the dashboard's table -------------------------------------------------------------------------


def _answer(assignment, answer):
    judgment_record(
        assignment_id=assignment.pk,
        user=assignment.user,
        data={"answer": answer, "uncertain": False, "question_ambiguous": False, "option_ambiguous": CLEAR},
    )


def checked_world(slug, annotators):
    """Two checks (expected A) written by W1, judged by everyone else: W2 right on both, W3 on one,
    the others wrong on both."""
    project, people = make_project(slug=slug, annotators=annotators, m=1)
    for n in range(2):
        check = make_item(project, people[0], question=f"Check {n}?")
        item_set_known_answer(item_id=check.pk, project=project, answer="A")
    for n in range(2 * annotators):
        make_item(project, people[n % annotators], question=f"Ordinary {n}?")
    project.check_every = 2
    project.save(update_fields=["check_every"])
    judging_plan(project=project)
    for position, judge in enumerate(people[1:]):
        answers = ["A", "A"] if position == 0 else ["A", "B"] if position == 1 else ["C", "D"]
        checks = Assignment.objects.filter(project=project, user=judge, target_item__status="check")
        for assignment, answer in zip(checks.order_by("target_item_id"), answers, strict=True):
            _answer(assignment, answer)
    return project, people


def test_the_dashboard_shows_each_annotators_checks_with_exact_figures():
    project, people = checked_world("ka-dash", 4)
    client = Client()
    client.force_login(project.created_by)

    html = client.get(reverse("dashboard", args=[project.slug])).content.decode()

    rows = re.findall(
        r'<tr id="checks-(\d+)">\s*<th scope="row"><span dir="auto">(\w+)</span></th>\s*'
        r"<td>(\d+)</td>\s*<td>(\d+)</td>\s*<td>([^<]+)</td>",
        html,
    )
    assert rows == [
        (str(people[1].pk), "W2", "2", "2", "100%"),
        (str(people[2].pk), "W3", "2", "1", "50%"),
        (str(people[3].pk), "W4", "2", "0", "0%"),
    ]


@pytest.mark.parametrize("annotators", [4, 24])
def test_the_dashboards_queries_stay_the_same_with_more_annotators_checks(annotators, django_assert_max_num_queries):
    project, _ = checked_world(f"ka-q{annotators}", annotators)
    client = Client()
    client.force_login(project.created_by)
    client.get(reverse("dashboard", args=[project.slug]))  # warm up the connection

    with django_assert_max_num_queries(19):  # the overview's 18, plus the checks' scores
        response = client.get(reverse("dashboard", args=[project.slug]))

    assert response.content.decode().count('<tr id="checks-') == annotators - 1


# --- a check looks like any other item -------------------------------------------------------------


def _normalised(text, project, pairs):
    for item, word in pairs:
        text = text.replace(item.current_version.payload["question"], word)
    # A page's own CSRF token and the ids in addresses differ between any two pages.
    text = re.sub(r'(csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]*"', r"\1TOKEN", text)
    return re.sub(r"\d+", "0", text)


def test_a_checks_judging_page_and_api_are_shaped_exactly_like_an_ordinary_items():
    project, people = make_project(slug="ka-same", annotators=2, m=1)
    ordinary = make_item(project, people[0], question="Pertanyaan biasa?")
    check = make_item(project, people[0], question="Pertanyaan uji?")
    item_set_known_answer(item_id=check.pk, project=project, answer="A")
    project.check_every = 2
    project.save(update_fields=["check_every"])
    judging_plan(project=project)
    judge = people[1]
    mine = {a.target_item_id: a for a in Assignment.objects.filter(project=project, user=judge)}
    assert set(mine) == {ordinary.pk, check.pk}
    pairs = [(ordinary, "QUESTION"), (check, "QUESTION")]
    page = Client()
    page.force_login(judge)
    api = client_for(judge)

    html = {
        item.pk: _normalised(
            page.get(reverse("answer_item", args=[project.slug, mine[item.pk].pk])).content.decode(), project, pairs
        )
        for item in (ordinary, check)
    }
    data = {
        item.pk: api.get(reverse("api-judgment", args=[project.slug, mine[item.pk].pk])).json()
        for item in (ordinary, check)
    }

    assert html[check.pk] == html[ordinary.pk]
    assert not re.search(r"known.answer|status-check|Known-answer", html[check.pk])
    assert _normalised(str(data[check.pk]), project, pairs) == _normalised(str(data[ordinary.pk]), project, pairs)
    assert "known" not in str(data[check.pk]) and "check" not in str(data[check.pk])
