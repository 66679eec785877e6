import json

import pytest

from annotation.errors import InvalidInput
from evaluation.task_types.csqa.adaptation import adapt, backtranslation, relevance
from evaluation.task_types.csqa.adaptation.commonsenseqa import parse_jsonl

HF_LINE = {
    "id": "075e483d21c29a511267ef62bedc0461",
    "question": (
        "The sanctions against the school were a punishing blow, and they seemed to what the efforts the "
        "school had made to change?"
    ),
    "question_concept": "punishing",
    "choices": {"label": ["A", "B", "C", "D", "E"], "text": ["ignore", "enforce", "authoritarian", "yell at", "avoid"]},
    "answerKey": "A",
}
NESTED_LINE = {
    "answerKey": "B",
    "id": "61fe6e879ff18686d7552425a36344c8",
    "question": {
        "question_concept": "people",
        "choices": [
            {"label": x, "text": t}
            for x, t in zip(
                "ABCDE", ["race track", "populated areas", "the desert", "apartment", "roadblock"], strict=True
            )
        ],
        "stem": "Sammy wanted to go to where the people were.  Where might he go?",
    },
}


# --- import --------------------------------------------------------------------------------------


def test_both_commonsenseqa_shapes_are_imported():
    rows = parse_jsonl((json.dumps(HF_LINE) + "\n\n" + json.dumps(NESTED_LINE) + "\n").encode())

    assert [(r.line, r.id, r.concept, r.answer, r.choices[1]) for r in rows] == [
        (1, "075e483d21c29a511267ef62bedc0461", "punishing", "A", "enforce"),
        (3, "61fe6e879ff18686d7552425a36344c8", "people", "B", "populated areas"),
    ]


def test_a_file_with_bad_lines_is_refused_whole_with_numbered_errors():
    bad_choices = {**HF_LINE, "id": "x2", "choices": {"label": ["A", "B"], "text": ["a", "b"]}}
    lines = [
        json.dumps(HF_LINE),
        "{not json",
        json.dumps(bad_choices),
        json.dumps({**HF_LINE, "answerKey": "F", "id": "x4"}),
        json.dumps(HF_LINE),
        "[1]",
    ]

    with pytest.raises(InvalidInput) as refused:
        parse_jsonl("\n".join(lines))

    assert refused.value.message == "Nothing was imported: 5 line(s) have errors."
    assert refused.value.field_errors == {
        "file": [
            "Line 2: not valid JSON (Expecting property name enclosed in double quotes).",
            "Line 3: choices must be five non-empty options labelled A-E.",
            "Line 4: answerKey must be one of A-E.",
            "Line 5: id 075e483d21c29a511267ef62bedc0461 repeats line 1.",
            "Line 6: not a JSON object.",
        ]
    }
    with pytest.raises(InvalidInput, match="no questions"):
        parse_jsonl("\n\n")


# --- step 1: relevance -----------------------------------------------------------------------------


def test_the_five_non_verb_prompts_are_the_papers_with_the_location():
    prompts = relevance.prompts(question="Where is snow?", concept="snow", location="West Java", verb=False)

    head = "Text: Where is snow?\nConcept: snow\n"
    assert prompts == [
        head + "Can one find 'snow' in West Java? Answer with 'yes' or 'no'.",
        head + "Do people in West Java familiar with 'snow' concept? Answer with 'yes' or 'no'.",
        head + "Is 'snow' concept exist in West Java? Answer with 'yes' or 'no'.",
        head + "In West Java, can people find 'snow'? Answer with 'yes' or 'no'.",
        head + "Can 'snow' be found in West Java? Answer with 'yes' or 'no'.",
    ]


def test_the_verb_prompts_differ_where_the_paper_says():
    prompts = relevance.prompts(question="Q", concept="skiing", location="Indonesia", verb=relevance.is_verb("skiing"))

    assert [p.splitlines()[2] for p in prompts] == [
        "Can one 'skiing' in Indonesia? Answer with 'yes' or 'no'.",
        "Do people in Indonesia familiar with 'skiing' concept? Answer with 'yes' or 'no'.",
        "Is 'skiing' concept exist in Indonesia? Answer with 'yes' or 'no'.",
        "In Indonesia, can people 'skiing'? Answer with 'yes' or 'no'.",
        "Can 'skiing' be done in Indonesia? Answer with 'yes' or 'no'.",
    ]
    assert (relevance.is_verb("snow"), relevance.is_verb("go fishing"), relevance.is_verb("ring")) == (
        False,
        False,
        False,
    )


def test_majority_of_five_decides_and_unreadable_replies_are_not_yes():
    votes = [relevance.parse_yes_no(r) for r in ["Yes.", "no", "YES, it can", "Maybe", "No, never"]]

    assert votes == [True, False, True, None, False]
    assert relevance.decide(votes).relevant is False
    assert relevance.decide([True, True, True, False, None]).relevant is True
    assert relevance.adaptation_steps(relevance.decide(votes)) == ["adapt_all"]
    assert relevance.adaptation_steps(relevance.decide([True] * 5)) == []


def test_questions_with_names_or_places_are_irrelevant_without_asking():
    named = relevance.irrelevant_by_names(NESTED_LINE["question"]["stem"])
    place = relevance.irrelevant_by_names(
        "Which state is the blue ridge mountains roanoke city in? Virginia or Michigan?"
    )

    assert (named.relevant, named.reason, named.names) == (False, "names_or_places", ("Sammy",))
    assert place.names == ("Virginia", "Michigan")
    assert relevance.adaptation_steps(named) == ["adapt_all", "adapt_name"]
    assert relevance.irrelevant_by_names("Where would you buy jeans in a place with a large number of stores?") is None
    assert relevance.irrelevant_by_names("What do I do? If I can, I go.") is None


# --- step 2: adaptation ----------------------------------------------------------------------------


def test_the_adapt_all_prompt_is_the_papers_text():
    prompt = adapt.adapt_all_prompt(
        question="Where is snow?", concept="snow", choices=["a", "b", "c", "d", "e"], answer="B"
    )

    assert prompt == (
        "Change the given data to make it relevant to Indonesia in any ways. Make all elements relevant to "
        "each other, and the concept always appear explicitly in the question. Return in Indonesian language "
        "with JSON format where question is string, concept is string, options is dictionary where label is "
        "the keys and option text is the values, and question_answer is string contain one label from the "
        "options.\nData:\n###\nQuestion: Where is snow?\nConcept: snow\nOptions:\nA. a\nB. b\nC. c\nD. d\nE. e\n"
        "Question Answer: B\n###"
    )
    assert adapt.adapt_name_prompt(question="John ate.") == (
        "Change all names in the given question to Indonesian names. Change only the names, keep all other "
        "phrases in the question the same and keep it all in Indonesian.\nQuestion: John ate.\nChanged Question:"
    )


def test_an_adapt_all_reply_becomes_a_checked_csqa_payload():
    reply = (
        "```json\n"
        + json.dumps(
            {
                "question": "Budi mencari orangutan. Di mana mustahil menemukan orangutan?",
                "concept": "orangutan",
                "options": {
                    "A": "hutan hujan tropis",
                    "B": "alam bebas",
                    "C": "gurun sahara",
                    "D": "kalimantan",
                    "E": "belantara",
                },
                "question_answer": "C",
            }
        )
        + "\n```"
    )

    adapted = adapt.parse_adapt_all(reply)

    assert (adapted.ok, adapted.concept, adapted.payload["answer"], adapted.payload["choices"][2]) == (
        True,
        "orangutan",
        "C",
        "gurun sahara",
    )


@pytest.mark.parametrize(
    ("reply", "reason", "detail"),
    [
        ("Maaf.", "unreadable", "No JSON was found in the reply."),
        (
            '{"question": "Di mana komodo?", "concept": "komodo", '
            '"options": {"A": "x", "B": "x", "C": "y", "D": "z", "E": "w"}, "question_answer": "A"}',
            "invalid",
            "Option B repeats option A.",
        ),
        (
            '{"question": "Di mana hewan itu?", "concept": "komodo", '
            '"options": {"A": "x", "B": "v", "C": "y", "D": "z", "E": "w"}, "question_answer": "A"}',
            "concept_missing",
            "The question does not contain the concept “komodo”.",
        ),
    ],
)
def test_a_bad_adapt_all_reply_says_why(reply, reason, detail):
    adapted = adapt.parse_adapt_all(reply)

    assert (adapted.ok, adapted.reason, adapted.detail) == (False, reason, detail)


def test_an_adapt_name_reply_is_the_changed_question():
    assert adapt.parse_adapt_name('\nChanged Question: "Budi menyewa kamar hotel."\n') == "Budi menyewa kamar hotel."
    assert adapt.parse_adapt_name("   ") is None


# --- step 3: back-translation ----------------------------------------------------------------------


def test_back_translation_uses_chrf_without_embeddings_and_cosine_with_them():
    same = backtranslation.check(
        original="Di mana orang membeli sayur?", back_translated="Di mana orang membeli sayur?"
    )
    close = backtranslation.check(
        original="Di mana orang membeli sayur?", back_translated="Di mana orang membeli sayuran?"
    )
    far = backtranslation.check(original="Di mana orang membeli sayur?", back_translated="Kapan hujan turun?")
    embedded = backtranslation.check(original="x", back_translated="y", embeddings=([1.0, 0.0], [0.6, 0.8]))

    assert (same.method, same.score, same.passed) == ("chrf", 1.0, True)
    assert (close.score, close.passed) == (0.9425, True)
    assert (far.score, far.passed) == (0.0829, False)
    assert (embedded.method, embedded.score, embedded.passed) == ("embedding_cosine", 0.6, False)
    assert backtranslation.check(original="a", back_translated="b", embeddings=([1, 1], [1, 1])).passed is True
    with pytest.raises(ValueError):
        backtranslation.check(original="a", back_translated="b", threshold=1.5)


def test_the_translation_prompt_renders_its_fields():
    assert backtranslation.translate_prompt(text="Halo", source_language="Indonesian", target_language="Sundanese") == (
        "Translate the following Indonesian text into Sundanese. Return only the translation.\n\nHalo"
    )
