"""The run page of a generation or adaptation run lists its filtered drafts: counts per reason and a
paginated list with the model's text (escaped), in a constant number of queries as the run grows."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from annotation.models import Item
from evaluation.models import Run
from evaluation.services.draft_summary import CREATED_PER_PAGE
from evaluation.services.drafts import draft_create, filtered_record
from evaluation.services.runs import run_create
from tests.evaluation.helpers import make_endpoint, runs_stay_pending

pytestmark = pytest.mark.django_db(transaction=True)


def _run(csqa, llm_server, kind="llm_gen"):
    endpoint = make_endpoint(llm_server, name=f"e{Run.objects.count()}")
    with runs_stay_pending():
        if kind == "llm_gen":
            return run_create(kind=kind, endpoints=[endpoint], project=csqa.project, user=csqa.admin, parameters={})
        return run_create(kind=kind, endpoints=[endpoint], parameters={"prompts": ["a"]})


def _fill(run, *, duplicates: int, unreadable: int) -> None:
    for i in range(duplicates):
        filtered_record(
            run=run,
            reason="duplicate_in_run",
            call=None,
            detail="Seen before.",
            concept_name="kunjung",
            record={"question": f"<script>alert({i})</script> nomor {i}", "choices": ["a", "b"]},
        )
    for i in range(unreadable):
        filtered_record(
            run=run, call=None, reason="unreadable", detail="No JSON was found in the reply.", record=f"<b>{i}"
        )
    draft_create(
        run=run,
        call=None,
        payload={"question": "Ke mana kita kunjung?", "choices": list("abcde"), "answer": "A"},
        source=Item.Source.LLM_GEN,
        model="m",
        language="id",
    )


def _admin(csqa) -> Client:
    client = Client()
    client.force_login(csqa.admin)
    return client


def test_counts_per_reason_and_a_page_of_escaped_drafts(csqa, llm_server):
    run = _run(csqa, llm_server)
    _fill(run, duplicates=60, unreadable=2)
    url = reverse("llm_run_page", args=[csqa.project.slug, run.pk])
    client = _admin(csqa)

    page = client.get(url).content.decode()
    assert 'Items created: <strong id="drafts-created">1</strong>' in page
    assert 'Filtered: <strong id="drafts-filtered">62</strong>' in page
    assert 'data-reason="duplicate_in_run">duplicate_in_run</a> <span class="count">60</span>' in page
    assert 'data-reason="unreadable">unreadable</a> <span class="count">2</span>' in page
    assert page.count('<pre dir="auto" class="draft-text">') == 50
    assert "&lt;script&gt;alert(0)&lt;/script&gt; nomor 0" in page and "<script>alert(" not in page
    assert "Page 1 of 2" in page

    second = client.get(url, {"page": 2}).content.decode()
    assert second.count('<pre dir="auto" class="draft-text">') == 12
    assert "&lt;b&gt;1</pre>" in second and "nomor 49<" not in second and "nomor 50" in second

    only = client.get(url, {"reason": "unreadable"}).content.decode()
    assert only.count('<pre dir="auto" class="draft-text">') == 2
    assert "&lt;b&gt;0</pre>" in only and "nomor" not in only and "Page 1 of" not in only


def test_the_page_costs_the_same_queries_for_a_small_and_a_large_run(csqa, llm_server, django_assert_max_num_queries):
    small, large = _run(csqa, llm_server), _run(csqa, llm_server)
    _fill(small, duplicates=2, unreadable=1)
    _fill(large, duplicates=400, unreadable=150)
    client = _admin(csqa)
    client.get(reverse("llm_run_page", args=[csqa.project.slug, small.pk]))  # session, caches warmed

    counts = []
    for run in (small, large):
        with django_assert_max_num_queries(20) as captured:
            response = client.get(reverse("llm_run_page", args=[csqa.project.slug, run.pk]), {"page": 2})
        assert response.status_code == 200
        counts.append(len(captured.captured_queries))
    assert counts[0] == counts[1], counts


def test_a_responses_run_has_no_drafts_section(csqa, llm_server):
    run = _run(csqa, llm_server, kind="responses")
    Run.objects.filter(pk=run.pk).update(project=csqa.project)
    page = _admin(csqa).get(reverse("llm_run_page", args=[csqa.project.slug, run.pk])).content.decode()
    assert 'id="run-drafts"' not in page


def test_the_run_page_names_the_run_lists_its_parameters_and_pages_the_items_created(csqa, llm_server):
    run = _run(csqa, llm_server)
    Run.objects.filter(pk=run.pk).update(parameters={"max_tokens": 512, "categories": ["cat0", "cat1"]})
    for n in range(CREATED_PER_PAGE + 3):
        draft_create(
            run=run,
            call=None,
            payload={"question": f"Soal {n} <i>miring</i>?", "choices": list("abcde"), "answer": "A"},
            source=Item.Source.LLM_GEN,
            model="m",
            language="id",
            concept_name=f"konsep{n}",
            steps={"generate": {"question": f"Soal {n} <i>miring</i>?"}},
        )
    url = reverse("llm_run_page", args=[csqa.project.slug, run.pk])
    client = _admin(csqa)

    page = client.get(url).content.decode()
    second = client.get(url, {"created_page": 2}).content.decode()
    listing = client.get(reverse("llm_run_list", args=[csqa.project.slug])).content.decode()

    assert '<h1 id="run-title">Generated questions, 1 model <span class="muted">' in page
    # (jsonb keeps keys by length, then bytes)
    assert '<dt>Categories</dt><dd dir="auto">cat0, cat1</dd><dt>Max tokens</dt><dd dir="auto">512</dd>' in page
    assert page.count('class="created-text"') == CREATED_PER_PAGE
    assert '<td dir="auto">konsep0</td>' in page
    assert "&quot;question&quot;: &quot;Soal 0 &lt;i&gt;miring&lt;/i&gt;?&quot;" in page
    assert second.count('class="created-text"') == 3 and '<td dir="auto">konsep52</td>' in second
    assert "<td>Generated questions, 1 model</td>" in listing
