"""Text helpers shared by the NLI reports and checks: tokens, words, sentences.

Two tokenisations on purpose: `tokens` is the paper's "simple space-delimited tokens" (Table 4 lengths),
`words` drops punctuation and case so "Batad." and "batad" overlap (word overlap, PMI, checks).
"""

from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"\w+(?:[-'’]\w+)*")
_SPACES = re.compile(r"\s+")

# Abbreviations that end with a period inside an Indonesian sentence (lower case, without the final
# period). Titles, addresses and "and so on" forms are the usual false sentence ends in news text.
# Left out on purpose: short forms that also end sentences ("SM" = before Christ, "hal", "bab").
ABBREVIATIONS: frozenset[str] = frozenset(
    {
        # titles and honorifics
        "bpk", "bp", "sdr", "sdri", "dr", "drs", "dra", "ir", "prof", "hj", "st", "kh", "tn", "ny", "nn",
        "mr", "mrs", "ms", "jr", "sr", "kol", "brigjen", "mayjen", "letjen", "jend", "kapt", "lettu", "serka",
        # "and so on", references, units of text
        "dll", "dsb", "dst", "dkk", "tsb", "yth", "no", "hlm", "vol", "psl", "ps",
        "kab", "kec", "kel", "prov", "jl", "jln", "gg", "rt", "rw", "ds", "telp", "fax",
        "rp", "kg", "km", "cm", "mm", "tbk", "pt", "cv", "ltd", "inc", "co", "corp", "bhd",
        "thn", "th", "tgl", "bln", "ca", "vs", "etc", "e.g", "i.e", "a.n", "u.p", "s.d",
        # English month short forms appear in dates ("Jan. 2020")
        "jan", "feb", "mar", "apr", "jun", "jul", "agu", "agt", "aug", "sep", "sept", "okt", "oct", "nov", "des", "dec",
    }
)  # fmt: skip

# A candidate sentence end: terminal punctuation, optional closing quotes/brackets, then white space.
_END = re.compile(r"([.!?…]+)([\"'”’)\]]*)\s+")
_STARTS_SENTENCE = re.compile(r"[\"'“‘(\[]*[A-Z0-9À-ÖØ-Þ]")
_LAST_WORD = re.compile(r"([\w.]+)$")


def tokens(text: str) -> list[str]:
    """Space-delimited tokens, punctuation kept (the paper's length unit in Table 4)."""
    return text.split()


def words(text: str) -> list[str]:
    """Lower-cased words without punctuation; hyphenated forms (sama-sama) stay one word."""
    return _WORD.findall(unicodedata.normalize("NFC", text).casefold())


def normalize_sentence(text: str) -> str:
    """For "is this the same sentence": case, spacing, quotes and the final punctuation do not count."""
    return " ".join(words(text))


def _ends_sentence(before: str, punctuation: str, after: str) -> bool:
    if not _STARTS_SENTENCE.match(after):
        return False
    if punctuation != ".":
        return True  # "!", "?", "..." followed by a capital
    match = _LAST_WORD.search(before)
    last = match.group(1) if match else ""
    bare = last.rstrip(".").casefold()
    if not bare:
        return True
    if bare in ABBREVIATIONS:
        return False
    if len(bare) == 1 and bare.isalpha():
        return False  # an initial: "A. Yani", "H. Agus Salim"
    # dotted abbreviations (S.H., M.Si., a.n.): a short token that already holds a period
    return not ("." in bare and len(bare) <= 6)


def split_sentences(text: str) -> list[str]:
    """Sentences of a premise. A heuristic: a period ends a sentence unless it closes an abbreviation or
    an initial; decimals and thousands (3.5, 1.000) never break because no space follows their period."""
    text = _SPACES.sub(" ", text).strip()
    if not text:
        return []
    sentences, start = [], 0
    for match in _END.finditer(text):
        if _ends_sentence(text[start : match.start()], match.group(1), text[match.end() :]):
            sentences.append(text[start : match.end()].strip())
            start = match.end()
    tail = text[start:].strip()
    if tail:
        sentences.append(tail)
    return sentences
