import json
from collections import defaultdict

import pytest

from evaluation.task_types.csqa.generation import prompts
from evaluation.task_types.csqa.generation.batching import Batch, ConceptRef, plan_batches
from evaluation.task_types.csqa.generation.pipeline import process_reply, process_run, question_key
from tests.evaluation.shared_data import idcsqa

PLACE = Batch("place", (ConceptRef("place", "pasar", 1), ConceptRef("place", "air mancur", 2)))
CHOICES = {"A": "Ikan", "B": "Sayur", "C": "Buah", "D": "Daging", "E": "Beras"}


def item(concept, question, choices=None, answer="B"):
    return {"question_concepts": concept, "question": question, "choices": choices or CHOICES, "answer_creator": answer}


# --- prompt and batches ---------------------------------------------------------------------------


def test_the_default_prompt_is_the_papers_text_with_the_batch_filled_in():
    assert prompts.render_prompt(PLACE, language="Indonesian") == (
        "Given a list of Indonesian concepts [pasar, air mancur], create one Indonesian commonsense QA data "
        'with topic "place" for each concept, that consists of three components: "question", "choices", '
        'and "answer_creator". The "question" must contains the concept explicitly. The "choices" consist '
        'of 5 different choices marked A to E where one should be the "answer_creator". All data should '
        "be in Indonesian, return only your answer in JSON data format, and add the concept of the data "
        'as "question_concepts".\nJSON Data:'
    )
    assert prompts.messages(PLACE, language="Indonesian")[0]["role"] == "user"


def test_a_project_template_sees_only_the_batch_fields():
    text = prompts.render_prompt(PLACE, language="Sundanese", template="{{ concepts }} / {{ settings.SECRET_KEY }}")

    assert text == "pasar, air mancur / "


def test_concepts_go_in_batches_of_five_from_one_category_and_again_per_round():
    concepts = [ConceptRef("place", f"p{i}") for i in range(7)] + [ConceptRef("culinary", f"c{i}") for i in range(3)]
    concepts.append(ConceptRef("place", "P0"))  # the same concept again (case): planned once

    batches = plan_batches(concepts, rounds=2)

    assert [(b.round, b.category, [c.name for c in b.concepts]) for b in batches] == [
        (0, "place", ["p0", "p1", "p2", "p3", "p4"]),
        (0, "place", ["p5", "p6"]),
        (0, "culinary", ["c0", "c1", "c2"]),
        (1, "place", ["p0", "p1", "p2", "p3", "p4"]),
        (1, "place", ["p5", "p6"]),
        (1, "culinary", ["c0", "c1", "c2"]),
    ]
    assert batches[0].key == "gen:r0:place:p0,p1,p2,p3,p4"
    assert PLACE.key == "gen:r0:place:1,2"
    with pytest.raises(ValueError):
        plan_batches(concepts, size=6)


# --- reading replies ------------------------------------------------------------------------------


def test_json_in_a_code_fence_with_prose_around_it_is_read():
    reply = (
        "Berikut datanya:\n```json\n"
        + json.dumps([item("pasar", "Apa yang dijual di pasar?")])
        + "\n```\nSemoga membantu."
    )

    outcome = process_reply(reply, PLACE)

    assert [(a.concept.id, a.payload) for a in outcome.accepted] == [
        (
            1,
            {
                "question": "Apa yang dijual di pasar?",
                "choices": ["Ikan", "Sayur", "Buah", "Daging", "Beras"],
                "answer": "B",
            },
        )
    ]
    assert [c.name for c in outcome.missing] == ["air mancur"]
    assert outcome.problems == []


def test_json_in_prose_without_a_fence_and_wrapped_in_an_object_is_read():
    reply = 'Sure! {"data": [' + json.dumps(item("pasar", "Apa yang dijual di pasar?")) + "]} Done."

    assert len(process_reply(reply, PLACE).accepted) == 1


def test_an_object_keyed_by_concept_with_other_choice_and_answer_shapes_is_read():
    reply = json.dumps(
        {
            "pasar": {
                "question": "Apa yang dijual di pasar?",
                "choices": ["A. Ikan", "B) Sayur", "C: Buah", "Daging", "Beras"],
                "answer": "B. Sayur",
            },
            "air mancur": {
                "question_concept": ["air mancur"],
                "question": "Di mana air mancur biasanya ada?",
                "options": [
                    {"label": "A", "text": "Taman"},
                    {"label": "B", "text": "Dapur"},
                    {"label": "C", "text": "Kamar"},
                    {"label": "D", "text": "Laut"},
                    {"label": "E", "text": "Gua"},
                ],
                "answer_creator": "taman",
            },
        }
    )

    outcome = process_reply(reply, PLACE)

    assert [(a.concept.name, a.payload["choices"], a.payload["answer"]) for a in outcome.accepted] == [
        ("pasar", ["Ikan", "Sayur", "Buah", "Daging", "Beras"], "B"),
        ("air mancur", ["Taman", "Dapur", "Kamar", "Laut", "Gua"], "A"),
    ]


def test_a_truncated_reply_keeps_the_complete_items_before_the_cut():
    complete = json.dumps(item("pasar", "Apa yang dijual di pasar?"))
    reply = "```json\n[" + complete + ',\n {"question_concepts": "air mancur", "question": "Di mana air man'

    outcome = process_reply(reply, PLACE)

    assert [a.concept.name for a in outcome.accepted] == ["pasar"]
    assert outcome.truncated is True
    assert outcome.problems == ["The reply was cut off; the complete objects before the cut were kept."]
    assert [c.name for c in outcome.missing] == ["air mancur"]


def test_trailing_commas_are_tolerated():
    reply = (
        '[{"question_concepts": "pasar", "question": "Apa yang dijual di pasar?", '
        '"choices": {"A": "Ikan", "B": "Sayur", "C": "Buah", "D": "Daging", "E": "Beras",}, "answer_creator": "A",},]'
    )

    assert [a.payload["answer"] for a in process_reply(reply, PLACE).accepted] == ["A"]


def test_a_reply_without_json_accepts_nothing_and_says_why():
    outcome = process_reply("Maaf, saya tidak bisa membantu.", PLACE)

    assert (outcome.accepted, outcome.filtered) == ([], [])
    assert outcome.problems == ["No JSON was found in the reply."]
    assert [c.name for c in outcome.missing] == ["pasar", "air mancur"]


# --- validation and filters -----------------------------------------------------------------------


def test_each_filter_records_its_reason():
    records = [
        {"question": 5, "question_concepts": "pasar"},
        item("sawah", "Apa yang ditanam di sawah?"),
        item("pasar", "Apa yang dijual di pasar?", choices={**CHOICES, "C": "ikan"}),
        item("pasar", "Apa yang dijual di pasar?", answer="F"),
        item("air mancur", "Di mana kolam biasanya ada?"),
        item("pasar", "Apa yang dijual di pasar?"),
        item("pasar", "Apa yang paling ramai di pasar?"),
        item("air mancur", "Di mana air mancur biasanya ada?"),
        item("air mancur", "Di mana AIR MANCUR biasanya ada ??"),
    ]
    outcome = process_reply(json.dumps(records), PLACE, project_keys={question_key("Di mana air mancur biasanya ada")})

    assert [(f.reason, f.concept, f.detail) for f in outcome.filtered] == [
        ("malformed", None, "The object has no question text."),
        ("unknown_concept", "sawah", "“sawah” is not one of the batch's concepts."),
        ("invalid", "pasar", "Option C repeats option A."),
        ("invalid", "pasar", "Mark one option as the correct answer."),
        ("concept_missing", "air mancur", "The question does not contain “air mancur”."),
        ("extra_for_concept", "pasar", "The reply already gave an item for this concept."),
        ("duplicate_in_project", "air mancur", "The project already has this question."),
        ("duplicate_in_project", "air mancur", "The project already has this question."),
    ]
    assert [a.payload["question"] for a in outcome.accepted] == ["Apa yang dijual di pasar?"]
    assert outcome.missing == []


def test_duplicates_across_replies_of_a_run_are_filtered():
    reply = json.dumps([item("pasar", "Apa yang dijual di pasar?")])
    later = json.dumps([item("pasar", "apa yang DIJUAL di pasar")])

    run = process_run([(PLACE, reply), (PLACE, later)])

    assert len(run.accepted) == 1
    assert [(f.reason, f.record["question"]) for f in run.filtered] == [
        ("duplicate_in_run", "apa yang DIJUAL di pasar")
    ]


def test_an_inflected_concept_counts_as_present():
    batch = Batch("activity", (ConceptRef("activity", "kunjung"),))

    outcome = process_reply(json.dumps([item("kunjung", "Kapan orang biasanya berkunjung ke rumah nenek?")]), batch)

    assert len(outcome.accepted) == 1


# --- the released LLM_GEN drafts served as model output ---------------------------------------------


def serve_released_drafts():
    """v3_llm_gen/ind (1,063 GPT-4 Turbo questions) as replies: per round k, the k-th question of each
    concept, five concepts of one category per reply, as a fenced JSON array with the file's shapes."""
    rows = idcsqa("v3_llm_gen")
    by_concept = defaultdict(list)
    for row in rows:
        by_concept[(row["category"], row["question_concept"])].append(row)
    results = []
    for k in range(max(len(v) for v in by_concept.values())):
        refs = [ConceptRef(c, n) for (c, n), items in by_concept.items() if len(items) > k]
        for batch in plan_batches(refs, first_round=k):
            records = []
            for ref in batch.concepts:
                row = by_concept[(ref.category, ref.name)][k]
                records.append(
                    {
                        "question_concepts": row["question_concept"],
                        **{f: row[f] for f in ("question", "choices", "answer_creator", "id")},
                    }
                )
            results.append((batch, "```json\n" + json.dumps(records, ensure_ascii=False, indent=2) + "\n```"))
    return rows, results


def test_released_llm_gen_drafts_go_through_parsing_validation_and_filters_with_exact_counts():
    rows, results = serve_released_drafts()
    human = idcsqa("v2_human_gen")

    run = process_run(results, project_keys={question_key(r["question"]) for r in human})

    assert (len(rows), len(results), sum(len(b.concepts) for b, _ in results)) == (1063, 218, 1063)
    assert len(run.accepted) == ACCEPTED
    assert run.reason_counts() == REASONS
    assert run.missing == []
    assert run.replies_with_problems == 0


# The release was already filtered by the paper for missing concepts (none left) and for duplicate
# entries (question + options + answer: none left); 78 questions still repeat another's exact text with
# other options, 83 after normalising case and punctuation, which our question-level filter removes.
ACCEPTED = 980
REASONS = {
    "malformed": 0,
    "unknown_concept": 0,
    "invalid": 0,
    "concept_missing": 0,
    "extra_for_concept": 0,
    "duplicate_in_run": 83,
    "duplicate_in_project": 0,
}
