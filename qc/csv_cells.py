"""CSV cells a spreadsheet would run as a formula, neutralised: shared by the exports and the reports'
CSV tables (its own module, so that neither package imports the other for it)."""

from __future__ import annotations

# What starts a formula: the ASCII signs and their fullwidth forms (U+FF1D ＝, U+FF0B ＋, U+FF0D －,
# U+FF20 ＠), which spreadsheets in East Asian locales read as the ASCII ones.
FORMULA_STARTS = frozenset("=+-@\uff1d\uff0b\uff0d\uff20")


def neutralise_csv_cell(value: str) -> str:
    """A cell a spreadsheet would run as a formula gets a leading quote (CSV/formula injection): one
    starting with a formula sign, also after leading whitespace (spaces, tab, CR, newline, ideographic
    space), which spreadsheets skip, and one starting with a tab or CR."""
    if value.startswith(("\t", "\r")) or value.lstrip()[:1] in FORMULA_STARTS:
        return "'" + value
    return value
