"""Playwright (sync API) driving Debian's Chromium against pytest-django's live server.

Every page runs under the site's Content-Security-Policy (Playwright does not bypass it unless asked),
and any violation a page reports fails its test at teardown: an inline script, style or handler that
slips into a template is caught by the browser tests that load it.
"""

import os

import pytest
from django.conf import settings
from django.test import Client
from django.urls import get_resolver
from playwright.sync_api import sync_playwright

from tests.conftest import PASSWORD

# Playwright's sync API runs an event loop in this thread; Django would otherwise refuse ORM calls
# made from the test body (setting up data, checking results) as "async unsafe".
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-gpu"]
CSP = "Content Security Policy"

# Runs in every document before the page's own scripts. The event reaches Python through a binding,
# so a violation is kept even when the page navigates away right after it; window.__cspViolations
# lets a test look at the current document's violations from the page.
CSP_LISTENER = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  const violation = {
    directive: event.effectiveDirective,
    blocked: event.blockedURI,
    source: event.sourceFile,
    line: event.lineNumber,
    sample: event.sample,
    page: document.location.pathname,
  };
  window.__cspViolations.push(violation);
  window.__reportCspViolation(violation);
});
"""


@pytest.fixture(scope="session")
def chromium():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def site_imported():
    """The URL configuration, and with it every view module (scikit-learn, crowd-kit, openai), imported
    before the first page: the live server would otherwise import it on its first request, which on a
    loaded machine took longer (16 s) than a page's timeout, so whichever test ran first failed."""
    return len(get_resolver().url_patterns)


@pytest.fixture
def csp_violations():
    """What the pages of this test reported against the Content-Security-Policy (a test that provokes
    one on purpose empties it)."""
    return []


def _watch(page, violations: list) -> None:
    def on_console(message):
        if CSP in message.text:
            violations.append(f"console {message.type} on {page.url}: {message.text}")

    def on_page_error(error):
        if CSP in error.message:
            violations.append(f"page error on {page.url}: {error.message}")

    page.on("console", on_console)
    page.on("pageerror", on_page_error)


@pytest.fixture
def new_page(chromium, live_server, csp_violations, site_imported):
    """A factory of pages, each in its own browser context (its own cookies: one per person); options go
    to the context (a phone: viewport, has_touch, is_mobile)."""
    contexts = []

    def make(**options):
        context = chromium.new_context(base_url=live_server.url, locale="en-GB", **options)
        context.set_default_timeout(10_000)
        context.expose_binding(
            "__reportCspViolation", lambda source, violation: csp_violations.append(f"violation: {violation}")
        )
        context.add_init_script(CSP_LISTENER)
        context.on("page", lambda page: _watch(page, csp_violations))
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        for page in context.pages:
            # A round trip delivers the reports still on their way from the browser.
            page.evaluate("0")
        context.close()
    if csp_violations:
        pytest.fail("Content-Security-Policy violations:\n" + "\n".join(csp_violations), pytrace=False)


def log_in(page, username: str, password: str = PASSWORD) -> None:
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]:has-text('Log in')")
    page.wait_for_url("**/")


def log_in_by_cookie(page, user, base_url: str) -> None:
    """The session of a login, without the login form: the form cost 3-5 s per test here (measured), 15
    times over; it is tested elsewhere."""
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base_url}])
