"""The README.md data card written beside an exported gold set (Hugging Face dataset card format).

The core writes the YAML header, the title, the aggregation model's and the model ranking's sections and
the licence; the task type writes the body (datacard_text) from what the engine counted (DataCardStats)."""

from __future__ import annotations

import json

from annotation.aggregation.store import aggregation_applies, last_fit
from annotation.annotators import project_annotators
from annotation.datacard import aggregation_section, hf_licence, ranking_section
from annotation.models import Item, Project
from annotation.task_types import get_task_type, project_settings
from annotation.task_types.base import DataCardStats

HF_FORMAT = {"jsonl": "json", "csv": "csv", "parquet": "parquet"}


def data_card(
    *,
    project: Project,
    fmt: str,
    counts: dict[str, int],
    files: dict[str, str],
    categories: dict[str, int],
    task,
    ranking: dict | None = None,
) -> str:
    """Header (licence, languages, task categories, the files as the default config), title, the task
    type's body, licence. Agreement figures describe the exported items (what a user of the files gets).
    `ranking`: the models' last ranking (qc.reports.model_ranking.ranking_json), written in ranking.json
    beside the card."""
    task_type = get_task_type(project.task_type)
    languages = list(project.languages.values_list("code", flat=True)) or ["und"]
    stats = DataCardStats(
        project_name=project.name,
        languages=languages,
        licence=project.licence,
        fmt=fmt,
        hf_format=HF_FORMAT[fmt],
        files=files,
        counts=counts,
        categories=categories,
        annotators=tuple(project_annotators(project_ids=[project.pk]).get(project.pk, [])),
        excluded=Item.objects.filter(project=project, status=Item.Status.EXCLUDED).count(),
        settings=project_settings(project),
        task=task,
    )
    header = {
        "license": hf_licence(project.licence),
        "language": languages,
        "task_categories": list(task_type.datacard_task_categories),
        "pretty_name": project.name,
        "configs": [
            {
                "config_name": "default",
                "data_files": [{"split": split, "path": path} for split, path in sorted(files.items())],
            }
        ],
    }
    fit = last_fit(project=project) if aggregation_applies(project) else None
    # JSON is valid YAML: no YAML writer needed, and names with colons or quotes stay safe.
    yaml_lines = [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in header.items()]
    return "\n".join(
        [
            "---",
            *yaml_lines,
            "---",
            "",
            f"# {project.name}: gold set",
            "",
            task_type.datacard_text(stats),
            *([aggregation_section(fit)] if fit is not None else []),
            *([ranking_section(ranking, file_name="ranking.json")] if ranking is not None else []),
            "## Licence",
            "",
            f"{project.licence or 'Not set.'}",
            "",
        ]
    )
