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
