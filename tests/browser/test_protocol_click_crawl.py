"""In Chromium, every page of a protocol is reached by clicking from the home page, for each
task type as admin, reviewer and annotator.

After logging in, the crawl clicks the project on the home page, then visits breadth first every link of
each page that stays within /p/<slug>/, following the address the anchor carries in the page (no address
is ever typed or built). It records every answer's status and every console error. The routes to reach
come from the URL configuration, as in the Django client's crawl (tests/protocol_reach.py): a page no
link leads to fails. Only links are followed: forms (every action that changes something, logging out
included) are not submitted. Each route is opened once (MAX_PER_ROUTE), so a list of many items costs one
item page, not one per item: the file runs in about 3 minutes on a loaded 2-core machine (2 per route:
about 3 min 10 s).
"""

from __future__ import annotations

from collections import Counter, deque
from urllib.parse import urlsplit

import pytest
from django.urls import Resolver404, resolve
from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import log_in_by_cookie
from tests.protocol_reach import ROLES, WORLDS, missing_routes, required_routes

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_PER_ROUTE = 1
MAX_PAGES = 150  # per crawl: a bound so a link loop fails clearly instead of hanging

# Every anchor's address as the browser resolved it (absolute), in document order.
LINKS = "() => Array.from(document.querySelectorAll('a[href]'), (a) => a.href)"


def _route(path: str) -> str | None:
    try:
        return resolve(path).url_name
    except Resolver404:
        return None


def _watch(page, errors: list[str]) -> None:
    page.on("console", lambda message: message.type == "error" and errors.append(f"{page.url}: {message.text}"))
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    page.on(
        "response",
        lambda response: response.status >= 400 and errors.append(f"{response.status} {response.url}"),
    )


def click_crawl(page, slug: str) -> set[str]:
    """The routes reached from the home page by following the project's links."""
    start = f"/p/{slug}/"
    with page.expect_navigation():
        page.click(f"#project-{slug} h2 a")
    assert urlsplit(page.url).path == start
    reached: set[str] = set()
    planned: Counter[str | None] = Counter({"project_detail": 1})
    seen: set[str] = {start}
    queue: deque[str | None] = deque([None])  # None: the page already open (the project page)
    while queue:
        assert len(seen) < MAX_PAGES, f"more than {MAX_PAGES} pages under {start}"
        href = queue.popleft()
        if href is not None:
            try:
                page.goto(href)
            except PlaywrightError as error:  # a download (an export file) is not a page: the browser aborts it
                if "Download is starting" not in str(error):
                    raise
                reached.add(_route(urlsplit(href).path))
                continue
            reached.add(_route(urlsplit(href).path))
        path = urlsplit(page.url).path
        reached.add(_route(path))
        if not path.startswith(start):
            continue
        for link in page.evaluate(LINKS):
            target = urlsplit(link)
            if not target.path.startswith(start) or target.path in seen:
                continue
            seen.add(target.path)  # the query string is the same page, differently filtered
            name = _route(target.path)
            if planned[name] < MAX_PER_ROUTE:
                planned[name] += 1
                queue.append(link)
    return reached - {None}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("task_type", sorted(WORLDS))
def test_every_page_of_the_protocol_is_reached_by_clicking_from_the_home_page(
    new_page, live_server, transactional_db, task_type, role
):
    slug, people = WORLDS[task_type]()
    user = people[role]
    page = new_page()
    errors: list[str] = []
    _watch(page, errors)
    log_in_by_cookie(page, user, live_server.url)
    page.goto("/")

    reached = click_crawl(page, slug)

    assert errors == []
    missing = missing_routes(required_routes(user, slug), reached)
    assert missing == set(), f"{task_type} as {role}: no link leads to {sorted(missing)}"
