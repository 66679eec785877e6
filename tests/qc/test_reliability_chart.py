"""The reliability diagram's geometry (qc.charts.reliability_chart): exact positions on a 240-unit plot."""

from __future__ import annotations

from qc.charts import reliability_chart


def test_a_bin_is_a_bar_as_high_as_its_share_correct_with_a_dot_at_its_mean_probability():
    chart = reliability_chart([(0.0, 0.1, 0, None, None), (0.7, 0.8, 4, 0.75, 0.5), (0.9, 1.0, 2, 1.0, 1.0)])

    assert [(b.x, b.width, b.y, b.height, b.dot_x, b.dot_y) for b in chart.bars] == [
        (197.0, 22.0, 128.0, 120.0, 208.0, 128.0),
        (245.0, 22.0, 8.0, 240.0, 268.0, 8.0),
    ]
    assert chart.diagonal == (28.0, 248.0, 268.0, 8.0)
    assert (chart.width, chart.height) == (276, 276)
