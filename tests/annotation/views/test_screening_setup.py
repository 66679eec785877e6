"""The screening setup page: practice and pilot items are typed in a form (question, options, right
option, feedback) with a preview, stored as the same JSON; a failed pilot attempt shows its score."""

import pytest
from django.urls import reverse

from annotation.models import Application, Membership, Project, ScreeningSetup
from annotation.services.screening import pilot_submit, screening_configure, screening_submit, training_submit
from tests.annotation.services.test_screening import PILOT, PRACTICE, YES
from tests.annotation.task_types.sentence_completion.world import make_world

pytestmark = pytest.mark.django_db


def _rows(prefix, items, *, blank=1):
    """The formset's POST data for `items` (answers counted from 1, as the form shows them) and blank rows."""
    data = {f"{prefix}-TOTAL_FORMS": str(len(items) + blank), f"{prefix}-INITIAL_FORMS": "0"}
    for n, item in enumerate(items):
        data[f"{prefix}-{n}-question"] = item["question"]
        data[f"{prefix}-{n}-options"] = "\n".join(item["options"])
        data[f"{prefix}-{n}-answer"] = str(item["answer"] + 1)
        data[f"{prefix}-{n}-feedback"] = item.get("feedback", "")
    for n in range(len(items), len(items) + blank):
        for key in ("question", "options", "answer", "feedback"):
            data[f"{prefix}-{n}-{key}"] = ""
    return data


def _form(**overrides):
    data = {
        "required": "on",
        "criteria": "native_speaker: أنا متحدث أصلي\nhigh_school: لدي شهادة الثانوية",
        "pilot_pass": "4",
        "max_attempts": "3",
        **_rows("training", PRACTICE),
        **_rows("pilot", PILOT),
    }
    return {**data, **overrides}


def test_an_admin_sets_up_screening_with_item_forms_stored_as_json(client):
    world = make_world(slug="setup")
    url = reverse("screening_setup", args=[world.project.slug])
    client.force_login(world.admin)
    page = client.get(url).content.decode()
    assert "native_speaker: I am a native speaker" in page
    assert 'name="training-0-question"' in page and 'name="pilot-1-options"' in page

    response = client.post(url, _form())

    assert response.status_code == 302
    setup = ScreeningSetup.objects.get(project=world.project)
    assert setup.training_items == PRACTICE
    assert setup.pilot_items == [{**item, "feedback": ""} for item in PILOT]
    assert [c["code"] for c in setup.criteria] == ["native_speaker", "high_school"]
    assert (setup.pilot_pass, setup.max_attempts) == (4, 3)
    assert Project.objects.get(pk=world.project.pk).screening_required is True
    again = client.get(url).content.decode()
    assert 'name="training-1-question" value="متى يكون العيد؟"' in again
    assert 'name="training-3-question"' in again and 'name="training-4-question"' not in again  # two blank rows
    client.force_login(world.authors["Egypt"][0])
    assert client.get(url).status_code == 404


def test_preview_shows_the_items_as_an_applicant_sees_them_and_saves_nothing(client):
    world = make_world(slug="preview")
    url = reverse("screening_setup", args=[world.project.slug])
    client.force_login(world.admin)

    response = client.post(url, _form(action="preview"))

    page = response.content.decode()
    assert response.status_code == 200
    assert 'id="preview-training-1"' in page and 'id="preview-pilot-4"' in page
    assert 'id="preview-pilot-5"' not in page
    assert page.count("right answer") == len(PRACTICE) + len(PILOT)
    assert "الفول طعام إفطار شائع." in page
    assert 'value="ما طعام الإفطار؟"' in page  # the typed rows are kept
    assert not ScreeningSetup.objects.filter(project=world.project).exists()


def test_an_item_without_its_right_option_is_refused_and_nothing_is_saved(client):
    world = make_world(slug="refused")
    screening_configure(project=world.project, pilot_items=PILOT, pilot_pass=4)
    saved = ScreeningSetup.objects.get(project=world.project).pilot_items
    url = reverse("screening_setup", args=[world.project.slug])
    client.force_login(world.admin)

    missing_answer = client.post(url, _form(**{"pilot-2-answer": ""}))
    out_of_range = client.post(url, _form(**{"pilot-0-answer": "11"}))

    assert missing_answer.status_code == 400
    assert "Item 3: give a question, 2 to 10 options and the index of the right one." in (
        missing_answer.content.decode()
    )
    assert out_of_range.status_code == 400
    assert "Ensure this value is less than or equal to 10." in out_of_range.content.decode()
    setup = ScreeningSetup.objects.get(project=world.project)
    assert (setup.training_items, setup.pilot_items, setup.pilot_pass) == ([], saved, 4)


def test_a_failed_pilot_attempt_shows_its_score(client):
    world = make_world(slug="score")
    screening_configure(project=world.project, training_items=PRACTICE, pilot_items=PILOT, pilot_pass=4, max_attempts=2)
    user = world.authors["Egypt"][0]
    membership = Membership.objects.select_related("project").get(project=world.project, user=user)
    screening_submit(membership=membership, answers=YES, country="Egypt")
    training_submit(membership=membership, answers=[0, 0])
    pilot_submit(membership=membership, answers=[0, 0, 0, 0, 0])  # items 0 and 3 right: 2 of 5
    client.force_login(user)
    url = reverse("screening_page", args=[world.project.slug])

    after_first = client.get(url).content.decode()
    pilot_submit(membership=membership, answers=[0, 1, 0, 0, 0])  # 3 of 5: the last attempt fails
    after_last = client.get(url).content.decode()

    assert 'id="pilot-last-score">Your last attempt: 2 of 5 right; 4 needed.' in after_first
    assert 'id="pilot-scores">Your pilot scores: 2, 3 of 5 right; 4 needed.' in after_last
    assert Application.objects.get(membership=membership).status == "failed"
