"""Fixture rows in ArabCulture's released layout (no released file is available here)."""

from __future__ import annotations

import json

DISHES = ["الفول", "الكسكس", "المنسف", "الكبسة", "الملوخية", "الفلافل", "الحريرة", "المقلوبة", "الشاورما", "الكنافة"]
DAYS = ["الجمعة", "السبت", "الأحد", "الاثنين", "الثلاثاء", "الأربعاء", "الخميس"]
COUNTRY_REGION = {"Egypt": "Nile Valley", "KSA": "Gulf", "Morocco": "North Africa", "Jordan": "Levant"}


def row(
    *,
    worker: str = "Egypt-1",
    sample: str = "1 | Breakfast",
    k: int = 0,
    answer: str = "B",
    country: str = "Egypt",
    this: str = "Yes",
    other: str = "No",
    discard: str = "No",
    sub_topic: str = "الافطار",
) -> dict:
    dish, day = DISHES[k % len(DISHES)], DAYS[(k // len(DISHES)) % len(DAYS)]
    return {
        "worker_id": worker,
        "sample_id": sample,
        "sub_topic": sub_topic,
        "first_statement": f"يقوم أحمد بتحضير {dish} يوم {day}",
        "options": {
            "arabic_keys": ["أ", "ب", "ج"],
            "english_keys": ["A", "B", "C"],
            "text": [f"يتم تناول {dish} مع الأرز", f"يتم تناول {dish} بالخبز", f"يتم تناول {dish} مع الفواكه"],
        },
        "answer_key": {"arabic_answer_key": {"A": "أ", "B": "ب", "C": "ج"}[answer], "english_answer_key": answer},
        "relevant_to_this_country": this,
        "relevant_to_other_countries": other,
        "should_discard": discard,
        "country": country,
        "region": COUNTRY_REGION.get(country, ""),
    }


def payload(k: int = 0, *, answer: str = "B", country: str = "Egypt", other: bool = False) -> dict:
    r = row(k=k, answer=answer, country=country)
    return {
        "premise": r["first_statement"],
        "completions": r["options"]["text"],
        "answer": answer,
        "country": country,
        "relevant_to_this_country": True,
        "relevant_to_other_countries": other,
    }


def jsonl(rows: list[dict]) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode()
