import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from annotation.models import Category, Concept
from tests.annotation.views.helpers import db_snapshot

pytestmark = pytest.mark.django_db

GOOD_CSV = "category,concept,concept_id\nculinary,rendang,rendang\nculinary,soto,soto\nplace,alun-alun,alun-alun\n"


def upload(name: str, text: str):
    return SimpleUploadedFile(name, text.encode("utf-8"), content_type="text/plain")


def test_concepts_page_lists_categories_with_counts(csqa, client):
    client.force_login(csqa.admin)

    html = client.get(reverse("project_concepts", args=["demo"])).content.decode()

    cat0 = Category.objects.get(project=csqa.project, name="cat0")
    assert f'<tr id="category-{cat0.pk}"><td dir="auto">cat0</td><td>3</td></tr>' in html
    assert '<th id="concept-total">6</th>' in html


def test_import_csv_shows_a_summary_and_a_second_import_adds_nothing(csqa, client):
    client.force_login(csqa.admin)
    url = reverse("project_concepts", args=["demo"])

    first = client.post(url, {"file": upload("concepts.csv", GOOD_CSV)}, follow=True)
    second = client.post(url, {"file": upload("concepts.csv", GOOD_CSV)}, follow=True)

    assert "Imported 3 rows: 2 new categories, 3 new concepts, 0 updated." in first.content.decode()
    assert "Imported 3 rows: 0 new categories, 0 new concepts, 0 updated." in second.content.decode()
    assert sorted(
        Concept.objects.filter(project=csqa.project, category__name="culinary").values_list("name", flat=True)
    ) == [
        "rendang",
        "soto",
    ]


def test_import_jsonl(csqa, client):
    client.force_login(csqa.admin)
    text = '{"category": "culture", "concept": "wayang"}\n{"category": "culture", "concept": "angklung"}\n'

    response = client.post(reverse("project_concepts", args=["demo"]), {"file": upload("c.jsonl", text)}, follow=True)

    assert "Imported 2 rows: 1 new categories, 2 new concepts, 0 updated." in response.content.decode()


def test_bad_file_shows_every_line_error_and_imports_nothing(csqa, client):
    client.force_login(csqa.admin)
    text = "category,concept\nculinary,rendang\n,soto\nplace,\nculinary,Rendang\n"
    before = db_snapshot()

    response = client.post(reverse("project_concepts", args=["demo"]), {"file": upload("bad.csv", text)})

    html = response.content.decode()
    assert response.status_code == 400
    assert "Nothing was imported: 3 problem(s) in the file." in html
    assert '<li dir="auto">Line 3: the category is empty.</li>' in html
    assert '<li dir="auto">Line 4: the concept is empty.</li>' in html
    assert '<li dir="auto">Line 5: “Rendang” in “culinary” repeats line 2.</li>' in html
    assert db_snapshot() == before


def test_missing_file_is_refused_next_to_the_field(csqa, client):
    client.force_login(csqa.admin)
    before = db_snapshot()

    response = client.post(reverse("project_concepts", args=["demo"]), {})

    assert response.status_code == 400
    assert '<p class="error" role="alert">This field is required.</p>' in response.content.decode()
    assert db_snapshot() == before
