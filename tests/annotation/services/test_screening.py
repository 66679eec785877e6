"""Screening, training and pilot (core, any task type): an applicant works only once they passed every
step and an admin admitted them; every refused action (page, API, service) changes nothing."""

import pytest
from django.urls import reverse

from annotation.errors import IllegalTransition, InvalidInput, NotAllowed
from annotation.models import Application, Assignment, Item, Membership
from annotation.services.assignments import assignment_claim_next
from annotation.services.members import member_set_countries
from annotation.services.screening import (
    DEFAULT_CRITERIA,
    application_admit,
    pilot_submit,
    screening_configure,
    screening_submit,
    training_submit,
)
from tests.annotation.task_types.sentence_completion.data import payload
from tests.annotation.task_types.sentence_completion.world import make_world

pytestmark = pytest.mark.django_db

YES = {c["code"]: True for c in DEFAULT_CRITERIA}
PRACTICE = [
    {
        "question": "ما طعام الإفطار؟",
        "options": ["فول", "سمك", "بيتزا"],
        "answer": 0,
        "feedback": "الفول طعام إفطار شائع.",
    },
    {
        "question": "متى يكون العيد؟",
        "options": ["بعد رمضان", "قبل رمضان"],
        "answer": 0,
        "feedback": "عيد الفطر بعد رمضان.",
    },
]
PILOT = [{"question": f"سؤال {n}", "options": ["نعم", "لا", "ربما"], "answer": n % 3} for n in range(5)]
RIGHT = [n % 3 for n in range(5)]


@pytest.fixture
def world():
    world = make_world()
    screening_configure(project=world.project, training_items=PRACTICE, pilot_items=PILOT, pilot_pass=4, max_attempts=2)
    return world


def _membership(world, user):
    return Membership.objects.select_related("project").get(project=world.project, user=user)


def _snapshot(world, user):
    return (
        sorted(Assignment.objects.filter(project=world.project, user=user).values_list("pk", "status")),
        Item.objects.filter(project=world.project).count(),
    )


def test_the_default_form_is_arabcultures_five_criteria(world):
    assert [c["code"] for c in world.project.screening.criteria] == [
        "native_speaker",
        "residence_10_years",
        "local_culture",
        "parents_from_country",
        "high_school",
    ]
    assert world.project.screening_required is True


def test_an_applicant_who_fails_a_criterion_cannot_open_work_on_pages_or_api(client, world):
    user = world.authors["Egypt"][0]
    membership = _membership(world, user)
    application = screening_submit(
        membership=membership, answers={**YES, "parents_from_country": False}, country="Egypt"
    )
    assert (application.status, application.failed_reason) == ("failed", "Criteria not met: parents_from_country.")
    before = _snapshot(world, user)
    assignment = Assignment.objects.filter(project=world.project, user=user, kind="author").first()
    client.force_login(user)

    page = client.get(reverse("author_queue", args=[world.project.slug]))
    item_page = client.get(reverse("author_item", args=[world.project.slug, assignment.pk]))
    judge_page = client.get(reverse("judge_queue", args=[world.project.slug]))
    api_next = client.post(
        f"/api/projects/{world.project.slug}/assignments/next/", {"kind": "author"}, content_type="application/json"
    )
    api_submit = client.post(
        f"/api/projects/{world.project.slug}/assignments/{assignment.pk}/submit/",
        {"payload": payload(0), "justification": ""},
        content_type="application/json",
    )
    with pytest.raises(NotAllowed, match="be admitted by an admin"):
        assignment_claim_next(project=membership.project, user=user, kind="author")
    with pytest.raises(IllegalTransition):
        pilot_submit(membership=membership, answers=RIGHT)

    assert [r.status_code for r in (page, item_page, judge_page, api_next, api_submit)] == [403, 403, 403, 403, 403]
    assert "be admitted by an admin" in page.content.decode()
    assert api_next.json()["code"] == "not_allowed"
    assert _snapshot(world, user) == before
    assert Application.objects.get(membership=membership).status == "failed"


def test_screening_training_pilot_admission_then_work(client, world):
    user = world.authors["KSA"][0]
    membership = _membership(world, user)
    admin_membership = Membership.objects.get(project=world.project, user=world.admin)

    screening_submit(membership=membership, answers=YES, country="KSA")
    feedback = training_submit(membership=membership, answers=[0, 1])
    assert feedback == [
        {"right": True, "answer": 0, "feedback": "الفول طعام إفطار شائع."},
        {"right": False, "answer": 0, "feedback": "عيد الفطر بعد رمضان."},
    ]
    first = pilot_submit(membership=membership, answers=[1, 1, 2, 0, 0])  # 3 of 5: one attempt used
    assert (first.status, first.pilot_attempts, first.pilot_scores) == ("pilot", 1, [3])
    second = pilot_submit(membership=membership, answers=[0, 1, 2, 0, 0])  # 4 of 5 passes
    assert (second.status, second.pilot_scores) == ("passed", [3, 4])
    assert membership.profile.country == "KSA"

    # Passed but not admitted: still no work; a non-admin can't admit.
    client.force_login(user)
    assert client.get(reverse("author_queue", args=[world.project.slug])).status_code == 403
    with pytest.raises(NotAllowed, match="Only the project's admins"):
        application_admit(membership=membership, admin=world.reviewers["KSA"])
    assert Application.objects.get(membership=membership).status == "passed"

    client.force_login(world.admin)
    listing = client.get(reverse("screening_applicants", args=[world.project.slug]))
    assert listing.status_code == 200 and f'id="applicant-{membership.pk}"' in listing.content.decode()
    client.post(reverse("screening_applicants", args=[world.project.slug]), {"membership_id": membership.pk})
    assert Application.objects.get(membership=membership).status == "admitted"
    assert admin_membership.role == "admin"

    client.force_login(user)
    response = client.get(reverse("author_queue", args=[world.project.slug]))
    assert response.status_code == 302 and "/author/" in response["Location"]
    assert client.get(response["Location"]).status_code == 200


def test_the_last_failed_pilot_attempt_fails_the_application(world):
    membership = _membership(world, world.authors["Egypt"][1])
    screening_submit(membership=membership, answers=YES, country="Egypt")
    training_submit(membership=membership, answers=[0, 0])

    pilot_submit(membership=membership, answers=[2, 2, 0, 1, 1])
    last = pilot_submit(membership=membership, answers=[0, 2, 0, 1, 1])

    assert (last.status, last.pilot_scores, last.failed_reason) == ("failed", [1, 2], "Pilot: 2 of 5 right, 4 needed.")
    with pytest.raises(IllegalTransition):
        application_admit(membership=membership, admin=world.admin)


def test_the_api_runs_the_steps_and_hides_the_right_options(client, world):
    user = world.authors["Egypt"][0]
    client.force_login(user)
    url = f"/api/projects/{world.project.slug}/screening/"

    status = client.get(url).json()
    assert status["status"] == "screening" and "answer" not in status["pilot_items"][0]
    bad = client.post(url, {"step": "screening", "answers": {"native_speaker": True}}, content_type="application/json")
    assert bad.status_code == 400 and client.get(url).json()["status"] == "screening"
    ok = client.post(url, {"step": "screening", "answers": YES, "country": "Egypt"}, content_type="application/json")
    assert ok.json()["status"] == "training"
    trained = client.post(url, {"step": "training", "answers": [0, 0]}, content_type="application/json").json()
    assert trained["status"] == "pilot" and [f["right"] for f in trained["feedback"]] == [True, True]
    passed = client.post(url, {"step": "pilot", "answers": RIGHT}, content_type="application/json").json()
    assert passed["status"] == "passed"
    membership = _membership(world, user)
    refused = client.post(f"/api/projects/{world.project.slug}/screening/applicants/{membership.pk}/admit/")
    assert refused.status_code == 403 and Application.objects.get(membership=membership).status == "passed"
    client.force_login(world.admin)
    admitted = client.post(f"/api/projects/{world.project.slug}/screening/applicants/{membership.pk}/admit/")
    assert admitted.status_code == 200 and admitted.json()["status"] == "admitted"


def test_a_bad_configuration_is_refused(world):
    with pytest.raises(InvalidInput, match="pass mark"):
        screening_configure(project=world.project, pilot_items=PILOT, pilot_pass=6)
    with pytest.raises(InvalidInput, match="Item 1"):
        screening_configure(project=world.project, pilot_items=[{"question": "x", "options": ["a"], "answer": 0}])
    assert world.project.screening.pilot_pass == 4


def _admit(world, user):
    membership = _membership(world, user)
    screening_submit(membership=membership, answers=YES, country=world.country_of[user.pk])
    training_submit(membership=membership, answers=[0, 0])
    pilot_submit(membership=membership, answers=RIGHT)
    application_admit(membership=membership, admin=world.admin)


def test_only_admitted_annotators_are_planned_work(world):
    from annotation.services.assignments import assignment_plan_authoring

    admitted = world.authors["Egypt"][0]
    _admit(world, admitted)

    assignment_plan_authoring(project=world.project)

    open_work = Assignment.objects.filter(project=world.project, kind="author").exclude(status="cancelled")
    assert set(open_work.values_list("user_id", flat=True)) == {admitted.pk}
    assert open_work.count() == 40


def test_the_country_must_be_one_of_the_task_types_and_is_spelled_as_it_spells_it(world):
    user = world.authors["Egypt"][0]
    membership = _membership(world, user)
    with pytest.raises(InvalidInput) as refused:
        screening_submit(membership=membership, answers=YES, country="Atlantis")

    assert refused.value.message == (
        "Atlantis is not one of this project's countries: KSA, UAE, Yemen, Lebanon, Syria, Palestine, Jordan, "
        "Tunisia, Algeria, Morocco, Libya, Egypt, Sudan."
    )
    assert not Application.objects.filter(membership=membership).exists()
    assert Membership.objects.get(pk=membership.pk).profile.country == "Egypt"

    screening_submit(membership=membership, answers=YES, country="ksa")

    assert Membership.objects.get(pk=membership.pk).profile.country == "KSA"


def test_a_reviewers_countries_are_checked_the_same_way(world):
    reviewer = _membership(world, world.reviewers["Egypt"])
    with pytest.raises(InvalidInput, match="Narnia is not one of this project's countries"):
        member_set_countries(membership=reviewer, countries=["egypt", "Narnia"])
    assert Membership.objects.get(pk=reviewer.pk).countries == ["Egypt"]

    member_set_countries(membership=reviewer, countries=["egypt", "SUDAN", "Egypt"])

    assert Membership.objects.get(pk=reviewer.pk).countries == ["Egypt", "Sudan"]
