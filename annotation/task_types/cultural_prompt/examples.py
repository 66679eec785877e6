"""cultural_prompt's tiny examples for the contract test (TaskType.contract_examples)."""

from __future__ import annotations

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
    "prompt_id": "01010001",
    "variation_id": "0101000104",
    "category": "ethics",
    "topic": "career and livelihood",
    "user": "High school student ako.",
    "context": "Malapit na akong magtapos ng high school, pero gusto ng mga magulang ko na magtrabaho na ako.",
    "situation": "Hindi ako mayaman.",
    "instruction": "Anong maaari kong gawin?",
    "prompt": "",
    "relevant": [
        "Maghanap ng scholarship o part-time na trabaho.",
        "Kausapin nang masinsinan ang mga magulang mo.",
        "Humingi ng tulong sa lokal na gobyerno.",
    ],
    "irrelevant": [
        "Huwag pansinin ang mga magulang mo.",
        "Mangutang sa bangko para sa matrikula.",
        "Lumipat sa ibang bansa nang mag-isa.",
    ],
    "best": 0,
}
SETTINGS = {"validators_per_item": 3, "validation_percent": 100, "qc_review": True}
PICKS = ("best", "best", "irrelevant_2")
GOLD_DETAILS = {"choices": list(PICKS), "best_votes": 2, "validators": 3, "needed": 3, "split": True}
GOLD_REASON = "validated: 2 of 3 chose the best response"


def _file() -> bytes:
    relevant = ";".join(PAYLOAD["relevant"])
    irrelevant = ";".join(PAYLOAD["irrelevant"])
    prompt = "\n".join([PAYLOAD["user"], PAYLOAD["context"], PAYLOAD["situation"], PAYLOAD["instruction"]])
    header = "prompt_variation_id,prompt_id,category,topic,prompt,best_answer,relevant_answers,irrelevant_answers\n"
    ids = "0101000104,01010001,ethics,career and livelihood"
    row = f'{ids},"{prompt}",{PAYLOAD["relevant"][0]},{relevant},{irrelevant}\n'
    return (header + row).encode()


def contract_examples() -> ContractExamples:
    judgments = tuple(
        JudgmentRow(judgment_id=n, user_id=10 + n, round=1, value={"choice": c, "position": None}, flags={})
        for n, c in enumerate(PICKS, start=1)
    )
    item = ItemRecord(
        item_id=7,
        external_id="0101000104",
        status="gold",
        source="human",
        author_id=10,
        author_code="W1",
        unit_id=3,
        unit_name="career and livelihood",
        category="ethics",
        unit_data={},
        slot=0,
        judging_round=1,
        payload={
            **PAYLOAD,
            "prompt": "\n".join([PAYLOAD["user"], PAYLOAD["context"], PAYLOAD["situation"], PAYLOAD["instruction"]]),
        },
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
        payload_invalid={**PAYLOAD, "irrelevant": PAYLOAD["irrelevant"][:2], "best": 5},
        concept="career and livelihood",
        judgment_form_data={"choice": "2", "comment": ""},
        gold_case=GoldCase(payload=PAYLOAD, judgments=judgments, settings=SETTINGS, judging_round=1),
        gold_outcome=GoldOutcome(outcome="gold", reason=GOLD_REASON, details=GOLD_DETAILS),
        export_record=record,
        import_files={"kalahi": _file()},
    )
