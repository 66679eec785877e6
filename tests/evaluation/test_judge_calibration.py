"""The judge calibration figures (evaluation.judge_calibration) on small hand-computed tables."""

from __future__ import annotations

from evaluation.judge_calibration import ALL, JudgeDecision, agreement, expected_calibration_error, judge_calibration


def _decision(unit: str, order: str, label: str | None, human: str, **extra) -> JudgeDecision:
    return JudgeDecision(judge="j", category="c", unit=unit, order=order, label=label, human=human, **extra)


def test_agreement_on_a_hand_computed_table():
    # human A A A A A B B B B B, judge A A A A B B B B A A: 7 of 10 agree.
    # kappa: p_o 0.7, p_e 0.5*0.6 + 0.5*0.4 = 0.5 -> 0.4.
    # alpha (nominal, 2 coders): o_AA 8, o_BB 6, o_AB = o_BA 3; n_A 11, n_B 9, n 20;
    # D_o = 6/20, D_e = 2*11*9 / (20*19) -> 1 - 114/198 = 14/33.
    pairs = list(zip("AAAAABBBBB", "AAAABBBBAA", strict=True))

    assert agreement(pairs) == (0.7, 0.4, round(14 / 33, 4))


def test_agreement_is_undefined_beyond_accuracy_when_one_label_is_all_there_is():
    assert agreement([("A", "A")] * 3) == (1.0, None, None)
    assert agreement([]) == (None, None, None)


def test_a_judge_that_always_picks_the_first_position_has_a_position_bias_of_one():
    # Each unit shown as (x, y) then (y, x); the judge names whatever is shown first.
    decisions = []
    for n in range(3):
        decisions += [
            _decision(f"u{n}", "ab", "x", "x", picked_first=True),
            _decision(f"u{n}", "ba", "y", "x", picked_first=True),
        ]

    overall = judge_calibration(decisions)[0]

    assert (overall.category, overall.position_bias, overall.swapped_units) == (ALL, 1.0, 3)
    assert (overall.first_position, overall.accuracy, overall.compared, overall.decisions) == (1.0, 0.5, 6, 6)


def test_a_judge_that_reads_the_content_never_flips_and_unreadable_verdicts_are_left_out():
    decisions = [
        _decision("u1", "ab", "x", "x", picked_first=True),
        _decision("u1", "ba", "x", "x", picked_first=False),
        _decision("u2", "ab", "y", "x", picked_first=False),
        _decision("u2", "ba", None, "x"),  # unreadable: u2 is not seen in both orders
    ]

    overall = judge_calibration(decisions)[0]

    assert (overall.position_bias, overall.swapped_units, overall.first_position) == (0.0, 1, round(1 / 3, 4))
    assert (overall.decisions, overall.compared, overall.accuracy) == (4, 3, round(2 / 3, 4))
    assert (overall.ece, overall.calibrated) == (None, 0)


def test_a_perfectly_calibrated_set_has_an_expected_calibration_error_of_zero():
    # 0.75 sure and right 3 times in 4; 0.5 sure and right once in 2.
    scored = [(0.75, True)] * 3 + [(0.75, False), (0.5, True), (0.5, False)]

    ece, bins = expected_calibration_error(scored)

    assert ece == 0.0
    assert [(b.low, b.high, b.count, b.confidence, b.accuracy) for b in bins if b.count] == [
        (0.5, 0.6, 2, 0.5, 0.5),
        (0.7, 0.8, 4, 0.75, 0.75),
    ]
    assert len(bins) == 10


def test_a_miscalibrated_set_has_its_exact_expected_calibration_error():
    # 0.75 sure, right 2 in 4: |0.5 - 0.75| x 4/6; certain (1.0, the last bin), right 1 in 2: |0.5 - 1| x 2/6.
    scored = [(0.75, True)] * 2 + [(0.75, False)] * 2 + [(1.0, True), (1.0, False)]

    ece, bins = expected_calibration_error(scored)

    assert ece == round((4 * 0.25 + 2 * 0.5) / 6, 4) == 0.3333
    assert (bins[9].count, bins[9].confidence, bins[9].accuracy) == (2, 1.0, 0.5)


def test_figures_come_per_judge_and_per_category_with_the_overall_row_first():
    decisions = [
        JudgeDecision("b", "safety", "u1", "ab", "x", "x", True, 0.9),
        JudgeDecision("b", "math", "u2", "ab", "y", "x", True, 0.9),
        JudgeDecision("a", "math", "u3", "ab", "x", "x", True, None),
    ]

    figures = judge_calibration(decisions)

    assert [(f.judge, f.category, f.decisions, f.accuracy) for f in figures] == [
        ("a", ALL, 1, 1.0),
        ("a", "math", 1, 1.0),
        ("b", ALL, 2, 0.5),
        ("b", "math", 1, 0.0),
        ("b", "safety", 1, 1.0),
    ]
    # b: both at 0.9, right once in two -> |0.5 - 0.9|; per category |0 - 0.9| and |1 - 0.9|.
    assert [f.ece for f in figures] == [None, None, 0.4, 0.9, 0.1]
