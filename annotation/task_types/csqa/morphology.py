"""Does a question mention a concept, allowing Indonesian and Sundanese affixes?

A light, rule-based stemmer: it strips known prefixes, suffixes and confixes and undoes nasal
assimilation (meN-/peN-/nga-/ng- swallow the first consonant of the root: `kunjung` -> `mengunjungi`,
`tulis` -> `menulis`, `sapu` -> `nyapu`). It over-generates candidate roots on purpose: a false match
only lets a question through to the reviewer, while a false miss annoys the author, who can still
submit with a justification.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*", re.UNICODE)

# Longest first so that "meng" is tried before "me".
_PREFIXES = sorted(
    [
        # Indonesian
        "meng",
        "meny",
        "mem",
        "men",
        "me",
        "peng",
        "peny",
        "pem",
        "pen",
        "pe",
        "per",
        "ber",
        "be",
        "di",
        "ke",
        "ter",
        "te",
        "se",
        "memper",
        "diper",
        # Sundanese
        "nga",
        "ng",
        "ny",
        "pa",
        "pang",
        "pi",
        "sa",
        "ti",
        "ka",
        "barang",
        "silih",
        "ba",
        "pika",
        "dipika",
    ],
    key=len,
    reverse=True,
)
_SUFFIXES = sorted(
    [
        # Indonesian: derivational, possessive, particles
        "kan",
        "an",
        "i",
        "nya",
        "lah",
        "kah",
        "pun",
        "ku",
        "mu",
        # Sundanese
        "eun",
        "keun",
        "na",
        "na",
        "an",
        "ing",
    ],
    key=len,
    reverse=True,
)
# Nasal prefix -> the root-initial consonants it may have swallowed.
_NASAL_RESTORE = {
    "meng": ["k", ""],
    "peng": ["k", ""],
    "meny": ["s"],
    "peny": ["s"],
    "ny": ["s", "c"],
    "mem": ["p", ""],
    "pem": ["p", ""],
    "men": ["t", ""],
    "pen": ["t", ""],
    "nga": [""],
    "ng": ["k", ""],
    "me": [""],
    "pe": [""],
}
# Sundanese plural/intensive infixes after the first consonant: "ar"/"al" (barudak <- budak).
_MIN_SHARED_ROOT = 4
_BARE_NASAL = {"ny": ["s", "c"], "ng": ["k"], "n": ["t"], "m": ["p", "b"]}
_INFIXES = ("ar", "al", "um", "in", "el", "em", "er")


def fold(text: str) -> str:
    """Case-fold and strip accents so that comparisons ignore them."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def words(text: str) -> list[str]:
    return _WORD.findall(fold(text))


@lru_cache(maxsize=50_000)
def candidate_roots(word: str) -> frozenset[str]:
    """Every root the word might have, the word itself included."""
    found: set[str] = {word}
    if "-" in word:  # reduplication: "kunjung-mengunjungi", "anak-anak"
        for part in word.split("-"):
            found |= candidate_roots(part)
    for stem in _strip_suffixes(word):
        found.add(stem)
        for prefix in _PREFIXES:
            if stem.startswith(prefix) and len(stem) - len(prefix) >= 2:
                rest = stem[len(prefix) :]
                for restored in _NASAL_RESTORE.get(prefix, [""]):
                    found.add(restored + rest)
                    found |= _strip_suffixes(restored + rest)
                    # Double prefixes: "memper-", "diper-", "ke-...-an" handled by another round.
                    for prefix2 in _PREFIXES:
                        if rest.startswith(prefix2) and len(rest) - len(prefix2) >= 2:
                            found.add(rest[len(prefix2) :])
        # Sundanese (and colloquial Indonesian) nasalise the root itself: tulis -> nulis, sapu -> nyapu.
        for nasal, restores in _BARE_NASAL.items():
            if stem.startswith(nasal) and len(stem) - len(nasal) >= 3:
                found.update(r + stem[len(nasal) :] for r in restores)
        if len(stem) > 4 and stem[1:3] in _INFIXES:
            found.add(stem[0] + stem[3:])
    return frozenset(r for r in found if len(r) >= 2)


def _strip_suffixes(word: str) -> set[str]:
    out = {word}
    frontier = {word}
    for _ in range(3):  # particle + possessive + derivational: "kunjungannyalah"
        nxt = set()
        for w in frontier:
            for suffix in _SUFFIXES:
                if w.endswith(suffix) and len(w) - len(suffix) >= 2:
                    nxt.add(w[: -len(suffix)])
        nxt -= out
        out |= nxt
        frontier = nxt
    return out


def _word_matches(concept_word: str, text_word: str) -> bool:
    if concept_word == text_word:
        return True
    text_roots = candidate_roots(text_word)
    if concept_word in text_roots:
        return True
    # Both inflected ("kunjungan" vs "berkunjung"): accept a shared root, but not a short one, which
    # would let unrelated words meet by accident ("pasar" and "besar" share "sar").
    shared = candidate_roots(concept_word) & text_roots
    return any(len(root) >= _MIN_SHARED_ROOT for root in shared)


def mentions_concept(text: str, concept: str) -> bool:
    """True when every word of the concept appears in the text, in the same order, possibly inflected."""
    concept_words = words(concept)
    if not concept_words:
        return True
    text_words = words(text)
    # Fast path for the uninflected phrase, on whole words only: "api" must not match "tapi".
    if re.search(r"(?<!\w)" + re.escape(" ".join(concept_words)) + r"(?!\w)", " ".join(text_words)):
        return True
    position = 0
    for cw in concept_words:
        for i in range(position, len(text_words)):
            if _word_matches(cw, text_words[i]):
                position = i + 1
                break
        else:
            return False
    return True
