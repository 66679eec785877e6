"""The generate, adapt and human vs LLM pages, and the review queue's source filter."""

from __future__ import annotations

import pytest
from django.test import Client

from annotation.models import Item
from evaluation.models import Run
from tests.evaluation.helpers import make_endpoint
from tests.factories import make_csqa_project

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def eager(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    return settings


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


def test_an_admin_previews_and_starts_a_generation_and_reviewers_filter_the_queue_by_source(llm_server, eager):
    world = make_csqa_project(slug="gen")
    reply = (
        '[{"question_concepts": "kunjung", "question": "Kapan orang berkunjung ke rumah nenek?", '
        '"choices": {"A": "Lebaran", "B": "Malam", "C": "Hujan", "D": "Senin", "E": "Puasa"}, "answer_creator": "A"}]'
    )
    llm_server.configure(replies=[{"match": "kunjung", "reply": reply}], default={"reply": "[]"})
    endpoint = make_endpoint(llm_server, name="gpt4")
    admin = client_for(world.admin)

    page = admin.get("/p/gen/generate/", {"categories": ["cat0"]})
    assert page.status_code == 200
    assert "Given a list of Indonesian concepts [kunjung, konsep0x1, konsep0x2]" in page.content.decode()
    refused = admin.post("/p/gen/generate/", {"action": "start", "endpoint": endpoint.pk, "template": "{{ nope }}"})
    assert refused.status_code == 400 and Run.objects.count() == 0

    started = admin.post("/p/gen/generate/", {"action": "start", "endpoint": endpoint.pk, "categories": ["cat0"]})

    run = Run.objects.get()
    assert started.status_code == 302 and started.url == f"/p/gen/runs/{run.pk}/"
    assert (run.status, run.total) == ("done", 1)
    item = Item.objects.get(source="llm_gen")
    reviewer = client_for(world.reviewer)
    assert f"queue-item-{item.pk}" in reviewer.get("/p/gen/review/", {"source": "llm_gen"}).content.decode()
    assert f"queue-item-{item.pk}" not in reviewer.get("/p/gen/review/", {"source": "human"}).content.decode()
    report = reviewer.get("/p/gen/human-vs-llm/")
    assert report.status_code == 200 and "llm_gen" in report.content.decode()
    assert client_for(world.reviewer).get("/p/gen/generate/").status_code == 404
    assert client_for(world.annotators[0]).get("/p/gen/human-vs-llm/").status_code == 404


def test_a_bad_commonsenseqa_file_is_refused_with_its_line_and_nothing_starts(llm_server, eager):
    world = make_csqa_project(slug="ad")
    endpoint = make_endpoint(llm_server, name="gpt4")
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("csqa.jsonl", b'{"id": "1"}\n')
    response = client_for(world.admin).post("/p/ad/adapt/", {"file": upload, "endpoint": endpoint.pk})

    assert response.status_code == 400
    assert "Line 1: no question." in response.content.decode()
    assert Run.objects.count() == 0
