"""The test server's handler for preference runs (tests.evaluation.llm_server "handler").

A response request gets "<model> menjawab: <prompt>". A judge request (the R3/mR3 prompt, English or
Indonesian) gets a JSON verdict: the response whose text holds GOOD; always position 1 when the input
holds [bias] (so the verdict flips with the order); no verdict at all when it holds [garbled]."""

from __future__ import annotations

import json
import re

_SECTIONS = re.compile(
    r"### (?:RESPONSE|RESPON) 1\n(?P<one>.*?)\n\n### (?:RESPONSE|RESPON) 2\n(?P<two>.*?)\n\n###", re.DOTALL
)


def _prompt(body: dict) -> str:
    users = [m.get("content") or "" for m in body.get("messages") or [] if m.get("role") == "user"]
    return users[-1] if users else ""


def verdict(prompt: str) -> str:
    indonesian = "### EVALUASI" in prompt
    word = "Respon" if indonesian else "Response"
    if "[garbled]" in prompt:
        return "Both are fine, I cannot choose."
    match = _SECTIONS.search(prompt)
    position = 1
    if "[bias]" not in prompt and match and "GOOD" in match.group("two") and "GOOD" not in match.group("one"):
        position = 2
    return json.dumps({"explanation": "scripted", "score": f"{word} {position}"})


def reply(body: dict) -> str:
    prompt = _prompt(body)
    if "### EVALUATION" in prompt or "### EVALUASI" in prompt:
        return verdict(prompt)
    return f"{body.get('model')} menjawab: {prompt}"
