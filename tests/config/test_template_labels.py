"""Every input, select and textarea written out in a template has an accessible name: a <label for=> its
id, a <label> around it, or an aria-label / aria-labelledby / title. (Fields rendered from a Django
form are checked in the browser by axe-core, tests/browser/test_accessibility.py.)"""

import re
from pathlib import Path

from django.conf import settings

# A tag whose attributes may hold template expressions ({{ }}, {% %}) that contain ">".
TAG = re.compile(r"<(input|select|textarea)\b((?:[^>{]|\{\{.*?\}\}|\{%.*?%\}|\{)*?)>", re.S)
UNNAMED_TYPES = {"hidden", "submit", "button", "reset", "image"}


def _attr(attrs: str, name: str) -> str | None:
    match = re.search(rf"(?<![\w-]){name}=(?:\"([^\"]*)\"|'([^']*)'|([^\s>]+))", attrs)
    return None if match is None else next(group for group in match.groups() if group is not None)


def _inside_label(text: str, position: int) -> bool:
    before = text[:position]
    return before.rfind("<label") > before.rfind("</label>")


def unnamed_controls(text: str) -> list[str]:
    found = []
    for match in TAG.finditer(text):
        tag, attrs = match.group(1), match.group(2)
        if tag == "input" and (_attr(attrs, "type") or "text") in UNNAMED_TYPES:
            continue
        if re.search(r"\baria-label(ledby)?=", attrs) or _attr(attrs, "title") or _inside_label(text, match.start()):
            continue
        ident = _attr(attrs, "id")
        if ident and re.search(r"\bfor=[\"']" + re.escape(ident) + r"[\"']", text):
            continue
        found.append(f"line {text[: match.start()].count(chr(10)) + 1}: <{tag} id={ident}>")
    return found


def test_the_checker_tells_named_controls_from_unnamed_ones():
    text = (
        '<label for="a">A</label><input id="a">\n'
        '<label><input type="checkbox" name="b"> B</label>\n'
        '<select aria-label="C" name="c"></select>\n'
        '<input type="hidden" name="d"><input type="submit">\n'
        '<input id="{{ f.id }}" name="e" value="{% if x > 1 %}1{% endif %}">\n'
        '<textarea id="g"></textarea><label for="h">H</label>\n'
    )

    assert unnamed_controls(text) == ["line 5: <input id={{ f.id }}>", "line 6: <textarea id=g>"]


def test_every_control_written_in_a_template_has_an_accessible_name():
    offenders = []
    for path in sorted((Path(settings.BASE_DIR) / "templates").rglob("*.html")):
        for problem in unnamed_controls(path.read_text(encoding="utf-8")):
            offenders.append(f"{path.relative_to(settings.BASE_DIR)} {problem}")
    assert offenders == []
