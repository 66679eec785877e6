"""What both protocol crawls share (the Django client's and the browser's): one world per task
type with an admin, a reviewer and an annotator, the project page routes taken from the URL
configuration, and the reviewed routes no link needs to lead to."""

from __future__ import annotations

from collections.abc import Callable

from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from annotation.models import Membership
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.judging import judging_plan
from annotation.services.projects import membership_add
from tests.annotation.task_types.csqa.world import answered_world
from tests.annotation.task_types.cultural_prompt.world import make_kalahi_project
from tests.annotation.task_types.nli.world import make_nli_project
from tests.annotation.task_types.preference.world import make_world as make_preference_world
from tests.annotation.task_types.sentence_completion.world import authored_world
from tests.factories import UserFactory
from tests.tutorial_task_type.world import make_world as make_sentiment_world

PROJECT_PREFIX = "p/<slug:slug>/"
ROLES = ["admin", "reviewer", "annotator"]
# Reviewed: routes a person never needs a link to. Older addresses of pages that are linked under their
# new address (kept for bookmarks and scripts).
ALIASES = {"answer_queue": "judge_queue", "reports_page": "report_page", "crossanswer_plan": "judging_plan"}
# The report's machine-readable twin (the API's and scripts' address; the page shows the same figures).
NOT_LINKED = {"report_json"}


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


def openable(client: Client, slug: str, routes: dict[str, str]) -> set[str]:
    """The routes this role may open by typing their address (GET below 400; POST-only routes answer 405)."""
    return {
        name
        for name, route in routes.items()
        if client.get("/" + route.replace("<slug:slug>", slug), follow=True).status_code < 400
    }


def required_routes(user, slug: str) -> set[str]:
    """The routes a crawl as this user must reach: every page route the user may open, less the reviewed."""
    client = Client()
    client.force_login(user)
    return openable(client, slug, project_page_routes()) - NOT_LINKED


def missing_routes(required: set[str], reached: set[str]) -> set[str]:
    return {name for name in required if name not in reached and ALIASES.get(name) not in reached}


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


def _sentiment() -> tuple[str, dict]:
    world = make_sentiment_world(slug="senti")
    return "senti", {"admin": world.admin, "reviewer": world.reviewer, "annotator": world.annotators[0]}


# Task type -> a builder returning (project slug, role -> user): every registered task type has one.
WORLDS: dict[str, Callable[[], tuple[str, dict]]] = {
    "csqa": _csqa,
    "nli": _nli,
    "cultural_prompt": _kalahi,
    "preference": _preference,
    "sentence_completion": _arabculture,
    "sentiment": _sentiment,
}
