"""The Indonesian and Arabic catalogues are complete and their compiled .mo files are up to date.

makemessages runs on a copy of the project (so the real catalogues are never rewritten by a test) with
the same options as the documented command; every string it finds must be translated, none fuzzy. The
.mo files are kept in the repository (a machine without gettext still runs translated), so they must
hold exactly what compiling the .po files gives.
"""

from __future__ import annotations

import gettext
import os
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings

LANGUAGES = ("id", "ar")
# The documented command: `manage.py makemessages -l id -l ar --ignore=.venv/* --ignore=bench/* --ignore=tests/*`.
IGNORED = (".venv", "bench", "tests", "staticfiles")
NOT_COPIED = {*IGNORED, ".git", ".ruff_cache", ".pytest_cache", "media", "node_modules", "db.sqlite3"}

# Skipped only outside CI: under CI (scripts/test installs gettext) a missing tool fails instead of hiding.
pytestmark = pytest.mark.skipif(
    not os.environ.get("CI") and not (shutil.which("xgettext") and shutil.which("msgfmt")),
    reason="needs Debian's gettext (xgettext, msgfmt): scripts/test installs it",
)


def _catalogue(base: Path, language: str) -> Path:
    return base / "locale" / language / "LC_MESSAGES" / "django.po"


@pytest.fixture(scope="module")
def fresh_copy(tmp_path_factory) -> Path:
    """The project copied without the ignored folders, with makemessages run over it."""
    base = Path(settings.BASE_DIR)
    copy = tmp_path_factory.mktemp("i18n") / "project"
    shutil.copytree(
        base,
        copy,
        ignore=lambda directory, names: [
            n for n in names if (Path(directory) == base and n in NOT_COPIED) or n == "__pycache__"
        ],
    )
    # dev settings: the copy has no tests/ folder, whose tutorial task type the test settings load.
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.dev", "PYTHONPATH": str(copy)}
    ignores = [f"--ignore={name}/*" for name in IGNORED]
    command = [sys.executable, "manage.py", "makemessages", *(f"-l{lang}" for lang in LANGUAGES), *ignores]
    subprocess.run(command, cwd=copy, env=env, check=True, capture_output=True, timeout=300)
    return copy


def _unfinished(po: polib.POFile) -> list[str]:
    missing = []
    for entry in po:
        if entry.obsolete:
            continue
        translated = all(entry.msgstr_plural.values()) if entry.msgid_plural else bool(entry.msgstr)
        if "fuzzy" in entry.flags or not translated:
            missing.append(f"{entry.msgid!r} ({', '.join(f for f, _ in entry.occurrences[:2])})")
    return missing


@pytest.mark.parametrize("language", LANGUAGES)
def test_makemessages_leaves_no_untranslated_or_fuzzy_string(fresh_copy, language):
    po = polib.pofile(str(_catalogue(fresh_copy, language)))

    assert not po.metadata_is_fuzzy
    assert po.metadata["Language"] == language
    assert len([e for e in po if not e.obsolete]) > 800
    assert _unfinished(po) == [], f"untranslated or fuzzy in {language}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_committed_catalogue_has_every_string_makemessages_finds(fresh_copy, language):
    def ids(path: Path) -> set[tuple[str | None, str]]:
        return {(e.msgctxt, e.msgid) for e in polib.pofile(str(path)) if not e.obsolete}

    fresh, committed = ids(_catalogue(fresh_copy, language)), ids(_catalogue(Path(settings.BASE_DIR), language))

    assert sorted(fresh - committed, key=lambda entry: (entry[0] or "", entry[1])) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_committed_mo_file_matches_its_po_file(tmp_path, language):
    po = _catalogue(Path(settings.BASE_DIR), language)
    compiled = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "--check-format", "-o", str(compiled), str(po)], check=True, timeout=60)

    def catalog(path: Path) -> dict:
        with path.open("rb") as handle:
            return dict(gettext.GNUTranslations(handle)._catalog)

    committed = catalog(po.with_suffix(".mo"))
    assert committed == catalog(compiled)
    assert len(committed) > 800
