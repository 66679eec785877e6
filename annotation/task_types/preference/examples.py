"""preference's tiny examples for the contract test (TaskType.contract_examples)."""

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

PAYLOAD = {
    "prompt": "Jelaskan mengapa langit berwarna biru.",
    "input": "",
    "responses": [
        {"id": "r1", "model": "model-a", "text": "Karena hamburan Rayleigh.", "source": "import"},
        {"id": "r2", "model": "model-b", "text": "Karena laut memantulkan warnanya.", "source": "import"},
    ],
}
SETTINGS = {"raters_per_group": 1, "min_margin": 1, "tie_break": "none", "rubric_language": "id"}
RATING_A = {
    "ratings": {"r1": {"relevance": 5, "fluency": 5}, "r2": {"relevance": 2, "fluency": 4}},
    "best": "r1",
    "order": ["r2", "r1"],
    "group": "A",
}
RATING_B = {**RATING_A, "order": ["r1", "r2"], "group": "B"}


def _files() -> dict[str, bytes]:
    pair = {
        "id": "contract-1",
        "domain": "open question",
        "language": "id",
        "input": PAYLOAD["prompt"],
        "response_1": PAYLOAD["responses"][0]["text"],
        "response_2": PAYLOAD["responses"][1]["text"],
        "actual_score": "Response 1",
    }
    prompt = {"id": "p-1", "category": "math", "prompt": "Berapa 2 + 3?", "input": ""}
    return {
        "indopref": (json.dumps(pair, ensure_ascii=False) + "\n").encode(),
        "preference-prompts": (json.dumps(prompt, ensure_ascii=False) + "\n").encode(),
    }


def contract_examples() -> ContractExamples:
    judgments = (JudgmentRow(1, 11, 1, RATING_A, {}), JudgmentRow(2, 12, 1, RATING_B, {}))
    item = ItemRecord(
        item_id=1,
        external_id="p-1",
        status="gold",
        source="import",
        author_id=10,
        author_code="W1",
        unit_id=1,
        unit_name="p-1",
        category="open question",
        unit_data={},
        slot=0,
        judging_round=0,
        payload=PAYLOAD,
    )
    records = (
        JudgmentRecord(1, 1, 11, "W2", 1, RATING_A, {}),
        JudgmentRecord(2, 1, 12, "W3", 1, RATING_B, {}),
    )
    details = {"groups": ["A", "B"], "ratings": 2}
    return ContractExamples(
        payload_valid=PAYLOAD,
        payload_invalid={"prompt": "", "input": "", "responses": []},
        judgment_form_data={"best": "1", "relevance_1": "5", "fluency_1": "5", "relevance_2": "2", "fluency_2": "4"},
        gold_case=GoldCase(payload=PAYLOAD, judgments=judgments, settings=SETTINGS, judging_round=0),
        gold_outcome=GoldOutcome("gold", reason="rated by both groups", details=details),
        export_record=ExportRecord(
            item=item,
            judgments=records,
            gold=GoldInfo(1, "gold", "rated by both groups", details),
            settings=SETTINGS,
            seed=0,
        ),
        import_files=_files(),
    )
