"""Completion items as a model task (pure), worded as lm-evaluation-harness phrases ArabCulture.

Two modes, each with three location contexts (none, region, region + country) and two prompt
languages, twelve built-in templates:
- MCQ (`mcq_<lang>_<context>`, harness task `arab_culture`): the prompt lists the completions as
  "<key>. <text>" lines, keys A/B/C in English and أ/ب/ج in Arabic; the model answers with a key
  (an Arabic key is read as the same letter by the core's extraction).
- Completion (`completion_<lang>_<context>`, harness task `arab_culture_completion`): the prompt
  without the options; run it in likelihood mode, which scores each completion's text as the
  prompt's continuation.
Arabic prompts name the country and region in Arabic, as the harness's `en_ar_countries_regions`.
The harness formats `{country}, {region}` and a prompt that starts and ends with a newline; the
templates are its strings with `{{ field }}` in place of `{field}` and of the `{choices}` lines.
"""

from __future__ import annotations

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from annotation.task_types.base import BenchmarkItem, BenchmarkSpec, BenchmarkTemplate, ExportRecord
from annotation.task_types.sentence_completion.payload import LETTERS
from annotation.task_types.sentence_completion.places import ARABIC_KEYS, ARABIC_NAMES, ENGLISH_KEYS

SOURCE = gettext_lazy("lm-evaluation-harness, tasks arab_culture (prompts.py) and arab_culture_completion")

_AR_HEAD = "\nمهمتك هي اختيار الخيار الأنسب ثقافياً بناءً على السياق المقدم أدناه.\n\n"
_AR_LOCATED = "يرجى مراعاة الفروق الثقافية للموقع المحدد واختيار الإجابة الأكثر ملاءمة من الخيارات المتاحة.\n"
_AR_BASE = "يرجى مراعاة الفروق الثقافية واختيار الإجابة الأكثر ملاءمة من الخيارات المتاحة.\n"
_EN_HEAD = (
    "\nYou are tasked with selecting the most culturally appropriate option based on the context provided below.\n\n"
)
_EN_LOCATED = (
    "Consider the cultural nuances of the specified location and choose the most suitable response from the "
    "options provided.\n"
)
_EN_BASE = "Consider the cultural nuances and choose the most suitable response from the options provided.\n"


def _choices(keys: tuple[str, ...]) -> str:
    return "".join(f"{key}. {{{{ choice_{letter.lower()} }}}}\n" for key, letter in zip(keys, LETTERS, strict=True))


def _prompt(lang: str, context: str, *, mcq: bool) -> str:
    if lang == "ar":
        head, located, base = _AR_HEAD, _AR_LOCATED, _AR_BASE
        location = {"region": "الموقع: {{ region_ar }}\n", "country": "الموقع: {{ country_ar }}, {{ region_ar }}\n"}
        statement = "الجملة: {{ premise }}\n\n"
        options = "\nالخيارات:\n" + _choices(ARABIC_KEYS)
    else:
        head, located, base = _EN_HEAD, _EN_LOCATED, _EN_BASE
        location = {"region": "Location: {{ region }}\n", "country": "Location: {{ country }}, {{ region }}\n"}
        statement = "Statement: {{ premise }}\n\n"
        options = "\nOptions:\n" + _choices(ENGLISH_KEYS)
    text = head + location.get(context, "") + statement + (located if context != "none" else base)
    return text + options + "\n" if mcq else text  # the harness's "{choices}\n": a blank line closes the list


MODE_LABELS = {"mcq": gettext_lazy("MCQ"), "completion": gettext_lazy("Completion (likelihood mode)")}
CONTEXT_LABELS = {
    "none": gettext_lazy("no location"),
    "region": gettext_lazy("region"),
    "country": gettext_lazy("region + country"),
}
LANGUAGE_LABELS = {"en": gettext_lazy("English prompt"), "ar": gettext_lazy("Arabic prompt")}

TEMPLATES = tuple(
    BenchmarkTemplate(
        name=f"{mode}_{lang}_{context}",
        label=format_lazy("{}, {}, {}", MODE_LABELS[mode], LANGUAGE_LABELS[lang], CONTEXT_LABELS[context]),
        text=_prompt(lang, context, mcq=mode == "mcq"),
        source=SOURCE,
    )
    for mode in ("mcq", "completion")
    for lang in ("en", "ar")
    for context in ("none", "region", "country")
)

FIELDS = (
    "premise",
    "country",
    "region",
    "country_ar",
    "region_ar",
    "topic",
    "subtopic",
    "choice_a",
    "choice_b",
    "choice_c",
)

SPEC = BenchmarkSpec(
    kind="choice",
    answers=LETTERS,
    gold_keys=("author",),
    templates=TEMPLATES,
    fields=FIELDS,
    gold_key_labels={"author": gettext_lazy("The author's marked completion (kept by the peer of the same country)")},
)


def benchmark_item(record: ExportRecord, *, gold_key: str) -> BenchmarkItem | None:
    payload = record.item.payload
    gold = payload.get("answer")
    if gold not in LETTERS:
        return None
    completions = [str(c).strip() for c in payload.get("completions") or []]
    completions += [""] * (len(LETTERS) - len(completions))
    country, region = payload.get("country") or "", payload.get("region") or ""
    fields = {
        # The harness strips the statement and each option's text.
        "premise": str(payload.get("premise") or "").strip(),
        "country": country,
        "region": region,
        "country_ar": ARABIC_NAMES.get(country, country),
        "region_ar": ARABIC_NAMES.get(region, region),
        "topic": record.item.category,
        "subtopic": record.item.unit_name,
        **{f"choice_{letter.lower()}": text for letter, text in zip(LETTERS, completions, strict=True)},
    }
    humans = tuple(a for a in ((j.value or {}).get("answer") for j in record.judgments) if a in LETTERS)
    return BenchmarkItem(fields=fields, options=tuple(completions), gold=gold, human_answers=humans)
