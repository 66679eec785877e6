"""Pseudo-localisation: every interface string a page shows comes from a catalogue.

A pseudo-locale `en-xa` is made at test time from the msgids of the committed catalogue, each msgstr
bracketed "⟦...⟧", compiled into a temporary LOCALE_PATHS folder. The main pages of a project of each
task type (the demo's four, ArabCulture's test world) are rendered as admin, reviewer and annotator in it;
what is left of the visible text once the bracketed parts are removed must be numbers, punctuation or
names from the database (people, codes, projects, units).

User content is excepted by its markup, one rule: an element with `dir="auto"`, a `lang` attribute
(content in a project language) or a <bdi> holds user content and is skipped with all it contains.
<head>, <script>, <style>, <template> and hidden inputs are not visible text.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import translation

from annotation.models import Category, Concept, Membership, Project, ProjectLanguage
from qc.management.commands.load_demo import Command as DemoCommand
from tests.annotation.task_types.preference.world import make_world as preference_world
from tests.annotation.task_types.sentence_completion.world import make_world as arabculture_world

pytestmark = pytest.mark.django_db

PSEUDO = "en-xa"
OPEN, CLOSE = "⟦", "⟧"
_INNERMOST = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
# Literal values (file columns, keys, commands) are written as <code>, <kbd>, <pre> or <samp>: not prose.
_SKIPPED_TAGS = {"head", "script", "style", "template", "bdi", "textarea", "code", "kbd", "pre", "samp"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# Not words of a catalogue: the product's name, units and the keys shown on key chips.
ALLOWED = {"Gotong", "Ctrl", "Enter", "Esc", "Shift", "JSON", "JSONL", "CSV", "Parquet", "API", "n", "k", "m", "κ", "α"}


def _bracket(text: str) -> str:
    return f"{OPEN}{text}{CLOSE}"


@pytest.fixture(scope="module")
def pseudo_locale(tmp_path_factory) -> Path:
    """LOCALE_PATHS holding en_XA: the committed Indonesian catalogue's msgids, each msgstr bracketed."""
    source = polib.pofile(str(Path(settings.BASE_DIR) / "locale" / "id" / "LC_MESSAGES" / "django.po"))
    pseudo = polib.POFile()
    pseudo.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Plural-Forms": "nplurals=2; plural=(n != 1);"}
    for entry in source:
        if entry.obsolete:
            continue
        fake = polib.POEntry(msgctxt=entry.msgctxt, msgid=entry.msgid, flags=list(entry.flags))
        if entry.msgid_plural:
            fake.msgid_plural = entry.msgid_plural
            fake.msgstr_plural = {0: _bracket(entry.msgid), 1: _bracket(entry.msgid_plural)}
        else:
            fake.msgstr = _bracket(entry.msgid)
        pseudo.append(fake)
    base = tmp_path_factory.mktemp("pseudo")
    folder = base / "en_XA" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    pseudo.save_as_mofile(str(folder / "django.mo"))
    return base


class _VisibleText(HTMLParser):
    """The page's visible text outside user content, one string per element run."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []  # per open element: does it (or an ancestor) hold skipped content
        self.parts: list[str] = []

    def _skipped(self) -> bool:
        return bool(self.stack) and self.stack[-1]

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        own = (
            tag in _SKIPPED_TAGS
            or names.get("dir") == "auto"
            or ("lang" in names and tag != "html")
            or (tag == "input" and names.get("type") == "hidden")
        )
        visible_value = tag == "input" and names.get("type") in ("submit", "button", "reset") and names.get("value")
        if visible_value and not own and not self._skipped():
            self.parts.append(names["value"])
        for attribute in ("aria-label", "placeholder", "title", "alt"):
            if names.get(attribute) and not own and not self._skipped():
                self.parts.append(names[attribute])
        if tag not in _VOID:
            self.stack.append(own or self._skipped())

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag not in _VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if not self._skipped() and data.strip():
            self.parts.append(data)


def untranslated(html: str, names: set[str]) -> list[str]:
    """Words of the visible text that no catalogue string and no name explain."""
    parser = _VisibleText()
    parser.feed(html)
    text = " ".join(parser.parts)
    while _INNERMOST.search(text):
        text = _INNERMOST.sub(" ", text)
    words = []
    for token in text.split():
        word = token.strip("()[]{}.,;:!?«»“”\"'·—–-/\\|#%*+=<>…×✓✗←→↑↓")
        if not word or re.fullmatch(r"[\d.,:%/+\-–]+", word) or word in names or word in ALLOWED:
            continue
        words.append(word)
    return words


def _names() -> set[str]:
    """Words of what the database names (people, member codes, projects, units): not interface text."""
    texts: list[str] = []
    from django.contrib.auth import get_user_model

    texts += get_user_model().objects.values_list("username", flat=True)
    texts += Membership.objects.values_list("code", flat=True)
    for name, slug in Project.objects.values_list("name", "slug"):
        texts += [name, slug]
    texts += Category.objects.values_list("name", flat=True)
    texts += Concept.objects.values_list("name", flat=True)
    for code, name in ProjectLanguage.objects.values_list("code", "name"):
        texts += [code, name]
    texts += Membership.objects.exclude(group="").values_list("group", flat=True)
    return {w.strip("()[]{}.,;:!?\"'") for t in texts for w in str(t).split()}


def _slug_routes() -> list[str]:
    """GET pages named by a project slug alone, from the URL configuration."""

    def walk(resolver, prefix=""):
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                yield prefix + str(pattern.pattern)

    routes = []
    for route in walk(get_resolver()):
        params = re.findall(r"<[^>]+>", route)
        if params == ["<slug:slug>"] and not route.startswith(("api/", "django-admin/")):
            routes.append(route)
    return routes


@pytest.fixture
def protocols(pseudo_locale, settings):
    settings.LANGUAGES = [*settings.LANGUAGES, (PSEUDO, "Pseudo")]
    settings.LOCALE_PATHS = [pseudo_locale, *settings.LOCALE_PATHS]
    with translation.override("en"):
        DemoCommand().load("pw-demo")  # the demo's projects, as `manage.py load_demo` makes them
        # A task type without a demo project gets its test world.
        if not Project.objects.filter(task_type="sentence_completion").exists():
            arabculture_world(slug="ac")
        if not Project.objects.filter(task_type="preference").exists():
            preference_world(slug="pref")
    yield [p.slug for p in Project.objects.order_by("slug")]
    translation.deactivate()


def test_the_pseudo_locale_brackets_catalogue_strings(protocols):
    with translation.override(PSEUDO):
        assert translation.gettext("Save decision") == "⟦Save decision⟧"


def test_every_visible_interface_string_comes_from_a_catalogue(protocols):
    names = _names()
    assert sorted(Project.objects.filter(slug__in=protocols).values_list("task_type", flat=True)) == [
        "csqa",
        "cultural_prompt",
        "nli",
        "preference",
        "sentence_completion",
    ]
    people = {}
    for slug in protocols:
        project = Project.objects.get(slug=slug)
        people[slug] = {
            role: Membership.objects.filter(project=project, role=role).order_by("pk").first().user
            for role in ("admin", "reviewer", "annotator")
            if Membership.objects.filter(project=project, role=role).exists()
        }
    failures: dict[str, set[str]] = {}
    pages = 0
    for slug in protocols:
        for role, user in people[slug].items():
            client = Client(HTTP_ACCEPT_LANGUAGE=PSEUDO)
            client.force_login(user)
            for route in ["", *(_slug_routes())]:
                response = client.get("/" + route.replace("<slug:slug>", slug))
                if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
                    continue
                pages += 1
                words = untranslated(response.content.decode(), names)
                if words:
                    failures.setdefault(route, set()).update(f"{role}@{slug}: {w}" for w in words)
    assert pages > 60
    found = {route: sorted(words) for route, words in failures.items()}
    assert found == {}, "\n".join(f"{route}: {' | '.join(words)}" for route, words in sorted(found.items()))
