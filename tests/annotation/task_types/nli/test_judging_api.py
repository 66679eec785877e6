"""NLI validation over the judging API (the generic shapes): a validator lists and claims their work,
sees the premise and the hypothesis only, labels it; a disagreement plans round 2 for a third validator.
Requests from another project or from members who don't hold the assignment are 404 and change nothing."""

import json

import pytest

from annotation.models import Assignment, Judgment
from annotation.services.items import unit_submit
from annotation.services.judging import judging_plan
from qc.models import GoldDecision
from tests.annotation.task_types.nli.world import PREMISES, SIX, make_nli_project, writing_assignment
from tests.api.conftest import client_for, db_state
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

BASE = "/api/projects/nli"
LABEL_WORDS = ("entailment", "neutral", "contradiction")


@pytest.fixture
def world():
    """An expert project (every pair validated, no QC review): one premise, its six hypotheses approved
    and planned to two round-1 validators each."""
    world = make_nli_project(annotators=5, expert=True, qc_review=False)
    writing = writing_assignment(world)
    world.writer = writing.user
    world.items = unit_submit(assignment_id=writing.pk, user=writing.user, data={"items": SIX})
    judging_plan(project=world.project)
    return world


def _validators(item):
    """The item's round-1 validation assignments, by id."""
    return list(Assignment.objects.filter(target_item=item, kind="validate", round=1).order_by("id"))


def _no_author_label(text: str) -> None:
    assert '"label"' not in text and "tags" not in text
    assert not [word for word in LABEL_WORDS if word in text]
    assert not [tag for row in SIX for tag in row["tags"] if f'"{tag}"' in text]


def test_validator_lists_claims_and_sees_the_premise_and_hypothesis_only(world):
    validator = _validators(world.items[0])[0].user
    client = client_for(validator)
    mine = Assignment.objects.filter(user=validator, kind="validate").order_by("position", "id")
    first = mine[0]
    slot = [item.pk for item in world.items].index(first.target_item_id)

    listed = client.get(f"{BASE}/assignments/", {"kind": "validate"})
    claimed = client.post(f"{BASE}/judgments/next/", {}, format="json")
    again = client.post(f"{BASE}/judgments/next/", {}, format="json")
    shown = client.get(f"{BASE}/judgments/{first.pk}/")

    assert listed.status_code == 200
    rows = listed.json()["results"] if isinstance(listed.json(), dict) else listed.json()
    assert sorted((row["id"], row["kind"], row["item_id"]) for row in rows) == sorted(
        (a.pk, "validate", a.target_item_id) for a in mine
    )
    body = claimed.json()
    assert claimed.status_code == 200
    assert body.pop("lease_expires_at") is not None
    assert body == {
        "id": first.pk,
        "status": "active",
        "round": 1,
        "item": {
            "id": first.target_item_id,
            "category": "wiki",
            "view": {"premise": PREMISES[0]["text"], "hypothesis": SIX[slot]["hypothesis"]},
        },
        "my_judgment": None,
        "progress": {"done": 0, "total": len(mine)},
    }
    assert again.json()["id"] == first.pk
    assert shown.json()["item"] == body["item"]
    _no_author_label(json.dumps([listed.json(), claimed.json(), again.json(), shown.json()]))


def test_a_label_is_recorded_with_its_round_and_shown_back_to_its_validator_only(world):
    item = world.items[0]  # author: entailment
    first, second = _validators(item)
    client = client_for(first.user)

    saved = client.post(
        f"{BASE}/judgments/{first.pk}/",
        {"label": "e", "error": True, "correction": " Gunungsitoli ada di Pulau Nias. ", "comment": " ok "},
        format="json",
    )
    mine = client.get(f"{BASE}/judgments/{first.pk}/").json()
    theirs = client_for(second.user).get(f"{BASE}/judgments/{second.pk}/").json()

    judgment = Judgment.objects.get(item=item, user=first.user)
    assert (saved.status_code, saved.json()) == (
        200,
        {
            "id": judgment.pk,
            "item_id": item.pk,
            "assignment_id": first.pk,
            "round": 1,
            "value": {"label": "entailment"},
            "flags": {"error": True, "correction": "Gunungsitoli ada di Pulau Nias."},
            "comment": "ok",
            "created_at": saved.json()["created_at"],
            "updated_at": saved.json()["updated_at"],
        },
    )
    assert (judgment.kind, judgment.round, judgment.value) == ("validate", 1, {"label": "entailment"})
    assert (mine["status"], mine["progress"]["done"]) == ("done", 1)
    assert mine["my_judgment"] == {
        "value": {"label": "entailment"},
        "flags": {"error": True, "correction": "Gunungsitoli ada di Pulau Nias."},
        "comment": "ok",
    }
    # The other validator sees the pair, not the first validator's label.
    assert theirs["my_judgment"] is None
    _no_author_label(json.dumps(theirs))
    assert "Gunungsitoli ada di Pulau Nias." not in json.dumps(theirs)


def test_disagreement_plans_round_two_for_a_third_validator_through_the_api(world):
    item = world.items[2]  # author: contradiction
    first, second = _validators(item)
    others = [u for u in world.annotators if u.pk not in {world.writer.pk, first.user_id, second.user_id}]
    listed_before = {u.pk: _listed(u) for u in others}

    agree = client_for(first.user).post(f"{BASE}/judgments/{first.pk}/", {"label": "c"}, format="json")
    round_two_before = Assignment.objects.filter(target_item=item, round=2).count()
    disagree = client_for(second.user).post(f"{BASE}/judgments/{second.pk}/", {"label": "neutral"}, format="json")

    assert [r.status_code for r in (agree, disagree)] == [200, 200]
    assert [r.json()["round"] for r in (agree, disagree)] == [1, 1]
    assert round_two_before == 0
    new = {u.pk: _listed(u) - listed_before[u.pk] for u in others}
    assert sorted(len(ids) for ids in new.values()) == [0, 1]
    third = next(u for u in others if new[u.pk])
    (assignment_id,) = new[third.pk]
    shown = client_for(third).get(f"{BASE}/judgments/{assignment_id}/").json()
    assert (shown["round"], shown["item"]["id"], shown["my_judgment"]) == (2, item.pk, None)
    _no_author_label(json.dumps(shown))

    settled = client_for(third).post(f"{BASE}/judgments/{assignment_id}/", {"label": "c"}, format="json")

    assert (settled.status_code, settled.json()["round"], settled.json()["value"]) == (
        200,
        2,
        {"label": "contradiction"},
    )
    decision = GoldDecision.objects.get(item=item)
    assert (decision.outcome, decision.details["label"], decision.details["round"]) == ("gold", "contradiction", 2)


def _listed(user) -> set[int]:
    response = client_for(user).get(f"{BASE}/assignments/", {"kind": "validate"})
    assert response.status_code == 200
    rows = response.json()["results"] if isinstance(response.json(), dict) else response.json()
    return {row["id"] for row in rows}


def test_invalid_labels_are_refused_with_the_task_types_messages_and_change_nothing(world):
    assignment = _validators(world.items[1])[0]
    url = f"{BASE}/judgments/{assignment.pk}/"
    client = client_for(assignment.user)
    before = db_state()

    answers = [
        client.post(url, {"label": "maybe"}, format="json"),
        client.post(url, {"label": "e", "error": "perhaps"}, format="json"),
        client.post(url, ["e"], format="json"),
    ]

    refused = "The label can't be saved yet."
    assert [(r.status_code, r.json()["detail"], r.json().get("errors")) for r in answers] == [
        (400, refused, {"label": ["Choose entailment, neutral, contradiction (keys e, n, c)."]}),
        (400, refused, {"error": ["Must be true or false."]}),
        (400, "Invalid input.", {"non_field_errors": ["Send the judgment as a JSON object."]}),
    ]
    assert db_state() == before


def test_members_who_dont_hold_the_assignment_get_404_and_change_nothing(world):
    assignment = _validators(world.items[0])[0]
    other_validator = _validators(world.items[0])[1].user
    url = f"{BASE}/judgments/{assignment.pk}/"
    clients = {
        who: client_for(user)
        for who, user in {
            "admin": world.admin,
            "reviewer": world.reviewer,
            "writer": world.writer,
            "other validator": other_validator,
        }.items()
    }
    before = db_state()

    answers = {
        who: (client.get(url), client.post(url, {"label": "n"}, format="json")) for who, client in clients.items()
    }
    reviewer_next = clients["reviewer"].post(f"{BASE}/judgments/next/", {}, format="json")

    missing = (404, {"detail": "No such assignment.", "code": "not_found"})
    assert {who: [(r.status_code, r.json()) for r in pair] for who, pair in answers.items()} == {
        who: [missing, missing] for who in answers
    }
    assert reviewer_next.status_code == 204  # nothing of theirs to validate
    assert db_state() == before


@pytest.mark.parametrize("role", ["admin", "reviewer", "annotator"])
def test_member_of_another_project_gets_404_and_changes_nothing(world, role):
    other = make_nli_project(slug="other", annotators=3, premises=PREMISES[1:])
    outsider = {"admin": other.admin, "reviewer": other.reviewer, "annotator": other.annotators[0]}[role]
    assignment = _validators(world.items[0])[0]
    client = client_for(outsider)
    before = db_state()

    answers = [
        client.get(f"{BASE}/judgments/{assignment.pk}/"),
        client.post(f"{BASE}/judgments/{assignment.pk}/", {"label": "e"}, format="json"),
        client.post(f"{BASE}/judgments/next/", {}, format="json"),
        client.get(f"{BASE}/assignments/", {"kind": "validate"}),
        # Their own project in the address, this project's assignment: still 404.
        client.get(f"/api/projects/other/judgments/{assignment.pk}/"),
        client.post(f"/api/projects/other/judgments/{assignment.pk}/", {"label": "e"}, format="json"),
    ]

    assert [(r.status_code, r.json()["code"]) for r in answers] == [(404, "not_found")] * 6
    assert db_state() == before


def test_schema_documents_both_judging_shapes():
    schema = client_for(UserFactory()).get("/api/schema/", {"format": "json"}).json()

    components = schema["components"]["schemas"]
    answer = schema["paths"]["/api/projects/{slug}/judgments/{assignment_id}/"]

    assert answer["get"]["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/JudgingTask"
    }
    assert components["JudgingTask"] == {
        "oneOf": [{"$ref": "#/components/schemas/MultipleChoiceTask"}, {"$ref": "#/components/schemas/JudgeTask"}]
    }
    assert components["JudgingBody"] == {
        "oneOf": [{"$ref": "#/components/schemas/MultipleChoiceBody"}, {"$ref": "#/components/schemas/JudgmentBody"}]
    }
    assert components["JudgingResult"] == {
        "oneOf": [{"$ref": "#/components/schemas/Judgment"}, {"$ref": "#/components/schemas/JudgmentRecord"}]
    }
    assert set(components["JudgeTask"]["properties"]) == {
        "id",
        "status",
        "lease_expires_at",
        "round",
        "item",
        "my_judgment",
        "progress",
    }
    assert set(components["JudgeItem"]["properties"]) == {"id", "category", "view"}
    assert "round" in components["JudgmentRecord"]["required"]
