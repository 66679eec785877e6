"""The commonsense-QA demo project (TaskType.demo): Indonesian and Sundanese, five categories of ten
concepts, each concept written by two annotators and answered by five others."""

from __future__ import annotations

import csv
import io
from typing import Any

from annotation.task_types.base import DemoProject, DemoWork

SLUG = "demo-csqa"
NAME = "Gotong demo: Indonesian commonsense QA"
LANGUAGES = [
    {"code": "id", "name": "Indonesian", "direction": "ltr"},
    {"code": "su", "name": "Sundanese", "direction": "ltr"},
]
SETTINGS = {"answerers_per_item": 5, "ambiguity_threshold": 3}
AUTHORS_PER_CONCEPT = 2

# category -> (Indonesian name, Sundanese name)
CATEGORY_NAMES = {
    "culinary": ("kuliner", "kuliner"),
    "place": ("tempat", "tempat"),
    "culture": ("budaya", "budaya"),
    "history": ("sejarah", "sajarah"),
    "activity": ("aktivitas", "kagiatan"),
}

# category -> [(concept in Indonesian, Sundanese translation or "")]
CONCEPTS = {
    "culinary": [
        ("rendang", ""),
        ("tempe", ""),
        ("sambal", "sambel"),
        ("nasi tumpeng", ""),
        ("ketupat", "kupat"),
        ("soto", ""),
        ("gudeg", ""),
        ("rujak", ""),
        ("kerupuk", "kurupuk"),
        ("jamu", ""),
    ],
    "place": [
        ("pasar tradisional", ""),
        ("warung", ""),
        ("masjid", "masigit"),
        ("pura", ""),
        ("alun-alun", ""),
        ("pesantren", ""),
        ("sawah", ""),
        ("posyandu", ""),
        ("balai desa", "bale desa"),
        ("terminal bus", ""),
    ],
    "culture": [
        ("batik", ""),
        ("gamelan", ""),
        ("wayang kulit", ""),
        ("angklung", "angklung"),
        ("mudik", ""),
        ("halalbihalal", ""),
        ("arisan", ""),
        ("gotong royong", ""),
        ("selamatan", ""),
        ("kebaya", ""),
    ],
    "history": [
        ("Sumpah Pemuda", ""),
        ("Proklamasi Kemerdekaan", ""),
        ("Majapahit", ""),
        ("Sriwijaya", ""),
        ("Borobudur", ""),
        ("Kartini", ""),
        ("Diponegoro", ""),
        ("Bandung Lautan Api", ""),
        ("Konferensi Asia Afrika", ""),
        ("Reformasi 1998", ""),
    ],
    "activity": [
        ("kerja bakti", ""),
        ("ronda malam", "ronda peuting"),
        ("ngabuburit", ""),
        ("kondangan", ""),
        ("pengajian", "pangaosan"),
        ("senam pagi", ""),
        ("jalan santai", ""),
        ("bermain layangan", ""),
        ("memancing", "nguseup"),
        ("takbiran", ""),
    ],
}

GUIDELINES = """\
# Writing commonsense questions

You get a **category** and a **concept** (for example *culinary* and *rendang*). Write **one
multiple-choice question** that someone who grew up where you live answers without thinking, and that
someone who only read about Indonesia might get wrong. The knowledge should be *common* in your region,
not trivia from a textbook.

## The question

- **Use the concept in the question**, as it is or inflected (*kunjung* → *berkunjung*, *dikunjungi*).
  If it really cannot appear, write a short justification; your reviewer will read it.
- Ask about **everyday life**: what people do, eat, say, wear, when and where. Give enough context to
  make one answer right: a place (*di Jawa Barat*, *di desa*), a time (*saat Lebaran*), a person (*anak
  muda*, *nenek*).
- Write in the **project language** you were given (Indonesian or Sundanese), in full sentences, with
  correct spelling. Regional words are welcome when that is how people really talk.

## The five options (A-E)

- Exactly **one correct answer**, marked as such.
- Four **distractors** that are plausible to an outsider but clearly wrong to a local: same type of
  thing as the answer (all foods, all places, all times), similar length.
- No two options that mean the same thing, no "all of the above", no "none of the above".

## Avoid (reviewers send these back)

| problem | instead of | write |
|---|---|---|
| Superlatives, opinions | "Makanan *paling enak* di Padang?" | "Masakan apa yang disajikan saat kenduri di Padang?" |
| Context too general | "...di seluruh dunia", "...di Asia" | a region, a town, an occasion |
| Logic or cause-and-effect puzzles | "Jika hujan, maka ...?" | a question about a custom or a habit |
| Options of equal value | two answers that are both true | make the distractors clearly wrong |
| Answer equal to a distractor | "soto" and "soto ayam" | options of the same level of detail |
| No valid answer | all five are wrong | check your answer against the question |
| Wrong language, translation error | Indonesian in a Sundanese task | write directly in the task language |

## Example (culinary, *ketupat*)

> Saat Lebaran, ketupat biasanya disantap bersama hidangan apa?
>
> A. Opor ayam · B. Es campur · C. Roti bakar · D. Bubur kacang hijau · E. Mie instan

Answer: **A**. The options are all foods, only one goes with ketupat at Lebaran, and nothing is a
matter of taste.

## After you submit

A QC reviewer approves your question, or sends it back with **feedback** and the **error types**
above. Revise and resubmit; the same reviewer sees your new version beside the old one. Approved
questions are later answered by five annotators from other regions, who may flag them as ambiguous.
"""


ANSWERS_DONE = 10

# Three concepts already written by their first author and approved (then answered by five others).
WORK = (
    DemoWork(
        unit="ketupat",
        payloads=(
            {
                "question": "Saat Lebaran, ketupat biasanya disantap bersama hidangan apa?",
                "choices": ["Opor ayam", "Es campur", "Roti bakar", "Bubur kacang hijau", "Mie instan"],
                "answer": "A",
            },
        ),
    ),
    DemoWork(
        unit="angklung",
        payloads=(
            {
                "question": "Angklung dimainkan dengan cara apa?",
                "choices": ["Dipetik", "Ditiup", "Digoyangkan", "Dipukul dengan stik", "Digesek"],
                "answer": "C",
            },
        ),
    ),
    DemoWork(
        unit="ngabuburit",
        payloads=(
            {
                "question": "Kapan anak muda biasanya ngabuburit?",
                "choices": [
                    "Sore hari menjelang berbuka puasa",
                    "Tengah malam setelah tarawih",
                    "Pagi hari sebelum sahur",
                    "Siang hari saat Idul Adha",
                    "Malam tahun baru",
                ],
                "answer": "A",
            },
        ),
    ),
)


def demo_answer(payload: dict[str, Any]) -> dict[str, Any]:
    """A demo answerer's answer: the author's, certain."""
    return {"answer": payload["answer"], "uncertain": False, "question_ambiguous": False, "comment": ""}


def concepts_csv() -> bytes:
    """The demo catalogue as the CSV an admin would upload (Sundanese translations where we have them)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["category", "concept", "category_id", "category_su", "concept_su"])
    for category, concepts in CONCEPTS.items():
        name_id, name_su = CATEGORY_NAMES[category]
        for concept, sundanese in concepts:
            writer.writerow([category, concept, name_id, name_su, sundanese])
    return out.getvalue().encode("utf-8")


def demo_project() -> DemoProject:
    return DemoProject(
        slug=SLUG,
        name=NAME,
        languages=LANGUAGES,
        guidelines=GUIDELINES,
        settings=SETTINGS,
        authors_per_unit=AUTHORS_PER_CONCEPT,
        units_file=concepts_csv(),
        units_filename="demo-concepts.csv",
        work=WORK,
        judged=ANSWERS_DONE,
        judgment=demo_answer,
    )
