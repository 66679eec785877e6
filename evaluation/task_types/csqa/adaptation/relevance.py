"""LLM_ADAPT step 1: is an English question's concept relevant to a location? (Putri et al. 2024, §4.1.)

An ensemble of five yes/no prompts (Appendix A.1.1), a verb and a non-verb variant of each, with the
location "Indonesia" (Indonesian data) or "West Java" (Sundanese); final relevance by majority vote.
Questions containing person names or places are irrelevant without asking (the paper: "Data
containing person names and/or locations are regarded as irrelevant by default ... our preliminary
experiment showed all such data are Western-centric").

Two departures, because the paper's tools are not available offline: whether a concept is a verb came
from the ConceptNet API, here it is given by the caller or guessed from an "-ing" form ("skiing",
"studying"); names and places came from Stanza's NER, here from capitalised words (see
`names_and_places`). Both are pure and replaceable.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from evaluation import templating

LOCATIONS = ("Indonesia", "West Java")

# Appendix A.1.1, word for word. {QUESTION}, {QUESTION CONCEPT} and {Indonesia/West Java} are
# {{ question }}, {{ concept }} and {{ location }}; the PDF's curly quotes are plain ones.
_HEAD = "Text: {{ question }}\nConcept: {{ concept }}\n"
_TAIL = " Answer with 'yes' or 'no'."
VERB_PROMPTS = (
    _HEAD + "Can one '{{ concept }}' in {{ location }}?" + _TAIL,
    _HEAD + "Do people in {{ location }} familiar with '{{ concept }}' concept?" + _TAIL,
    _HEAD + "Is '{{ concept }}' concept exist in {{ location }}?" + _TAIL,
    _HEAD + "In {{ location }}, can people '{{ concept }}'?" + _TAIL,
    _HEAD + "Can '{{ concept }}' be done in {{ location }}?" + _TAIL,
)
NON_VERB_PROMPTS = (
    _HEAD + "Can one find '{{ concept }}' in {{ location }}?" + _TAIL,
    _HEAD + "Do people in {{ location }} familiar with '{{ concept }}' concept?" + _TAIL,
    _HEAD + "Is '{{ concept }}' concept exist in {{ location }}?" + _TAIL,
    _HEAD + "In {{ location }}, can people find '{{ concept }}'?" + _TAIL,
    _HEAD + "Can '{{ concept }}' be found in {{ location }}?" + _TAIL,
)

_YES_NO = re.compile(r"\b(yes|no)\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_SENTENCE_END = re.compile(r"[.!?]\s*$")
# Words an English question may start with, capitalised only because they start it.
_COMMON_STARTERS = frozenset(
    word
    for line in (
        "a about after all also an and any are as at be because before being both but by can could did",
        "do does during each even every for from had has have having he her here his how i if in",
        "instead into is it its just let many may maybe might more most much must my no not now of on",
        "once one only or other our out over people really she should since so some someone something",
        "sometimes still such than that the their them then there these they this those though through",
        "to too two under unless until up upon usually was we were what whatever when where whether",
        "which while who whom whose why will with without would you your",
    )
    for word in line.split()
)


def is_verb(concept: str) -> bool:
    """A guess where ConceptNet is not at hand: "skiing", "go fishing" are verbs; "snow" is not."""
    first = concept.strip().split(" ")[0].lower() if concept.strip() else ""
    return first.endswith("ing") and len(first) > 4


def prompts(*, question: str, concept: str, location: str, verb: bool) -> list[str]:
    fields = {"question": question, "concept": concept, "location": location}
    return [templating.render(t, fields) for t in (VERB_PROMPTS if verb else NON_VERB_PROMPTS)]


def messages(*, question: str, concept: str, location: str, verb: bool) -> list[list[dict[str, str]]]:
    return [
        [{"role": "user", "content": p}]
        for p in prompts(question=question, concept=concept, location=location, verb=verb)
    ]


def parse_yes_no(reply: str) -> bool | None:
    """The first "yes" or "no" in the reply; None when there is neither."""
    match = _YES_NO.search(reply or "")
    return None if match is None else match.group(1).lower() == "yes"


def names_and_places(question: str) -> list[str]:
    """Capitalised words that are not just a sentence's first word: "James", "Michigan", "New York"."""
    found: list[str] = []
    for match in _WORD.finditer(question):
        word = match.group(0)
        before = question[: match.start()]
        sentence_start = not before.strip() or bool(_SENTENCE_END.search(before))
        common_starter = sentence_start and word.lower().strip("'’") in _COMMON_STARTERS
        if word[0].isupper() and word != "I" and not common_starter:
            found.append(word)
    return found


@dataclass(frozen=True)
class Relevance:
    relevant: bool
    votes: tuple[bool | None, ...]  # one per prompt, None when the reply said neither yes nor no
    reason: str  # "majority" | "names_or_places"
    names: tuple[str, ...] = ()

    @property
    def yes(self) -> int:
        return sum(v is True for v in self.votes)


def decide(votes: Sequence[bool | None]) -> Relevance:
    """Majority of the prompts (3 of 5): an unreadable reply counts as not "yes", so the item is adapted."""
    yes = sum(v is True for v in votes)
    return Relevance(relevant=yes * 2 > len(votes), votes=tuple(votes), reason="majority")


def irrelevant_by_names(question: str) -> Relevance | None:
    """Irrelevant at once, no calls, when the question names people or places."""
    names = names_and_places(question)
    if names:
        return Relevance(relevant=False, votes=(), reason="names_or_places", names=tuple(names))
    return None


def adaptation_steps(relevance: Relevance) -> list[str]:
    """Step 2's prompts for one question: relevant -> none; irrelevant -> adapt all, then adapt name
    when it names people (the paper runs "adapt name" on the data flagged for names after "adapt all")."""
    if relevance.relevant:
        return []
    return ["adapt_all", "adapt_name"] if relevance.names else ["adapt_all"]
