"""Completion's tiny examples for the contract test (TaskType.contract_examples)."""

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

# The harness's example row (lm-evaluation-harness arab_culture/utils_mcq.py), stripped.
ROW = {
    "worker_id": "Egypt-1",
    "sample_id": "1 | Breakfast",
    "sub_topic": "الافطار",
    "first_statement": "يقوم أحمد بتحضير الفول للإفطار",
    "options": {
        "arabic_keys": ["أ", "ب", "ج"],
        "english_keys": ["A", "B", "C"],
        "text": ["يتم تناول الفول مع الأرز", "يتم تناول الفول بالخبز", "يتم تناول الفول مع الفواكه"],
    },
    "answer_key": {"arabic_answer_key": "ب", "english_answer_key": "B"},
    "relevant_to_this_country": "Yes",
    "relevant_to_other_countries": "No",
    "should_discard": "No",
    "country": "Egypt",
    "region": "Nile Valley",
}
PAYLOAD = {
    "premise": ROW["first_statement"],
    "completions": ROW["options"]["text"],
    "answer": "B",
    "country": "Egypt",
    "region": "Nile Valley",
    "relevant_to_this_country": True,
    "relevant_to_other_countries": False,
}
SETTINGS = {"script": "arabic", "same_country": True}


def contract_examples() -> ContractExamples:
    item = ItemRecord(
        item_id=7,
        external_id="Egypt-1:1 | Breakfast",
        status="gold",
        source="human",
        author_id=10,
        author_code="Egypt-1",
        unit_id=3,
        unit_name="الافطار",
        category="Food",
        unit_data={},
        slot=0,
        judging_round=1,
        payload={**PAYLOAD, "release": {"sample_id": "1 | Breakfast", "should_discard": "No"}},
    )
    peer = JudgmentRecord(
        judgment_id=1,
        item_id=7,
        user_id=11,
        user_code="Egypt-2",
        round=1,
        value={"answer": "B", "shown": "A", "order": [1, 0, 2]},
        flags={},
    )
    record = ExportRecord(
        item=item,
        judgments=(peer,),
        gold=GoldInfo(item_id=7, outcome="gold", reason="", details={}),
        settings=SETTINGS,
        seed=1,
    )
    return ContractExamples(
        payload_valid=PAYLOAD,
        payload_invalid={**PAYLOAD, "completions": [PAYLOAD["completions"][0]] * 2 + [""], "answer": ""},
        concept="الافطار",
        judgment_form_data={"choice": "B", "comment": ""},
        gold_case=GoldCase(
            payload=PAYLOAD,
            judgments=(JudgmentRow(judgment_id=1, user_id=11, round=1, value={"answer": "A"}, flags={}),),
            settings=SETTINGS,
            judging_round=1,
        ),
        gold_outcome=GoldOutcome(
            outcome="excluded",
            reason="The peer chose completion A, not the author's B.",
            details={"author_answer": "B", "peer_answers": ["A"]},
        ),
        export_record=record,
        import_files={"arabculture": (json.dumps(ROW, ensure_ascii=False) + "\n").encode()},
    )
