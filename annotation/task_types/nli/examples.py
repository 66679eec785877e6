"""nli's tiny examples for the contract test (TaskType.contract_examples)."""

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

PREMISE = "Kota Gunungsitoli terletak di Pulau Nias dan berjarak sekitar 85 mil laut dari Kota Sibolga."
PAYLOAD = {"hypothesis": "Gunungsitoli berada di Pulau Nias.", "label": "entailment", "tags": []}
SETTINGS = {"annotator_type": "lay", "validation_percent": 30}
NO_FLAGS = {"error": False, "correction": ""}
UNIT_DATA = {"text": PREMISE, "source": "wiki", "topic": "geografi", "document_id": "doc-1", "sentence_size": "single"}
# Round 1: both validators chose the author's label, so the pair is gold at once (rounds.py).
GOLD_DETAILS = {
    "label": "entailment",
    "author_label": "entailment",
    "round": 1,
    "labels_by_round": {"1": ["entailment", "entailment"]},
}
GOLD_REASON = "round 1: both validators chose entailment, as the author did"


def _indonli_file() -> bytes:
    row = {
        "pair_id": "contract-1",
        "premise_id": "p-1",
        "premise": PREMISE,
        "hypothesis": PAYLOAD["hypothesis"],
        "label": "e",
        "data_split": "dev",
        "annotator_type": "lay",
        "sentence_size": "single",
    }
    return (json.dumps(row, ensure_ascii=False) + "\n").encode()


def _mnli_file() -> bytes:
    row = {
        "pairID": "contract-2",
        "promptID": "p-1",
        "genre": "wiki",
        "sentence1": PREMISE,
        "sentence2": "Kota Sibolga terletak di Pulau Nias.",
        "label1": "contradiction",
        "label2": "contradiction",
        "label3": "contradiction",
        "label4": "",
        "label5": "",
        "gold_label": "contradiction",
    }
    return (json.dumps(row, ensure_ascii=False) + "\n").encode()


def contract_examples() -> ContractExamples:
    judgments = (
        JudgmentRow(judgment_id=1, user_id=11, round=1, value={"label": "entailment"}, flags=NO_FLAGS),
        JudgmentRow(judgment_id=2, user_id=12, round=1, value={"label": "entailment"}, flags=NO_FLAGS),
    )
    item = ItemRecord(
        item_id=7,
        external_id="contract-1",
        status="gold",
        source="human",
        author_id=10,
        author_code="W1",
        unit_id=3,
        unit_name="p-1",
        category="wiki",
        unit_data=UNIT_DATA,
        slot=0,
        judging_round=1,
        payload=PAYLOAD,
    )
    record = ExportRecord(
        item=item,
        judgments=tuple(
            JudgmentRecord(
                judgment_id=j.judgment_id,
                item_id=7,
                user_id=j.user_id,
                user_code=f"W{j.user_id - 9}",
                round=1,
                value=j.value,
                flags=j.flags,
            )
            for j in judgments
        ),
        gold=GoldInfo(item_id=7, outcome="gold", reason=GOLD_REASON, details=GOLD_DETAILS),
        settings=SETTINGS,
        seed=1,
    )
    return ContractExamples(
        payload_valid=PAYLOAD,
        # normalize accepts an empty hypothesis and no label; the check asks for both
        payload_invalid={"hypothesis": "", "label": "", "tags": []},
        concept="p-1",
        judgment_form_data={"label": "neutral", "error": "on", "correction": "Gunungsitoli ada di Nias."},
        gold_case=GoldCase(payload=PAYLOAD, judgments=judgments, settings=SETTINGS, judging_round=1),
        gold_outcome=GoldOutcome(outcome="gold", reason=GOLD_REASON, details=GOLD_DETAILS),
        export_record=record,
        import_files={"indonli": _indonli_file(), "mnli": _mnli_file()},
    )
