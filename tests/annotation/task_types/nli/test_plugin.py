"""The nli plugin's pure hooks: settings, payload, unit checks, judging view and judgment, gold decision."""

import pytest

from annotation.errors import InvalidInput
from annotation.task_types import get_task_type
from annotation.task_types.base import GoldCase, JudgmentRow
from annotation.task_types.nli import premises
from tests.annotation.task_types.nli.world import PREMISES, SIX

NLI = get_task_type("nli")


def _settings(**given):
    return NLI.settings_clean(given)


def test_settings_defaults_follow_the_annotator_type():
    assert _settings() == {
        "annotator_type": "lay",
        "validation_percent": 30,
        "premises_per_document": 5,
        "paragraph_word_limit": 200,
        "qc_review": True,
    }
    assert _settings(annotator_type="expert")["validation_percent"] == 100
    assert _settings(annotator_type="expert", validation_percent=50)["validation_percent"] == 50


def test_settings_refuse_bad_values_by_name():
    with pytest.raises(InvalidInput) as exc:
        NLI.settings_clean({"annotator_type": "guru", "qc_review": "yes", "validation_percent": 101, "x": 1})
    assert exc.value.field_errors == {
        "annotator_type": ["Choose one of: lay, expert."],
        "qc_review": ["Give true or false."],
        "validation_percent": ["Use a whole number from 0 to 100."],
        "x": ["Unknown setting for NLI (premise + 6 hypotheses, validation rounds)."],
    }


def test_review_switch():
    assert NLI.review_required(_settings()) is True
    assert NLI.review_required(_settings(qc_review=False)) is False


def test_payload_normalizes_label_spellings_and_tags():
    payload = NLI.normalize_payload({"hypothesis": "  Gunungsitoli di Nias. ", "label": "E", "tags": "num, lsub"})
    assert payload == {"hypothesis": "Gunungsitoli di Nias.", "label": "entailment", "tags": ["LSUB", "NUM"]}
    assert NLI.normalize_payload({}) == {"hypothesis": "", "label": "", "tags": []}


def test_payload_refuses_unknown_label_and_tag():
    with pytest.raises(InvalidInput) as exc:
        NLI.normalize_payload({"hypothesis": "x", "label": "maybe", "tags": ["SEMLEX", "FOO"]})
    assert exc.value.field_errors == {
        "label": ["Choose one of entailment, neutral, contradiction."],
        "tags": [
            "Unknown tag “FOO”; use MORPH, STRUCT, LSUB, NEG, COORD, QUANT, NUM, COMP, LEXSEM, IDIOM, "
            "COREF, SPAT, TEMP, CS, WORLD."
        ],
    }


def test_diff_and_summary():
    old = {"hypothesis": "a", "label": "neutral", "tags": []}
    new = {"hypothesis": "b", "label": "neutral", "tags": ["NEG"]}
    assert [(c.field, c.old, c.new) for c in NLI.diff(old, new)] == [("Hypothesis", "a", "b"), ("Tags", "", "NEG")]
    assert NLI.summary(new) == "b"


def _unit_check(payloads, *, expert=False):
    unit = premises.unit_clean(PREMISES[0])
    return NLI.check_unit(
        payloads, concept="wiki-1#1", unit_data=unit, settings=_settings(annotator_type="expert" if expert else "lay")
    )


def test_six_good_hypotheses_pass_and_expert_needs_tags():
    assert _unit_check(SIX).ok
    assert _unit_check(SIX, expert=True).ok
    untagged = [{**p, "tags": []} for p in SIX]
    check = _unit_check(untagged, expert=True)
    assert check.errors == {
        f"tags_{i}": [f"Hypothesis {i}: tag at least one inference phenomenon."] for i in range(1, 7)
    }


def test_unit_errors_are_keyed_by_form_field():
    payloads = [dict(p) for p in SIX]
    payloads[1] = {**payloads[1], "hypothesis": payloads[0]["hypothesis"]}
    payloads[5] = {**payloads[5], "label": "entailment"}
    payloads[2] = {**payloads[2], "hypothesis": PREMISES[0]["text"]}
    check = _unit_check(payloads)
    assert check.errors == {
        "hypothesis_2": ["Hypothesis 2 is the same as hypothesis 1."],
        "hypothesis_3": ["Hypothesis 3 is identical to a sentence of the premise."],
        "hypotheses": ["Write 2 hypotheses per label; there are 3 entailment, 1 neutral, 2 contradiction."],
    }


def test_unit_warnings_need_a_justification():
    payloads = [dict(p) for p in SIX]
    payloads[4] = {**payloads[4], "hypothesis": "Cuaca hari ini cerah sekali."}
    check = _unit_check(payloads)
    assert check.errors == {}
    assert check.warnings == {"hypothesis_5": ["Hypothesis 5 shares no keyword with the premise."]}


def test_unit_clean_computes_sentence_size_and_refuses_bad_premises():
    assert premises.unit_clean(PREMISES[1]) == {**PREMISES[1], "sentence_size": "double"}
    with pytest.raises(InvalidInput) as exc:
        premises.unit_clean({"text": "", "source": "blog", "document_id": ""})
    assert exc.value.field_errors == {
        "text": ["The premise text is empty."],
        "source": ["The source genre “blog” is none of wiki, news, web."],
        "document_id": ["The document id is empty."],
    }


def test_judging_rule_per_round_and_share():
    rule = NLI.judging_rule(_settings())
    assert (rule.kind, rule.per_round, rule.share) == ("validate", (2, 1, 1), 0.3)
    assert NLI.judging_rule(_settings(annotator_type="expert")).share == 1.0
    assert NLI.judgment_keys == {"e": "entailment", "n": "neutral", "c": "contradiction"}


def test_judge_view_shows_premise_and_hypothesis_only():
    view = NLI.judge_view(SIX[2], unit_data=premises.unit_clean(PREMISES[0]))
    assert view == {"premise": PREMISES[0]["text"], "hypothesis": "Kota Sibolga terletak di Pulau Nias."}


def test_normalize_judgment():
    clean = NLI.normalize_judgment({"label": "c", "correction": " Kota Sibolga berada di Pulau Nias. "})
    assert (clean.value, clean.flags, clean.comment) == (
        {"label": "contradiction"},
        {"error": True, "correction": "Kota Sibolga berada di Pulau Nias."},
        "",
    )
    clean = NLI.normalize_judgment({"value": {"label": "neutral"}, "flags": {"error": "on"}, "comment": "typo"})
    assert (clean.value, clean.flags, clean.comment) == (
        {"label": "neutral"},
        {"error": True, "correction": ""},
        "typo",
    )
    with pytest.raises(InvalidInput) as exc:
        NLI.normalize_judgment({"label": "x", "error": "maybe", "correction": 5})
    assert exc.value.field_errors == {
        "label": ["Choose entailment, neutral, contradiction (keys e, n, c)."],
        "error": ["Must be true or false."],
        "correction": ["Must be text."],
    }


def _case(author, *labels_by_round, judging_round=1):
    rows, n = [], 0
    for round_, labels in enumerate(labels_by_round, start=1):
        for label in labels:
            n += 1
            rows.append(JudgmentRow(judgment_id=n, user_id=100 + n, round=round_, value={"label": label}, flags={}))
    return GoldCase(
        payload={"hypothesis": "h", "label": author, "tags": []},
        judgments=tuple(rows),
        settings=_settings(),
        judging_round=judging_round,
    )


@pytest.mark.parametrize(
    ("case", "outcome", "label", "next_round", "round_"),
    [
        (_case("entailment"), "pending", None, None, 1),
        (_case("entailment", ["entailment"]), "pending", None, None, 1),
        (_case("entailment", ["entailment", "entailment"]), "gold", "entailment", None, 1),
        (_case("entailment", ["entailment", "neutral"]), "pending", None, 2, 1),
        (_case("entailment", ["entailment", "neutral"], ["entailment"]), "gold", "entailment", None, 2),
        (_case("entailment", ["neutral", "neutral"], ["neutral"]), "gold", "neutral", None, 2),
        (_case("entailment", ["neutral", "contradiction"], ["entailment"]), "pending", None, 3, 2),
        (_case("entailment", ["neutral", "contradiction"], ["entailment"], ["neutral"]), "no_gold", None, None, 3),
        (_case("entailment", ["neutral", "contradiction"], ["neutral"], ["neutral"]), "gold", "neutral", None, 3),
    ],
)
def test_gold_decide_follows_the_rounds(case, outcome, label, next_round, round_):
    decided = NLI.gold_decide(case)
    assert (decided.outcome, decided.details["label"], decided.next_round, decided.details["round"]) == (
        outcome,
        label,
        next_round,
        round_,
    )
    assert decided.details["author_label"] == "entailment"


def test_gold_details_keep_labels_by_round():
    decided = NLI.gold_decide(_case("entailment", ["entailment", "neutral"], ["entailment"]))
    assert decided.details == {
        "label": "entailment",
        "author_label": "entailment",
        "round": 2,
        "labels_by_round": {"1": ["entailment", "neutral"], "2": ["entailment"]},
    }
    assert decided.reason == "round 2: 3 of 4 chose entailment"


def test_agreement_value_and_benchmark():
    assert NLI.agreement_value({"label": "n"}) == "neutral"
    assert NLI.agreement_value({}) is None
    assert NLI.agreement_value({"label": "bogus"}) is None
    assert (NLI.benchmark().kind, NLI.benchmark().answers) == ("label", ("entailment", "neutral", "contradiction"))
    assert NLI.benchmark().gold_keys == ("gold",)
    assert NLI.gold_policy == "nli_rounds_v1"
    assert NLI.items_per_unit == 6


def test_tag_spread_counts_per_tag():
    summary = NLI.unit_authoring.author_summary(SIX, _settings(annotator_type="expert"))
    counts = {tag: n for tag, _, n in summary["tags"]}
    assert summary["expert"] is True and summary["hypotheses"] == 6
    assert {t: n for t, n in counts.items() if n} == {
        "STRUCT": 1,
        "LSUB": 1,
        "NUM": 2,
        "COMP": 1,
        "SPAT": 1,
        "WORLD": 1,
    }
    assert len(counts) == 15
