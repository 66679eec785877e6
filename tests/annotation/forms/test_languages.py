"""The languages field accepts the format its help shows ("id, Indonesian, ltr") and what the settings
page writes back, and the older space-separated lines."""

import pytest
from django import forms
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annotation.forms import ProjectSettingsForm, format_languages, parse_languages
from annotation.models import Project
from tests.factories import make_csqa_project

CODES = st.from_regex(r"[a-z]{2,3}(-[A-Z]{2})?", fullmatch=True)
# A name is any one line of text (splitlines() breaks on more than "\n"), trimmed, not blank.
NAMES = (
    st.text(
        st.characters(blacklist_categories=("Cc", "Zl", "Zp", "Cs"), blacklist_characters="\x1c\x1d\x1e\x85"),
        max_size=30,
    )
    .map(str.strip)
    .filter(bool)
)
LANGUAGES = st.lists(
    st.fixed_dictionaries({"code": CODES, "name": NAMES, "direction": st.sampled_from(["ltr", "rtl"])}),
    min_size=1,
    max_size=5,
    unique_by=lambda lang: lang["code"],
)


class _Lang:
    def __init__(self, code, name, direction):
        self.code, self.name, self.direction = code, name, direction


def test_the_helps_own_example_is_accepted():
    assert parse_languages("id, Indonesian, ltr\nar, Arabic, rtl\nsu, Basa Sunda") == [
        {"code": "id", "name": "Indonesian", "direction": "ltr"},
        {"code": "ar", "name": "Arabic", "direction": "rtl"},
        {"code": "su", "name": "Basa Sunda", "direction": "ltr"},
    ]
    assert "code, name, direction (ltr or rtl)" in str(ProjectSettingsForm.base_fields["languages"].help_text)


def test_space_separated_lines_still_work():
    assert parse_languages("su Basa Sunda ltr\nar Arabic RTL") == [
        {"code": "su", "name": "Basa Sunda", "direction": "ltr"},
        {"code": "ar", "name": "Arabic", "direction": "rtl"},
    ]


def test_a_repeated_code_and_an_empty_field_are_refused():
    with pytest.raises(forms.ValidationError) as repeated:
        parse_languages("id, Indonesian, ltr\nid Again")
    with pytest.raises(forms.ValidationError) as empty:
        parse_languages(" \n , , \n")

    assert repeated.value.messages == ["The code “id” appears more than once."]
    assert empty.value.messages == ["Add at least one language, e.g. “id, Indonesian, ltr”."]


# A shared 2-core machine: generation speed is not what these tests check.
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(LANGUAGES)
def test_what_the_settings_page_writes_is_read_back_unchanged(languages):
    text = format_languages([_Lang(**lang) for lang in languages])

    assert parse_languages(text) == languages


@FUZZ
@given(st.text(max_size=300))
def test_any_text_gives_languages_or_a_validation_error(text):
    try:
        languages = parse_languages(text)
    except forms.ValidationError as exc:
        assert exc.messages
    else:
        assert languages and all(lang["code"] and lang["name"] for lang in languages)
        assert {lang["direction"] for lang in languages} <= {"ltr", "rtl"}


@pytest.mark.django_db
def test_the_settings_page_saves_the_documented_format_and_shows_it_back(client):
    world = make_csqa_project(slug="langs")
    client.force_login(world.admin)
    url = reverse("project_settings", args=["langs"])
    data = {
        "name": "Langs",
        "languages": "ar, Arabic, rtl\nid, Indonesian, ltr",
        "guidelines": "",
        "authors_per_concept": "2",
        "answerers_per_item": "4",
        "ambiguity_threshold": "2",
        "judging_mode": "fixed",
        "adaptive_confidence": "99",
        "adaptive_min_judges": "2",
        "plan_seed": "0",
    }

    response = client.post(url, data)

    assert response.status_code == 302
    project = Project.objects.get(slug="langs")
    assert list(project.languages.values_list("code", "name", "direction")) == [
        ("ar", "Arabic", "rtl"),
        ("id", "Indonesian", "ltr"),
    ]
    assert "ar, Arabic, rtl\nid, Indonesian, ltr</textarea>" in client.get(url).content.decode()
