"""Issue 26: every page of a protocol is reached from its project page by links, for each role.

The pages to reach come from the URL configuration (get_resolver): every project page route without a
parameter besides the slug that the role may open (a direct GET answers below 400). Starting from the
project page, the test follows the links of each HTML page (breadth first, only within /p/<slug>/) and
fails on a page no link leads to and on any page that answers 400 or more. A route added tomorrow is
in the list the day it is added.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve

from annotation.models import Membership
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.judging import judging_plan
from annotation.services.projects import membership_add
from tests.annotation.task_types.cultural_prompt.world import make_kalahi_project
from tests.annotation.task_types.preference.world import make_world as make_preference_world
from tests.annotation.task_types.sentence_completion.world import authored_world
from tests.crossanswer_world import answered_world
from tests.factories import UserFactory
from tests.nli_world import make_nli_project

pytestmark = pytest.mark.django_db

PROJECT_PREFIX = "p/<slug:slug>/"
# Reviewed: routes a person never needs a link to. Older addresses of pages that are linked under their
# new address (kept for bookmarks and scripts).
ALIASES = {"answer_queue": "judge_queue", "reports_page": "report_page"}
# The report's machine-readable twin (the API's and scripts' address; the page shows the same figures).
NOT_LINKED = {"report_json"}
MAX_PAGES = 400  # per role: a bound so a link loop fails clearly instead of hanging


def project_page_routes() -> dict[str, str]:
    """Route name -> path of every project-scoped page route taking only the slug (the API's left out)."""
    found: dict[str, str] = {}

    def walk(patterns, prefix: str) -> None:
        for p in patterns:
            route = prefix + str(p.pattern)
            if isinstance(p, URLResolver):
                walk(p.url_patterns, route)
            elif isinstance(p, URLPattern) and p.name and route.startswith(PROJECT_PREFIX):
                takes_only_the_slug = "<" not in route[len(PROJECT_PREFIX) :]
                if takes_only_the_slug:
                    found[p.name] = route

    walk(get_resolver().url_patterns, "")
    return found


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


def openable(client: Client, slug: str, routes: dict[str, str]) -> set[str]:
    """The routes this role may open by typing their address (GET below 400; POST-only routes answer 405)."""
    return {
        name
        for name, route in routes.items()
        if client.get("/" + route.replace("<slug:slug>", slug), follow=True).status_code < 400
    }


def _csqa() -> tuple[str, dict]:
    world = answered_world(slug="xa")
    return "xa", {"admin": world.admin, "reviewer": world.reviewer, "annotator": world.people[0]}


def _nli() -> tuple[str, dict]:
    world = make_nli_project(slug="nli")
    assignment_plan_authoring(project=world.project)
    return "nli", {"admin": world.admin, "reviewer": world.reviewer, "annotator": world.annotators[0]}


def _kalahi() -> tuple[str, dict]:
    world = make_kalahi_project(slug="kalahi", rows=4)
    judging_plan(project=world.project)
    return "kalahi", {"admin": world.admin, "reviewer": world.reviewer, "annotator": world.validators[0]}


def _preference() -> tuple[str, dict]:
    world = make_preference_world(slug="pref", raters_per_group=1)
    judging_plan(project=world.project)
    reviewer = UserFactory(username="pref-reviewer")
    membership_add(project=world.project, user=reviewer, role=Membership.Role.REVIEWER)
    return "pref", {"admin": world.admin, "reviewer": reviewer, "annotator": world.raters["A"][0]}


def _arabculture() -> tuple[str, dict]:
    world = authored_world(slug="ac")
    return "ac", {
        "admin": world.admin,
        "reviewer": world.reviewers["Egypt"],
        "annotator": world.authors["Egypt"][0],
    }


WORLDS: dict[str, Callable[[], tuple[str, dict]]] = {
    "csqa": _csqa,
    "nli": _nli,
    "cultural_prompt": _kalahi,
    "preference": _preference,
    "sentence_completion": _arabculture,
}


@pytest.mark.parametrize("role", ["admin", "reviewer", "annotator"])
@pytest.mark.parametrize("task_type", sorted(WORLDS))
def test_every_page_a_role_may_open_is_reached_by_links_from_the_project_page(task_type, role):
    slug, people = WORLDS[task_type]()
    client = Client()
    client.force_login(people[role])
    routes = project_page_routes()

    reached, failures = crawl(client, slug)
    expected = openable(client, slug, routes) - NOT_LINKED

    assert failures == {}
    missing = {name for name in expected if name not in reached and ALIASES.get(name) not in reached}
    assert missing == set(), f"{task_type} as {role}: no link leads to {sorted(missing)}"


def test_the_route_list_comes_from_the_url_configuration():
    routes = project_page_routes()

    assert routes["project_detail"] == "p/<slug:slug>/"
    assert routes["crossanswer_plan"] == "p/<slug:slug>/crossanswer/"
    assert routes["export_page"] == "p/<slug:slug>/export/"
    assert "item_detail" not in routes  # takes an item id: reached from the item list, not required here
