"""csqa's tiny examples for the contract test (TaskType.contract_examples)."""

from __future__ import annotations

import json

from annotation.task_types.base import (
    ContractExamples,
    ExportRecord,
    GoldCase,
    GoldOutcome,
    ItemRecord,
    JudgmentRecord,
    JudgmentRow,
)

CHOICES = ["Lebaran", "Natal", "Imlek", "Nyepi", "Waisak"]
PAYLOAD = {"question": "Kapan ketupat biasanya disajikan?", "choices": CHOICES, "answer": "A"}
SETTINGS = {"answerers_per_item": 2, "ambiguity_threshold": 1}
CLEAR = {"uncertain": False, "question_ambiguous": False, "option_ambiguous": [False] * 5}


def _file() -> bytes:
    answerers = ["W2", "W3"]
    row = {
        "id": "contract-1",
        "category": "culinary",
        "question_concept": "ketupat",
        "question": PAYLOAD["question"],
        "choices": {"label": ["A", "B", "C", "D", "E"], "text": CHOICES},
        "answer_creator": "A",
        "answer_majority": "A",
        "answers": dict.fromkeys(answerers, "A"),
        "answers_uncertainty": dict.fromkeys(answerers, "certain"),
        "question_ambiguity": dict.fromkeys(answerers, "clear"),
        "option_ambiguity": {c: ["clear"] * 5 for c in answerers},
        "reason": dict.fromkeys(answerers, ""),
    }
    # W1 wrote it: the author is the one annotator of the file missing from the answers.
    other = {**row, "id": "contract-2", "answers": {"W1": "A", "W3": "A"}}
    for key in ("answers_uncertainty", "question_ambiguity", "option_ambiguity", "reason"):
        other[key] = {"W1": row[key]["W2"], "W3": row[key]["W3"]}
    return json.dumps([row, other], ensure_ascii=False).encode()


def contract_examples() -> ContractExamples:
    judgments = (
        JudgmentRow(judgment_id=1, user_id=12, round=1, value={"answer": "B"}, flags=CLEAR),
        JudgmentRow(judgment_id=2, user_id=11, round=1, value={"answer": "A"}, flags=CLEAR),
    )
    item = ItemRecord(
        item_id=7,
        external_id="contract-1",
        status="judged",
        source="human",
        author_id=10,
        author_code="W1",
        unit_id=3,
        unit_name="ketupat",
        category="culinary",
        unit_data={},
        slot=0,
        judging_round=1,
        payload=PAYLOAD,
    )
    record = ExportRecord(
        item=item,
        judgments=(
            JudgmentRecord(
                judgment_id=1, item_id=7, user_id=11, user_code="W2", round=1, value={"answer": "A"}, flags=CLEAR
            ),
        ),
        gold=None,
        settings=SETTINGS,
        seed=1,
    )
    return ContractExamples(
        payload_valid=PAYLOAD,
        payload_invalid={"question": "", "choices": ["Lebaran", "Lebaran", "", "", ""], "answer": ""},
        concept="ketupat",
        judgment_form_data={"answer": "C", "uncertain": "on", "option_ambiguous": ["B"], "comment": "mungkin"},
        gold_case=GoldCase(payload=PAYLOAD, judgments=judgments, settings=SETTINGS, judging_round=1),
        gold_outcome=GoldOutcome(
            outcome="gold",
            details={
                "majority": "B",  # a tie goes to the answer given first (W? order is the rows' order)
                "author_answer": "A",
                "matches_author": False,
                "answers": 2,
                "question_ambiguous": 0,
                "option_ambiguous": 0,
                "option_flags": [0, 0, 0, 0, 0],
                "uncertain": 0,
                "agreement": 0.5,
                "threshold": 1,
            },
        ),
        export_record=record,
        import_files={"id-csqa": _file()},
    )
