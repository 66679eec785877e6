"""Tiny examples the contract test (tests/annotation/task_types/test_contract.py) runs the plugin on."""

from __future__ import annotations

import json

from annotation.task_types.base import (
    ContractExamples,
    ExportRecord,
    GoldCase,
    GoldInfo,
    GoldOutcome,
    ItemRecord,
    JudgmentRecord,
    JudgmentRow,
)

PAYLOAD = {"text": "Nasi gorengnya enak sekali.", "label": "positive"}
JUDGMENTS = (
    JudgmentRow(judgment_id=1, user_id=11, round=1, value={"label": "positive"}, flags={}),
    JudgmentRow(judgment_id=2, user_id=12, round=1, value={"label": "positive"}, flags={}),
)
DETAILS = {"label": "positive", "labels": ["positive", "positive"]}
REASON = "majority: 2 of 2 chose positive"


def contract_examples() -> ContractExamples:
    item = ItemRecord(
        item_id=7,
        external_id="s-1",
        status="gold",
        source="human",
        author_id=10,
        author_code="W1",
        unit_id=3,
        unit_name="street food",
        category="food",
        unit_data={},
        slot=0,
        judging_round=1,
        payload=PAYLOAD,
    )
    judgments = tuple(
        JudgmentRecord(j.judgment_id, 7, j.user_id, f"W{j.user_id - 9}", j.round, j.value, j.flags) for j in JUDGMENTS
    )
    row = {"id": "s-2", "text": "Antreannya lama.", "judges": ["W2", "W3"], "judge_labels": ["negative", "negative"]}
    return ContractExamples(
        payload_valid=PAYLOAD,
        payload_invalid={"text": "", "label": "happy"},
        concept="street food",
        judgment_form_data={"label": "neutral", "comment": "Sekadar fakta."},
        gold_case=GoldCase(payload=PAYLOAD, judgments=JUDGMENTS, settings={}, judging_round=1),
        gold_outcome=GoldOutcome("gold", REASON, DETAILS),
        export_record=ExportRecord(
            item=item,
            judgments=judgments,
            gold=GoldInfo(item_id=7, outcome="gold", reason=REASON, details=DETAILS),
            settings={},
            seed=1,
        ),
        import_files={"sentiment-jsonl": (json.dumps(row, ensure_ascii=False) + "\n").encode()},
    )
