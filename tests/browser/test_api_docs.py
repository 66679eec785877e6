"""The API documentation page renders the operations list under the site's strict policy."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_swagger_ui_lists_the_operations_without_console_errors(new_page, transactional_db, live_server):
    user = UserFactory(username="reader")
    page = new_page()
    log_in(page, user.username)
    errors, requests = [], []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("request", lambda request: requests.append(request.url))
    page.on("response", lambda response: response.status >= 400 and errors.append(f"{response.status} {response.url}"))

    page.goto("/api/docs/")

    operation = page.locator("#swagger-ui .opblock-summary-path[data-path='/api/projects/{slug}/items/']")
    expect(operation).to_be_visible()
    expect(page.locator("#swagger-ui .info .title")).to_contain_text("Gotong API")
    assert page.locator("#swagger-ui .opblock").count() >= 30
    assert errors == []
    assert [url for url in requests if not url.startswith(live_server.url)] == []  # nothing from a CDN
