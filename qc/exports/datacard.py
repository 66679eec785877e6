"""The README.md data card written beside an exported gold set (Hugging Face dataset card format)."""

from __future__ import annotations

import json
from collections import Counter

from annotation.annotators import project_annotators
from annotation.models import Item, Project
from annotation.task_types import project_settings
from qc.exports import FIELDS, ExportStats

HF_FORMAT = {"jsonl": "json", "csv": "csv", "parquet": "parquet"}


def hf_licence(licence: str) -> str:
    """ "CC BY-NC 4.0" -> "cc-by-nc-4.0" (the Hub's licence identifiers)."""
    return "-".join(licence.lower().split()) or "unknown"


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.4f}"


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _summary(values: list[str]) -> str:
    counts = Counter(v.strip() or "not given" for v in values)
    return ", ".join(f"{name} ({n})" for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))) or "none"


def data_card(*, project: Project, fmt: str, counts: dict[str, int], files: dict[str, str], stats: ExportStats) -> str:
    """Counts per category and language, annotator demographics, agreement, exclusion rule, licence.

    Agreement figures describe the exported items (what a user of the files gets), from `stats`.
    """
    languages = list(project.languages.values_list("code", flat=True)) or ["und"]
    excluded = Item.objects.filter(project=project, status=Item.Status.EXCLUDED).count()
    alpha = stats.alpha()
    annotators = project_annotators(project_ids=[project.pk]).get(project.pk, [])

    # Items carry no language of their own: a project is one dataset, counted under its first language.
    category_rows = [[name or "(none)", languages[0], str(n)] for name, n in sorted(stats.categories.items())]
    header = {
        "license": hf_licence(project.licence),
        "language": languages,
        "task_categories": ["question-answering", "multiple-choice"],
        "pretty_name": project.name,
        "configs": [
            {
                "config_name": "default",
                "data_files": [{"split": split, "path": path} for split, path in sorted(files.items())],
            }
        ],
    }
    # JSON is valid YAML: no YAML writer needed, and names with colons or quotes stay safe.
    yaml_lines = [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in header.items()]
    split_rows = [[split, files[split], str(counts[split])] for split in sorted(files)]
    threshold = project_settings(project)["ambiguity_threshold"]
    return "\n".join(
        [
            "---",
            *yaml_lines,
            "---",
            "",
            f"# {project.name}: gold set",
            "",
            f"Commonsense question answering items in {', '.join(languages)}, written and cross-answered by "
            "native speakers, exported from Gotong in the id-csqa schema (Putri et al. 2024, "
            '"Can LLM Generate Culturally Relevant Commonsense QA Data? Case Study in Indonesian and Sundanese").',
            "",
            "## Files and splits",
            "",
            f'Format: {fmt} (load with `datasets.load_dataset("{HF_FORMAT[fmt]}", data_dir=...)`). '
            "Human-written items are test-only (as in the published release, every set is a test set).",
            "",
            _table(["split", "file", "items"], split_rows),
            "",
            f"Fields: {', '.join(FIELDS)}.",
            "",
            "## Items per category and language",
            "",
            _table(["category", "language", "items"], category_rows),
            "",
            "## Annotators",
            "",
            f"{len(annotators)} annotators ({', '.join(a.code for a in annotators)}).",
            f"- Regions: {_summary([a.region for a in annotators])}",
            f"- Native languages: {_summary([a.native_languages for a in annotators])}",
            f"- Education: {_summary([a.education for a in annotators])}",
            "",
            "## Agreement",
            "",
            f"- Krippendorff's alpha (nominal) over the answers, author not counted: {_fmt(alpha['alpha_nominal'])}",
            f"- The same with the author's answer as one more coder: {_fmt(alpha['alpha_nominal_with_author'])}",
            f"- Majority answer equals the author's answer: {stats.matches_author} of {stats.items} items",
            "",
            "The majority answer is the most common answer of the answerers (the author not counted); a tie goes "
            "to the answer given first in annotator order (W1, W2, ...).",
            "",
            "## Exclusion rule",
            "",
            f"An item whose question is flagged ambiguous by more than {threshold} answerers is "
            f"excluded (reason kept in the project). Excluded items: {excluded}; they are not in this export.",
            "",
            "## Licence",
            "",
            f"{project.licence or 'Not set.'}",
            "",
        ]
    )
