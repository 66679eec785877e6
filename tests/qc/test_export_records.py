"""The export engine's records are the contract's named tuples, equal to what their constructors build."""

import pytest

from annotation.task_types.base import ExportRecord, ItemRecord, JudgmentRecord
from qc.exports import gold_records
from qc.gold import gold_recompute_project
from tests.qc.helpers import add_judgment, make_item, make_project

pytestmark = pytest.mark.django_db


def test_records_equal_the_constructors_output():
    project, w = make_project(slug="rec", annotators=3, m=2)
    item = make_item(project, w[0], external_id="", answer="B")
    add_judgment(item, w[2], "B", comment="yakin")
    add_judgment(item, w[1], "C")
    gold_recompute_project(project=project)

    [record] = list(gold_records(project=project))

    rebuilt = ExportRecord(
        item=ItemRecord(**{name: getattr(record.item, name) for name in ItemRecord._fields}),
        judgments=tuple(
            JudgmentRecord(**{name: getattr(j, name) for name in JudgmentRecord._fields}) for j in record.judgments
        ),
        gold=record.gold,
        settings=record.settings,
        seed=record.seed,
    )
    assert record == rebuilt
    assert (record.item.external_id, record.item.payload["answer"], record.item.author_code) == (
        f"rec-{item.pk}",
        "B",
        "W1",
    )
    assert [(j.user_code, j.value, j.comment, j.round) for j in record.judgments] == [
        ("W2", {"answer": "C"}, "", 1),
        ("W3", {"answer": "B"}, "yakin", 1),
    ]
    assert record.gold is None  # csqa's rows never read the decision (export_reads_gold = False)
    with pytest.raises(AttributeError):
        record.item.status = "x"
