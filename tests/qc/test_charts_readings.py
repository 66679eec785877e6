"""Chart geometry (qc.charts), agreement readings (qc.readings) and the time format: exact values."""

from datetime import date

import pytest

from qc.charts import agreement_chart, bar_chart, stacked_chart, time_chart
from qc.readings import NO_VARIATION, TOO_FEW, agreement_band, agreement_reading
from qc.templatetags.qc_charts import reading, seconds


def test_bars_scale_to_the_largest_value_and_skip_empty_ones():
    chart = bar_chart([("Submitted", 10, "10"), ("Approved", 5, "5"), ("Gold", 0, "0")])

    assert (chart.width, chart.height) == (680, 72)
    assert [[(s.x, s.width, s.css) for s in row.segments] for row in chart.rows] == [
        [(170, 360.0, "chart-s0")],
        [(170, 180.0, "chart-s0")],
        [],
    ]
    assert [(row.y, row.text_y, row.end, row.text) for row in chart.rows] == [
        (4.0, 16.0, 536.0, "10"),
        (28.0, 40.0, 356.0, "5"),
        (52.0, 64.0, 176.0, "0"),
    ]


def test_agreement_bars_use_a_0_to_1_scale_and_the_band_colour():
    chart = agreement_chart(
        [
            ("culinary", 0.9, "0.900 high", "high"),
            ("family", 0.5, "0.500 low", "low"),
            ("negative", -0.2, "-0.200 low", "low"),
            ("undefined", None, "undefined", "undefined"),
        ]
    )

    assert [[(s.width, s.css) for s in row.segments] for row in chart.rows] == [
        [(324.0, "chart-high")],
        [(180.0, "chart-low")],
        [],
        [],
    ]
    assert [row.text for row in chart.rows] == ["0.900 high", "0.500 low", "-0.200 low", "undefined"]


def test_stacked_bars_have_one_part_per_error_type_scaled_to_the_largest_total():
    chart = stacked_chart(["W1", "W2", "W3"], ["typo", "fluency"], [[2, 1], [1, 0], [0, 0]])

    assert [[(s.label, s.x, s.width, s.css, s.value) for s in row.segments] for row in chart.rows] == [
        [("typo", 170, 240.0, "chart-s0", 2), ("fluency", 410.0, 120.0, "chart-s1", 1)],
        [("typo", 170, 120.0, "chart-s0", 1)],
        [],
    ]
    assert [(row.value, row.end) for row in chart.rows] == [(3, 536.0), (1, 296.0), (0, 176.0)]
    assert chart.series == [("typo", "chart-s0"), ("fluency", "chart-s1")]


def test_time_chart_fills_the_gaps_and_draws_the_running_total():
    # Three days of 213.3 units: columns 48 wide (the cap) centred in each, the line through the centres.
    chart = time_chart({date(2026, 1, 1): 2, date(2026, 1, 3): 4})

    assert [(d.day, d.n, d.cumulative, d.x, d.width, d.y, d.height) for d in chart.days] == [
        (date(2026, 1, 1), 2, 2, 82.7, 48, 80.0, 80.0),
        (date(2026, 1, 2), 0, 2, 296.0, 48, 160.0, 0.0),
        (date(2026, 1, 3), 4, 6, 509.3, 48, 0.0, 160.0),
    ]
    assert chart.line == "106.7,106.7 320.0,106.7 533.3,0.0"
    assert (chart.top, chart.total, chart.earlier, chart.first, chart.last) == (4, 6, 0, "2026-01-01", "2026-01-03")
    assert chart.labels == [(0.0, "2026-01-01"), (640.0, "2026-01-03")]


def test_a_long_time_chart_shows_the_last_90_days_after_what_came_before():
    per_day = {date(2026, 1, 1): 5, date(2026, 4, 30): 1}  # 120 days apart

    chart = time_chart(per_day)

    assert len(chart.days) == 90
    assert (chart.days[0].x, chart.days[0].width) == (0.7, 5.7)  # 640 / 90 = 7.1 a day, 80% of it centred
    assert (chart.earlier, chart.first, chart.days[-1].cumulative, chart.total) == (5, "2026-01-31", 6, 6)
    assert time_chart({}).days == []


@pytest.mark.parametrize(
    ("alpha", "band", "text"),
    [
        (1.0, "high", "alpha 1.000: high agreement"),
        (0.93, "high", "alpha 0.930: high agreement"),
        (0.8, "high", "alpha 0.800: high agreement"),
        (0.7999, "tentative", "alpha 0.800: tentative agreement (draw tentative conclusions only)"),
        (0.667, "tentative", "alpha 0.667: tentative agreement (draw tentative conclusions only)"),
        (0.6669, "low", "alpha 0.667: low agreement"),
        (0.0, "low", "alpha 0.000: low agreement"),
        (-0.25, "low", "alpha -0.250: low agreement (below chance)"),
    ],
)
def test_each_band_reads_as_krippendorff_puts_it(alpha, band, text):
    assert agreement_band(alpha) == band
    assert agreement_reading(alpha).text == text
    assert agreement_reading(alpha).short == f"{alpha:.3f} {band}"
    assert reading(alpha) == text


def test_an_undefined_figure_says_why_when_it_is_known():
    assert (
        agreement_reading(None, undefined_because=NO_VARIATION).text
        == "undefined: the judges gave the same answer on every item"
    )
    assert agreement_reading(None, undefined_because=TOO_FEW).text == (
        "undefined: too few judgments (no item has two to compare)"
    )
    assert agreement_reading(None).text == "undefined: no variation in the answers, or too few judgments"
    assert (agreement_reading(None).band, agreement_reading(None).short) == ("undefined", "undefined")
    assert agreement_reading(0.5, name="kappa").text == "kappa 0.500: low agreement"


def test_times_read_in_seconds_minutes_and_hours():
    assert [seconds(v) for v in (None, 0.4, 12.0, 95.0, 4000.0)] == ["—", "0 s", "12 s", "1 min 35 s", "1 h 6 min"]
