"""Malformed files of responses (preference-runs' import and `import_responses`): a 400 or a command
error naming the line (and the field), never a 500, and no prompt gets a new version."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils.html import escape

from annotation.models import ItemVersion
from tests.annotation.task_types.preference.world import make_world

pytestmark = pytest.mark.django_db

NUL = "Remove the NUL character (\\u0000): text can't contain it."
CASES = [
    pytest.param(
        b'{"prompt_id": "P00", "model": "m", "text": "a\\u0000b"}\n',
        "Line 1, text: " + NUL + " Nothing was imported.",
        id="nul-in-jsonl",
    ),
    pytest.param(
        b'{"prompt_id": "P00", "model": "m", "text": "ok"}\n{"prompt_id": "P01", "model": "\\ud800", "text": "t"}\n',
        "Line 2, model: Remove the unpaired surrogate (\\ud800): it is not a character. Nothing was imported.",
        id="lone-surrogate-in-jsonl",
    ),
    pytest.param(
        b"prompt_id,model,text\nP00,m,ok\nP01,m,a\x00b\n",
        "Line 3, text: " + NUL + " Nothing was imported.",
        id="nul-in-csv",
    ),
    pytest.param(
        b'{"prompt_id": "P00", "model": "m", "text": "ok"}\n{"prompt_id": "P01", "model": "m", "text": '
        + b"[" * 100_000
        + b"]" * 100_000
        + b"}\n",
        "Line 2 is not valid JSON (nested too deeply); nothing was imported.",
        id="nested-100000",
    ),
    pytest.param(
        b'{"prompt_id": "P00", "model": "m", "text": ' + b"9" * 5000 + b"}\n",
        "Line 1 is not valid JSON (a number has more than 4,300 digits); nothing was imported.",
        id="number-of-5000-digits",
    ),
    pytest.param(
        b'prompt_id,model,text\nP00,m,ok\nP01,m,"never closed\nP02,m,swallowed\n',
        "Line 3: a quoted value that starts in this row is not closed properly (unexpected end of data); "
        "nothing was imported.",
        id="unterminated-quote",
    ),
    pytest.param(
        "prompt_id,model,text\nP00,m,ok\n".encode("utf-16"),
        "Line 1 is not UTF-8 text (save the file as UTF-8); nothing was imported.",
        id="utf-16",
    ),
    pytest.param(
        b"prompt_id,model,text\nP00," + b"m" * 201 + b",ok\n",
        "line 2, model: Use at most 200 characters (this has 201).",
        id="model-of-201",
    ),
]


def _versions() -> list:
    return list(ItemVersion.objects.order_by("pk").values_list("pk", "item_id", "number", "payload"))


@pytest.mark.parametrize(("data", "expected"), CASES)
def test_the_runs_page_refuses_a_malformed_file_with_its_line(data, expected):
    world = make_world(raters_per_group=1)
    admin = Client()
    admin.force_login(world.admin)
    before = _versions()

    response = admin.post(
        "/p/pref/preference-runs/", {"action": "import_responses", "file": SimpleUploadedFile("r.txt", data)}
    )

    assert response.status_code == 400
    assert escape(expected) in response.content.decode()
    assert _versions() == before


@pytest.mark.parametrize(("data", "expected"), CASES)
def test_the_command_refuses_a_malformed_file_with_its_line(tmp_path, data, expected):
    make_world(raters_per_group=1)
    path = tmp_path / "responses.txt"
    path.write_bytes(data)
    before = _versions()

    with pytest.raises(CommandError) as refused:
        call_command("import_responses", "pref", str(path))

    assert expected in str(refused.value)
    assert _versions() == before
