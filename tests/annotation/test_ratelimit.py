"""Write limits per signed-in user: the autosave and every page's post past their rate answer 429 before
the view runs (nothing saved); the API's writes the same through DRF's throttle. The routes come from
the URL configuration, so a new page or endpoint is covered the day it is added."""

from __future__ import annotations

import os
import re
import uuid

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from redis import Redis

from annotation.models import Assignment, WorkDraft
from annotation.ratelimit import parse_rate
from annotation.services.assignments import assignment_plan_authoring
from tests.api.conftest import client_for, db_state
from tests.config.test_url_matrix import _routes
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

UNLIMITED = "100000/min"
_CONVERTER = re.compile(r"<(?:(\w+):)?\w+>")


@pytest.fixture
def rates(settings):
    """Sets the rates a test names (the others unlimited), on a cache emptied of earlier counts."""

    def set_rates(**scopes: str) -> None:
        settings.GOTONG_RATE_LIMITS = {"api_write": UNLIMITED, "page_write": UNLIMITED, "autosave": UNLIMITED, **scopes}
        cache.clear()

    yield set_rates
    cache.clear()


def _url(route: str) -> str:
    return "/" + _CONVERTER.sub(lambda m: "1" if m[1] == "int" else "demo", route)


def _first_assignment(csqa):
    assignment_plan_authoring(project=csqa.project)
    annotator = csqa.annotators[0]
    return annotator, Assignment.objects.filter(user=annotator, kind="author").order_by("position", "id").first()


def _too_many(seconds: int) -> str:
    unit = "second" if seconds == 1 else "seconds"
    return f"Too many changes in a short time: nothing was saved. Try again in {seconds} {unit}."


@pytest.mark.parametrize(
    ("rate", "parsed"), [("120/min", (120, 60)), ("5/s", (5, 1)), ("10/hour", (10, 3600)), ("1/day", (1, 86400))]
)
def test_rates_are_read_as_drf_writes_them(rate, parsed):
    assert parse_rate(rate) == parsed


def test_autosave_past_its_rate_answers_429_and_keeps_the_last_draft_it_accepted(csqa, client, rates):
    rates(autosave="3/min")
    annotator, assignment = _first_assignment(csqa)
    client.force_login(annotator)
    url = reverse("author_draft_save", args=["demo", assignment.pk])

    responses = [client.post(url, {"question": f"Versi {n}"}) for n in range(5)]

    assert [r.status_code for r in responses] == [200, 200, 200, 429, 429]
    wait = int(responses[3]["Retry-After"])
    assert 1 <= wait <= 60
    assert responses[3].json() == {"error": _too_many(wait)}
    assert WorkDraft.objects.get().fields == {"question": "Versi 2"}


def test_each_user_has_their_own_count(csqa, client, rates):
    rates(autosave="1/min")
    annotator, assignment = _first_assignment(csqa)
    other = csqa.annotators[1]
    other_assignment = Assignment.objects.filter(user=other, kind="author").order_by("position", "id").first()
    client.force_login(annotator)
    first = client.post(reverse("author_draft_save", args=["demo", assignment.pk]), {"question": "a"})
    client.force_login(other)
    second = client.post(reverse("author_draft_save", args=["demo", other_assignment.pk]), {"question": "b"})

    assert (first.status_code, second.status_code) == (200, 200)


def test_every_page_refuses_a_write_past_the_rate_before_its_view_runs(csqa, rates):
    rates(page_write="0/min", autosave="0/min")
    staff = UserFactory(is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(staff)
    routes = sorted(route for route, _pattern in _routes() if not route.startswith("api/") and "(?P" not in route)
    before = db_state()

    statuses = {route: client.post(_url(route), {"name": "x"}).status_code for route in routes}

    assert len(routes) > 150  # the site's pages and its admin
    assert {route for route, status in statuses.items() if status != 429} == set()
    assert db_state() == before
    assert client.get("/evaluation/endpoints/").status_code == 200  # reads are not limited


def test_every_api_write_past_the_rate_is_throttled(csqa, rates):
    rates(api_write="0/min")
    csqa.admin.is_staff = True  # site staff too, so that project creation is theirs to try
    csqa.admin.save()
    api = client_for(csqa.admin)
    routes = sorted(route for route, _pattern in _routes() if route.startswith("api/") and "(?P" not in route)
    before = db_state()

    responses = {
        (route, method): getattr(api, method)(_url(route), {}, format="json")
        for route in routes
        for method in ("post", "put", "patch", "delete")
    }

    # Not a signed-in user's write: signing in (its own authentication; axes limits it), the docs page
    # (a page that only reads; a token is no session, so it sends to the login page), and applying to
    # screening, refused to an admin before any throttle.
    not_throttled = {
        **{("api/auth/token/", m): 405 for m in ("put", "patch", "delete")},
        ("api/auth/token/", "post"): 400,
        **{("api/docs/", m): 302 for m in ("post", "put", "patch", "delete")},
        ("api/projects/<slug:slug>/screening/", "post"): 403,
    }
    assert len(routes) > 40
    assert {key: r.status_code for key, r in responses.items() if r.status_code != 429} == not_throttled
    assert {r.data["code"] for r in responses.values() if r.status_code == 429} == {"throttled"}
    assert db_state() == before
    assert api.get("/api/projects/").status_code == 200  # reads are not limited


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL")
def test_the_count_is_kept_in_redis_so_every_web_process_shares_it(csqa, client, settings):
    prefix = f"test-{uuid.uuid4().hex}"  # its own keys: nothing else in that Redis is read or cleared
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            "KEY_PREFIX": prefix,
        }
    }
    settings.GOTONG_RATE_LIMITS = {"api_write": UNLIMITED, "page_write": UNLIMITED, "autosave": "2/min"}
    annotator, assignment = _first_assignment(csqa)
    client.force_login(annotator)
    url = reverse("author_draft_save", args=["demo", assignment.pk])

    statuses = [client.post(url, {"question": f"Versi {n}"}).status_code for n in range(3)]

    redis = Redis.from_url(os.environ["REDIS_URL"])
    keys = redis.keys(f"{prefix}:*gotong:rate:autosave:{annotator.pk}:*")
    assert statuses == [200, 200, 429]
    assert [int(redis.get(key)) for key in keys] == [3]
    assert WorkDraft.objects.get().fields == {"question": "Versi 1"}
    redis.delete(*keys)
