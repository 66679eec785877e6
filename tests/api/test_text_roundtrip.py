"""Sundanese and Arabic text goes through the API byte for byte (no normalisation, no escaping loss)."""

import unicodedata

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from annotation.models import Membership
from annotation.services.projects import membership_add, project_create
from tests.api.conftest import client_for
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

# Latin Sundanese with decomposed é (e + U+0301), and Sundanese script with vowel signs and pamaéh.
SU_CONCEPT = "ngabuburit"
SU_QUESTION = "Di mana barudak biasana ngabuburit same\u0301me\u0301h buka puasa?"
SU_CHOICES = ["Di alun-alun", "ᮓᮤ ᮞᮝᮂ", "Di pasar", "Di masigit", "Di imah"]
# Arabic with harakat (combining marks); the question doesn't name the concept, so it needs a justification.
AR_CONCEPT = "رمضان"
AR_QUESTION = "مَا الشَّهْرُ الَّذِي يَصُومُ فِيهِ المُسْلِمُون؟"
AR_CHOICES = ["بَعْدَ رُؤْيَةِ الهِلَال", "فِي الصَّيْف", "يَوْمَ الجُمُعَة", "فِي مُنْتَصَفِ اللَّيْل", "عِنْدَ الفَجْر"]
AR_JUSTIFICATION = "السؤال عن شهر الصيام، وهو ﴿رَمَضَانُ﴾ نفسه."


@pytest.fixture
def multilingual(db):
    admin = UserFactory(username="ml-admin")
    project = project_create(
        creator=admin,
        name="Sunda & Arab",
        slug="ml",
        task_type="csqa",
        languages=[
            {"code": "su", "name": "Basa Sunda", "direction": "ltr"},
            {"code": "ar", "name": "العربية", "direction": "rtl"},
        ],
        authors_per_concept=1,
    )
    annotator = UserFactory(username="ml-ann")
    membership_add(project=project, user=annotator, role=Membership.Role.ANNOTATOR)
    lines = (
        f'{{"category": "budaya", "concept": "{SU_CONCEPT}", "translations": {{"ar": "قبل الإفطار"}}}}\n'
        f'{{"category": "دين", "concept": "{AR_CONCEPT}", "category_translations": {{"su": "agama"}}}}\n'
    )
    client = client_for(admin)
    imported = client.post(
        "/api/projects/ml/concepts/import/",
        {"file": SimpleUploadedFile("c.jsonl", lines.encode())},
        format="multipart",
    )
    assert imported.status_code == 201
    assert client.post("/api/projects/ml/plans/authoring/", {}, format="json").status_code == 200
    return admin, annotator


def test_sundanese_and_arabic_round_trip_through_submit_and_get(multilingual):
    admin, annotator = multilingual
    client = client_for(annotator)
    assert unicodedata.is_normalized("NFC", SU_QUESTION) is False  # the decomposed form is what we send

    written = {}
    for _ in range(2):
        assignment = client.post("/api/projects/ml/assignments/next/", {"kind": "author"}, format="json").json()
        name = assignment["concept"]["name"]
        if name == SU_CONCEPT:
            payload, justification = {"question": SU_QUESTION, "choices": SU_CHOICES, "answer": "B"}, ""
        else:
            payload = {"question": AR_QUESTION, "choices": AR_CHOICES, "answer": "A"}
            justification = AR_JUSTIFICATION
        submitted = client.post(
            f"/api/projects/ml/assignments/{assignment['id']}/submit/",
            {"payload": payload, "justification": justification},
            format="json",
        )
        assert submitted.status_code == 200, submitted.json()
        written[name] = (submitted.json()["id"], payload, justification, assignment["concept"])

    assert set(written) == {SU_CONCEPT, AR_CONCEPT}
    for name, (item_id, payload, justification, concept) in written.items():
        item = client_for(admin).get(f"/api/projects/ml/items/{item_id}/").json()
        assert item["payload"] == payload
        assert item["justification"] == justification
        assert item["versions"][0]["payload"] == payload
        assert item["concept"] == concept
        assert item["concept"]["name"] == name
    su_response = client.get(f"/api/projects/ml/items/{written[SU_CONCEPT][0]}/")
    ar_response = client.get(f"/api/projects/ml/items/{written[AR_CONCEPT][0]}/")
    # Sent as UTF-8, not as \u escapes, and with the marks where they were.
    assert SU_QUESTION.encode() in su_response.content
    assert AR_QUESTION.encode() in ar_response.content
    assert AR_JUSTIFICATION.encode() in ar_response.content
    su_item = su_response.json()
    assert su_item["payload"]["choices"][1] == "ᮓᮤ ᮞᮝᮂ"
    assert su_item["category"] == "budaya"


def test_concepts_and_languages_keep_their_script(multilingual):
    admin, _ = multilingual
    client = client_for(admin)

    concepts = client.get("/api/projects/ml/concepts/").json()["results"]
    categories = client.get("/api/projects/ml/categories/").json()["results"]
    project = client.get("/api/projects/ml/").json()

    assert sorted((c["category"], c["name"], c["translations"]) for c in concepts) == [
        ("budaya", SU_CONCEPT, {"ar": "قبل الإفطار"}),
        ("دين", AR_CONCEPT, {}),
    ]
    assert sorted((c["name"], c["translations"], c["concept_count"]) for c in categories) == [
        ("budaya", {}, 1),
        ("دين", {"su": "agama"}, 1),
    ]
    assert project["languages"] == [
        {"code": "su", "name": "Basa Sunda", "direction": "ltr"},
        {"code": "ar", "name": "العربية", "direction": "rtl"},
    ]
