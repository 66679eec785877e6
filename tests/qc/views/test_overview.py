"""The dashboard's and report page's charts, readings, time spent and throughput (qc.activity,
qc.overview): exact figures from small worlds, and constant query counts."""

import re
from datetime import UTC, date, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from annotation.models import Assignment, Item, Judgment
from annotation.services.assignments import assignment_plan_authoring
from qc.activity import category_agreement, per_day, work_times
from qc.models import ErrorType, Review
from qc.readings import NO_VARIATION, TOO_FEW
from tests.annotation.task_types.csqa.world import answered_world
from tests.factories import make_csqa_project
from tests.qc.helpers import add_judgment, make_item, make_project

pytestmark = pytest.mark.django_db


def _html(client, user, name, slug):
    client.force_login(user)
    response = client.get(reverse(name, args=[slug]))
    assert response.status_code == 200
    return response.content.decode()


def test_agreement_per_category_is_krippendorffs_alpha_of_the_judges():
    # crossanswer_world: culinary items 0 (A A B) and 2 (D D C), family items 1 (B B C) and 3 (D D D).
    world = answered_world()

    figures = category_agreement(project=world.project)

    alpha, reason, judgments = figures["overall"]
    assert (alpha, reason, judgments) == (pytest.approx(6 / 17), "", 12)
    assert figures["categories"] == [
        ("culinary", pytest.approx(3 / 13), "", 6),
        ("family", pytest.approx(6 / 11), "", 6),
    ]


def test_undefined_agreement_says_whether_all_agree_or_too_few_judged():
    project, people = make_project(slug="same", annotators=3, m=2)
    agreeing = make_item(project, people[0], category="culinary")
    add_judgment(agreeing, people[1], "A")
    add_judgment(agreeing, people[2], "A")
    alone = make_item(project, people[0], category="family", concept="k2")
    add_judgment(alone, people[1], "B")

    figures = category_agreement(project=project)

    assert figures["overall"] == (None, NO_VARIATION, 3)
    assert figures["categories"] == [("culinary", None, NO_VARIATION, 2), ("family", None, TOO_FEW, 1)]


def test_a_project_past_the_inline_limit_leaves_agreement_to_the_report(client, settings):
    world = answered_world()  # 12 judgments
    settings.GOTONG_REPORT_INLINE_JUDGMENTS = 12
    assert category_agreement(project=world.project)["overall"][2] == 12
    settings.GOTONG_REPORT_INLINE_JUDGMENTS = 11

    assert category_agreement(project=world.project) is None
    html = _html(client, world.admin, "dashboard", "xa")
    assert "Agreement is not computed here for this project" in html
    assert 'id="chart-agreement"' not in html


def test_dashboard_draws_the_charts_with_their_numbers_and_readings(client):
    world = answered_world()
    first, second = ErrorType.objects.filter(project=world.project).order_by("position", "code")[:2]
    for item, codes in ((world.items[0], [first, second]), (world.items[1], [first])):  # by W1, by W2
        review = Review.objects.create(
            item=item, item_version=item.current_version, reviewer=world.reviewer, decision=Review.Decision.REVISE
        )
        review.error_types.add(*codes)

    html = _html(client, world.admin, "dashboard", "xa")

    for chart_id in ("chart-progress", "chart-status", "chart-agreement", "chart-errors", "chart-judgments"):
        assert re.search(
            rf'<svg class="chart-svg[^"]*" id="{chart_id}" role="img" aria-labelledby="{chart_id}-title', html
        )
    assert '<title id="chart-agreement-title">Agreement per category (Krippendorff\'s alpha)</title>' in html
    assert (
        '<p class="reading reading-low" id="agreement-reading">All categories, judges only (the author is not '
        "counted): alpha 0.353: low agreement (12 judgments).</p>"
    ) in html
    # The bars: alpha 3/13 and 6/11 of 360 units, the short reading after each; the numbers under the chart.
    assert 'class="chart-low" x="170" y="4.0" width="83.1" height="16" data-value="0.231"' in html
    assert '<text class="chart-value" x="259.1" y="16.0">0.231 low</text>' in html
    assert 'class="chart-low" x="170" y="28.0" width="196.4" height="16" data-value="0.545"' in html
    assert (
        '<tr><th scope="row" dir="auto">culinary</th><td>6</td><td>0.231</td><td>alpha 0.231: low agreement</td></tr>'
    ) in html
    # Items by status: gold 3 (the longest bar), excluded 1 (a third of it).
    assert 'class="chart-s0" x="170" y="148.0" width="360.0" height="16" data-value="3"' in html
    assert 'class="chart-s0" x="170" y="172.0" width="120.0" height="16" data-value="1"' in html
    assert (
        '<tr><th scope="row">Gold</th><td id="status-gold">3</td></tr>'
        '<tr><th scope="row">Excluded</th><td id="status-excluded">1</td></tr>'
    ) in html
    # Error types per annotator: W1 two parts of 180 (the largest total, 2), W2 one.
    errors = html[html.index('id="chart-errors"') : html.index("</svg>", html.index('id="chart-errors"'))]
    assert re.findall(r'<rect class="(chart-s\d)" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"', errors) == [
        ("chart-s0", "170.0", "4.0", "180.0"),
        ("chart-s1", "350.0", "4.0", "180.0"),
        ("chart-s0", "170.0", "28.0", "180.0"),
    ]
    w1 = world.items[0].author_id
    assert (
        f'<tr id="errors-{w1}"><th scope="row" dir="auto">W1</th>'
        f'<td id="errors-{w1}-{first.code}" class="nonzero">1</td>'
        f'<td id="errors-{w1}-{second.code}" class="nonzero">1</td>'
    ) in html
    assert "<summary>Numbers</summary>" in html
    assert 'style="' not in html


def test_report_page_gets_the_same_charts_and_readings(client):
    world = answered_world()

    html = _html(client, world.admin, "report_page", "xa")

    assert 'id="overview-heading">At a glance</h2>' in html
    assert 'id="chart-agreement" role="img"' in html
    assert "All categories, judges only (the author is not counted): alpha 0.353: low agreement (12 judgments)." in html
    assert 'id="chart-progress" role="img"' in html
    assert "time-panel" not in html  # time spent and throughput are the dashboard's
    # The task type's own figures get their reading too.
    assert '<td class="reading-note" id="report-alpha-reading">alpha 0.353: low agreement</td>' in html
    assert '<td class="reading-note" id="report-alpha-author-reading">alpha 0.462: low agreement</td>' in html


@pytest.mark.postgres  # the median is PostgreSQL's percentile_cont; the SQLite demo shows the mean only
def test_time_spent_per_unit_and_per_annotator_from_assignment_start_to_completion(client):
    csqa = make_csqa_project(slug="times", annotators=3)
    assignment_plan_authoring(project=csqa.project)
    w1, w2, w3 = csqa.annotators
    start = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    durations = {w1: [60, 120, 600], w2: [30]}
    for user, seconds in durations.items():
        mine = list(Assignment.objects.filter(project=csqa.project, user=user).order_by("id")[: len(seconds)])
        for assignment, s in zip(mine, seconds, strict=True):
            Assignment.objects.filter(pk=assignment.pk).update(
                status=Assignment.Status.DONE, started_at=start, completed_at=start + timedelta(seconds=s)
            )
    # Done without a start (e.g. imported): not timed. Active: not finished, not timed.
    undated = Assignment.objects.filter(project=csqa.project, user=w3).order_by("id")
    Assignment.objects.filter(pk=undated[0].pk).update(status=Assignment.Status.DONE, completed_at=start)
    Assignment.objects.filter(pk=undated[1].pk).update(status=Assignment.Status.ACTIVE, started_at=start)

    times = work_times(project=csqa.project)

    assert times["kinds"] == ["author"]
    assert times["overall"] == {"author": {"n": 4, "median": 90.0, "mean": 202.5}}
    assert times["by_user"] == {
        w1.pk: {"author": {"n": 3, "median": 120.0, "mean": 260.0}},
        w2.pk: {"author": {"n": 1, "median": 30.0, "mean": 30.0}},
    }
    html = _html(client, csqa.admin, "dashboard", "times")
    assert (
        '<tr id="time-author"><th scope="row">Writing (per unit)</th><td>4</td>'
        '<td class="median">1 min 30 s</td><td class="mean">3 min 22 s</td></tr>'
    ) in html
    assert (
        f'<tr id="time-user-{w1.pk}"><th scope="row" dir="auto">W1</th>'
        '<td>2 min 0 s / 4 min 20 s <span class="muted">(3)</span></td></tr>'
    ) in html
    assert f'id="time-user-{w3.pk}"' not in html


def test_throughput_counts_items_written_and_judgments_per_day_in_the_current_time_zone(client):
    world = answered_world()
    items = list(Item.objects.filter(project=world.project).order_by("id"))
    # 20:00 UTC is the next day in Jakarta (UTC+7).
    Item.objects.filter(pk__in=[items[0].pk, items[1].pk]).update(created_at=datetime(2026, 1, 1, 10, tzinfo=UTC))
    Item.objects.filter(pk=items[2].pk).update(created_at=datetime(2026, 1, 1, 20, tzinfo=UTC))
    Item.objects.filter(pk=items[3].pk).update(
        created_at=datetime(2026, 1, 3, 10, tzinfo=UTC), source=Item.Source.IMPORT
    )
    judgments = list(Judgment.objects.filter(project=world.project).order_by("id"))
    Judgment.objects.filter(pk__in=[j.pk for j in judgments[:5]]).update(created_at=datetime(2026, 1, 2, 3, tzinfo=UTC))
    Judgment.objects.filter(pk__in=[j.pk for j in judgments[5:]]).update(created_at=datetime(2026, 1, 3, 3, tzinfo=UTC))

    utc = per_day(project=world.project)
    with timezone.override("Asia/Jakarta"):
        jakarta = per_day(project=world.project)
    html = _html(client, world.admin, "dashboard", "xa")  # the admin's time zone: UTC

    assert utc == {
        "items": {date(2026, 1, 1): 3, date(2026, 1, 3): 1},
        "written": {date(2026, 1, 1): 3},
        "judgments": {date(2026, 1, 2): 5, date(2026, 1, 3): 7},
    }
    assert jakarta["items"] == {date(2026, 1, 1): 2, date(2026, 1, 2): 1, date(2026, 1, 3): 1}
    assert jakarta["written"] == {date(2026, 1, 1): 2, date(2026, 1, 2): 1}
    assert (
        '<tr id="throughput-2026-01-03"><th scope="row">2026-01-03</th><td class="written">0</td>'
        '<td class="judgments">7</td></tr>'
    ) in html
    assert '<th scope="row">2026-01-02</th><td class="written">0</td><td class="judgments">5</td>' in html
    assert '<th scope="row">2026-01-01</th><td class="written">3</td><td class="judgments">0</td>' in html
    # Progress over time (UTC): 3 items on Jan 1, none on Jan 2, 1 on Jan 3; the line ends at the top (all 4).
    assert 'points="106.7,40.0 320.0,40.0 533.3,0.0"' in html


@pytest.mark.parametrize("items_per_author", [1, 8])
def test_dashboard_queries_stay_the_same_as_the_project_grows(client, django_assert_max_num_queries, items_per_author):
    world = answered_world(items_per_author=items_per_author)
    client.force_login(world.admin)
    client.get(reverse("dashboard", args=["xa"]))  # warm up the connection

    with django_assert_max_num_queries(18):  # + the aggregation fit and the abilities
        response = client.get(reverse("dashboard", args=["xa"]))

    assert response.status_code == 200
    assert Judgment.objects.filter(project=world.project).count() == 12 * items_per_author


def test_at_a_glance_says_its_undefined_figure_counts_the_judges_only(client):
    # The judges answer A on both items; the authors answered C and D (the report's alpha with the author
    # is defined: the panel must not read as if every answer agreed).
    project, people = make_project(slug="glance", annotators=3, m=2)
    first = make_item(project, people[0], answer="C")
    second = make_item(project, people[0], concept="k2", answer="D")
    for item in (first, second):
        add_judgment(item, people[1], "A")
        add_judgment(item, people[2], "A")

    html = _html(client, project.memberships.get(role="admin").user, "report_page", "glance")

    assert (
        '<p class="reading reading-undefined" id="agreement-reading">All categories, judges only (the author is '
        "not counted): undefined: the judges gave the same answer on every item (4 judgments).</p>"
    ) in html
