"""Test settings: the real Argon2 hasher is kept (factories share one precomputed hash for speed)."""

import os
import re

from config.settings.base import *  # noqa: F403
from config.settings.base import REDIS_URL


def _redis_url_for_worker(url: str, worker: int) -> str:
    """The URL's Redis database moved down by the pytest-xdist worker's number (gw0 keeps it)."""
    match = re.fullmatch(r"(redis://[^/]+/)(\d+)", url)
    if not match or worker == 0:
        return url
    database = int(match.group(2)) - worker
    if database < 0:
        raise ValueError(f"{url} leaves no Redis database for xdist worker gw{worker}")
    return f"{match.group(1)}{database}"


# Under pytest-xdist every worker process has its own test database (pytest-django's suffix) and must
# have its own Redis databases too: the celery tests flush their broker's database and count its keys,
# and two workers sharing one would take each other's tasks. Test modules read these variables when
# they are imported, after this module. Processes the tests start (Celery workers, benches) inherit both
# the worker's name and the moved URLs: the marker keeps them from moving the URLs a second time.
_XDIST_WORKER = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
if _XDIST_WORKER and not os.environ.get("GOTONG_TEST_REDIS_MOVED"):
    os.environ["GOTONG_TEST_REDIS_MOVED"] = "1"
    REDIS_URL = _redis_url_for_worker(REDIS_URL, _XDIST_WORKER)
    os.environ["REDIS_URL"] = REDIS_URL
    CELERY_BROKER_URL = REDIS_URL or "memory://"
    CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
    for _variable, _default in (
        ("GOTONG_TEST_CELERY_REDIS", "redis://127.0.0.1:6379/5"),
        ("GOTONG_TEST_BENCH_REDIS", "redis://127.0.0.1:6379/13"),
    ):
        os.environ[_variable] = _redis_url_for_worker(os.environ.get(_variable, _default), _XDIST_WORKER)

DEBUG = False
ALLOWED_HOSTS = ["*"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Serve static files from the apps' folders, without a collectstatic run (and without its warning).
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True

# Tasks run in-process in tests unless a test starts a real worker (those override this and use
# REDIS_URL as the broker): a queued task with no worker would otherwise never run.
CELERY_TASK_ALWAYS_EAGER = True

# Each test process counts in its own memory (not the shared Redis), and far above what any test sends;
# the rate-limit tests set their own low rates.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
GOTONG_RATE_LIMITS = {"api_write": "100000/min", "page_write": "100000/min", "autosave": "100000/min"}

# The tutorial's task type (tests/tutorial_task_type/, docs/tutorial/task-type.md): registered in every
# test run, so the contract tests, the page crawls and the export round trip run over it too.
GOTONG_EXTRA_TASK_TYPES = ("tests.tutorial_task_type.plugin",)
