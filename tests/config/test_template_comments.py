"""Django's {# #} comment is one line only: a multi-line one is printed on the page as text."""

from pathlib import Path

from django.conf import settings


def test_no_template_has_a_multi_line_short_comment():
    offenders = []
    for path in sorted((Path(settings.BASE_DIR) / "templates").rglob("*.html")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "{#" in line and "#}" not in line.split("{#", 1)[1]:
                offenders.append(f"{path.relative_to(settings.BASE_DIR)}:{number}")
    assert offenders == [], "Use {% comment %} for comments over several lines: " + ", ".join(offenders)
