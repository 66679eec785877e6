"""The import decides its new items' gold as it writes them: exactly what qc.gold.gold_recompute saves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotation.importing import engine
from annotation.models import Item
from annotation.services.imports import items_import
from qc.gold import gold_recompute
from qc.models import GoldDecision
from tests.annotation.importing.messy import messy_bytes, row
from tests.qc.helpers import ind_file

pytestmark = pytest.mark.django_db
DATA = Path(__file__).resolve().parents[3].parent / "shared" / "data"


def _mnli_head(lines: int) -> bytes:
    path = DATA / "mnli-id" / "dev.jsonl"
    assert path.exists(), f"{path} is missing (../shared/data, see its README.md)"
    with path.open("rb") as handle:
        return b"".join(handle.readline() for _ in range(lines))


def _state(slug: str) -> dict[int, tuple]:
    """Every item's status and its whole gold decision (computed_at aside), by item id."""
    decisions = {
        d["item_id"]: (d["policy"], d["outcome"], d["reason"], d["details"], d["judgment_ids"])
        for d in GoldDecision.objects.filter(item__project__slug=slug).values(
            "item_id", "policy", "outcome", "reason", "details", "judgment_ids"
        )
    }
    return {
        pk: (status, reason, decisions.get(pk))
        for pk, status, reason in Item.objects.filter(project__slug=slug).values_list("pk", "status", "status_reason")
    }


SOURCES = {
    "id-csqa ind release": ("id-csqa", lambda: ind_file().read_bytes()),
    "id-csqa odd rows": ("id-csqa", messy_bytes),
    "id-csqa flagged and short rows": ("id-csqa", lambda: _flagged()),
    "mnli dev, 600 pairs": ("mnli", lambda: _mnli_head(600)),
}


@pytest.mark.parametrize("writer", ["copy", "orm"])
@pytest.mark.parametrize("source", list(SOURCES))
def test_inline_decisions_are_what_a_recompute_saves(source, writer, monkeypatch):
    if writer == "orm":
        monkeypatch.setattr(engine, "_CopyWriter", engine._OrmWriter)
    fmt, data = SOURCES[source]

    summary = items_import(path_or_bytes=data(), project_slug="inline", format=fmt, language="id")
    inline = _state("inline")
    gold_recompute(item_ids=list(inline))
    recomputed = _state("inline")

    assert len(inline) == summary.items_created
    assert all(decision is not None for _, _, decision in inline.values())
    assert inline == recomputed


def test_the_release_is_decided_gold_and_odd_rows_as_the_policy_says():
    items_import(path_or_bytes=ind_file(), project_slug="release", format="id-csqa", language="id")
    items_import(path_or_bytes=_flagged(), project_slug="flagged", format="id-csqa", language="id")

    release = GoldDecision.objects.filter(item__project__slug="release").order_by()
    flagged = Item.objects.filter(project__slug="flagged").order_by("external_id")

    assert sorted(release.values_list("outcome", flat=True).distinct()) == ["gold"]
    assert release.count() == Item.objects.filter(project__slug="release", status="gold").count() > 1000
    assert [(i.external_id, i.status, i.status_reason, i.gold_decision.outcome) for i in flagged] == [
        ("clear", "gold", "", "gold"),
        (
            "flagged",
            "excluded",
            "Question flagged ambiguous by 4 of 5 answerers (more than the threshold of 3).",
            "excluded",
        ),
        ("short", "approved", "", "pending"),
    ]


def _flagged() -> bytes:
    flagged = row("flagged")
    flagged["question_ambiguity"].update(dict.fromkeys(["W2", "W3", "W4", "W5"], "ambiguous"))
    short = row("short")
    for key in ("answers", "answers_uncertainty", "question_ambiguity", "option_ambiguity", "reason"):
        del short[key]["W6"]
    return json.dumps([row("clear"), flagged, short]).encode()


def test_a_reimport_decides_nothing_again():
    first = items_import(path_or_bytes=messy_bytes(), project_slug="inline", format="id-csqa", language="id")
    before = _state("inline")

    second = items_import(path_or_bytes=messy_bytes(), project_slug="inline", format="id-csqa", language="id")

    assert (first.items_created, second.items_created, second.items_existing) == (7, 0, 7)
    assert _state("inline") == before
