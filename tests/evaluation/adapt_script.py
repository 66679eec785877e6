"""Scripted model replies for an LLM_ADAPT run (`handler="tests.evaluation.adapt_script:reply"`), computed
from the prompt, in the test server's process (no Django here)."""

from __future__ import annotations

import json
import re
from typing import Any

ADAPTED = {
    "snow": {
        "question": "Di mana kamu bisa menemukan salju di Indonesia?",
        "concept": "salju",
        "options": {"A": "Puncak Jaya", "B": "Pantai", "C": "Pasar", "D": "Sawah", "E": "Dapur"},
        "question_answer": "A",
    },
    "skiing": {
        "question": "James pergi berselancar di Bali. Apa yang dia bawa?",
        "concept": "berselancar",
        "options": {"A": "Papan", "B": "Payung", "C": "Sepatu", "D": "Buku", "E": "Piring"},
        "question_answer": "A",
    },
    "bagel": {
        "question": "Apa yang dimakan saat sarapan?",
        "concept": "roti",
        "options": {"A": "Nasi", "B": "Batu", "C": "Kayu", "D": "Kaca", "E": "Besi"},
        "question_answer": "A",
    },
}


def reply(body: dict[str, Any]) -> str:
    prompt = (body.get("messages") or [{}])[-1].get("content") or ""
    if prompt.endswith("Answer with 'yes' or 'no'."):
        return "Yes." if "Concept: rice" in prompt else "No, it is not."
    if prompt.startswith("Change the given data"):
        concept = re.search(r"Concept: (.*)\n", prompt).group(1)
        return "```json\n" + json.dumps(ADAPTED[concept], ensure_ascii=False) + "\n```"
    if prompt.startswith("Change all names"):
        return "Changed Question: Budi pergi berselancar di Bali. Apa yang dia bawa?"
    translate = re.match(r"Translate the following (\w+) text into (\w+)\. Return only the translation\.\n\n", prompt)
    if translate:
        text = prompt[translate.end() :]
        source, target = translate.groups()
        if source == "English":
            return "\n".join(f"ID {line}" for line in text.splitlines())
        if target == "Sundanese":
            return "\n".join(f"SU {line}" for line in text.splitlines())
        back = "\n".join(line.removeprefix("SU ") for line in text.splitlines())
        return back.replace("Budi", "Seseorang").replace("Papan", "Kayu panjang") if "Budi" in back else back
    return "?"
