"""Reading the answer out of a model's reply: documented rules, tried in order, each named.

Every reply is stored raw; these functions only decide what it answered. A reply no rule reads is
*unparsed* (it counts as wrong and is listed for a person to look at). The first rule that finds
something decides: if it finds two different answers the reply is ambiguous and unparsed, and no
later rule is tried (a later, looser rule would only guess between them).

Multiple choice, `extract_choice(reply, choices, letters="ABCDE")`. The valid letters are the first
len(choices) of `letters`. Rules, in order (`rule` of the result):

1. ``empty``: a blank reply is unparsed.
2. ``lone_letter``: the whole reply is one letter, with optional period, colon, parentheses, quotes
   or markdown emphasis, any case: "C", "c", "C.", "(C)", "C)", "**C**". Two letters offered
   together ("A atau C", "B or D", "A/C") are ``ambiguous``.
3. ``paper_answer_is``: the commonsense-QA paper's (Putri et al. 2024) evaluation code's first
   regular expression, verbatim: ``The (correct )?answer is ([A-G]).`` (case-sensitive). Its ``.``
   matches any character, so "The answer is Bakso." would read as B: we keep a match only when the
   character after the letter is not a letter or digit; its ``.`` does not match a line end, so
   "The answer is E" at the end of a line is left to rule 4. Tried before rule 4 (which reads the
   same replies) so a reply in the paper's form is credited to the paper's expression, unless rule 4
   also reads another letter ("The answer is C. No wait, the answer is D." is ambiguous).
4. ``answer_marker``: an answer phrase then the letter, any case of the phrase. English "Answer: C",
   "The answer is C", "The correct answer is (C)", "Correct option: C"; Indonesian "Jawaban: C",
   "Jawabannya adalah C", "Jawaban yang benar adalah C. ...", "Pilihan yang tepat: C"; Sundanese
   "Jawabanana C", "Jawabanna nyaéta C", "Jawaban nu leres nyaéta C", "Walonanana: C". A lowercase
   letter counts only before punctuation or the end ("Jawaban: c."), so "The answer is a bit..." is
   not read as A. A letter outside the valid ones counts only when it stands alone ("Jawaban: F.")
   and makes the reply unparsed (``out_of_range``); "Answer: I think..." is a pronoun, not a letter.
   Phrases that discuss an option rather than answer are skipped: a bare "option/pilihan" needs a
   qualifier ("the best option is C"; "Option A is wrong" is not an answer), a bare "answer/jawaban"
   needs a copula, a colon or a letter standing alone ("jawaban A kurang tepat" is not an answer).
   "Jawaban: A atau C" offers two letters: ``ambiguous``.
5. ``line_start``: "C." / "C)" / "(C)" / "C:" / "C -" or a letter alone at the start of a line
   (after spaces, "-", ">" or markdown emphasis), uppercase, followed by a space or the end of the
   line: "C. Makan dengan tangan kanan", "C\n\nPenjelasan: ...". The first non-blank line is tried
   first (a model that answers and then discusses the other options); then every line, where two
   different letters are ambiguous. A reply that repeats the option list ("A. ...", "B. ...",
   "C. ...") is ambiguous even though its first line starts with "A.".
6. ``paper_option_line``: the paper's second regular expression, verbatim: ``\\b([A-G]\\..+?)\\n``
   (a letter, a period, some text, a line end anywhere in the reply; the reply is searched with a
   final newline added so its last line counts too). The paper's code takes the first match; we
   take every match and call two different letters ambiguous.
7. ``bold``: markdown bold holding a letter: "**C**", "**(C)**", "**C. Makan dengan tangan kanan**"
   anywhere in the reply ("Pilihan terbaik adalah **C**").
8. ``option_text``: no letter found, and the reply (after an optional answer phrase such as
   "Jawaban:" and a trailing period) equals one option's text, compared folded (Unicode NFKC,
   casefold, runs of spaces as one space, surrounding quotes/emphasis removed):
   "makan menggunakan  tangan kanan" reads as the option "Makan menggunakan tangan kanan".
9. ``refusal`` (unparsed): nothing read and the reply declines ("I'm sorry, I cannot ...",
   "Maaf, saya tidak bisa menjawab", "Punten, abdi teu tiasa ngajawab"). Otherwise ``no_match``.

Labels, `extract_label(reply, labels, aliases)`: the same idea for a label set (the caller's labels,
e.g. three inference labels, and their aliases in other languages, given by the task type so this
module names none). Rules: ``empty``; ``lone_label`` (the whole reply is a label or alias);
``label_marker`` ("Label: X", "Answer: X", "Jawaban: X", "Jawabannya adalah X", "Jawabanana X");
``bold`` (bold spans naming exactly one label); ``label_word`` (whole-word mentions anywhere, one
distinct label, else ambiguous); then ``refusal`` / ``no_match``. Aliases of one character (codes such
as "e") are used only by ``lone_label`` and ``label_marker``: as a free word they are too common.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple


class Extraction(NamedTuple):
    answer: str | None
    parsed: bool
    rule: str


EMPTY = "empty"
AMBIGUOUS = "ambiguous"
OUT_OF_RANGE = "out_of_range"
REFUSAL = "refusal"
NO_MATCH = "no_match"

# The paper's two expressions, verbatim (see rules 4 and 6 above).
PAPER_ANSWER_IS = re.compile(r"The (correct )?answer is ([A-G]).")
PAPER_OPTION_LINE = re.compile(r"\b([A-G]\..+?)\n")

# An answer phrase: English, Indonesian and Sundanese nouns for "answer" and for "option", an optional
# "correct" qualifier, an optional copula. Sundanese suffixes -na/-ana; "nu leres" = "that is right".
_ANSWER_NOUN = r"answer|jawaban(?:nya|na|ana)?|walonan(?:na|ana)?"
_CHOICE_NOUN = r"option|choice|pilihan(?:nya|na|ana)?|opsi(?:nya)?"
_MARKER = (
    r"(?<![\w])(?:(?P<qualifier>(?:the\s+)?(?:correct|right|best|final))\s+)?"
    r"(?P<noun>" + _ANSWER_NOUN + "|" + _CHOICE_NOUN + r")"
    r"(?P<after>\s+(?:yang|nu)\s+(?:paling\s+)?(?:benar|tepat|sesuai|leres|bener|pas|cocog))?"
    r"(?P<copula>\s*(?:is|would\s+be|adalah|ialah|yaitu|yakni|nyaéta|nyaeta|nya\s+éta|nya\s+eta)\b)?"
    r"\s*(?P<colon>[:=\-])?\s*(?:(?:option|pilihan|opsi)\s+)?[\*_\"'“(\[]*"
)
_CHOICE_NOUN_ONLY = re.compile(r"(?:" + _CHOICE_NOUN + r")$", re.IGNORECASE)
_MARKER_LETTER = re.compile(_MARKER + r"([A-Za-z])(?![\w'’-])", re.IGNORECASE)
_MARKER_PREFIX = re.compile(r"^\s*" + _MARKER, re.IGNORECASE)

# Possessive (*+) runs: no later part of the pattern can use a character they give back, and without
# them a letter, 20,000 spaces and a word took 9 s of backtracking before failing.
_LONE = re.compile(r"^[\s\*_\"'“”`]*+\(?\s*+([A-Za-z])\s*+\)?[\.:]?[\s\*_\"'“”`]*+\.?$")
_LINE_START = re.compile(
    r"^[ \t>\-\*_#]*(?:\(([A-Z])\)|([A-Z])(?:[\.\):]|[ \t]+[-–—](?=\s)|(?=[ \t\*]*$)))(?=\s|\*|$)", re.MULTILINE
)
# "A atau C", "B or D", "A/C": two letters offered as the answer.
_CONJUNCTION = r"(?:,|/|&|(?i:or|atau|atawa|and|dan|jeung))"
_LETTER_PAIR = re.compile(
    r"^[\s\*_\"'(]*([A-Za-z])[\.\)]?[ \t]*" + _CONJUNCTION + r"[ \t]*\(?([A-Za-z])[\.\)]?[\s\*_\"'.]*$"
)
_ALSO = re.compile(r"\)?[ \t]*" + _CONJUNCTION + r"[ \t]+\(?([A-Z])(?![\w'’-])")
_BOLD = re.compile(r"\*\*\s*\(?([A-Za-z])(?:\)|[\.\):][^*\n]*)?\s*\*\*")
_BOLD_SPAN = re.compile(r"\*\*([^*\n]+)\*\*")

_REFUSAL = re.compile(
    r"\b(?:i\s*(?:'m|am)\s+sorry|i\s+(?:cannot|can't|can’t|am\s+unable|won't)|as\s+an\s+ai|unable\s+to\s+answer|"
    r"maaf|tidak\s+(?:bisa|dapat|mampu)\s+menjawab|tidak\s+tahu|"
    r"punten|hapunten|teu\s+(?:tiasa|bisa|terang|nyaho))\b",
    re.IGNORECASE,
)
_STANDALONE_AFTER = re.compile(r"[ \t]*(?:[\.\):,;!?\*\]\"'”\n]|$)")


def fold(text: str) -> str:
    """Text compared without case, width or spacing differences, surrounding quotes or emphasis."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = " ".join(text.split())
    return text.strip(" \t\n*_`\"'“”‘’.,;:!?")


def _valid_letters(choices: Sequence[str], letters: Sequence[str]) -> list[str]:
    letters = [letter.upper() for letter in letters]
    return letters[: len(choices)] if choices else letters


def _decide(found: Iterable[str], valid: Sequence[str], rule: str) -> Extraction | None:
    """The outcome of one rule's matches (upper-cased letters), or None when it found nothing."""
    distinct = list(dict.fromkeys(found))
    if not distinct:
        return None
    if len(distinct) > 1:
        return Extraction(None, False, AMBIGUOUS)
    if distinct[0] not in valid:
        return Extraction(None, False, OUT_OF_RANGE)
    return Extraction(distinct[0], True, rule)


def _is_answer_phrase(match: re.Match[str], standalone: bool) -> bool:
    """Whether a marker match states an answer, not a mention in an explanation.

    "Option A is wrong because ..." and "jawaban A kurang tepat" discuss an option: a bare "option"
    noun needs a qualifier ("the correct option", "pilihan yang benar"); a bare "answer" noun needs a
    qualifier, a copula or a colon, or a letter that stands alone ("Jawabanana C.").
    """
    qualified = bool(match.group("qualifier") or match.group("after"))
    if _CHOICE_NOUN_ONLY.match(match.group("noun")) and not qualified:
        return False
    return qualified or bool(match.group("copula") or match.group("colon")) or standalone


def _marker_letters(reply: str, valid: Sequence[str]) -> list[str]:
    found = []
    for match in _MARKER_LETTER.finditer(reply):
        letter = match.group(_MARKER_LETTER.groups)
        standalone = bool(_STANDALONE_AFTER.match(reply, match.end()))
        if not _is_answer_phrase(match, standalone):
            continue
        if letter.islower() and not standalone:
            continue  # "the answer is a bit ...": an article, not a letter
        if letter.upper() not in valid and not standalone:
            continue  # "Answer: I think ...": a pronoun, not an out-of-range letter
        found.append(letter.upper())
        also = _ALSO.match(reply, match.end())
        if also:
            found.append(also.group(1))
    return found


def _line_start_letters(reply: str, valid: Sequence[str]) -> list[str]:
    """Letters of rule 5: the first non-blank line's, else every line's.

    A reply that repeats the option list ("A. ...", "B. ...", "C. ...") gives all its letters, so it
    is ambiguous even though its first line starts with "A.".
    """
    every = [a or b for a, b in _LINE_START.findall(reply)]
    if len(every) > 1 and every == list(valid[: len(every)]):
        return every
    first_line = next((line for line in reply.splitlines() if line.strip()), "")
    first = [a or b for a, b in _LINE_START.findall(first_line)]
    return first or every


def _paper_answer_is(reply: str) -> list[str]:
    found = []
    for match in PAPER_ANSWER_IS.finditer(reply):
        after = reply[match.end(2) : match.end(2) + 1]
        if not after.isalnum():
            found.append(match.group(2))
    return found


def _option_text(reply: str, choices: Sequence[str], valid: Sequence[str]) -> Extraction | None:
    candidates = {fold(reply)}
    prefix = _MARKER_PREFIX.match(reply)
    if prefix:
        candidates.add(fold(reply[prefix.end() :]))
    hits = [valid[i] for i, text in enumerate(choices) if i < len(valid) and fold(text) in candidates]
    return _decide(hits, valid, "option_text")


def _unparsed(reply: str) -> Extraction:
    return Extraction(None, False, REFUSAL if _REFUSAL.search(reply) else NO_MATCH)


def extract_choice(reply: str, choices: Sequence[str], letters: Sequence[str] = "ABCDE") -> Extraction:
    """The letter a reply answers among `choices` (lettered by `letters`), by the rules in the module doc.

    Letters are matched without case; the answer is spelled as in `letters`."""
    found = _extract_choice(reply, choices, letters)
    if found.answer is None:
        return found
    spelled = {letter.upper(): letter for letter in letters}
    return found._replace(answer=spelled[found.answer])


def _extract_choice(reply: str, choices: Sequence[str], letters: Sequence[str]) -> Extraction:
    if not reply or not reply.strip():
        return Extraction(None, False, EMPTY)
    valid = _valid_letters(choices, letters)

    lone = _LONE.match(reply)
    if lone:
        return _decide([lone.group(1).upper()], valid, "lone_letter") or _unparsed(reply)

    pair = _LETTER_PAIR.match(reply)
    if pair and pair.group(1).upper() != pair.group(2).upper():
        return Extraction(None, False, AMBIGUOUS)
    paper, marker = _paper_answer_is(reply), _marker_letters(reply, valid)
    if not set(marker) <= set(paper):
        paper = []  # rule 4 reads another letter as well: let it decide (a reply that corrects itself)
    rules: list[tuple[str, list[str]]] = [
        ("paper_answer_is", paper),
        ("answer_marker", marker),
        ("line_start", _line_start_letters(reply, valid)),
        ("paper_option_line", [m[0] for m in PAPER_OPTION_LINE.findall(reply + "\n")]),
        ("bold", [letter.upper() for letter in _BOLD.findall(reply)]),
    ]
    for rule, found in rules:
        decided = _decide(found, valid, rule)
        if decided is not None:
            return decided

    by_text = _option_text(reply, choices, valid)
    if by_text is not None:
        return by_text
    return _unparsed(reply)


# --- labels -------------------------------------------------------------------------------------


def _spellings(labels: Sequence[str], aliases: Mapping[str, Sequence[str]] | None) -> dict[str, str]:
    """Folded spelling -> label, the labels themselves included."""
    spellings = {fold(label): label for label in labels}
    for label, names in (aliases or {}).items():
        if label not in labels:
            raise ValueError(f"alias given for {label!r}, which is not one of the labels {list(labels)}")
        for name in names:
            spellings.setdefault(fold(name), label)
    return spellings


def _word_pattern(spellings: Iterable[str]) -> re.Pattern[str]:
    # Longest first, so a two-word alias wins over a one-word alias it starts with.
    ordered = sorted(spellings, key=len, reverse=True)
    return re.compile(r"(?<!\w)(" + "|".join(re.escape(s) for s in ordered) + r")(?!\w)")


def _decide_label(found: Iterable[str], rule: str) -> Extraction | None:
    distinct = list(dict.fromkeys(found))
    if not distinct:
        return None
    if len(distinct) > 1:
        return Extraction(None, False, AMBIGUOUS)
    return Extraction(distinct[0], True, rule)


def extract_label(reply: str, labels: Sequence[str], aliases: Mapping[str, Sequence[str]] | None = None) -> Extraction:
    """The label a reply answers among `labels` (aliases: label -> other spellings), by the module doc's rules."""
    if not reply or not reply.strip():
        return Extraction(None, False, EMPTY)
    spellings = _spellings(labels, aliases)
    words = {s: label for s, label in spellings.items() if len(s) > 1}

    folded = fold(reply)
    if folded in spellings:
        return Extraction(spellings[folded], True, "lone_label")

    text = unicodedata.normalize("NFKC", reply).casefold()
    all_words = _word_pattern(spellings)
    free_words = _word_pattern(words) if words else None

    marker = re.compile(r"(?:" + _MARKER + r"|(?P<label_key>(?<!\w)label\s*[:=]\s*[\*_\"'“(\[]*))", re.IGNORECASE)
    found = []
    for match in marker.finditer(text):
        word = all_words.match(text, match.end())
        if not word:
            continue
        standalone = bool(_STANDALONE_AFTER.match(text, word.end()))
        if match.group("label_key") is None and not _is_answer_phrase(match, standalone):
            continue
        found.append(spellings[word.group(1)])
    decided = _decide_label(found, "label_marker")
    if decided is not None:
        return decided

    if free_words is not None:
        in_bold = []
        for span in _BOLD_SPAN.findall(text):
            in_bold.extend(words[w] for w in free_words.findall(span))
        decided = _decide_label(in_bold, "bold")
        if decided is not None:
            return decided
        decided = _decide_label((words[w] for w in free_words.findall(text)), "label_word")
        if decided is not None:
            return decided
    return _unparsed(reply)


# Arabic option keys (abjad order: أ ب ج د ه), as Arabic prompts letter their options. A reply in Arabic is
# read with the same rules once its keys stand as the Latin letters of the same position and its answer
# phrase ("الإجابة الصحيحة هي", "الجواب:") as "The answer is".
ARABIC_KEYS = {"أ": "A", "ا": "A", "ب": "B", "ج": "C", "د": "D", "هـ": "E", "ه": "E"}
_ARABIC_LETTER = "\u0600-\u06ff"
_ARABIC_KEY = re.compile(f"(?<![{_ARABIC_LETTER}])(هـ|[أابجده])(?![{_ARABIC_LETTER}])")
_ARABIC_ANSWER = re.compile(
    f"(?<![{_ARABIC_LETTER}])(?:ال)?(?:إجابة|اجابة|جواب|خيار)(?:\\s+(?:ال)?(?:صحيحة|صحيح))?(?:\\s+(?:هي|هو))?\\s*[:：]?\\s*"
)


def arabic_reply_as_latin(reply: str) -> str:
    """The reply with its Arabic answer phrase and standalone Arabic option keys in Latin form."""
    text = _ARABIC_ANSWER.sub("The answer is ", reply)
    return _ARABIC_KEY.sub(lambda m: ARABIC_KEYS[m.group(1)], text)
