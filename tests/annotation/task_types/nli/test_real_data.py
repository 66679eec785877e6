"""The issue's real-data checks, end to end through the commands: import_items then report --json.

- MNLI-id's dev set imported with --format mnli and replayed through the rounds: gold equals gold_label
  for all 2,198 pairs; pairs per round, annotations needed, saving and cumulative consensus equal what
  the protocol implies, counted here straight from label1..label5 (not with the rounds code).
- IndoNLI's val.jsonl and test_lay.jsonl imported with --format indonli: the report's corpus for dev and
  test_lay equals the paper's Table 4 (numbers copied from the paper's text).
"""

import io
import json
from collections import Counter

import pytest
from django.core.management import call_command
from django.urls import reverse

from annotation.models import Item, Membership, Project
from tests.annotation.task_types.nli.data import data_file
from tests.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

FIELDS = ("label1", "label2", "label3", "label4", "label5")
# Mahendra et al. 2021, Table 4: Dev and Test_LAY columns
TABLE_4 = {
    "dev": {
        "labels": {"entailment": 807, "contradiction": 749, "neutral": 641},
        "premise": (19.9, 10.9),
        "hypothesis": (7.7, 2.8),
        "sentence_size": {"single": 1784, "double": 336, "multiple": 77},
    },
    "test_lay": {
        "labels": {"entailment": 808, "contradiction": 764, "neutral": 629},
        "premise": (20.4, 11.6),
        "hypothesis": (7.7, 3.1),
        "sentence_size": {"single": 1836, "double": 282, "multiple": 83},
    },
}


def _report(slug):
    out = io.StringIO()
    call_command("report", slug, "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert (report["project"], report["task_type"]) == (slug, "nli")
    return report["nli"]


def _import(path, slug, fmt):
    call_command("import_items", str(path), "--project", slug, "--format", fmt, stdout=io.StringIO())


def _protocol(labels):
    """(labels the protocol asks for, gold or None), the paper's rule written out once more."""
    author, l2, l3, l4, l5 = labels
    if l2 == author and l3 == author:
        return 3, author
    top, count = Counter(labels[:4]).most_common(1)[0]
    if count >= 3:
        return 4, top
    top, count = Counter(labels).most_common(1)[0]
    return 5, (top if count >= 3 else None)


def test_mnli_dev_replayed_through_the_rounds():
    path = data_file("mnli-id", "dev.jsonl")
    with open(path, encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]
    protocol = {row["pairid"]: _protocol([row[name] for name in FIELDS]) for row in rows}
    pairs = len(rows)
    reached = {n: sum(used >= n + 2 for used, _ in protocol.values()) for n in (1, 2, 3)}
    gold_after = {n: sum(gold is not None and used <= n + 2 for used, gold in protocol.values()) for n in (1, 2, 3)}
    needed = sum(used for used, _ in protocol.values())

    _import(path, "mnli-dev", "mnli")
    report = _report("mnli-dev")

    stored = dict(Item.objects.filter(project__slug="mnli-dev").values_list("external_id", "gold_decision__details"))
    assert len(stored) == pairs == 2198
    assert {ext: details["label"] for ext, details in stored.items()} == {
        row["pairid"]: (None if row["gold_label"] == "-" else row["gold_label"]) for row in rows
    }
    assert {ext: protocol[ext][1] for ext in stored} == {ext: details["label"] for ext, details in stored.items()}
    assert report["rounds"] == {str(n): reached[n] for n in (1, 2, 3)} == {"1": 2198, "2": 656, "3": 226}
    assert report["gold_after_round"] == {str(n): gold_after[n] for n in (1, 2, 3)}
    assert report["cumulative_gold_share"] == {str(n): gold_after[n] / pairs for n in (1, 2, 3)}
    assert report["annotations_needed"] == needed == 7476
    assert report["annotations_mnli"] == 5 * pairs
    assert report["saving_percent"] == pytest.approx(100 * (1 - needed / (5 * pairs)))
    assert round(report["saving_percent"], 1) == 32.0
    assert (report["gold"], report["no_gold"], report["pending"]) == (2158, 40, 0)
    assert report["gold_equals_author"] == sum(
        gold == row["label1"] for row in rows for gold in [protocol[row["pairid"]][1]]
    )


def test_indonli_dev_and_test_lay_corpus_equals_table_4():
    _import(data_file("indonli", "val.jsonl"), "indonli-lay", "indonli")
    _import(data_file("indonli", "test_lay.jsonl"), "indonli-lay", "indonli")

    corpus = _report("indonli-lay")["corpus"]

    assert sorted(corpus) == ["dev", "test_lay"]
    for split, expected in TABLE_4.items():
        column = corpus[split]
        assert column["labels"] == expected["labels"]
        assert column["sentence_size"] == expected["sentence_size"]
        assert (round(column["premise_len_mean"], 1), round(column["premise_len_sd"], 1)) == expected["premise"]
        assert (round(column["hypothesis_len_mean"], 1), round(column["hypothesis_len_sd"], 1)) == expected[
            "hypothesis"
        ]


def test_report_page_of_the_replayed_mnli_project(client):
    _import(data_file("mnli-id", "dev.jsonl"), "mnli-page", "mnli")
    reviewer = UserFactory()
    MembershipFactory(project=Project.objects.get(slug="mnli-page"), user=reviewer, role=Membership.Role.REVIEWER)
    client.force_login(reviewer)

    response = client.get(reverse("report_page", args=["mnli-page"]))

    assert response.status_code == 200
    html = response.content.decode()
    assert '<tr id="nli-round-3">' in html
    assert '<td class="pairs">226</td>' in html
    assert '<td id="nli-annotations">7476</td>' in html
    assert '<td id="nli-outcomes">2158 / 40 / 0</td>' in html
    assert 'id="nli-corpus-test_lay"' in html or 'id="nli-corpus-dev"' in html
