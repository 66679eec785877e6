"""Playwright (sync API) driving Debian's Chromium against pytest-django's live server."""

import os

import pytest
from playwright.sync_api import sync_playwright

from tests.conftest import PASSWORD

# Playwright's sync API runs an event loop in this thread; Django would otherwise refuse ORM calls
# made from the test body (setting up data, checking results) as "async unsafe".
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-gpu"]


@pytest.fixture(scope="session")
def chromium():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(chromium, live_server):
    """A factory of pages, each in its own browser context (its own cookies: one per person)."""
    contexts = []

    def make():
        context = chromium.new_context(base_url=live_server.url, locale="en-GB")
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def log_in(page, username: str, password: str = PASSWORD) -> None:
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]:has-text('Log in')")
    page.wait_for_url("**/")
