"""NLI labels and the IndoNLI inference tags (phenomena).

Files spell labels in many ways (IndoNLI: "e"/"n"/"c"; MNLI/SNLI: "entailment", "-" for no gold).
`normalize_label` maps the spellings we have seen to one canonical name and refuses anything else:
a value we do not recognise is reported by the caller, never guessed (a "0" means entailment in one
release and something else in another).
"""

from __future__ import annotations

from dataclasses import dataclass

ENTAILMENT = "entailment"
NEUTRAL = "neutral"
CONTRADICTION = "contradiction"
LABELS: tuple[str, ...] = (ENTAILMENT, NEUTRAL, CONTRADICTION)

CODES: dict[str, str] = {ENTAILMENT: "e", NEUTRAL: "n", CONTRADICTION: "c"}
FROM_CODE: dict[str, str] = {code: label for label, code in CODES.items()}

# "-" is MNLI/SNLI's gold_label when no label has 3 votes; "" is an unfilled labelN column.
NO_LABEL: frozenset[str] = frozenset({"", "-"})

_SPELLINGS: dict[str, str] = {**{label: label for label in LABELS}, **FROM_CODE}


class UnknownLabel(ValueError):
    """A label value that is none of the known spellings; the caller reports it with its place."""

    def __init__(self, value: object) -> None:
        self.value = value
        super().__init__(f"unknown label {value!r}: expected one of e, n, c, {', '.join(LABELS)} or '-' for none")


def normalize_label(value: object) -> str | None:
    """Canonical label name, or None for "no label" ("-", "", None). Raises UnknownLabel otherwise.

    Case and surrounding spaces are ignored ("Entailment", " E "); nothing else is accepted.
    """
    if value is None:
        return None
    if not isinstance(value, str):
        raise UnknownLabel(value)
    key = value.strip().casefold()
    if key in NO_LABEL:
        return None
    try:
        return _SPELLINGS[key]
    except KeyError:
        raise UnknownLabel(value) from None


def label_code(label: str) -> str:
    """Short code (e/n/c) of a canonical label, the form IndoNLI's files use."""
    return CODES[label]


@dataclass(frozen=True)
class Phenomenon:
    tag: str
    name: str
    help: str


# Table 13 of the paper (Appendix F), in Table 11's order; help texts shortened in our own words.
PHENOMENA: dict[str, Phenomenon] = {
    p.tag: p
    for p in (
        Phenomenon(
            "MORPH",
            "Morphological derivation",
            "A word changes form by derivation, e.g. a noun becomes a verb (verbalisation) or the reverse.",
        ),
        Phenomenon(
            "STRUCT",
            "Syntactic structure reordering",
            "The premise's arguments are reordered, e.g. active voice turned into passive.",
        ),
        Phenomenon(
            "LSUB",
            "Lexical subsequence",
            "Word overlap: the hypothesis deletes or adds words without changing the sentence structure.",
        ),
        Phenomenon("NEG", "Negation", "Negation words such as tidak or bukan decide the inference."),
        Phenomenon(
            "COORD",
            "Coordinating conjunction",
            "Inference about conjunctions (dan, tetapi, atau) joining noun phrases, verb phrases or clauses.",
        ),
        Phenomenon(
            "QUANT",
            "Logical quantification",
            "Natural-language universal and existential quantifiers (semua, ada, beberapa).",
        ),
        Phenomenon(
            "NUM",
            "Numerical & math reasoning",
            "Cardinal or ordinal numbers, percentages, money; arithmetic and counting entities.",
        ),
        Phenomenon(
            "COMP",
            "Comparative & superlative",
            "Qualitative or quantitative differences between entities (lebih, paling).",
        ),
        Phenomenon(
            "LEXSEM",
            "Lexical semantics",
            "Lexical knowledge: synonyms, antonyms, hypernyms and hyponyms.",
        ),
        Phenomenon(
            "IDIOM",
            "Idiomatic expression",
            "An idiom has to be understood to make the inference.",
        ),
        Phenomenon(
            "COREF",
            "Anaphora & coreference",
            "Pronouns, proper names and noun phrases that refer to the same entity.",
        ),
        Phenomenon(
            "SPAT",
            "Spatial reasoning",
            "Places and spatial relations between entities; prepositions of location and direction.",
        ),
        Phenomenon(
            "TEMP",
            "Temporal expression & reasoning",
            "Time: how long an event lasts, when an activity usually happens, the order of events.",
        ),
        Phenomenon(
            "CS",
            "Common-sense reasoning",
            "Knowledge most people share whatever their culture or schooling: physical and social dynamics, "
            "plausibility, cause and effect.",
        ),
        Phenomenon(
            "WORLD",
            "World knowledge",
            "Knowledge of named entities, history, culture, current events or a specialised domain.",
        ),
    )
}

# The released diagnostic file spells LEXSEM as SEMLEX: its 166 SEMLEX pairs (68 E, 73 C, 25 N) are
# exactly Table 11's LEXSEM row, so this is the same tag, not a guess.
PHENOMENON_ALIASES: dict[str, str] = {"SEMLEX": "LEXSEM"}


class UnknownPhenomenon(ValueError):
    def __init__(self, value: object) -> None:
        self.value = value
        super().__init__(f"unknown inference tag {value!r}: expected one of {', '.join(PHENOMENA)}")


def normalize_phenomenon(value: object) -> str:
    """Canonical tag (upper case, known aliases resolved); raises UnknownPhenomenon otherwise."""
    if not isinstance(value, str):
        raise UnknownPhenomenon(value)
    tag = value.strip().upper()
    tag = PHENOMENON_ALIASES.get(tag, tag)
    if tag not in PHENOMENA:
        raise UnknownPhenomenon(value)
    return tag
