"""The released LLM_GEN drafts (id-csqa v3_llm_gen/ind, 1,063 GPT-4 Turbo questions) served by the test
LLM server as a model's replies (`handler="tests.evaluation.released_drafts:reply"`).

The handler reads the category and the concepts out of the paper's prompt and answers, for each concept,
with its next released question not served yet (per model name, so each test starts afresh with its own
endpoint model), as a fenced JSON array in the file's own shape. A concept whose questions are all
served is left out of the reply. It runs in the server's process, on its request threads.
"""

from __future__ import annotations

import json
import re
import threading
from collections import defaultdict
from pathlib import Path
from typing import Any

# Read without Django (the handler runs in the server's process): ../shared/data beside the repository.
RELEASED = Path(__file__).resolve().parents[3] / "shared/data/id-csqa/v3_llm_gen/ind/filtered_test.json"
_CONCEPTS = re.compile(r"concepts \[(.*?)\], create")
_CATEGORY = re.compile(r'with topic "(.*?)" for each concept')
_lock = threading.Lock()
_rows: dict[tuple[str, str], list[dict[str, Any]]] | None = None
_served: dict[tuple[str, str, str], int] = defaultdict(int)


def released_by_concept() -> dict[tuple[str, str], list[dict[str, Any]]]:
    by_concept: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in json.loads(RELEASED.read_text(encoding="utf-8")):
        by_concept[(row["category"], row["question_concept"])].append(row)
    return dict(by_concept)


def reply(body: dict[str, Any]) -> str:
    global _rows
    prompt = (body.get("messages") or [{}])[-1].get("content") or ""
    concepts, category = _CONCEPTS.search(prompt), _CATEGORY.search(prompt)
    if not concepts or not category:
        return "I can only write questions."
    records = []
    with _lock:
        if _rows is None:
            _rows = released_by_concept()
        for name in concepts.group(1).split(", "):
            rows = _rows.get((category.group(1), name), [])
            position = _served[(body.get("model", ""), category.group(1), name)]
            if position < len(rows):
                _served[(body.get("model", ""), category.group(1), name)] += 1
                row = rows[position]
                records.append(
                    {
                        "question_concepts": row["question_concept"],
                        **{f: row[f] for f in ("question", "choices", "answer_creator", "id")},
                    }
                )
    return "```json\n" + json.dumps(records, ensure_ascii=False, indent=2) + "\n```"
