"""Item search by text: words beginning so (the word index), or the text anywhere (`inside`),
on the item's current version, on the page and in the API; the word index is what PostgreSQL uses."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from annotation.models import ItemVersion
from annotation.search_index import index_waiting_versions
from annotation.selectors import item_search
from annotation.selectors.item_search import PayloadWords, indexed_or_waiting, prefix_query, search_words
from tests.qc.helpers import make_item

pytestmark = pytest.mark.django_db
ROW = re.compile(r'<tr id="item-(\d+)">')


def test_search_words_are_runs_of_letters_marks_and_digits_lower_cased_once_each():
    assert search_words("Ketupat, SAYUR! ketupat") == ["ketupat", "sayur"]
    assert search_words("tanda0777 (x-ray)") == ["tanda0777", "x", "ray"]
    assert search_words("كَتَبَ الولد") == ["كَتَبَ", "الولد"]  # Arabic marks stay inside the word
    assert search_words("?!' ; --") == []
    assert search_words(" ".join(f"w{n}" for n in range(15))) == [f"w{n}" for n in range(10)]
    assert prefix_query(["ketupat", "sa"]) == "'ketupat':* & 'sa':*"


@pytest.fixture
def texts(csqa, client):
    writer, choices = csqa.annotators[0], ["satu", "dua", "tiga", "empat", "lima"]
    made = {
        "ketupat": make_item(csqa.project, writer, question="Siapa yang membuat ketupat sayur?", choices=choices),
        "memakan": make_item(csqa.project, writer, question="Kapan orang memakan rendang?", choices=choices),
        "makanan": make_item(csqa.project, writer, question="Apa makanan khas Lebaran?", choices=choices),
        "quote": make_item(csqa.project, writer, question="Apa arti 'gotong-royong'?", choices=choices),
    }
    client.force_login(csqa.reviewer)
    return {name: item.pk for name, item in made.items()}


def _found(client, **params) -> list[int]:
    response = client.get(reverse("item_list", args=["demo"]), params)
    assert response.status_code == 200
    return [int(pk) for pk in ROW.findall(response.content.decode())]


def test_words_match_word_beginnings_in_any_order_and_inside_matches_anywhere(client, texts):
    assert connection.vendor == "postgresql"
    assert _found(client, q="ketu") == [texts["ketupat"]]
    assert _found(client, q="SAYUR ketupat") == [texts["ketupat"]]
    assert _found(client, q="makan") == [texts["makanan"]]  # "memakan" has no word beginning so
    assert _found(client, q="makan", inside="1") == [texts["makanan"], texts["memakan"]]
    assert _found(client, q="etupat") == []
    assert _found(client, q="etupat", inside="1") == [texts["ketupat"]]
    assert _found(client, q="gotong royong") == [texts["quote"]]
    assert _found(client, q="'gotong-") == [texts["quote"]]
    assert _found(client, q="rendang sayur") == []  # every word must be there
    # A query of punctuation alone has no words: it is matched as text.
    assert _found(client, q="'") == [texts["quote"]]


def test_the_inside_choice_is_kept_on_the_form_and_the_pager(client, texts):
    from annotation.selectors.items import ItemFilters
    from annotation.views.item_filters import filter_query

    html = client.get(reverse("item_list", args=["demo"]), {"q": "makan", "inside": "1"}).content.decode()

    assert '<input type="checkbox" name="inside" value="1" id="inside" checked>' in html
    assert filter_query(ItemFilters(q="makan", inside_words=True), per_page=10) == "q=makan&inside=1&per_page=10"
    assert filter_query(ItemFilters(inside_words=True)) == ""  # nothing to match inside


def test_only_the_current_version_is_searched(csqa, client, texts):
    item = ItemVersion.objects.get(item_id=texts["ketupat"]).item
    newer = ItemVersion.objects.create(
        item=item, number=2, payload={**item.current_version.payload, "question": "Siapa membuat opor?"},
        submitted_at=timezone.now(),
    )  # fmt: skip
    item.current_version = newer
    item.save(update_fields=["current_version"])

    assert _found(client, q="ketupat") == []
    assert _found(client, q="ketupat", inside="1") == []
    assert _found(client, q="opor") == [item.pk]


def test_a_common_word_gives_the_same_items_as_a_rare_one(client, texts, monkeypatch):
    rare = _found(client, q="apa")
    monkeypatch.setattr(item_search, "RARE", 1)  # two versions match "apa": the common-word path

    assert rare == [texts["quote"], texts["makanan"]]
    assert _found(client, q="apa") == rare


def test_the_api_searches_the_same_way(csqa, texts):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(csqa.reviewer)
    url = reverse("api-items", args=["demo"])

    def ids(**params):
        response = api.get(url, params)
        assert response.status_code == 200, response.content
        return sorted(row["id"] for row in response.json()["results"])

    assert ids(q="makan") == [texts["makanan"]]
    assert ids(q="makan", inside="true") == sorted([texts["makanan"], texts["memakan"]])


def test_postgresql_answers_a_word_search_from_the_word_index(texts):
    """The query must repeat the indexed expression exactly, or every version is read."""
    from django.contrib.postgres.search import SearchQuery

    query = SearchQuery(prefix_query(["ketupat"]), config="simple", search_type="raw")
    words = indexed_or_waiting(ItemVersion.objects.alias(words=PayloadWords("payload")), words=query)
    inside = indexed_or_waiting(ItemVersion.objects.all(), payload__icontains="etupat")

    # The ready versions from the word index, the waiting ones from theirs. (Inside words, the ready ones
    # come from the trigram index at any size worth an index; in a test's few rows PostgreSQL may as well
    # read a whole partial index. bench/item_list.py times both searches at 1,000,000 items.)
    plan = _plan(words.order_by().values("item_id"))
    assert "Bitmap Index Scan on itemversion_payload_words" in plan
    assert "Index Cond: (to_tsvector('simple'::regconfig, payload) @@ '''ketupat'':*'::tsquery)" in plan
    assert "Bitmap Index Scan on itemversion_search_pending" in plan
    assert "Bitmap Index Scan on itemversion_search_pending" in _plan(inside.order_by().values("item_id"))


def _plan(queryset) -> str:
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # a tiny table: the planner would just scan it
        cursor.execute("EXPLAIN " + sql, params)
        return "\n".join(row[0] for row in cursor.fetchall())


def test_versions_waiting_for_the_indexes_are_found_the_same_and_then_indexed(client, texts):
    """An import's versions wait for the search indexes until its task runs (annotation.search_index):
    meanwhile every search finds them all the same; the task then puts them in, a batch at a time."""
    found = {
        "ketu": _found(client, q="ketu"),
        "makan inside": _found(client, q="makan", inside="1"),
        "apa": _found(client, q="apa"),
    }
    waiting = ItemVersion.objects.filter(item_id__in=texts.values())
    assert waiting.update(search_ready=False) == 4
    assert ItemVersion.objects.filter(search_ready=False).count() == 4

    assert _found(client, q="ketu") == found["ketu"] == [texts["ketupat"]]
    assert _found(client, q="makan", inside="1") == found["makan inside"] == [texts["makanan"], texts["memakan"]]
    assert _found(client, q="apa") == found["apa"] == [texts["quote"], texts["makanan"]]
    # Half of the versions indexed: the others are still read one by one.
    ItemVersion.objects.filter(item_id__in=[texts["ketupat"], texts["quote"]]).update(search_ready=True)
    assert _found(client, q="apa") == found["apa"]
    assert _found(client, q="ketu") == found["ketu"]

    assert index_waiting_versions(batch=1) == 2  # two batches of one, then an empty one
    assert ItemVersion.objects.filter(search_ready=False).count() == 0
    assert index_waiting_versions() == 0
    assert _found(client, q="makan", inside="1") == found["makan inside"]
