"""The test server's script for benchmark tests (`reply`, loaded by the server process: no Django here).

Multiple-choice project (five gold items, categories "makanan" and "adat"):

    item  gold (author)  majority  endpoint alpha: Choices template | helm template   beta (any)
    soal1      A             A      "A"            correct          | "A"   correct     "A"  correct
    soal2      B             C      "Jawaban: B"   correct          | same  correct     "A"  wrong
    soal3      C             C      "The correct answer is D."  wrong | "C." correct    "A"  wrong
    soal4      D             D      "Saya tidak tahu."  unparsed    | same  unparsed    "A"  wrong
    soal5      E             A      "**E**"        correct          | same  correct     "A"  wrong
"""

from __future__ import annotations

ITEMS = [
    # (key, category, gold, majority, reply of alpha to the "Choices" template, to the helm template)
    ("soal1", "makanan", "A", "A", "A", "A"),
    ("soal2", "makanan", "B", "C", "Jawaban: B", "Jawaban: B"),
    ("soal3", "makanan", "C", "C", "The correct answer is D.", "C."),
    ("soal4", "adat", "D", "D", "Saya tidak tahu.", "Saya tidak tahu."),
    ("soal5", "adat", "E", "A", "**E**", "**E**"),
]


# (hypothesis, gold label, the model's reply)
NLI_ITEMS = [
    ("Budi pergi ke pasar.", "entailment", "entailment"),
    ("Budi tidak pernah ke pasar.", "contradiction", "Jawaban: contradiction"),
    ("Budi membeli ikan di pasar.", "neutral", "entailment"),
    ("Pasar itu tutup.", "contradiction", "Saya tidak yakin."),
]


def reply(request: dict) -> str:
    # a chat request's last message, or a plain completion's prompt
    prompt = request["messages"][-1]["content"] if "messages" in request else str(request.get("prompt", ""))
    if request.get("model") == "beta-model":
        return "A"
    for key, _category, _gold, _majority, choices_reply, helm_reply in ITEMS:
        if f"{key}?" in prompt:
            return choices_reply if "Choices:" in prompt else helm_reply
    if "Hipotesis:" in prompt or "Hypothesis:" in prompt:
        for hypothesis, _label, answer in NLI_ITEMS:
            if hypothesis in prompt:
                return answer
    return "?"
