"""The preference demo project (TaskType.demo): the paper's ten categories with two prompt slots each, one
writer per slot; six prompts imported with the responses of three named models (as an admin imports
responses made elsewhere: no model is called when the demo loads); raters w1-w3 in group A and w4-w6 in
group B, and the first ratings done. The prompts and responses were written for the demo."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from annotation.task_types.base import DemoProject
from annotation.task_types.preference.rubrics import CATEGORIES, CRITERIA

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


GROUPS = {"w1": "A", "w2": "A", "w3": "A", "w4": "B", "w5": "B", "w6": "B"}
MODELS = ("sahabat-7b", "nusantara-chat", "gpt-mini")
RATINGS_DONE = 8

# (id, category, prompt, responses by MODELS)
PROMPTS = [
    (
        "demo-pref-1",
        "open question",
        "Apa saja yang perlu disiapkan untuk mudik naik motor dari Jakarta ke Solo?",
        (
            "Periksa kondisi motor (rem, ban, oli), bawa jas hujan, SIM dan STNK, dan rencanakan istirahat "
            "setiap dua jam di rest area atau masjid.",
            "Siapkan motor dan dokumen. Jangan lupa istirahat.",
            "Mudik naik motor tidak disarankan; lebih baik naik pesawat.",
        ),
    ),
    (
        "demo-pref-2",
        "analysis",
        "Tolong jelaskan bedanya rendang dan kalio dengan singkat.",
        (
            "Rendang dimasak lebih lama sampai kuahnya habis dan warnanya cokelat gelap; kalio adalah tahap "
            "sebelumnya, masih berkuah dan lebih terang.",
            "Rendang dan kalio sama saja, hanya beda nama daerah.",
            "Kalio itu rendang yang masih basah, rendang yang sudah kering.",
        ),
    ),
    (
        "demo-pref-3",
        "creative writing",
        "Buatkan pantun pembuka untuk acara arisan ibu-ibu RT.",
        (
            "Pergi ke pasar membeli talas, jangan lupa membeli kemiri. Selamat datang ibu-ibu yang cerdas, "
            "arisan kita mulai hari ini.",
            "Selamat datang di arisan. Mari kita mulai.",
            "Buah mangga buah pepaya, arisan dimulai mari bergembira.",
        ),
    ),
    (
        "demo-pref-4",
        "open question",
        "Bagaimana cara mengurus KTP yang hilang?",
        (
            "Minta surat keterangan kehilangan dari polsek, lalu bawa ke Dukcapil bersama fotokopi KK untuk "
            "mencetak KTP-el pengganti.",
            "Datang saja ke kantor kelurahan dan minta KTP baru.",
            "Buat laporan kehilangan ke polisi, lalu urus penggantinya di Dukcapil dengan membawa KK.",
        ),
    ),
    (
        "demo-pref-5",
        "analysis",
        "Apa arti peribahasa 'air beriak tanda tak dalam'?",
        (
            "Orang yang banyak bicara atau pamer biasanya tidak banyak ilmunya.",
            "Air sungai yang beriak biasanya dangkal.",
            "Artinya orang yang sombong pasti kaya.",
        ),
    ),
    (
        "demo-pref-6",
        "brainstorming",
        "Sarankan tiga tempat wisata murah di Yogyakarta untuk mahasiswa.",
        (
            "Pantai Parangtritis, Bukit Bintang di Gunungkidul, dan Taman Sari: tiketnya murah dan mudah "
            "dicapai dengan motor.",
            "Malioboro, Malioboro, dan Malioboro.",
            "Candi Prambanan, Tebing Breksi, dan alun-alun kidul saat malam.",
        ),
    ),
]


def prompts_jsonl() -> bytes:
    """The prompts with their responses as the "preference-prompts" import reads them."""
    rows = [
        {
            "id": prompt_id,
            "category": category,
            "prompt": prompt,
            "input": "",
            "responses": [{"model": model, "text": text} for model, text in zip(MODELS, texts, strict=True)],
        }
        for prompt_id, category, prompt, texts in PROMPTS
    ]
    return "\n".join(json.dumps(row, ensure_ascii=False) for row in rows).encode()


def demo_rating(payload: dict[str, Any]) -> dict[str, Any]:
    """A demo rater's rating: every response shown 4 for each criterion, the first one best."""
    return {
        "ratings": [dict.fromkeys(CRITERIA, 4) for _response in payload.get("responses") or []],
        "best": 1,
        "comment": "",
    }


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
        groups=GROUPS,
        items_file=prompts_jsonl(),
        items_format="preference-prompts",
        items_language="id",
        judged=RATINGS_DONE,
        judgment=demo_rating,
    )
