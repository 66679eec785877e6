"""/favicon.ico answers (no 404 in the browser's console on every page) and every page links the icon."""

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse


def test_favicon_ico_redirects_to_the_icon_that_exists(client):
    response = client.get("/favicon.ico")

    assert (response.status_code, response["Location"]) == (301, "/static/favicon.svg")
    assert finders.find("favicon.svg") is not None


@pytest.mark.django_db
def test_pages_link_the_icon(client):
    html = client.get(reverse("login")).content.decode()

    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in html
