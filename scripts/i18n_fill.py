"""Fill translations into the catalogues in locale/ (used by whoever translates; not by the app).

    flock /tmp/gotong_po.lock .venv/bin/python scripts/i18n_fill.py todo            # untranslated/fuzzy, as JSON
    flock /tmp/gotong_po.lock .venv/bin/python scripts/i18n_fill.py fill FILE.json  # write translations

FILE.json: {"id": {"msgid": "msgstr", "one %(n)s": ["msgstr[0]", ...]}, "ar": {...}}. A key with a
context is "context\u0004msgid". Only entries that are untranslated or fuzzy are written unless
--force; a filled entry loses its fuzzy flag. Run under the lock: another helper may be writing.
The .mo files are made afterwards with `manage.py compilemessages --ignore=.venv`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import polib

LOCALE = Path(__file__).resolve().parent.parent / "locale"
HEADERS = {
    "id": {"Language": "id", "Plural-Forms": "nplurals=1; plural=0;"},
    "ar": {
        "Language": "ar",
        "Plural-Forms": "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : "
        "n%100>=11 && n%100<=99 ? 4 : 5;",
    },
}


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"), wrapwidth=79)


def key(entry: polib.POEntry) -> str:
    return f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid


def needs_work(entry: polib.POEntry) -> bool:
    if entry.obsolete:
        return False
    if "fuzzy" in entry.flags:
        return True
    if entry.msgid_plural:
        return not all(entry.msgstr_plural.values())
    return not entry.msgstr


def todo(languages: list[str]) -> dict:
    out = {}
    for language in languages:
        po = catalogue(language)
        out[language] = {key(e): ([e.msgid, e.msgid_plural] if e.msgid_plural else "") for e in po if needs_work(e)}
    return out


def fill(mapping: dict, *, force: bool) -> dict[str, int]:
    written = {}
    for language, translations in mapping.items():
        po = catalogue(language)
        po.metadata.update(HEADERS.get(language, {}))
        po.metadata_is_fuzzy = False
        count = 0
        for entry in po:
            if entry.obsolete or key(entry) not in translations or not (force or needs_work(entry)):
                continue
            value = translations[key(entry)]
            if entry.msgid_plural:
                forms = value if isinstance(value, list) else [value]
                n = len(entry.msgstr_plural) or (6 if language == "ar" else 1)
                entry.msgstr_plural = {i: forms[min(i, len(forms) - 1)] for i in range(n)}
            else:
                entry.msgstr = value if isinstance(value, str) else value[0]
            if "fuzzy" in entry.flags:
                entry.flags.remove("fuzzy")
            entry.previous_msgid = entry.previous_msgid_plural = entry.previous_msgctxt = None
            count += 1
        po.save()
        written[language] = count
    return written


def main() -> int:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("todo")
    t.add_argument("--lang", action="append", default=None)
    f = sub.add_parser("fill")
    f.add_argument("file")
    f.add_argument("--force", action="store_true")
    args = parser.parse_args()
    if args.command == "todo":
        json.dump(todo(args.lang or ["id", "ar"]), sys.stdout, ensure_ascii=False, indent=1)
        print()
    else:
        print(json.dumps(fill(json.loads(Path(args.file).read_text()), force=args.force)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
