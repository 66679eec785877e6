"""Importing NLI premises through the project's concept import (service, page and API)."""

import pytest
from django.urls import reverse

from annotation.errors import InvalidInput
from annotation.models import Category, Concept
from annotation.services.catalog import concepts_import
from tests.annotation.task_types.nli.world import PREMISES, make_nli_project, premises_jsonl

pytestmark = pytest.mark.django_db


def _premise(document_id, n, **extra):
    return {
        "text": f"Kalimat nomor {n} dari dokumen {document_id}.",
        "source": "news",
        "topic": "t",
        "document_id": document_id,
        **extra,
    }


def _snapshot(project):
    return sorted(Concept.objects.filter(project=project).values_list("name", "data"))


def test_premises_become_units_with_their_data():
    world = make_nli_project(premises=[])
    summary = concepts_import(project=world.project, data=premises_jsonl(PREMISES), filename="p.jsonl")
    assert (summary.rows, summary.categories_created, summary.concepts_created) == (2, 2, 0 + 2)
    assert sorted(Category.objects.filter(project=world.project).values_list("name", flat=True)) == ["news", "wiki"]
    assert _snapshot(world.project) == [
        ("news-1#1", {**PREMISES[1], "sentence_size": "double"}),
        ("wiki-1#1", {**PREMISES[0], "sentence_size": "single"}),
    ]


def test_import_is_idempotent():
    world = make_nli_project()
    before = _snapshot(world.project)
    summary = concepts_import(project=world.project, data=premises_jsonl(PREMISES), filename="p.jsonl")
    assert (summary.concepts_created, summary.concepts_updated) == (0, 0)
    assert _snapshot(world.project) == before


def test_csv_with_premise_ids():
    world = make_nli_project(premises=[])
    text = "premise_id,text,source,topic,document_id\np-1,Satu dua tiga. Empat lima enam. Tujuh delapan.,web,angka,d1\n"
    concepts_import(project=world.project, data=text.encode(), filename="p.csv")
    assert _snapshot(world.project) == [
        (
            "p-1",
            {
                "text": "Satu dua tiga. Empat lima enam. Tujuh delapan.",
                "source": "web",
                "topic": "angka",
                "document_id": "d1",
                "sentence_size": "multiple",
            },
        ),
    ]


def test_bad_lines_refuse_the_file_with_line_numbers_and_nothing_changes():
    world = make_nli_project()
    before = _snapshot(world.project)
    rows = [
        _premise("d1", 1),
        {"text": "", "source": "news", "document_id": "d2"},
        {"text": "Ada teks.", "source": "blog", "document_id": "d3"},
        {"text": " ".join(["kata"] * 201), "source": "web", "document_id": "d4"},
        _premise("d1", 1),
    ]
    with pytest.raises(InvalidInput) as exc:
        concepts_import(project=world.project, data=premises_jsonl(rows), filename="p.jsonl")
    assert exc.value.field_errors["file"] == [
        "Line 2, text: The premise text is empty.",
        "Line 3, source: The source genre “blog” is none of wiki, news, web.",
        "Line 4, text: The premise has 201 words; at most 200 are allowed.",
        "Line 5: the same premise as line 1.",
    ]
    assert _snapshot(world.project) == before


def test_at_most_n_premises_per_document_names_the_extra_lines():
    world = make_nli_project(premises=[])
    rows = [_premise("d1", n) for n in range(1, 8)]
    with pytest.raises(InvalidInput) as exc:
        concepts_import(project=world.project, data=premises_jsonl(rows), filename="p.jsonl")
    firsts = "line 1, line 2, line 3, line 4, line 5"
    assert exc.value.field_errors["file"] == [
        f"Line 6: document “d1” would have 6 premises; at most 5 per document ({firsts}).",
        f"Line 7: document “d1” would have 7 premises; at most 5 per document ({firsts}).",
    ]
    assert Concept.objects.filter(project=world.project).count() == 0


def test_the_limit_counts_premises_already_imported():
    world = make_nli_project(premises=[])
    concepts_import(
        project=world.project, data=premises_jsonl([_premise("d1", n) for n in range(1, 5)]), filename="a.jsonl"
    )
    with pytest.raises(InvalidInput) as exc:
        concepts_import(
            project=world.project, data=premises_jsonl([_premise("d1", n) for n in range(5, 7)]), filename="b.jsonl"
        )
    assert exc.value.field_errors["file"] == [
        "Line 2: document “d1” would have 6 premises; at most 5 per document "
        "(already imported, already imported, already imported, already imported, line 1).",
    ]
    assert Concept.objects.filter(project=world.project).count() == 4


def test_word_limit_follows_the_project_setting():
    world = make_nli_project(premises=[])
    world.project.settings = {**world.project.settings, "paragraph_word_limit": 10}
    world.project.save()
    with pytest.raises(InvalidInput) as exc:
        concepts_import(project=world.project, data=premises_jsonl([PREMISES[0]]), filename="p.jsonl")
    assert exc.value.field_errors["file"] == ["Line 1, text: The premise has 15 words; at most 10 are allowed."]


def test_page_and_api_import_premises(client, api_client):
    world = make_nli_project(premises=[])
    client.force_login(world.admin)
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("p.jsonl", premises_jsonl(PREMISES[:1]))
    response = client.post(reverse("project_concepts", args=[world.project.slug]), {"file": upload, "format": ""})
    assert response.status_code == 302
    page = client.get(reverse("project_concepts", args=[world.project.slug]))
    assert "premises_per_document" not in page.content.decode()
    assert "Premises, as CSV" in page.content.decode()
    api_client.force_authenticate(world.admin)
    upload = SimpleUploadedFile("p.jsonl", premises_jsonl(PREMISES))
    response = api_client.post(
        reverse("api-concepts-import", args=[world.project.slug]), {"file": upload}, format="multipart"
    )
    assert response.status_code == 201, response.content
    assert response.json()["concepts_created"] == 1
    assert [name for name, _ in _snapshot(world.project)] == ["news-1#1", "wiki-1#1"]
