"""A real Celery worker started by a test (tests/qc/test_run_faults.py), against the test database.

The test passes DATABASE_URL (the database pytest created), REDIS_URL (its broker) and the run
intervals (GOTONG_RUN_*_SECONDS, GOTONG_SWEEP_SECONDS) in the environment.
"""

import os

from django.core.exceptions import ImproperlyConfigured

from config.settings.test import *  # noqa: F403
from config.settings.test import REDIS_URL

if not REDIS_URL.startswith("redis://"):
    raise ImproperlyConfigured("config.settings.test_worker needs REDIS_URL=redis://... (the test's broker).")

# test.py runs tasks in-process; this process is the worker.
CELERY_TASK_ALWAYS_EAGER = False

# Test-only knobs read by qc/exports/runs.py: small chunks (progress after every few items) and a pause
# after each, so that an export lasts long enough to kill its worker half-way.
GOTONG_EXPORT_CHUNK_SIZE = int(os.environ.get("GOTONG_EXPORT_CHUNK_SIZE", "2000"))
GOTONG_EXPORT_TEST_DELAY_MS = int(os.environ.get("GOTONG_EXPORT_TEST_DELAY_MS", "0"))
