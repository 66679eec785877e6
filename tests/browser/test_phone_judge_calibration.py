"""On a phone held upright (390 x 844), in English, Indonesian and Arabic: an admin clicks from the project
page to the preference runs, then to a judge run's calibration page, which shows each judge's agreement
with the people, its position bias and the reliability diagram. The page does not scroll sideways (its
wide table scrolls inside its panel), clips no heading, link or chart, logs no console error, answers no
request with >= 400, and writes the diagram's numbers with a dot whatever the language."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_phone_setup_pages import LANGUAGES, _fits, _open_project, _phone
from tests.evaluation.task_types.preference.judge_world import calibration_project, judge_run
from tests.svg_numbers import not_numbers, svg_numeric_attributes

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# (judge, accuracy, position bias with its pairs, calibration error) of the whole run, and the share of
# right verdicts in the diagram's one bar, as tests/evaluation/task_types/preference/test_judge_calibration.py derives
# them: "biased" names whatever is shown first, certain of it; "fair" names the people's choice but on one
# pair, 0.75 sure each time. The tables' numbers are the language's (a decimal comma in id and ar).
JUDGES = [
    ("biased · en", "0.5", "0.0", "0.0625", "1.0 (4 {pairs})", "0.5", "0.5"),
    ("fair · en", "0.75", "0.5", "0.5", "0.0 (4 {pairs})", "0.0", "0.75"),
]
WORDS = {
    "en": ("All categories", "pairs", "."),
    "id": ("Semua kategori", "pasangan", ","),
    "ar": ("كل الفئات", "أزواج", ","),
}


def _row(page, judge: int) -> list[str]:
    cells = page.locator(f"#judge-{judge} tr.calibration-all").locator("th, td")
    return [" ".join(text.split()) for text in cells.all_inner_texts()]


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_admin_reaches_the_calibration_page_on_a_phone_and_it_fits(
    new_page, live_server, transactional_db, language
):
    project, admin = calibration_project()
    run = judge_run(project)
    errors: list[str] = []
    page = _phone(new_page, live_server, admin, language, errors)

    _open_project(page, "cal")
    with page.expect_navigation():
        page.click("#stage-models-preference_runs")
    with page.expect_navigation():
        page.click(f"a[href='/p/cal/preference-runs/{run.pk}/calibration/']")

    assert page.url.endswith(f"/p/cal/preference-runs/{run.pk}/calibration/")
    expect(page.locator("section.judge-calibration")).to_have_count(2)
    everything, pairs, comma = WORDS[language]
    for n, (judge, accuracy, kappa, alpha, bias, ece, bar) in enumerate(JUDGES, start=1):
        expect(page.locator(f"#judge-{n} h2")).to_have_text(judge)
        row = _row(page, n)
        local = [value.replace(".", comma) for value in (accuracy, kappa, alpha, bias.format(pairs=pairs), ece)]
        assert [row[0], *row[3:7], row[8]] == [everything, *local]
        chart = page.locator(f"#reliability-{n}")
        chart.scroll_into_view_if_needed()
        expect(chart).to_be_visible()
        assert chart.locator("rect").evaluate_all("(bars) => bars.map((b) => b.getAttribute('data-value'))") == [bar]
        _fits(page, f"#judge-{n} h2, #reliability-{n}, #judge-{n} details > summary")
    _fits(page, "h1, main p.muted a")
    html = page.content()
    assert len(svg_numeric_attributes(html)) > 20
    assert not_numbers(html) == []
    assert errors == []
