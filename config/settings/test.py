"""Test settings: the real Argon2 hasher is kept (factories share one precomputed hash for speed)."""

from config.settings.base import *  # noqa: F403

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
