"""The pairwise judge prompt of R3 / mR3 (Anugraha et al. 2025), as Wiyono et al. 2025 use it (Appendix A.1
English, A.2 Indonesian), and the reading of its JSON verdict {explanation, score}.

TASK is a fixed instruction (below, in the prompt's language); INPUT is the user's prompt followed by its
input text when there is one (the released IndoPref `input`).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from typing import Any

LANGUAGES = ("en", "id")

TASK = {
    "en": "Decide which response better answers the user's request below: relevant to what is asked and written "
    "in fluent, natural language.",
    "id": "Tentukan respons mana yang lebih baik menjawab permintaan pengguna di bawah ini: relevan dengan yang "
    "diminta dan ditulis dalam bahasa yang lancar dan alami.",
}

TEMPLATES = {
    "en": """Evaluate the response based on the given task, input, response, and evaluation rubric. \
Provide a fair and detailed assessment following the rubric.

### TASK
{task}

### INPUT
{input}

### RESPONSE 1
{response_1}

### RESPONSE 2
{response_2}

### EVALUATION RUBRIC
Response 1: Response 1 is the preferred response over Response 2.
Response 2: Response 2 is the preferred response over Response 1.

### OUTPUT FORMAT
Return a JSON response in the following format:

{{
"explanation": "Explanation of why one response is preferred over the other",
"score": "Final selection between 'Response 1' or 'Response 2'"
}}

### EVALUATION
""",
    "id": """Evaluasi respons berdasarkan tugas, masukan, respons, dan rubrik evaluasi yang diberikan. \
Berikan penilaian yang adil dan mendetail sesuai dengan rubrik.

### TUGAS
{task}

### MASUKAN
{input}

### RESPON 1
{response_1}

### RESPON 2
{response_2}

### RUBRIK EVALUASI
Respon 1: Respon 1 lebih disukai dibandingkan Respon 2.
Respon 2: Respon 2 lebih disukai dibandingkan Respon 1.

### FORMAT KELUARAN
Kembalikan respons dalam format JSON berikut:

{{
"explanation": "Penjelasan mengapa salah satu respon lebih disukai daripada yang lain",
"score": "Pilihan akhir antara 'Respon 1' atau 'Respon 2'"
}}

### EVALUASI
""",
}

_CHOICE = re.compile(r"\b(?:response|respons|respon)\s*([12])\b", re.IGNORECASE)


def _braced(text: str) -> Iterator[str]:
    r"""Every `{...}` up to the first `}` after its `{`, in order (what `\{.*?\}` found), by str.find:
    linear, where that regex retried its scan from every `{` (a reply of 20,000 `{` took 3.5 s)."""
    position = 0
    while (start := text.find("{", position)) >= 0 and (end := text.find("}", start + 1)) >= 0:
        yield text[start : end + 1]
        position = end + 1


def render(language: str, *, input_text: str, response_1: str, response_2: str) -> str:
    return TEMPLATES[language].format(
        task=TASK[language], input=input_text, response_1=response_1, response_2=response_2
    )


def parse_verdict(text: str) -> int | None:
    """1 or 2 (the preferred position), or None when the reply names neither (or both, outside JSON).

    The JSON object's `score` decides; without readable JSON, the reply must name exactly one of the two."""
    for braced in _braced(text or ""):
        try:
            data = json.loads(braced)
        except (json.JSONDecodeError, RecursionError):  # RecursionError: brackets nested past Python's limit
            continue
        if isinstance(data, dict) and "score" in data:
            found = set(_CHOICE.findall(str(data["score"])))
            if len(found) == 1:
                return int(found.pop())
            if str(data["score"]).strip() in ("1", "2"):
                return int(str(data["score"]).strip())
    score = re.search(r'"score"\s*:\s*"?([^"\n}]*)', text or "")
    if score:
        found = set(_CHOICE.findall(score.group(1))) or ({score.group(1).strip()} & {"1", "2"})
        if len(found) == 1:
            return int(found.pop())
    found = set(_CHOICE.findall(text or ""))
    return int(found.pop()) if len(found) == 1 else None


def _digit(token: str) -> str:
    return token.strip().strip("\"'") if token.strip().strip("\"'") in ("1", "2") else ""


def verdict_probability(text: str, logprobs: list[dict[str, Any]] | None) -> float | None:
    """The judge's probability that position 1 is the better response, read from the log-probabilities of
    the verdict's digit (the first "1" or "2" token after `"score"`, or in the reply when it has no
    score): P(1) / (P(1) + P(2)) over the digit's top alternatives. None without log-probabilities or
    without such a token."""
    if not logprobs:
        return None
    start = (text or "").find('"score"')
    offset = 0
    for entry in logprobs:
        token = str(entry.get("token", ""))
        at, offset = offset, offset + len(token)
        if at < start or not _digit(token):
            continue
        mass = {"1": 0.0, "2": 0.0}
        alternatives = list(entry.get("top") or [])
        if not any(str(t.get("token", "")) == token for t in alternatives):
            alternatives.append({"token": token, "logprob": entry.get("logprob")})
        for alternative in alternatives:
            digit = _digit(str(alternative.get("token", "")))
            if digit and isinstance(alternative.get("logprob"), int | float):
                mass[digit] += math.exp(alternative["logprob"])
        total = mass["1"] + mass["2"]
        return mass["1"] / total if total > 0 else None
    return None
