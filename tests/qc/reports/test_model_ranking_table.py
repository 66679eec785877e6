"""The ranking table's bar positions: one scale for every row, the largest score or interval end at the
full width; a row without an interval keeps its score alone."""

from qc.reports.model_ranking import ranking_table


def test_every_row_is_placed_on_the_scale_of_the_largest_value():
    ranking = [
        {"model": "a", "score": 0.5, "low": 0.4, "high": 0.6, "pairs": 10, "wins": 7, "rank": 1},
        {"model": "b", "score": 0.3, "low": None, "high": None, "pairs": 10, "wins": 3, "rank": 2},
    ]

    rows = ranking_table(ranking, width=120)

    assert [row["bar"] for row in rows] == [
        {"score": 100.0, "low": 80.0, "high": 120.0},
        {"score": 60.0, "low": None, "high": None},
    ]
    assert [{k: v for k, v in row.items() if k != "bar"} for row in rows] == ranking


def test_no_rows_or_zero_scores_give_bars_at_zero():
    assert ranking_table([]) == []
    zero = [{"model": "a", "score": 0.0, "low": 0.0, "high": 0.0, "pairs": 1, "wins": 0, "rank": 1}]
    assert ranking_table(zero)[0]["bar"] == {"score": 0.0, "low": 0.0, "high": 0.0}
