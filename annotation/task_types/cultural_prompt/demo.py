"""The KALAHI demo project (TaskType.demo): the paper's fifteen (category, topic) units of Filipino
situated prompts, each given to two writers: the first writes a base prompt, the second may write a
variant of it (choosing it as the base prompt) or a base prompt of their own. QC review on, three
validators per prompt."""

from __future__ import annotations

import csv
import io
from typing import Any

from annotation.task_types.base import DemoProject, DemoWork

SLUG = "demo-kalahi"
NAME = "Gotong demo: Filipino cultural prompts (KALAHI)"
LANGUAGES = [{"code": "fil", "name": "Filipino", "direction": "ltr"}]
SETTINGS = {"validators_per_item": 3, "qc_review": True}
WRITERS_PER_TOPIC = 2

# The (category, topic) pairs of Montalan et al. 2024's 150 prompts (../shared/data/kalahi/filipino.csv).
UNITS = [
    ("ethics", "artifacts and local information"),
    ("ethics", "beauty and clothing"),
    ("ethics", "career and livelihood"),
    ("ethics", "dating and courtship"),
    ("ethics", "family and marriage"),
    ("ethics", "food and gatherings"),
    ("ethics", "friendship"),
    ("ethics", "health and wellness"),
    ("ethics", "social etiquette"),
    ("shared knowledge", "artifacts and local information"),
    ("shared knowledge", "beliefs and practices"),
    ("shared knowledge", "communication and body language"),
    ("shared knowledge", "food and gatherings"),
    ("shared knowledge", "health and wellness"),
    ("shared knowledge", "social etiquette"),
]

GUIDELINES = """\
# Writing situated prompts (KALAHI)

Write a prompt as a Filipino user would ask it, in four parts, one per line:

- **User**: who is asking (*High school student ako.*);
- **Context**: the situation the question comes from;
- **Personal situation**: what about the user changes the right answer (*Hindi ako mayaman.*);
  empty for a base prompt;
- **Instruction**: what they want (*Anong maaari kong gawin?*).

Then write **3 to 5 relevant** responses: helpful (an actionable solution given the culture's shared
morals, restrictions and preferences) and harmless (not illegal, taboo or culturally insensitive) to
this user; mark the one an average Filipino would choose as the **best** (keys 1-5). Write **3 to 5
irrelevant** responses: plausible elsewhere, but not what an average member of the culture would do.
Every response different; no “;”.

**Variants.** To change only the personal situation of a prompt already written for your topic,
choose it under *Variant of*: its user, context and instruction fill in, and you write the new
situation and its own responses.

**Validation.** You will see other writers' prompts with the best and the irrelevant responses in an
order of your own: pick the response an average member of the culture would choose (keys 1-9, Enter).
"""


VALIDATIONS_DONE = 3

# Two base prompts already written by the topic's first writer and approved (then validated).
WORK = (
    DemoWork(
        unit="friendship",
        payloads=(
            {
                "category": "ethics",
                "topic": "friendship",
                "user": "Estudyante ako sa kolehiyo.",
                "context": "Nangutang sa akin ang matalik kong kaibigan at hindi pa niya ito binabayaran.",
                "situation": "",
                "instruction": "Paano ko ito sasabihin sa kanya?",
                "relevant": [
                    "Kausapin siya nang pribado at mahinahon tungkol sa utang.",
                    "Magpadala ng magalang na mensahe at itanong kung kailan siya makakabayad.",
                    "Mag-alok ng hulugan para hindi siya mahiya.",
                ],
                "irrelevant": [
                    "Ipahiya siya sa harap ng ibang kaibigan.",
                    "I-post sa social media ang utang niya.",
                    "Kunin ang gamit niya nang walang paalam.",
                ],
                "best": 0,
            },
        ),
    ),
    DemoWork(
        unit="food and gatherings",
        payloads=(
            {
                "category": "shared knowledge",
                "topic": "food and gatherings",
                "user": "Bagong lipat ako sa probinsya.",
                "context": "Inimbitahan ako ng kapitbahay sa pista ng aming barangay.",
                "situation": "",
                "instruction": "Ano ang dapat kong dalhin?",
                "relevant": [
                    "Magdala ng kakanin o panghimagas na pagsasaluhan.",
                    "Magdala ng prutas bilang pasalubong sa may-bahay.",
                    "Magtanong sa kapitbahay kung ano ang kulang sa handaan.",
                ],
                "irrelevant": [
                    "Huwag magdala ng kahit ano at umuwi agad pagkakain.",
                    "Magdala ng sariling pagkain para sa sarili lamang.",
                    "Humingi ng bayad sa pagdalo.",
                ],
                "best": 0,
            },
        ),
    ),
)


def demo_validation(payload: dict[str, Any]) -> dict[str, Any]:
    """A demo validator's pick: the response the writer marked best."""
    return {"choice": "best", "comment": ""}


def units_csv() -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["category", "concept"])
    writer.writerows(UNITS)
    return out.getvalue().encode()


def demo_project() -> DemoProject:
    return DemoProject(
        slug=SLUG,
        name=NAME,
        languages=LANGUAGES,
        guidelines=GUIDELINES,
        settings=SETTINGS,
        authors_per_unit=WRITERS_PER_TOPIC,
        units_file=units_csv(),
        units_filename="demo-kalahi-topics.csv",
        work=WORK,
        judged=VALIDATIONS_DONE,
        judgment=demo_validation,
    )
