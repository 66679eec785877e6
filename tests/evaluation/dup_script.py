"""Scripted LLM_GEN replies where every batch repeats one question (`handler="tests.evaluation.dup_script:reply"`):
the concept "kunjung" (in every category of tests.conftest.make_csqa_project) always gets the same
question, every other concept its own. Runs in the test server's process (no Django here)."""

from __future__ import annotations

import json
import re
from typing import Any

SHARED_QUESTION = "Ke mana orang biasanya kunjung saat hari raya?"
_CONCEPTS = re.compile(r"concepts \[(.*?)\], create")


def record(concept: str, question: str) -> dict[str, Any]:
    return {
        "question_concepts": concept,
        "question": question,
        "choices": {"label": list("ABCDE"), "text": ["Rumah nenek", "Pasar", "Kantor", "Sekolah", "Bandara"]},
        "answer_creator": "A",
    }


def reply(body: dict[str, Any]) -> str:
    prompt = (body.get("messages") or [{}])[-1].get("content") or ""
    found = _CONCEPTS.search(prompt)
    if not found:
        return "I can only write questions."
    records = [
        record(name, SHARED_QUESTION if name == "kunjung" else f"Apa yang kamu ingat tentang {name} di rumah?")
        for name in found.group(1).split(", ")
    ]
    return "```json\n" + json.dumps(records, ensure_ascii=False) + "\n```"
