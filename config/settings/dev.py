"""Local development and the demo: debug pages on, insecure key allowed."""

from config.settings.base import *  # noqa: F403

DEBUG = True
ALLOWED_HOSTS = ["*"]
