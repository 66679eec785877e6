"""Each user's interface language and time zone: the preferences page, and what every page then uses."""

import zoneinfo

from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone, translation

from annotation.middleware import UserPreferencesMiddleware
from annotation.models import UserPreferences
from annotation.services.preferences import SESSION_KEY
from tests.conftest import PASSWORD
from tests.factories import UserFactory


def test_preferences_page_needs_a_signed_in_user(client, db):
    response = client.get(reverse("preferences"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_user_picks_indonesian_and_a_time_zone_and_the_next_page_is_indonesian(client, db):
    user = UserFactory()
    client.force_login(user)

    response = client.post(reverse("preferences"), {"language": "id", "time_zone": "Asia/Jakarta"}, follow=True)

    html = response.content.decode()
    assert response.redirect_chain == [("/account/preferences/", 302)]
    assert UserPreferences.objects.filter(user=user).values_list("language", "time_zone").get() == (
        "id",
        "Asia/Jakarta",
    )
    assert '<html lang="id" dir="ltr">' in html
    assert "Preferensi disimpan." in html
    assert "Bahasa antarmuka" in html and "Interface language" not in html
    assert 'id="nav-preferences">Preferensi</a>' in html


def test_an_unknown_time_zone_or_language_is_refused_and_nothing_is_saved(client, db):
    user = UserFactory()
    UserPreferences.objects.create(user=user, language="ar", time_zone="Asia/Riyadh")
    client.force_login(user)

    response = client.post(reverse("preferences"), {"language": "xx", "time_zone": "Mars/Olympus"})

    assert response.status_code == 400
    assert UserPreferences.objects.filter(user=user).values_list("language", "time_zone").get() == (
        "ar",
        "Asia/Riyadh",
    )
    # The page stays in the language saved before (Arabic), with its errors.
    html = response.content.decode()
    assert '<html lang="ar" dir="rtl">' in html
    assert html.count('class="error" role="alert"') == 2


def test_without_a_choice_the_browser_language_decides(client, db):
    client.force_login(UserFactory())

    arabic = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="ar,en;q=0.5").content.decode()
    english = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en-GB").content.decode()
    client.logout()
    anonymous_login = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="id").content.decode()

    assert '<html lang="ar" dir="rtl">' in arabic and "مشاريعي" in arabic
    assert '<html lang="en" dir="ltr">' in english and "My projects" in english
    assert '<html lang="id" dir="ltr">' in anonymous_login and "Nama pengguna" in anonymous_login


def test_the_users_choice_wins_over_the_browser(client, db):
    user = UserFactory()
    UserPreferences.objects.create(user=user, language="id")
    client.force_login(user)

    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="ar").content.decode()

    assert '<html lang="id" dir="ltr">' in html
    assert "Proyek saya" in html


def test_logging_in_copies_the_preferences_into_the_session(client, db):
    user = UserFactory()
    UserPreferences.objects.create(user=user, language="ar", time_zone="Asia/Riyadh")

    client.post(reverse("login"), {"username": user.username, "password": PASSWORD})

    assert client.session[SESSION_KEY] == {"language": "ar", "time_zone": "Asia/Riyadh"}
    assert '<html lang="ar" dir="rtl">' in client.get(reverse("home")).content.decode()


def test_pages_read_the_preferences_from_the_session_without_a_query(client, db, django_assert_num_queries):
    user = UserFactory()
    UserPreferences.objects.create(user=user, language="id")
    client.force_login(user)
    client.get(reverse("home"))

    # The home page's own queries only: session, user, memberships, invitations.
    with django_assert_num_queries(4) as captured:
        client.get(reverse("home"))

    assert not any("annotation_userpreferences" in q["sql"] for q in captured.captured_queries)


def test_the_middleware_activates_the_time_zone_for_the_request_only(db):
    user = UserFactory()
    seen = {}

    def view(request):
        seen["zone"] = timezone.get_current_timezone_name()
        seen["language"] = translation.get_language()
        return HttpResponse()

    request = RequestFactory().get("/")
    request.user = user
    request.session = {SESSION_KEY: {"language": "id", "time_zone": "Asia/Jakarta"}}

    UserPreferencesMiddleware(view)(request)

    assert seen == {"zone": "Asia/Jakarta", "language": "id"}
    assert timezone.get_current_timezone() == zoneinfo.ZoneInfo("UTC")
    translation.activate("en")
