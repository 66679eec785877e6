"""The preference demo project (TaskType.demo): the paper's ten categories with two prompt slots each, one
writer per slot. Raters are put in groups A and B on the rater-groups page before rating is planned."""

from __future__ import annotations

import csv
import io

from annotation.task_types.base import DemoProject
from annotation.task_types.preference.rubrics import CATEGORIES

SLUG = "demo-preference"
NAME = "Gotong demo: Indonesian preference (IndoPref)"
LANGUAGES = [{"code": "id", "name": "Indonesian", "direction": "ltr"}]
SLOTS_PER_CATEGORY = 2
GUIDELINES = """\
**Writing.** Write one prompt for your category as an Indonesian user would ask it, natively (never
translated). Summarisation, translation and coding prompts put the text to work on in *Input text*.

**Rating.** You see one prompt and all its responses, anonymised and in an order of your own. Rate each
response 1-5 for *relevance* (the category's rubric, beside the scale) and *fluency*, then pick the best.
Keys: 1-5 on the focused scale, Tab to move, b for the best, Enter to submit.
"""


def units_csv(slots_per_category: int = SLOTS_PER_CATEGORY) -> bytes:
    """The paper's ten categories, each with prompt slots "<category> prompt <n>" (the authoring units),
    as the catalog import reads them (category, concept)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["category", "concept"])
    for category in CATEGORIES:
        for slot in range(1, slots_per_category + 1):
            writer.writerow([category, f"{category} prompt {slot}"])
    return out.getvalue().encode()


def demo_project() -> DemoProject:
    return DemoProject(
        slug=SLUG,
        name=NAME,
        languages=LANGUAGES,
        guidelines=GUIDELINES,
        settings={},
        authors_per_unit=1,
        units_file=units_csv(),
        units_filename="demo-prompt-slots.csv",
    )
