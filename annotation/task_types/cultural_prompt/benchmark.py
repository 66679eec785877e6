"""cultural_prompt as a model task (KALAHI section 4.2), pure.

Options: letters A-J. A-E hold the item's relevant responses (payload order, padded with ""), F-J its
irrelevant ones (padded with ""); an empty option is never scored. Gold: the best response's letter.
Human answers: each validator's pick as a letter (best -> the gold letter), so the shared benchmark
pages put the validators beside the models by category.

Templates (likelihood mode: each response is scored as the continuation of the rendered template):
- `chatml`: the prompt as a user turn and the response as the assistant's reply, ChatML (SmolLM2, Qwen);
  the paper applies each model's chat template. The opening `<|im_start|>` is the run's `prompt_prefix`
  (the engine probes the endpoint with it; llama.cpp needs the BOS token first), so the template starts
  with the role;
- `plain`: the prompt, a new line, then the response (base models);
  both are for likelihood mode only (`modes`): in chat or completion mode they show no responses to
  choose from, and a chat endpoint would wrap the written-out ChatML in its own template; such a run is
  refused with that reason;
- `open_ended` (open-ended runs): the prompt alone, answered freely (greedy, max 256 new tokens) and
  compared with the references (evaluation/task_types/cultural_prompt/scoring.py).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from annotation.task_types.base import BenchmarkItem, BenchmarkSpec, BenchmarkTemplate, ExportRecord
from annotation.task_types.cultural_prompt.judging import BEST
from annotation.task_types.cultural_prompt.payload import MAX_RESPONSES

RELEVANT_LETTERS = tuple("ABCDE")
IRRELEVANT_LETTERS = tuple("FGHIJ")
LETTERS = RELEVANT_LETTERS + IRRELEVANT_LETTERS
assert len(RELEVANT_LETTERS) == len(IRRELEVANT_LETTERS) == MAX_RESPONSES

TEMPLATES = (
    BenchmarkTemplate(
        name="chatml",
        label=gettext_lazy("Assistant reply (ChatML; start the run with prompt_prefix <|im_start|>)"),
        text="user\n{{ prompt }}<|im_end|>\n<|im_start|>assistant\n",
        source=gettext_lazy("Montalan et al. 2024, section 4.2: the model's default chat template"),
        modes=("likelihood",),
        modes_note=(
            "it writes out the model's chat format, which a chat endpoint applies itself, and it shows no "
            "responses to choose from (each response is scored as the assistant's reply)"
        ),
    ),
    BenchmarkTemplate(
        name="plain",
        label=gettext_lazy("Plain prompt (base models)"),
        text="{{ prompt }}\n",
        modes=("likelihood",),
        modes_note="it shows no responses to choose from (each response is scored as its continuation)",
    ),
    BenchmarkTemplate(
        name="open_ended",
        label=gettext_lazy("Open-ended reply"),
        text="{{ prompt }}",
        source=gettext_lazy("Montalan et al. 2024, section 4.2 (open-ended generation)"),
        open_ended=True,
    ),
)

SPEC = BenchmarkSpec(
    kind="choice",
    answers=LETTERS,
    gold_keys=("best",),
    templates=TEMPLATES,
    fields=("prompt", "category", "topic"),
    gold_key_labels={"best": gettext_lazy("The writers' best response (MC1 among best + irrelevant)")},
)


def letter_of(choice: str, best: int) -> str | None:
    """The option letter of a validator's pick (best, irrelevant_<n>)."""
    if choice == BEST:
        return RELEVANT_LETTERS[best] if 0 <= best < len(RELEVANT_LETTERS) else None
    if choice.startswith("irrelevant_") and choice.removeprefix("irrelevant_").isdigit():
        n = int(choice.removeprefix("irrelevant_"))
        return IRRELEVANT_LETTERS[n - 1] if 1 <= n <= len(IRRELEVANT_LETTERS) else None
    return None


def benchmark_item(record: ExportRecord, *, gold_key: str) -> BenchmarkItem | None:
    payload = record.item.payload
    relevant, irrelevant = list(payload.get("relevant") or []), list(payload.get("irrelevant") or [])
    best = payload.get("best")
    if gold_key != "best" or not isinstance(best, int) or not 0 <= best < len(relevant) or not irrelevant:
        return None
    if len(relevant) > MAX_RESPONSES or len(irrelevant) > MAX_RESPONSES:
        return None
    options = (
        *relevant,
        *[""] * (MAX_RESPONSES - len(relevant)),
        *irrelevant,
        *[""] * (MAX_RESPONSES - len(irrelevant)),
    )
    human = tuple(
        letter
        for letter in (letter_of(str((j.value or {}).get("choice") or ""), best) for j in record.judgments)
        if letter is not None
    )
    return BenchmarkItem(
        fields={
            "prompt": payload.get("prompt", ""),
            "category": payload.get("category") or record.item.category,
            "topic": payload.get("topic") or record.item.unit_name,
        },
        options=options,
        gold=RELEVANT_LETTERS[best],
        human_answers=human,
    )
