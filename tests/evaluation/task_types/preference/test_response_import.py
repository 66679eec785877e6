"""Responses on the runs page and the command: made elsewhere and imported (prompt_id, model, text), one new
version per prompt, skipped when already there, all or nothing; and a response run started over five
endpoints (the run itself is tested on real workers in test_runs.py)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client

from annotation.models import Assignment, Item, ItemVersion
from evaluation.models import Run
from evaluation.services.endpoints import endpoint_create
from qc.exports import gold_rows
from tests.annotation.task_types.preference.world import make_world, plan
from tests.factories import make_csqa_project

pytestmark = pytest.mark.django_db

FILE = (
    "prompt_id,model,text\n"
    "P00,sealion-v3,Jawaban baru dari model lain.\n"
    "P00,gemini-1.5-flash,Jawaban ke-1 untuk soal 0.\n"
    'P01,komodo-7b,"Jawaban, dengan koma."\n'
)


def _state() -> list:
    return list(ItemVersion.objects.order_by("pk").values_list("pk", "item_id", "number", "payload"))


def test_the_command_adds_new_responses_once_and_skips_known_ones(tmp_path):
    world = make_world(raters_per_group=1)
    path = tmp_path / "responses.csv"
    path.write_text(FILE, encoding="utf-8")
    out, again = io.StringIO(), io.StringIO()

    call_command("import_responses", "pref", str(path), stdout=out)
    after_first = _state()
    call_command("import_responses", "pref", str(path), stdout=again)

    assert json.loads(out.getvalue()) == {"added": 2, "prompts": 2, "rows": 3, "skipped": 1}
    assert json.loads(again.getvalue()) == {"added": 0, "prompts": 0, "rows": 3, "skipped": 3}
    assert _state() == after_first
    p0 = Item.objects.get(pk=world.items[0].pk).current_version
    assert (p0.number, p0.note) == (2, "1 imported response(s)")
    assert [(r["id"], r["model"]) for r in p0.payload["responses"]] == [
        ("r1", "gemini-1.5-flash"),
        ("r2", "llama-3.1-8b"),
        ("r3", "aya-expanse-8b"),
        ("r4", "gpt-4o-mini"),
        ("r5", "gpt-4o"),
        ("r6", "sealion-v3"),
    ]
    assert p0.payload["responses"][5] == {
        "id": "r6",
        "model": "sealion-v3",
        "text": "Jawaban baru dari model lain.",
        "source": "import",
    }
    p1 = Item.objects.get(pk=world.items[1].pk).current_version.payload["responses"]
    assert (p1[5]["model"], p1[5]["text"]) == ("komodo-7b", "Jawaban, dengan koma.")


def test_unknown_prompts_missing_values_and_rated_prompts_refuse_the_whole_file(tmp_path):
    world = make_world(raters_per_group=1)
    plan(world)
    rated = Assignment.objects.filter(project=world.project, kind="rate").select_related("user").order_by("pk")[0]
    world.rate(rated)
    rated_id = rated.target_item.external_id
    path = tmp_path / "responses.jsonl"
    lines = [
        {"prompt_id": "P02", "model": "m", "text": "Baik."},
        {"prompt_id": "P99", "model": "m", "text": "Tidak ada."},
        {"prompt_id": "P03", "model": "", "text": "Tanpa model."},
        {"prompt_id": rated_id, "model": "m", "text": "Terlambat."},
    ]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    before = _state()

    with pytest.raises(CommandError) as refused:
        call_command("import_responses", "pref", str(path))

    assert str(refused.value) == (
        "Nothing was imported: 3 problem(s) in the file. line 3: no model; line 2: no prompt “P99” in this "
        f"project; line 4: prompt “{rated_id}” already has ratings"
    )
    assert _state() == before


def test_an_admin_imports_responses_on_the_runs_page_and_others_get_404():
    world = make_world(raters_per_group=1)
    admin, rater = Client(), Client()
    admin.force_login(world.admin)
    rater.force_login(world.raters["A"][0])

    page = admin.get("/p/pref/preference-runs/").content.decode()
    upload = SimpleUploadedFile("r.csv", FILE.encode(), content_type="text/csv")
    done = admin.post("/p/pref/preference-runs/", {"action": "import_responses", "file": upload}, follow=True)
    bad = SimpleUploadedFile("r.csv", b"prompt_id,model,text\nP77,m,t\n", content_type="text/csv")
    before = _state()
    refused = admin.post("/p/pref/preference-runs/", {"action": "import_responses", "file": bad})
    upload = SimpleUploadedFile("r.csv", FILE.encode(), content_type="text/csv")
    outsider = rater.post("/p/pref/preference-runs/", {"action": "import_responses", "file": upload})

    assert 'id="responses-import-form"' in page
    assert "2 response(s) added to 2 prompt(s); 1 already there." in done.content.decode()
    assert refused.status_code == 400
    assert "line 2: no prompt “P77” in this project" in refused.content.decode()
    assert outsider.status_code == 404
    assert _state() == before


def test_an_admin_starts_a_response_run_over_five_endpoints_on_the_runs_page():
    world = make_world(raters_per_group=1)
    endpoints = [
        endpoint_create(name=f"m{n}", base_url="http://127.0.0.1:9/v1", model=f"model-{n}", is_local=True)
        for n in range(1, 6)
    ]
    admin = Client()
    admin.force_login(world.admin)

    page = admin.get("/p/pref/preference-runs/").content.decode()
    none = admin.post("/p/pref/preference-runs/", {"action": "responses", "max_tokens": "64"})
    runs_before = Run.objects.count()
    started = admin.post(
        "/p/pref/preference-runs/",
        {"action": "responses", "endpoints": [e.pk for e in endpoints], "max_tokens": "64", "temperature": "0.5"},
    )

    assert all(f'value="{e.pk}"> {e.name} ({e.model})' in page for e in endpoints)
    assert none.status_code == 400 and "Choose at least one endpoint." in none.content.decode()
    assert runs_before == 0
    run = Run.objects.get()
    assert started["Location"] == f"/p/pref/runs/{run.pk}/"
    assert run.kind == "preference_responses"
    assert sorted(run.endpoints.values_list("name", flat=True)) == ["m1", "m2", "m3", "m4", "m5"]
    assert run.parameters == {
        "items": sorted(i.pk for i in world.items.values()),
        "max_tokens": 64,
        "temperature": 0.5,
    }


def test_the_command_refuses_a_project_that_takes_no_responses(tmp_path):
    make_csqa_project(slug="qa")
    path = tmp_path / "responses.csv"
    path.write_text(FILE, encoding="utf-8")
    before = _state()
    with pytest.raises(CommandError, match="“qa” is a csqa project, which takes no imported responses."):
        call_command("import_responses", "qa", str(path))
    assert _state() == before


def test_the_import_accepts_the_prompt_ids_the_export_writes():
    """Round trip: the prompts' ids and responses as the project's export writes them come back in."""
    world = make_world(raters_per_group=1)
    Item.objects.filter(project=world.project).update(external_id="")  # prompts written on the pages
    exported = [row for _split, row in gold_rows(project=world.project)]
    lines = [
        {"prompt_id": row["id"], "model": response["model"], "text": response["text"]}
        for row in exported
        for response in row["responses"]
    ]
    first = exported[0]["id"]
    lines.append({"prompt_id": first, "model": "sealion-v3", "text": "Jawaban baru."})
    data = "\n".join(json.dumps(line, ensure_ascii=False) for line in lines).encode()
    client = Client()
    client.force_login(world.admin)

    response = client.post(
        "/p/pref/preference-runs/", {"action": "import_responses", "file": SimpleUploadedFile("responses.jsonl", data)}
    )

    assert first == f"pref-{world.items[0].pk}"
    assert response.status_code == 302
    p0 = Item.objects.get(pk=world.items[0].pk).current_version
    assert [(r["model"], r["text"]) for r in p0.payload["responses"]][-1] == ("sealion-v3", "Jawaban baru.")
    assert ItemVersion.objects.filter(item__project=world.project, number=2).count() == 1
