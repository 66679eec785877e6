"""Item search by text: the item list's and the API's `q`.

Two ways to match, both case-insensitive, both on the item's current version:
- words (the default): every word typed begins a word of the item's text, in any order ("ketupat sa"
  finds "Siapa yang membuat ketupat sayur?"). PostgreSQL answers it from a GIN index of the payload's
  words (migration 0017, to_tsvector('simple', payload): every string value of the JSON, keys left
  out, no stemming, so it works the same for every language): a few index pages per word, at any size.
  A common word (more than RARE versions) is answered by checking the newest items one by one.
- inside words (`inside=1`): the text typed appears anywhere, also in the middle of a word ("makan"
  finds "memakan", what a language with prefixes needs). Answered from the trigram index of
  UPPER(payload::text) (migration 0013), which reads more of the index for common letter groups: at
  1,000,000 items a search costs a few times a word search.
Both indexes hold the versions ready for them (WHERE search_ready): an import's versions wait until a
task indexes them after its commit (annotation.search_index). Each query asks the index for the ready
versions and reads the waiting ones one by one (BitmapOr with the small index of waiting versions), so
an imported item is found from the moment its import commits.
SQLite (the demo) has neither index: there each word typed is matched anywhere in the payload.
"""

from __future__ import annotations

import unicodedata

from django.db import connection
from django.db.models import Func, Q, QuerySet

from annotation.models import Item, ItemVersion

MAX_WORDS = 10  # a longer query adds nothing but index reads
# A word search matching at most this many versions (of any project: the index has no project, and
# the items' own filter keeps the member's project) reads their items by id.
RARE = 2_000


def search_words(text: str) -> list[str]:
    """The words of `text`: runs of letters, marks and digits (what PostgreSQL's parser keeps), in order,
    duplicates dropped, at most MAX_WORDS."""
    words: list[str] = []
    current: list[str] = []
    for char in text + " ":
        if unicodedata.category(char)[0] in "LMN":
            current.append(char)
        elif current:
            word = "".join(current).lower()
            if word not in words:
                words.append(word)
            current = []
    return words[:MAX_WORDS]


def prefix_query(words: list[str]) -> str:
    """A tsquery in which each word must begin a word of the text: 'ketupat':* & 'sa':*. The words hold
    only letters, marks and digits (search_words), so quoting them cannot break the query's syntax."""
    return " & ".join(f"'{word}':*" for word in words)


class PayloadWords(Func):
    """to_tsvector('simple', payload): the exact expression migration 0017 indexes (the index is used only
    when the query repeats it)."""

    template = "to_tsvector('simple'::regconfig, %(expressions)s)"

    def __init__(self, expression, **extra):
        from django.contrib.postgres.search import SearchVectorField

        super().__init__(expression, output_field=SearchVectorField(), **extra)


def items_matching(qs: QuerySet[Item], text: str, *, inside_words: bool = False) -> QuerySet[Item]:
    """`qs` narrowed to the items whose current version matches `text` (see the module's docstring)."""
    words = search_words(text)
    if connection.vendor != "postgresql":
        for piece in [text] if inside_words or not words else words:
            qs = qs.filter(current_version__payload__icontains=piece)
        return qs
    # The matching versions' items come by the versions' (item, number) index (items have no index on
    # current_version); then only the items whose current version matches stay.
    if inside_words or not words:
        matching = indexed_or_waiting(ItemVersion.objects.all(), payload__icontains=text).values("item_id")
        return qs.filter(pk__in=matching, current_version__payload__icontains=text)
    from django.contrib.postgres.search import SearchQuery

    query = SearchQuery(prefix_query(words), config="simple", search_type="raw")
    hits = list(
        indexed_or_waiting(ItemVersion.objects.alias(words=PayloadWords("payload")), words=query)
        .order_by()  # in index order: sorting by the model's (item, number) would walk every version
        .values_list("item_id", flat=True)[: RARE + 1]
    )
    current = qs.alias(current_words=PayloadWords("current_version__payload")).filter(current_words=query)
    if len(hits) <= RARE:
        # Most searches: few versions match, and their items are read by id. Asked in one query,
        # PostgreSQL cannot tell how many rows a word prefix matches (it guesses 2% of the table) and
        # reads every item of the project to join them.
        return current.filter(pk__in=set(hits))
    return current  # a common word: the newest items, each one checked


def indexed_or_waiting(versions: QuerySet[ItemVersion], **match) -> QuerySet[ItemVersion]:
    """The versions that `match`: the ready ones from the partial index, the waiting ones read one by one.
    Each arm repeats its index's condition, or PostgreSQL would not use the partial indexes."""
    return versions.filter(Q(search_ready=True, **match) | Q(search_ready=False, **match))
