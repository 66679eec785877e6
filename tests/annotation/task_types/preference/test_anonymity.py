"""IndoPref ratings are anonymous on every path a rater can reach: every page and API
route of the URL configuration, read by a rater and by a rater who also wrote a prompt, names no model,
endpoint or response id. The routes come from the resolver, so a route added tomorrow is read too; a route
whose arguments this test cannot fill fails it until it is given an object (or a reviewed reason to skip)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from annotation.models import Assignment, Item, Judgment, Membership
from annotation.services.members import invitation_create
from evaluation.models import Call, Endpoint, Run
from evaluation.task_types.preference.services import prompt_add_responses
from tests.annotation.task_types.preference.world import MODELS, World, make_world, plan
from tests.config.test_url_matrix import _PARAM, _routes, _url
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

# Routes a rater never reaches by design, with the reason; everything else is read.
SKIPPED = {
    "django-admin/": "Django's own admin site: staff accounts only, never project members.",
}
ENDPOINT = "endpoint-flash-secret"
RUN_MODEL = "gemma-2-9b-secret"
# A response id as the payload stores it ("r1", "r12"), also inside an attribute ("response-r1").
RESPONSE_ID = re.compile(r"(?<![A-Za-z0-9_])r[0-9]{1,2}(?![A-Za-z0-9_])")
LEAKS = (*MODELS, ENDPOINT, RUN_MODEL)


def _routes_to_read() -> list[tuple[str, object]]:
    return [(route, pattern) for route, pattern in _routes() if not any(route.startswith(s) for s in SKIPPED)]


@pytest.fixture
def anonymity_world():
    """A preference project: imported prompts with five named models, one prompt written by a rater of
    group A and grown by a response run (its endpoint and model named), rating planned and begun."""
    world = make_world(raters_per_group=2)
    writer, rater = world.raters["A"][0], world.raters["B"][0]
    own = world.items[0]
    authoring = Assignment.objects.create(
        project=world.project, user=writer, kind="author", concept=own.concept, status=Assignment.Status.DONE
    )
    Item.objects.filter(pk=own.pk).update(author=writer, assignment=authoring)
    endpoint = Endpoint.objects.create(name=ENDPOINT, base_url="http://127.0.0.1:9/v1", model=RUN_MODEL, is_local=True)
    run = Run.objects.create(kind="responses", project=world.project, parameters={"items": [own.pk]})
    run.endpoints.set([endpoint])
    call = Call.objects.create(
        run=run, endpoint=endpoint, unit_key=f"item-{own.pk}", template="responses", text="Jawaban dari run."
    )
    response = {"model": RUN_MODEL, "text": "Jawaban dari run.", "source": "run", "run_id": run.pk, "call_id": call.pk}
    prompt_add_responses(item_id=own.pk, responses=[response], note=f"response of {RUN_MODEL} (run {run.pk})")
    plan(world)
    own.refresh_from_db()
    # Each rater has rated one prompt (so their own rating is shown back) and holds another open.
    for user in (writer, rater):
        first, second = Assignment.objects.filter(user=user, kind="rate").order_by("pk")[:2]
        world.rate(first)
        Assignment.objects.filter(pk=second.pk).update(status=Assignment.Status.ACTIVE)
    UserFactory(username="siti")
    invitation = invitation_create(project=world.project, username="siti", role="annotator", invited_by=world.admin)
    common = {
        "slug": world.project.slug,
        "run_id": run.pk,
        "call_id": call.pk,
        "endpoint_id": endpoint.pk,
        "invitation_id": invitation.pk,
        "name": "pairs.jsonl",
    }
    return world, writer, rater, common, own


def _values(world: World, user, common: dict, *, item: Item, assignment: Assignment) -> dict:
    return {
        **common,
        "item_id": item.pk,
        "concept_id": item.concept_id,
        "assignment_id": assignment.pk,
        "membership_id": Membership.objects.get(project=world.project, user=user).pk,
        "judgment_id": Judgment.objects.filter(user=user).order_by("pk").first().pk,
    }


def _read_everything(user, values: dict) -> dict[str, tuple[int, str]]:
    """GET every route as the user: {url: (status, body)}."""
    page, api = Client(), APIClient()
    page.force_login(user)
    api.force_authenticate(user)
    read = {}
    for route, _pattern in _routes_to_read():
        url = _url(route, values)
        response = (api if route.startswith("api/") else page).get(url)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        read[url] = (response.status_code, body.decode("utf-8", "replace"))
    return read


def _leaks(read: dict[str, tuple[int, str]]) -> dict[str, list[str]]:
    found = {}
    for url, (_status, body) in read.items():
        names = [name for name in LEAKS if name in body] + sorted(set(RESPONSE_ID.findall(body)))
        if names:
            found[url] = names
    return found


def test_every_route_argument_can_be_filled(anonymity_world):
    world, writer, _rater, common, own = anonymity_world
    values = _values(world, writer, common, item=own, assignment=own.assignment)

    names = {name for route, _ in _routes_to_read() for name in _PARAM.findall(route)}

    assert names - set(values) == set(), "give this test an object for the new route's argument, or skip the route"
    assert len(_routes_to_read()) >= 120


def test_a_rater_reads_no_model_or_response_id_anywhere(anonymity_world):
    world, _writer, rater, common, own = anonymity_world
    rated = Judgment.objects.get(user=rater).assignment
    values = _values(world, rater, common, item=rated.target_item, assignment=rated)

    read = _read_everything(rater, values)

    assert _leaks(read) == {}
    # The reads are real: the rating page and API show this rater's prompt and their rating back.
    assert read[f"/p/pref/judge/{rated.pk}/"][0] == 200
    answer = json.loads(read[f"/api/projects/pref/judgments/{rated.pk}/"][1])
    assert len(answer["my_judgment"]["value"]["ratings"]) == 5
    assert [r["position"] for r in answer["item"]["view"]["responses"]] == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("work", ["rating", "writing"])
def test_a_rater_who_wrote_a_prompt_reads_no_model_or_response_id_anywhere(anonymity_world, work):
    world, writer, _rater, common, own = anonymity_world
    assignment = Judgment.objects.get(user=writer).assignment if work == "rating" else own.assignment
    values = _values(world, writer, common, item=own, assignment=assignment)

    read = _read_everything(writer, values)

    assert _leaks(read) == {}
    # Their own prompt's page, its history and the item API are read and show the responses' texts.
    item_page, item_api = read[f"/p/pref/items/{own.pk}/"], read[f"/api/projects/pref/items/{own.pk}/"]
    assert (item_page[0], item_api[0]) == (200, 200)
    assert "Jawaban dari run." in item_page[1] and "Jawaban dari run." in item_api[1]
    assert json.loads(item_api[1])["payload"]["responses"][0].keys() == {"position", "text"}


def test_the_rating_replies_name_no_model_or_response_id(anonymity_world):
    world, _writer, rater, _common, _own = anonymity_world
    api = APIClient()
    api.force_authenticate(rater)

    claimed = api.post("/api/projects/pref/judgments/next/", {}, format="json")
    saved = api.post(
        f"/api/projects/pref/judgments/{claimed.json()['id']}/",
        {"ratings": [{"relevance": 4, "fluency": 5}] * 5, "best": 3},
        format="json",
    )

    assert (claimed.status_code, saved.status_code) == (200, 200)
    assert _leaks({"next": (200, claimed.content.decode()), "saved": (200, saved.content.decode())}) == {}
    assert saved.json()["value"] == {"ratings": [{"relevance": 4, "fluency": 5}] * 5, "best": 3}


def test_admins_still_see_each_response_with_its_id_and_model(anonymity_world):
    world, _writer, _rater, _common, own = anonymity_world
    page, api = Client(), APIClient()
    page.force_login(world.admin)
    api.force_authenticate(world.admin)

    item_page = page.get(f"/p/pref/items/{own.pk}/").content.decode()
    item_api = api.get(f"/api/projects/pref/items/{own.pk}/").json()

    assert f"r6 · {RUN_MODEL}" in item_page and "r1 · gemini-1.5-flash" in item_page
    assert f"response of {RUN_MODEL} (run " in item_page
    assert [(r["id"], r["model"]) for r in item_api["payload"]["responses"]] == [
        *((f"r{n}", model) for n, model in enumerate(MODELS, 1)),
        ("r6", RUN_MODEL),
    ]
