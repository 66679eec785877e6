"""A project's own benchmark templates: written on their page (checked against the task type's fields,
previewed on an item), used by a run (which keeps its copy), deleted; the start form's likelihood
options; a slice that is empty only by its split or gold key is refused before a run exists."""

from __future__ import annotations

import time

import pytest
from django.test import Client

from annotation.models import Membership
from evaluation.models import Call, PromptTemplate, Run
from evaluation.services.benchmark_templates import MAX_TEMPLATES
from evaluation.services.runs import run_create
from qc.models import GoldDecision
from tests.evaluation.benchmarks.world import choice_project
from tests.evaluation.helpers import make_endpoint
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
URL = "/p/bench-mc/benchmarks/templates/"
TEXT = "Konsep: {{ concept }}\nSoal: {{ question }}\nA. {{ choice_a }}\nB. {{ choice_b }}\nJawaban:"


def _client(project, role: str) -> Client:
    user = UserFactory()
    Membership.objects.create(project=project, user=user, role=role)
    client = Client()
    client.force_login(user)
    client.user_id = user.pk
    return client


@pytest.fixture
def world(llm_server, eager_tasks):
    llm_server.configure(default={"reply": "A"})
    endpoint = make_endpoint(llm_server, name="alpha", model="alpha-model")
    project, items = choice_project()
    return project, items, endpoint


def test_an_admin_writes_a_template_previews_it_and_a_run_keeps_its_copy(world):
    project, items, endpoint = world
    admin = _client(project, "admin")

    saved = admin.post(URL, {"name": "singkat", "template": TEXT})
    page = admin.get(URL).content.decode()
    template = PromptTemplate.objects.get(project=project)
    run = run_create(kind="benchmark", endpoints=[endpoint], project=project, parameters={"templates": ["singkat"]})
    admin.post(URL, {"name": "singkat", "template": "Soal: {{ question }}"})  # replaced after the run

    assert saved.status_code == 302 and saved.url == f"{URL}#template-{template.pk}"
    assert (template.name, template.text, template.updated_by.pk) == ("benchmark:singkat", TEXT, admin.user_id)
    # The preview is the first gold item (soal1, category "makanan", concept "konsep soal1") rendered.
    preview = "Konsep: konsep soal1\nSoal: Apa jawaban soal1?\nA. pilihan soal1 A\nB. pilihan soal1 B\nJawaban:"
    assert preview in page
    assert "singkat (this project&#x27;s)" in admin.get("/p/bench-mc/benchmarks/").content.decode()
    run.refresh_from_db()
    assert run.status == "done" and run.parameters["template_texts"] == {"singkat": TEXT}
    prompts = sorted(c.request["messages"][-1]["content"] for c in Call.objects.filter(run=run))
    assert len(prompts) == len(items) and prompts[0] == preview
    assert PromptTemplate.objects.get(project=project).text == "Soal: {{ question }}"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "x", "template": "Soal: {{ pertanyaan }}"}, "Unknown fields: {{ pertanyaan }}."),
        ({"name": "helm", "template": TEXT}, "“helm” is a built-in template of this task type; choose another name."),
        ({"name": "Bad Name", "template": TEXT}, "Name the template with lower-case letters, digits, - and _"),
        ({"name": "x", "template": "   "}, "This field is required."),
    ],
)
def test_a_refused_template_explains_itself_and_saves_nothing(world, data, message):
    project, _items, _endpoint = world
    admin = _client(project, "admin")

    response = admin.post(URL, data)

    assert response.status_code == 400
    assert message in response.content.decode()
    assert PromptTemplate.objects.count() == 0


def test_deleting_a_template_keeps_the_runs_that_used_it(world):
    project, _items, endpoint = world
    admin = _client(project, "admin")
    admin.post(URL, {"name": "singkat", "template": TEXT})
    run = run_create(kind="benchmark", endpoints=[endpoint], project=project, parameters={"templates": ["singkat"]})

    deleted = admin.post(URL, {"action": "delete", "name": "singkat"})
    again = admin.post(URL, {"action": "delete", "name": "singkat"})

    assert deleted.status_code == 302 and PromptTemplate.objects.count() == 0
    assert again.status_code == 400 and "The project has no template “singkat”." in again.content.decode()
    run.refresh_from_db()
    assert run.parameters["template_texts"] == {"singkat": TEXT}
    with pytest.raises(Exception, match="Unknown template singkat"):
        run_create(kind="benchmark", endpoints=[endpoint], project=project, parameters={"templates": ["singkat"]})


def test_only_the_projects_admins_reach_the_templates_page(world):
    project, _items, _endpoint = world
    other, _ = choice_project(slug="bench-other")
    outsider_admin = _client(other, "admin")
    reviewer, annotator = _client(project, "reviewer"), _client(project, "annotator")

    answers = [
        client.post(URL, {"name": "x", "template": TEXT}).status_code
        for client in (reviewer, annotator, outsider_admin)
    ]

    assert answers == [404, 404, 404] and PromptTemplate.objects.count() == 0
    assert _client(project, "admin").get(URL).status_code == 200


def _start(client: Client, **fields):
    data = {"endpoints": ["alpha"], "templates": ["helm"], "gold_key": "author", "mode": "chat", **fields}
    return client.post("/p/bench-mc/benchmarks/", data)


def test_the_start_form_passes_the_likelihood_options(world, llm_server):
    project, items, _endpoint = world
    llm_server.configure(likelihood={}, default_logprob=-1.0)
    admin = _client(project, "admin")

    response = _start(admin, mode="likelihood", normalisation="bytes", prompt_prefix="<s>")

    run = Run.objects.get()
    assert response.status_code == 302
    assert (run.parameters["normalisation"], run.parameters["prompt_prefix"]) == ("bytes", "<s>")
    assert run.status == "done" and run.calls_done == 5 * len(items)
    contexts = set(Call.objects.filter(run=run).values_list("request__context", flat=True))
    assert len(contexts) == len(items) and all(c.startswith("<s>") for c in contexts)


def test_a_slice_empty_by_its_split_or_gold_key_is_refused_before_a_run(world):
    project, _items, _endpoint = world
    admin = _client(project, "admin")

    by_split = _start(admin, split="train")
    # Every item's majority answer is removed: under "majority" the slice has no gold answer at all.
    GoldDecision.objects.filter(item__project=project).update(details={})
    by_key = _start(admin, gold_key="majority")

    assert by_split.status_code == 400 and "No item of this slice has split “train”." in by_split.content.decode()
    assert by_key.status_code == 400
    assert "No item of this slice has an answer under gold key “majority”." in by_key.content.decode()
    assert Run.objects.count() == 0
    assert _start(admin, split="test").status_code == 302 and Run.objects.count() == 1


def test_past_the_cap_a_new_template_is_refused_and_an_existing_one_can_still_be_replaced(world):
    project, _items, _endpoint = world
    admin = _client(project, "admin")
    PromptTemplate.objects.bulk_create(
        PromptTemplate(project=project, name=f"benchmark:t{n}", text=TEXT) for n in range(MAX_TEMPLATES)
    )

    refused = admin.post(URL, {"name": "satu-lagi", "template": TEXT})
    replaced = admin.post(URL, {"name": "t0", "template": "Soal: {{ question }}"})

    assert MAX_TEMPLATES == 200
    assert refused.status_code == 400
    assert "A project keeps at most 200 benchmark templates; delete one to add another." in refused.content.decode()
    assert replaced.status_code == 302
    assert PromptTemplate.objects.filter(project=project).count() == 200
    assert not PromptTemplate.objects.filter(name="benchmark:satu-lagi").exists()
    assert PromptTemplate.objects.get(name="benchmark:t0").text == "Soal: {{ question }}"


def test_the_page_of_many_long_templates_renders_in_linear_time(world):
    project, _items, _endpoint = world
    admin = _client(project, "admin")
    braces = "{{ question }}" + "{" * (20_000 - 14)  # the longest a template may be; the old scan: 1.2 s each
    PromptTemplate.objects.bulk_create(
        PromptTemplate(project=project, name=f"benchmark:t{n}", text=braces) for n in range(20)
    )

    started = time.perf_counter()
    page = admin.get(URL)
    took = time.perf_counter() - started

    assert page.status_code == 200
    assert page.content.decode().count("Apa jawaban soal1?") == 20  # every preview rendered
    assert took < 5.0  # generous for a loaded machine; the regex scan took 24 s for these
