"""ArabCulture's countries, regions and topics (the paper's 13 countries in 4 regions, 12 topics).

Country and region names are the release's English names (`country`, `region` fields); the Arabic
names are lm-evaluation-harness `arab_culture`'s (`en_ar_countries_regions`), used by the Arabic prompts.
"""

from __future__ import annotations

REGIONS: dict[str, tuple[str, ...]] = {
    "Gulf": ("KSA", "UAE", "Yemen"),
    "Levant": ("Lebanon", "Syria", "Palestine", "Jordan"),
    "North Africa": ("Tunisia", "Algeria", "Morocco", "Libya"),
    "Nile Valley": ("Egypt", "Sudan"),
}
COUNTRIES: tuple[str, ...] = tuple(c for countries in REGIONS.values() for c in countries)
REGION_OF: dict[str, str] = {c: region for region, countries in REGIONS.items() for c in countries}

ARABIC_NAMES: dict[str, str] = {
    "Egypt": "مصر",
    "Morocco": "المغرب",
    "Algeria": "الجزائر",
    "Libya": "ليبيا",
    "Sudan": "السودان",
    "Tunisia": "تونس",
    "Jordan": "الأردن",
    "Lebanon": "لبنان",
    "Syria": "سوريا",
    "Palestine": "فلسطين",
    "Yemen": "اليمن",
    "UAE": "الإمارات",
    "KSA": "السعودية",
    "Gulf": "الخليج",
    "Levant": "الشام",
    "North Africa": "شمال أفريقيا",
    "Nile Valley": "وادي النيل",
}

# The paper's 12 topics (Section 3): the default catalog of a project (categories; subtopics are concepts).
TOPICS: tuple[str, ...] = (
    "Food",
    "Weddings",
    "Celebrations",
    "Everyday Activities",
    "Habits",
    "Traditional Games",
    "Death and Mourning",
    "Art",
    "Childrearing",
    "Agriculture",
    "Family Relationships",
    "Idioms",
)

ENGLISH_KEYS: tuple[str, ...] = ("A", "B", "C")
ARABIC_KEYS: tuple[str, ...] = ("أ", "ب", "ج")


def country_name(value: str) -> str:
    """The canonical country name for a case-insensitive match ("ksa" -> "KSA"), else "" ."""
    folded = (value or "").strip().casefold()
    for country in COUNTRIES:
        if country.casefold() == folded:
            return country
    return ""
