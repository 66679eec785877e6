"""Every numeric attribute of every <svg> in a page, parsed as SVG reads it (a dot, never a comma).

A localised number (`width="0,5"` under Indonesian or Arabic) makes a bar vanish; these helpers let a
page test assert that no chart attribute went through the locale.
"""

from __future__ import annotations

from html.parser import HTMLParser

# The attributes SVG reads as numbers or lists of numbers (the ones our charts write).
NUMERIC = {
    "x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "width", "height", "viewbox", "points",
    "fill-opacity", "opacity", "stroke-width", "font-size", "data-value",
}  # fmt: skip


class _SvgAttributes(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.found: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        if tag == "svg":
            self.depth += 1
        if self.depth:
            self.found += [(tag, name, value or "") for name, value in attrs if name in NUMERIC]

    def handle_endtag(self, tag):
        if tag == "svg" and self.depth:
            self.depth -= 1


def svg_numeric_attributes(html: str) -> list[tuple[str, str, str]]:
    """(tag, attribute, value) of each numeric attribute inside an <svg>."""
    parser = _SvgAttributes()
    parser.feed(html)
    return parser.found


def not_numbers(html: str) -> list[tuple[str, str, str]]:
    """The numeric SVG attributes whose value is not numbers separated by spaces (and commas in points)."""
    bad = []
    for tag, name, value in svg_numeric_attributes(html):
        parts = value.replace(",", " ").split() if name == "points" else value.split()
        if name == "points" and value.count(",") != len(parts) // 2:
            bad.append((tag, name, value))
            continue
        try:
            [float(part) for part in parts]
        except ValueError:
            bad.append((tag, name, value))
        if not parts:
            bad.append((tag, name, value))
    return bad
