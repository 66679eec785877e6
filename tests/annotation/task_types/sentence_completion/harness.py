"""lm-evaluation-harness's ArabCulture prompts, quoted as fixture strings (tasks/arab_culture/prompts.py and
tasks/arab_culture_completion/prompts.py), and its doc_to_text, to compare the built-in templates with."""

REGION_COUNTRY_PROMPT_AR = """
مهمتك هي اختيار الخيار الأنسب ثقافياً بناءً على السياق المقدم أدناه.

الموقع: {country}, {region}
الجملة: {first_statement}

يرجى مراعاة الفروق الثقافية للموقع المحدد واختيار الإجابة الأكثر ملاءمة من الخيارات المتاحة.

الخيارات:
{choices}
"""

REGION_PROMPT_AR = """
مهمتك هي اختيار الخيار الأنسب ثقافياً بناءً على السياق المقدم أدناه.

الموقع: {region}
الجملة: {first_statement}

يرجى مراعاة الفروق الثقافية للموقع المحدد واختيار الإجابة الأكثر ملاءمة من الخيارات المتاحة.

الخيارات:
{choices}
"""

BASE_PROMPT_AR = """
مهمتك هي اختيار الخيار الأنسب ثقافياً بناءً على السياق المقدم أدناه.

الجملة: {first_statement}

يرجى مراعاة الفروق الثقافية واختيار الإجابة الأكثر ملاءمة من الخيارات المتاحة.

الخيارات:
{choices}
"""

REGION_COUNTRY_PROMPT = """
You are tasked with selecting the most culturally appropriate option based on the context provided below.

Location: {country}, {region}
Statement: {first_statement}

Consider the cultural nuances of the specified location and choose the most suitable response from the options provided.

Options:
{choices}
"""
REGION_PROMPT = """
You are tasked with selecting the most culturally appropriate option based on the context provided below.

Location: {region}
Statement: {first_statement}

Consider the cultural nuances of the specified location and choose the most suitable response from the options provided.

Options:
{choices}
"""
BASE_PROMPT = """
You are tasked with selecting the most culturally appropriate option based on the context provided below.

Statement: {first_statement}

Consider the cultural nuances and choose the most suitable response from the options provided.

Options:
{choices}
"""

# arab_culture_completion/prompts.py: the same without the options.
COMPLETION = {
    ("ar", "country"): """
مهمتك هي اختيار الخيار الأنسب ثقافياً بناءً على السياق المقدم أدناه.

الموقع: {country}, {region}
الجملة: {first_statement}

يرجى مراعاة الفروق الثقافية للموقع المحدد واختيار الإجابة الأكثر ملاءمة من الخيارات المتاحة.
""",
    ("ar", "region"): """
مهمتك هي اختيار الخيار الأنسب ثقافياً بناءً على السياق المقدم أدناه.

الموقع: {region}
الجملة: {first_statement}

يرجى مراعاة الفروق الثقافية للموقع المحدد واختيار الإجابة الأكثر ملاءمة من الخيارات المتاحة.
""",
    ("ar", "none"): """
مهمتك هي اختيار الخيار الأنسب ثقافياً بناءً على السياق المقدم أدناه.

الجملة: {first_statement}

يرجى مراعاة الفروق الثقافية واختيار الإجابة الأكثر ملاءمة من الخيارات المتاحة.
""",
    ("en", "country"): """
You are tasked with selecting the most culturally appropriate option based on the context provided below.

Location: {country}, {region}
Statement: {first_statement}

Consider the cultural nuances of the specified location and choose the most suitable response from the options provided.
""",
    ("en", "region"): """
You are tasked with selecting the most culturally appropriate option based on the context provided below.

Location: {region}
Statement: {first_statement}

Consider the cultural nuances of the specified location and choose the most suitable response from the options provided.
""",
    ("en", "none"): """
You are tasked with selecting the most culturally appropriate option based on the context provided below.

Statement: {first_statement}

Consider the cultural nuances and choose the most suitable response from the options provided.
""",
}
MCQ = {
    ("ar", "country"): REGION_COUNTRY_PROMPT_AR,
    ("ar", "region"): REGION_PROMPT_AR,
    ("ar", "none"): BASE_PROMPT_AR,
    ("en", "country"): REGION_COUNTRY_PROMPT,
    ("en", "region"): REGION_PROMPT,
    ("en", "none"): BASE_PROMPT,
}

en_ar_countries_regions = {
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


def doc_to_text(doc: dict, *, lang: str, context: str, mcq: bool) -> str:
    """The harness's doc_to_text (utils_mcq.py / utils_completion.py) for one setting."""
    arabic = lang == "ar"
    country, region = doc["country"], doc["region"]
    if arabic:
        country, region = en_ar_countries_regions[country], en_ar_countries_regions[region]
    fields = {"country": country, "region": region, "first_statement": doc["first_statement"].strip()}
    if mcq:
        choices = doc["options"]
        fields["choices"] = "".join(
            (choices["arabic_keys"][i] if arabic else choices["english_keys"][i])
            + ". "
            + choices["text"][i].strip()
            + "\n"
            for i in range(3)
        )
        return MCQ[(lang, context)].format(**fields)
    return COMPLETION[(lang, context)].format(**fields)
