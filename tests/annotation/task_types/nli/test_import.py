"""NLI imports: the released IndoNLI files and MNLI's dev set replayed through the validation rounds."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from django.db.models import Count

from annotation.errors import InvalidInput
from annotation.models import Concept, Item, Judgment, Membership, Project
from annotation.services.imports import items_import
from tests.api.conftest import db_state

pytestmark = pytest.mark.django_db
DATA = Path(__file__).resolve().parents[4].parent / "shared" / "data"
MNLI = DATA / "mnli-id" / "dev.jsonl"
CANONICAL = {"e": "entailment", "n": "neutral", "c": "contradiction"}


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _protocol_rounds(labels: list[str]) -> dict[int, list[str]]:
    """The labels the protocol asks for, by round, written here from the paper's rule."""
    author, l2, l3, l4, l5 = labels
    rounds = {1: [l2, l3]}
    if l2 == author and l3 == author:
        return rounds
    rounds[2] = [l4]
    if Counter([author, l2, l3, l4]).most_common(1)[0][1] >= 3:
        return rounds
    rounds[3] = [l5]
    return rounds


def _counts():
    return (Project.objects.count(), Membership.objects.count(), Concept.objects.count(), Item.objects.count())


def test_mnli_dev_is_replayed_through_the_rounds():
    assert MNLI.exists(), f"{MNLI} is missing (../shared/data, see its README.md)"
    rows = _lines(MNLI)
    expected = {r["pairid"]: _protocol_rounds([r[f"label{n}"] for n in range(1, 6)]) for r in rows}
    per_round = Counter(n for rounds in expected.values() for n, labels in rounds.items() for _ in labels)

    summary = items_import(path_or_bytes=MNLI, project_slug="mnli", format="mnli", language="id")

    assert (summary.rows, summary.items_created, summary.rows_skipped) == (2198, 2198, [])
    assert summary.judgments_created == sum(per_round.values())
    assert dict(Judgment.objects.values_list("round").annotate(n=Count("id")).order_by("round")) == dict(per_round)
    assert summary.annotators_created == 5
    stored: dict[str, dict[int, list[str]]] = {}
    for ext, code, rnd, value in Judgment.objects.order_by("item_id", "round", "user_id").values_list(
        "item__external_id", "user__memberships__code", "round", "value"
    ):
        stored.setdefault(ext, {}).setdefault(rnd, []).append((code, value["label"]))
    assert {ext: {n: [label for _, label in v] for n, v in r.items()} for ext, r in stored.items()} == expected
    assert {code for r in stored.values() for v in r.values() for code, _ in v} == {"L2", "L3", "L4", "L5"}
    assert dict(Item.objects.values_list("external_id", "judging_round")) == {
        ext: max(r) for ext, r in expected.items()
    }
    first = Item.objects.select_related("current_version", "concept__category", "author").get(external_id="50830c")
    assert first.current_version.payload == {
        "hypothesis": "kami tidak meminjamkan banyak uang.",
        "label": "contradiction",
        "tags": [],
        "release": {
            "gold_label": "neutral",
            "labels": ["contradiction", "neutral", "contradiction", "neutral", "neutral"],
        },
    }
    assert (first.concept.category.name, first.concept.name, first.author.username) == ("telephone", "50830", "mnli-l1")
    assert first.concept.data["source"] == "telephone"
    assert Concept.objects.count() == len({r["promptid"] for r in rows})

    before = _counts(), Judgment.objects.count()
    again = items_import(path_or_bytes=MNLI, project_slug="mnli", format="mnli", language="id")
    assert (again.items_created, again.items_existing, again.judgments_created, again.annotators_created) == (
        0,
        2198,
        0,
        0,
    )
    assert (_counts(), Judgment.objects.count()) == before


@pytest.mark.parametrize("name", ["val.jsonl", "test_lay.jsonl"])
def test_indonli_release_files_import_with_exact_counts(name):
    path = DATA / "indonli" / name
    assert path.exists(), f"{path} is missing (../shared/data, see its README.md)"
    rows = _lines(path)

    summary = items_import(path_or_bytes=path, project_slug="indonli", format="indonli", language="id")

    assert (summary.rows, summary.items_created, summary.judgments_created, summary.rows_skipped) == (
        len(rows),
        len(rows),
        0,
        [],
    )
    repeated = sorted(n for n, r in enumerate(rows, start=1) if r["pair_id"] in {x["pair_id"] for x in rows[: n - 1]})
    assert summary.issue_rows == ({"duplicate_id": repeated} if repeated else {})
    assert Concept.objects.filter(project__slug="indonli").count() == len({r["premise_id"] for r in rows})
    payloads = list(Item.objects.values_list("current_version__payload", flat=True))
    assert Counter(p["label"] for p in payloads) == Counter(CANONICAL[r["label"]] for r in rows)
    assert Counter((p["release"]["data_split"], p["release"]["annotator_type"]) for p in payloads) == Counter(
        (r["data_split"], r["annotator_type"]) for r in rows
    )
    sizes = Counter(Item.objects.values_list("concept__data__sentence_size", flat=True))
    assert sizes == Counter(r["sentence_size"] for r in rows)
    assert Project.objects.get(slug="indonli").task_type == "nli"

    again = items_import(path_or_bytes=path, project_slug="indonli", format="indonli", language="id")
    assert (again.items_created, again.items_existing) == (0, len(rows))


def test_indonli_author_label_and_round_are_kept(tmp_path):
    line = {
        "pair_id": 7,
        "premise_id": 3,
        "premise": "Budi pergi ke pasar.",
        "hypothesis": "Budi pergi.",
        "label": "e",
        "author_label": "n",
        "annotation_round": 2,
        "data_split": "test",
        "annotator_type": "lay",
        "sentence_size": "single",
    }
    odd = {**line, "pair_id": 8, "label": "maybe", "author_label": None, "data_split": "holdout"}
    path = tmp_path / "x.jsonl"
    path.write_text(json.dumps(line) + "\n" + json.dumps(odd) + "\n", encoding="utf-8")

    summary = items_import(path_or_bytes=path, project_slug="small", format="indonli", language="id")

    items = {i.external_id: i for i in Item.objects.select_related("current_version")}
    assert items["7"].current_version.payload == {
        "hypothesis": "Budi pergi.",
        "label": "neutral",
        "tags": [],
        "release": {"label": "entailment", "data_split": "test", "annotator_type": "lay", "annotation_round": 2},
    }
    assert items["7"].judging_round == 2
    assert items["8"].current_version.payload["label"] == ""
    assert items["8"].current_version.payload["release"]["label"] == "maybe"
    assert summary.issue_rows == {"odd_data_split": [2], "odd_label": [2]}


def test_bad_lines_refuse_the_file_with_their_numbers(tmp_path):
    good = {"sentence1": "A.", "sentence2": "B.", "gold_label": "neutral", "pairID": "1", "label1": "neutral"}
    path = tmp_path / "bad.jsonl"
    path.write_text(
        json.dumps(good) + "\n{oops\n[1]\n" + json.dumps({**good, "sentence2": ""}) + "\n", encoding="utf-8"
    )
    before = db_state()

    with pytest.raises(InvalidInput) as refused:
        items_import(path_or_bytes=path, project_slug="bad", format="mnli", language="id")

    assert refused.value.message == (
        "3 line(s) can't be read: line 2: not JSON: Expecting property name enclosed in double quotes "
        "(column 2); line 3: a JSON list, not an object with fields; line 4: no sentence2 text. Nothing was imported."
    )
    assert db_state() == before
