"""Item search by text: words beginning so (the word index), or the text anywhere (`inside`),
on the item's current version, on the page and in the API; the word index is what PostgreSQL uses."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from annotation.models import ItemVersion
from annotation.selectors import item_search
from annotation.selectors.item_search import PayloadWords, prefix_query, search_words
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
    hits = ItemVersion.objects.alias(words=PayloadWords("payload")).filter(words=query).order_by()
    sql, params = hits.values("item_id").query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # a tiny table: the planner would just scan it
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())

    assert "itemversion_payload_words" in plan
