"""The human vs LLM report: lexical overlap (Putri et al. 2024, §5.2) and QC yield, on the released data."""

import pytest

from evaluation.task_types.csqa.generation.pipeline import process_run
from evaluation.task_types.csqa.reports.lexical import Row, idcsqa_rows, lexical_report, tokens
from evaluation.task_types.csqa.reports.qc_yield import (
    REJECTED,
    REVISED,
    UNCHANGED,
    UNREVIEWED,
    Draft,
    YieldRow,
    idcsqa_payload,
    pair_revisions,
    qc_yield,
    yield_rows,
)
from tests.evaluation.shared_data import idcsqa
from tests.evaluation.test_generation_pipeline import serve_released_drafts

MODEL = "gpt-4-1106-preview"


def counts(overlaps):
    return {name: (o.unique, o.shared, o.percent) for name, o in overlaps.items()}


# --- lexical overlap ------------------------------------------------------------------------------


def test_tokens_fold_case_and_accents_and_drop_punctuation():
    assert tokens("Énak-énak, KERUPUK rambak?") == ["enak", "enak", "kerupuk", "rambak"]


def test_overlap_counts_unique_unigrams_and_bigrams_shared_with_the_other_source():
    human = [Row("culinary", "kerupuk", "Terbuat dari apakah kerupuk rambak?", ["Kulit hewan", "Nasi"])]
    llm = [
        Row("culinary", "kerupuk", "Kerupuk terbuat dari apa?", ["Tepung", "Nasi"]),
        Row("place", "gunung", "Di mana gunung?", ["Kota"]),  # a concept the human side lacks
    ]

    report = lexical_report({"human": human, "llm_gen": llm}, examples=5)

    # human: terbuat dari apakah kerupuk rambak kulit hewan nasi (8); llm: kerupuk terbuat dari apa tepung nasi (6)
    assert counts(report.unigrams) == {"human": (8, 4, 50.0), "llm_gen": (6, 4, 66.67)}
    # shared bigram: "terbuat dari" only; "rambak kulit" never forms (question and option are apart)
    assert counts(report.bigrams) == {"human": (5, 1, 20.0), "llm_gen": (3, 1, 33.33)}
    assert report.rows == {"human": 1, "llm_gen": 1}
    assert report.examples == [
        {
            "category": "culinary",
            "concept": "kerupuk",
            "human": {"question": "Terbuat dari apakah kerupuk rambak?", "choices": ["Kulit hewan", "Nasi"]},
            "llm_gen": {"question": "Kerupuk terbuat dari apa?", "choices": ["Tepung", "Nasi"]},
        }
    ]
    with pytest.raises(ValueError):
        lexical_report({"human": human})


def test_released_human_and_llm_gen_data_give_exact_overlaps():
    """Not the paper's 39.75% / 65.48%: evaluation/task_types/csqa/reports/lexical.py says why they can't be matched."""
    human = idcsqa_rows(idcsqa("v2_human_gen"))
    llm = idcsqa_rows(idcsqa("v3_llm_gen"))

    everything = lexical_report({"human": human, "llm_gen": llm}, same_concepts=False)
    same = lexical_report({"human": human, "llm_gen": llm})

    assert counts(everything.unigrams) == {"human": (5792, 2439, 42.11), "llm_gen": (3588, 2439, 67.98)}
    assert counts(everything.bigrams) == {"human": (12342, 2187, 17.72), "llm_gen": (9958, 2187, 21.96)}
    assert (same.concepts, same.rows) == (583, {"human": 1163, "llm_gen": 1063})
    assert counts(same.unigrams) == {"human": (5140, 2306, 44.86), "llm_gen": (3588, 2306, 64.27)}
    assert counts(same.bigrams) == {"human": (10097, 1938, 19.19), "llm_gen": (9958, 1938, 19.46)}


# --- QC yield ------------------------------------------------------------------------------------


def test_pairing_classifies_unchanged_revised_and_missing_drafts():
    base = {"question": "Q?", "choices": ["a", "b", "c", "d", "e"], "answer": "A"}
    drafts = [Draft("1", base, "k"), Draft("2", base, "k"), Draft("3", base, "k")]
    corrected = [Draft("1", base, "k"), Draft("2", {**base, "answer": "B", "question": "Q2?"}, "k2")]

    complete = pair_revisions(drafts, corrected, corrected_is_complete=True)
    sampled = pair_revisions(drafts, corrected, corrected_is_complete=False)

    assert [(p.draft.id, p.outcome, p.changed) for p in complete] == [
        ("1", UNCHANGED, ()),
        ("2", REVISED, ("question", "answer", "concept")),
        ("3", REJECTED, ()),
    ]
    assert sampled[2].outcome == UNREVIEWED


def test_yield_is_counted_per_source_and_model_with_error_types():
    rows = [
        YieldRow("llm_gen", "m1", UNCHANGED),
        YieldRow("llm_gen", "m1", REVISED, ("typo",)),
        YieldRow("llm_gen", "m1", REJECTED, ("no_valid_answer", "typo")),
        YieldRow("human", "", UNCHANGED),
    ]

    report = qc_yield(rows)

    assert list(report) == [("llm_gen", "m1"), ("human", "")]
    m1 = report[("llm_gen", "m1")]
    assert (m1.total, dict(m1.outcomes), dict(m1.error_types)) == (
        3,
        {UNCHANGED: 1, REVISED: 1, REJECTED: 1},
        {"typo": 2, "no_valid_answer": 1},
    )
    assert m1.share(UNCHANGED) == 33.33


def released_llm_gen_corrections():
    return [
        Draft(r["id"], idcsqa_payload(r), r["question_concept"])
        for r in idcsqa("v3_llm_gen", "filtered_test_clean.json")
    ]


def test_llm_gen_drafts_through_the_pipeline_with_the_human_corrections_give_exact_yield():
    """The 980 drafts the filters accept, paired with the 300 human-corrected ones (a random sample)."""
    _, results = serve_released_drafts()
    run = process_run(results)
    drafts = [Draft(a.record["id"], a.payload, a.concept.name, "llm_gen", MODEL) for a in run.accepted]

    report = qc_yield(yield_rows(pair_revisions(drafts, released_llm_gen_corrections(), corrected_is_complete=False)))

    counts_ = report[("llm_gen", MODEL)]
    assert counts_.total == 980
    # 20 of the 300 corrected questions repeat an earlier question's text: our duplicate filter took them out.
    assert dict(counts_.outcomes) == {UNREVIEWED: 700, UNCHANGED: 170, REVISED: 110}
    assert dict(counts_.error_types) == {"changed_question": 94, "changed_options": 20, "changed_answer": 9}
    assert (counts_.share(UNCHANGED), counts_.share(REVISED)) == (60.71, 39.29)


def test_all_300_corrected_llm_gen_drafts_give_exact_yield():
    """Without our duplicate filter. The paper's Table 4/6 (68.67% questions, 93.00% options error-free)
    counts errors found; the released clean file also holds fixes beyond them: 199 questions (66.33%)
    and 277 option sets (92.33%) are unchanged."""
    drafts = [Draft(r["id"], idcsqa_payload(r), r["question_concept"], "llm_gen", MODEL) for r in idcsqa("v3_llm_gen")]

    report = qc_yield(yield_rows(pair_revisions(drafts, released_llm_gen_corrections(), corrected_is_complete=False)))

    counts_ = report[("llm_gen", MODEL)]
    assert dict(counts_.outcomes) == {UNREVIEWED: 763, UNCHANGED: 181, REVISED: 119}
    assert dict(counts_.error_types) == {"changed_question": 101, "changed_options": 23, "changed_answer": 9}


def test_llm_adapt_drafts_with_their_full_correction_give_exact_yield():
    drafts = [
        Draft(r["id"], idcsqa_payload(r), r["question_concept"], "llm_adapt", MODEL) for r in idcsqa("v1_llm_adapt")
    ]
    corrected = [
        Draft(r["id"], idcsqa_payload(r), r["question_concept"])
        for r in idcsqa("v1_llm_adapt", "filtered_test_clean.json")
    ]

    report = qc_yield(yield_rows(pair_revisions(drafts, corrected, corrected_is_complete=True)))

    counts_ = report[("llm_adapt", MODEL)]
    assert dict(counts_.outcomes) == {UNCHANGED: 53, REVISED: 105}
    assert dict(counts_.error_types) == {
        "changed_question": 57,
        "changed_options": 73,
        "changed_concept": 11,
        "changed_answer": 13,
    }
