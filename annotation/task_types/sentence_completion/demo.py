"""The ArabCulture demo project (TaskType.demo): Modern Standard Arabic, right to left; six topics with two
subtopics each, one writer per subtopic. The annotators' profiles here are from three countries (w1, w2
Egypt; w3, w4 Morocco; w5, w6 Jordan), each country has its national reviewer (stage 1), and each writer's
first item is written and approved, then checked by a peer of the same country (stage 2). The items were
written for the demo."""

from __future__ import annotations

import csv
import io
from typing import Any

from annotation.task_types.base import DemoProject, DemoWork
from annotation.task_types.sentence_completion.places import REGION_OF

SLUG = "demo-arabculture"
NAME = "Gotong demo: Arabic cultural sentence completion (ArabCulture)"
LANGUAGES = [{"code": "ar", "name": "Arabic", "direction": "rtl"}]
SETTINGS = {"same_country": True}
PEER_CHECKS_DONE = 3

# (topic, subtopic): the unit a writer is planned; the writer may pick another in the form.
UNITS = [
    ("Food", "الإفطار"),
    ("Food", "الحلويات"),
    ("Weddings", "ليلة الحناء"),
    ("Weddings", "المهر"),
    ("Celebrations", "عيد الفطر"),
    ("Celebrations", "المولد النبوي"),
    ("Everyday Activities", "المقاهي"),
    ("Everyday Activities", "الأسواق"),
    ("Habits", "الضيافة"),
    ("Habits", "الزيارات العائلية"),
    ("Family Relationships", "الجيران"),
    ("Family Relationships", "الأجداد"),
]

COUNTRY_OF = {"w1": "Egypt", "w2": "Egypt", "w3": "Morocco", "w4": "Morocco", "w5": "Jordan", "w6": "Jordan"}
PROFILES = {
    username: {
        "country": country,
        "region": REGION_OF[country],
        "native_languages": "ar",
        "ethnicity": "Arab",
    }
    for username, country in COUNTRY_OF.items()
}
REVIEWERS = {"reviewer-egypt": ("Egypt",), "reviewer-morocco": ("Morocco",), "reviewer-jordan": ("Jordan",)}
REVIEWER_OF = {country: reviewer for reviewer, (country,) in REVIEWERS.items()}

# (writer, topic, subtopic, premise, three completions, the culturally right one)
ITEMS = [
    (
        "w1",
        "Food",
        "الإفطار",
        "في صباح يوم الجمعة، تجتمع العائلة على مائدة الإفطار",
        ("ويتناولون الفول المدمس مع الخبز البلدي", "ويتناولون الكسكس مع اللحم", "ويتناولون المنسف باللبن"),
        "A",
    ),
    (
        "w2",
        "Celebrations",
        "عيد الفطر",
        "في صباح عيد الفطر، يشتري الأطفال",
        ("الكعك والبسكويت ويلبسون الملابس الجديدة", "الشباكية ويذهبون إلى البحر", "خروف العيد من السوق"),
        "A",
    ),
    (
        "w3",
        "Food",
        "الإفطار",
        "في رمضان، يفطر الصائمون في البيت المغربي على",
        ("الفول المدمس والطعمية", "الحريرة والتمر والشباكية", "المنسف والكنافة"),
        "B",
    ),
    (
        "w4",
        "Weddings",
        "ليلة الحناء",
        "في ليلة الحناء، تلبس العروس",
        ("فستانا أبيض فقط", "ثوبا أسود", "القفطان وتنقش النكافة يديها بالحناء"),
        "C",
    ),
    (
        "w5",
        "Habits",
        "الضيافة",
        "عندما يزور الضيف بيتا أردنيا، يقدم له صاحب البيت",
        ("القهوة السادة في فنجان صغير", "الشاي بالنعناع مع الحلويات المغربية", "عصير القصب البارد"),
        "A",
    ),
    (
        "w6",
        "Weddings",
        "المهر",
        "في الأعراس الأردنية، يقدم أهل العريس في الجاهة",
        ("القهوة السادة ويطلبون العروس من أهلها", "الحناء للعروس في ليلة الزفاف", "الكسكس لكل المدعوين"),
        "A",
    ),
]

GUIDELINES = """\
# Writing culturally grounded sentence completions (ArabCulture)

Write in **Modern Standard Arabic** about **your own country** (the one of your profile).

- **Premise**: the start of a sentence about everyday life (food, weddings, celebrations, habits, ...).
- **Three completions**: all grammatical and plausible; **exactly one** is what people in your country
  do. The other two may be right elsewhere, not here.
- Mark whether the item is specific to your country or shared with other Arab countries.

**Review.** A national reviewer of your country checks language and guidelines (stage 1). Then a peer
from your country answers your item as a question with the completions shuffled (stage 2): an item
whose peer picks another completion is discarded.
"""


def units_csv() -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["category", "concept"])
    writer.writerows(UNITS)
    return out.getvalue().encode("utf-8")


def demo_work() -> tuple[DemoWork, ...]:
    return tuple(
        DemoWork(
            author=writer,
            reviewer=REVIEWER_OF[COUNTRY_OF[writer]],
            payloads=(
                {
                    "premise": premise,
                    "completions": list(completions),
                    "answer": answer,
                    "country": COUNTRY_OF[writer],
                    "topic": topic,
                    "subtopic": subtopic,
                    "relevant_to_this_country": True,
                    "relevant_to_other_countries": False,
                },
            ),
        )
        for writer, topic, subtopic, premise, completions, answer in ITEMS
    )


def demo_peer_check(payload: dict[str, Any]) -> dict[str, Any]:
    """A demo peer's answer: the first completion as shown (the order is shuffled per item, so some
    peers pick the author's completion and some do not)."""
    return {"choice": "A", "comment": ""}


def demo_project() -> DemoProject:
    return DemoProject(
        slug=SLUG,
        name=NAME,
        languages=LANGUAGES,
        guidelines=GUIDELINES,
        settings=SETTINGS,
        authors_per_unit=1,
        units_file=units_csv(),
        units_filename="demo-arabculture-topics.csv",
        profiles=PROFILES,
        reviewers=REVIEWERS,
        work=demo_work(),
        judged=PEER_CHECKS_DONE,
        judgment=demo_peer_check,
    )
