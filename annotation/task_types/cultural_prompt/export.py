"""cultural_prompt export hooks: the KALAHI CSV layout (responses joined by `;`) plus the prompt's parts,
its writer and the validators' picks; one split (`test`, as the release); a Parquet schema and the data
card's sections. Pure: the core's export engine streams ExportRecords in and writes the files.

`validations` lists each validator's pick in the project's annotator order: validator (code), round,
choice (best | irrelevant_<n>), chosen (its text), correct (chose the best), the order shown and its seed.
An export read back by the `kalahi` importer gives the same items, parts, writer and picks.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from annotation.task_types.base import ExportRecord
from annotation.task_types.cultural_prompt.judging import BEST, option_text
from annotation.task_types.cultural_prompt.payload import SEPARATOR, best_text, ids

SPLIT = "test"
EXPORT_FIELDS: tuple[str, ...] = (
    "prompt_variation_id",
    "prompt_id",
    "category",
    "topic",
    "prompt",
    "best_answer",
    "relevant_answers",
    "irrelevant_answers",
    "user",
    "context",
    "personal_situation",
    "instruction",
    "author",
    "validations",
)


def _ids(record: ExportRecord) -> tuple[str, str]:
    return ids(record.item.payload, external_id=record.item.external_id, item_id=record.item.item_id)


def validations(record: ExportRecord) -> list[dict[str, Any]]:
    payload = record.item.payload
    out = []
    for judgment in record.judgments:
        value = judgment.value or {}
        choice = value.get("choice")
        if not choice:
            continue
        out.append(
            {
                "validator": judgment.user_code,
                "round": judgment.round,
                "choice": choice,
                "chosen": option_text(payload, choice),
                "correct": choice == BEST,
                "order": list(value.get("order") or []),
                "seed": value.get("seed"),
            }
        )
    return out


def export_row(record: ExportRecord) -> dict[str, Any]:
    payload = record.item.payload
    variation, prompt_id = _ids(record)
    return {
        "prompt_variation_id": variation,
        "prompt_id": prompt_id,
        "category": payload.get("category") or record.item.category,
        "topic": payload.get("topic") or record.item.unit_name,
        "prompt": payload.get("prompt", ""),
        "best_answer": best_text(payload),
        "relevant_answers": SEPARATOR.join(payload.get("relevant") or []),
        "irrelevant_answers": SEPARATOR.join(payload.get("irrelevant") or []),
        "user": payload.get("user", ""),
        "context": payload.get("context", ""),
        "personal_situation": payload.get("situation", ""),
        "instruction": payload.get("instruction", ""),
        "author": record.item.author_code,
        "validations": validations(record),
    }


def export_split(record: ExportRecord) -> str:
    return SPLIT


def parquet_schema() -> Any:
    import pyarrow as pa  # imported on use: JSON Lines and CSV exports don't need it

    validation = pa.struct(
        [
            ("validator", pa.string()),
            ("round", pa.int16()),
            ("choice", pa.string()),
            ("chosen", pa.string()),
            ("correct", pa.bool_()),
            ("order", pa.list_(pa.string())),
            ("seed", pa.int64()),
        ]
    )
    return pa.schema([*((name, pa.string()) for name in EXPORT_FIELDS[:-1]), ("validations", pa.list_(validation))])


class Stats:
    """What the data card counts while the export writes (DataCardStats.task)."""

    def __init__(self) -> None:
        self.prompts = 0
        self.base_prompts: set[str] = set()
        self.categories: Counter = Counter()
        self.relevant = 0
        self.irrelevant = 0
        self.validated = 0
        self.picks = 0
        self.correct = 0

    def add(self, record: ExportRecord) -> None:
        payload = record.item.payload
        self.prompts += 1
        self.base_prompts.add(_ids(record)[1])
        self.categories[payload.get("category") or record.item.category] += 1
        self.relevant += len(payload.get("relevant") or [])
        self.irrelevant += len(payload.get("irrelevant") or [])
        picks = validations(record)
        self.validated += bool(picks)
        self.picks += len(picks)
        self.correct += sum(p["correct"] for p in picks)


FIELD_HELP = {
    "prompt_variation_id": "the prompt variant's id (the paper's prompt_variation_id)",
    "prompt_id": "the base prompt the variant shares with its other variants",
    "category": "ethics or shared knowledge",
    "topic": "the cultural topic (e.g. food and gatherings)",
    "prompt": "the text a model reads: user, context, personal situation and instruction, one per line",
    "best_answer": "the relevant response the writers marked best",
    "relevant_answers": "3-5 responses helpful and harmless in the culture, separated by `;`",
    "irrelevant_answers": "3-5 responses plausible elsewhere but wrong in the culture, separated by `;`",
    "user": "who is asking",
    "context": "the context of the question",
    "personal_situation": "the variant's personal situation (empty for the base prompt)",
    "instruction": "what the user wants",
    "author": "the writer's code",
    "validations": "each validator's pick among the best and irrelevant responses (MC1): validator, round, "
    "choice, chosen text, correct, the order shown and its seed",
}

PROTOCOL = """\
Native speakers wrote each prompt from its parts and 3-5 relevant and 3-5 irrelevant responses, one
relevant response marked best (Montalan et al. 2024, "KALAHI: A handcrafted, grassroots cultural LLM
evaluation suite for Filipino"). Reviewers commented, requested revisions or approved. Validators who
did not write a prompt then saw it with the best and irrelevant responses in an order shuffled for each
of them (seeded; the order and seed are in `validations`) and picked the response an average member of
the culture would choose. Their accuracy is the human baseline."""


def datacard_text(stats: Any) -> str:
    task: Stats | None = getattr(stats, "task", None)
    lines = ["## Contents", ""]
    if task is not None and task.prompts:
        lines += [
            f"- {task.prompts} prompt variants of {len(task.base_prompts)} base prompts: "
            + ", ".join(f"{name} {n}" for name, n in sorted(task.categories.items())),
            f"- {task.relevant} relevant and {task.irrelevant} irrelevant responses",
            f"- {task.validated} prompts validated; {task.picks} picks, "
            f"{(task.correct / task.picks * 100 if task.picks else 0):.1f}% of them the best response",
        ]
    else:
        lines.append("No prompts were exported.")
    lines += [
        "",
        "## Fields",
        "",
        *(f"- `{name}`: {FIELD_HELP[name]}" for name in EXPORT_FIELDS),
        "",
        "## Annotation protocol",
        "",
        PROTOCOL,
        "",
    ]
    return "\n".join(lines)
