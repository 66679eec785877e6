"""Every page of a protocol is reached from its project page by links, for each role.

The pages to reach come from the URL configuration (get_resolver): every project page route without a
parameter besides the slug that the role may open (a direct GET answers below 400). Starting from the
project page, the test follows the links of each HTML page (breadth first, only within /p/<slug>/) and
fails on a page no link leads to and on any page that answers 400 or more. A route added tomorrow is
in the list the day it is added.
"""

from __future__ import annotations

from collections import deque
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import resolve

from annotation.task_types import registered_task_types
from tests.protocol_reach import ROLES, WORLDS, missing_routes, project_page_routes, required_routes

pytestmark = pytest.mark.django_db

MAX_PAGES = 400  # per role: a bound so a link loop fails clearly instead of hanging


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.hrefs.append(href)


def crawl(client: Client, slug: str) -> tuple[set[str], dict[str, int]]:
    """(route names reached by links, path -> status of every page answering >= 400)."""
    start = f"/p/{slug}/"
    queue, seen = deque([start]), {start}
    reached: set[str] = set()
    failures: dict[str, int] = {}
    while queue:
        assert len(seen) < MAX_PAGES, f"more than {MAX_PAGES} pages under {start}"
        path = queue.popleft()
        response = client.get(path, follow=True)
        for hop, _ in [(path, 0), *response.redirect_chain]:
            hop_path = urlsplit(hop).path
            if hop_path.startswith(start):
                reached.add(resolve(hop_path).url_name)
        if response.status_code >= 400:
            failures[path] = response.status_code
            continue
        if "text/html" not in response.get("Content-Type", ""):
            continue
        parser = _Links()
        parser.feed(response.content.decode())
        for href in parser.hrefs:
            target = urlsplit(href).path  # the query string is the same page, differently filtered
            if target.startswith(start) and target not in seen:
                seen.add(target)
                queue.append(target)
    return reached, failures


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("task_type", sorted(WORLDS))
def test_every_page_a_role_may_open_is_reached_by_links_from_the_project_page(task_type, role):
    slug, people = WORLDS[task_type]()
    client = Client()
    client.force_login(people[role])

    reached, failures = crawl(client, slug)

    assert failures == {}
    missing = missing_routes(required_routes(people[role], slug), reached)
    assert missing == set(), f"{task_type} as {role}: no link leads to {sorted(missing)}"


def test_every_registered_task_type_is_crawled():
    assert sorted(WORLDS) == [tt.name for tt in registered_task_types()]


def test_the_route_list_comes_from_the_url_configuration():
    routes = project_page_routes()

    assert routes["project_detail"] == "p/<slug:slug>/"
    assert routes["judging_plan"] == "p/<slug:slug>/judging/plan/"
    assert routes["crossanswer_plan"] == "p/<slug:slug>/crossanswer/"  # the older address, redirecting
    assert routes["export_page"] == "p/<slug:slug>/export/"
    assert "item_detail" not in routes  # takes an item id: reached from the item list, not required here
