"""The item list's keyset pages: Next/Previous cursors walk every item once, in the list's order; a page
number still finds its page; a deep page runs the same queries as the first."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from annotation.models import Item
from tests.qc.helpers import make_item, make_project

pytestmark = pytest.mark.django_db

ROW = re.compile(r'<tr id="item-(\d+)">')
NEXT = re.compile(r'<a href="\?([^"]+)" id="page-next">')
PREVIOUS = re.compile(r'<a href="\?([^"]+)" id="page-previous">')


@pytest.fixture
def listed():
    project, people = make_project(slug="pages", annotators=2, m=1)
    items = [make_item(project, people[n % 2], question=f"Soal {n}?") for n in range(25)]
    base = timezone.now() - timedelta(days=1)
    # Changed at 13 distinct times: pairs share one, so the id must break the ties.
    for n, item in enumerate(items):
        Item.objects.filter(pk=item.pk).update(updated_at=base + timedelta(minutes=n // 2))
    expected = [
        pk
        for pk, _ in sorted(
            Item.objects.filter(project=project).values_list("pk", "updated_at"),
            key=lambda r: (r[1], r[0]),
            reverse=True,
        )
    ]
    client = Client()
    client.force_login(project.memberships.get(role="admin").user)
    return client, expected


def _get(client, query: str) -> tuple[list[int], str]:
    response = client.get(f"/p/pages/items/?{query}")
    assert response.status_code == 200
    html = response.content.decode()
    return [int(pk) for pk in ROW.findall(html)], html


def _link(pattern, html: str) -> str | None:
    found = pattern.search(html)
    return found.group(1).replace("&amp;", "&") if found else None


def test_next_links_walk_every_item_once_in_order(listed):
    client, expected = listed
    seen, pages = [], []
    query = "per_page=10"
    while query is not None:
        rows, html = _get(client, query)
        seen.extend(rows)
        pages.append(re.search(r"<span>Page (\d+) of (\d+)</span>", html).groups())
        query = _link(NEXT, html)

    assert seen == expected
    assert pages == [("1", "3"), ("2", "3"), ("3", "3")]


def test_page_numbers_and_previous_links_find_the_same_rows(listed):
    client, expected = listed
    third, html = _get(client, "per_page=10&page=3")
    second, _ = _get(client, _link(PREVIOUS, html))
    first, _ = _get(client, "per_page=10&page=1")

    assert (first, second, third) == (expected[:10], expected[10:20], expected[20:])


def test_a_tampered_cursor_falls_back_to_the_page_number(listed):
    client, expected = listed
    rows, _ = _get(client, "per_page=10&page=2&after=not-a-cursor")

    assert rows == expected[10:20]


def _queries(client, query: str) -> int:
    # The capture counts from the log's length, and the log keeps only the last 9,000 queries.
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as captured:
        _get(client, query)
    return len(captured)


def test_a_deep_page_runs_the_same_queries_as_the_first(listed):
    client, _ = listed
    _get(client, "per_page=10")
    _, html = _get(client, "per_page=10&page=2")

    counts = [_queries(client, "per_page=10&page=1"), _queries(client, "per_page=10&page=3")]
    counts.append(_queries(client, _link(NEXT, html)))

    assert counts[0] == counts[1] == counts[2] > 0


@pytest.mark.postgres
def test_a_page_of_ids_is_read_from_the_ascending_index_backwards_without_a_sort(listed):
    """The page's ids come from the (project, updated_at, id) index scanned backwards: no sort, however
    deep the page. Sorting is disabled in the EXPLAIN, so a plan the index cannot serve shows a Sort."""
    assert connection.vendor == "postgresql"
    client, _ = listed
    with CaptureQueriesContext(connection) as captured:
        _get(client, "per_page=10&page=3")
    [ids_sql] = [q["sql"] for q in captured if "OFFSET 20" in q["sql"]]
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_sort = off; SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN {ids_sql}")
        plan = "\n".join(row[0] for row in cursor.fetchall())

    assert "Index Only Scan Backward using item_project_updated_asc" in plan
    assert "Sort" not in plan
