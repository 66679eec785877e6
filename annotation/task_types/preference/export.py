"""Export hooks: one row per prompt (the core's gold export) and the pair shapes (the released IndoPref
layout and chosen/rejected), pure. The pair files are written by evaluation/task_types/preference/exports.py.

Pair shapes:
  indopref: id, domain, language, input, response_1, response_2, actual_score. `input` is the prompt
    (with its input text after a blank line when there is one), response_1/2 the pair in response id order,
    actual_score "Response 1" or "Response 2" (the preferred one, in the judge prompt's own words).
  chosen_rejected: id, domain, language, prompt, input, chosen, rejected, chosen_model, rejected_model,
    chosen_scores, rejected_scores, rule.
"""

from __future__ import annotations

from typing import Any

from annotation.task_types.base import ExportRecord
from annotation.task_types.preference.judging import GROUPS
from annotation.task_types.preference.pairs import Prompt, prompt_pairs

EXPORT_FIELDS = ("id", "domain", "language", "prompt", "input", "responses", "ratings", "pairs")
INDOPREF_FIELDS = ("id", "domain", "language", "input", "response_1", "response_2", "actual_score")
CHOSEN_REJECTED_FIELDS = (
    "id",
    "domain",
    "language",
    "prompt",
    "input",
    "chosen",
    "rejected",
    "chosen_model",
    "rejected_model",
    "chosen_scores",
    "rejected_scores",
    "rule",
)
PAIR_SHAPES = {"indopref": INDOPREF_FIELDS, "chosen_rejected": CHOSEN_REJECTED_FIELDS}


def prompt_of(record: ExportRecord) -> Prompt:
    ratings = tuple(
        {**j.value, "rater": j.user_code or str(j.user_id)}
        for j in record.judgments
        if isinstance((j.value or {}).get("ratings"), dict)
    )
    item = record.item
    return Prompt(item.item_id, item.external_id, item.category, item.payload, ratings)


def record_pairs(record: ExportRecord) -> list[dict[str, Any]]:
    settings = record.settings
    pairs, _ = prompt_pairs(
        prompt_of(record),
        groups=GROUPS,
        min_margin=settings.get("min_margin", 1),
        tie_break=settings.get("tie_break", "none"),
    )
    return pairs


def export_row(record: ExportRecord) -> dict[str, Any]:
    prompt = prompt_of(record)
    return {
        "id": prompt.external_id or str(prompt.item_id),
        "domain": prompt.category,
        "language": prompt.payload.get("language") or "id",
        "prompt": prompt.payload.get("prompt", ""),
        "input": prompt.payload.get("input", ""),
        "responses": [
            {"id": r["id"], "model": r.get("model", ""), "text": r["text"]}
            for r in prompt.payload.get("responses") or []
        ],
        "ratings": [
            {
                "rater": v["rater"],
                "group": v.get("group") or "",
                "order": list(v.get("order") or []),
                "best": v.get("best") or "",
                "scores": v["ratings"],
            }
            for v in prompt.ratings
        ],
        "pairs": [{"chosen": p["chosen"], "rejected": p["rejected"], "rule": p["rule"]} for p in record_pairs(record)],
    }


def export_split(record: ExportRecord) -> str:
    return "test"


def pair_input(pair: dict[str, Any]) -> str:
    return pair["prompt"] + ("\n\n" + pair["input"] if pair.get("input") else "")


def pair_row_id(pair: dict[str, Any]) -> str:
    """<prompt id>-<first>-<second>; an imported pair keeps the file's own id."""
    if pair["rule"] == "imported":
        return str(pair["prompt_id"])
    return f"{pair['prompt_id']}-{pair['first']}-{pair['second']}"


def pair_row(pair: dict[str, Any], *, shape: str, language: str = "id") -> dict[str, Any]:
    pair_id = pair_row_id(pair)
    if shape == "indopref":
        texts = {pair["chosen"]: pair["chosen_text"], pair["rejected"]: pair["rejected_text"]}
        return {
            "id": pair_id,
            "domain": pair["category"],
            "language": language,
            "input": pair_input(pair),
            "response_1": texts[pair["first"]],
            "response_2": texts[pair["second"]],
            "actual_score": "Response 1" if pair["chosen"] == pair["first"] else "Response 2",
        }
    return {
        "id": pair_id,
        "domain": pair["category"],
        "language": language,
        "prompt": pair["prompt"],
        "input": pair.get("input", ""),
        "chosen": pair["chosen_text"],
        "rejected": pair["rejected_text"],
        "chosen_model": pair["chosen_model"],
        "rejected_model": pair["rejected_model"],
        "chosen_scores": pair["chosen_scores"],
        "rejected_scores": pair["rejected_scores"],
        "rule": pair["rule"],
    }


def parquet_schema() -> Any:
    import pyarrow as pa

    response = pa.struct([("id", pa.string()), ("model", pa.string()), ("text", pa.string())])
    scores = pa.map_(pa.string(), pa.map_(pa.string(), pa.int64()))
    rating = pa.struct(
        [
            ("rater", pa.string()),
            ("group", pa.string()),
            ("order", pa.list_(pa.string())),
            ("best", pa.string()),
            ("scores", scores),
        ]
    )
    pair = pa.struct([("chosen", pa.string()), ("rejected", pa.string()), ("rule", pa.string())])
    return pa.schema(
        [
            ("id", pa.string()),
            ("domain", pa.string()),
            ("language", pa.string()),
            ("prompt", pa.string()),
            ("input", pa.string()),
            ("responses", pa.list_(response)),
            ("ratings", pa.list_(rating)),
            ("pairs", pa.list_(pair)),
        ]
    )


def pair_parquet_schema(shape: str) -> Any:
    import pyarrow as pa

    if shape == "indopref":
        return pa.schema([(name, pa.string()) for name in INDOPREF_FIELDS])
    score = pa.struct(
        [
            ("relevance", pa.float64()),
            ("fluency", pa.float64()),
            ("combined", pa.float64()),
            ("best_picks", pa.int64()),
            ("by_group", pa.map_(pa.string(), pa.map_(pa.string(), pa.float64()))),
        ]
    )
    fields = [(name, pa.string()) for name in CHOSEN_REJECTED_FIELDS]
    fields[CHOSEN_REJECTED_FIELDS.index("chosen_scores")] = ("chosen_scores", score)
    fields[CHOSEN_REJECTED_FIELDS.index("rejected_scores")] = ("rejected_scores", score)
    return pa.schema(fields)


PROTOCOL = (
    "Prompts written by native speakers in categories (Wiyono et al. 2025, IndoPref). Each prompt's responses "
    "come from several models. Raters of two groups (A and B) each saw every prompt of theirs with all its "
    "responses anonymised, in an order shuffled per rater and prompt (recorded in `order`), rated every response "
    "1-5 for relevance (the category's rubric) and fluency, and picked the best. Pairs: for each two responses of "
    "a prompt rated by both groups, the one with the higher combined score (sum over the groups of the group's "
    "mean relevance + fluency) by at least the project's minimum margin is chosen; ties give no pair unless the "
    "project breaks them by best picks."
)


def datacard_text(stats: Any) -> str:
    counts = getattr(stats, "counts", {}) or {}
    settings = getattr(stats, "settings", {}) or {}
    return "\n".join(
        [
            "## Contents",
            "",
            f"{sum(counts.values())} prompts with their responses, every rating and the pairs derived from them.",
            "",
            "## Fields",
            "",
            "- `id`, `domain` (category), `language`, `prompt`, `input` (optional text the prompt works on)",
            "- `responses`: id, model and text of every response",
            "- `ratings`: per rater their group, the order they were shown, their best pick and 1-5 relevance and "
            "fluency scores per response id",
            "- `pairs`: chosen and rejected response ids with the rule that made the pair",
            "",
            "## Annotation protocol",
            "",
            PROTOCOL,
            f" This export: minimum margin {settings.get('min_margin', 1)}, ties {settings.get('tie_break', 'none')}.",
            "",
        ]
    )
