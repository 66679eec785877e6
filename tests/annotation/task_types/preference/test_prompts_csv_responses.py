"""preference-prompts in CSV: a responses cell holds the JSON list the gold export writes; a cell that is
not such a list is reported and the prompt comes in without responses."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from annotation.models import Item
from annotation.services.imports import items_import
from annotation.task_types.preference.importers import _responses

pytestmark = pytest.mark.django_db

HEADER = "id,domain,prompt,input,responses\n"


def _import(body: str):
    return items_import(
        path_or_bytes=(HEADER + body).encode(), project_slug="csv", format="preference-prompts", language="id"
    )


def test_a_csv_responses_cell_with_a_json_list_gives_the_responses_and_domain_the_category():
    summary = _import('P1,Kuliner,Apa itu soto?,,"[{""id"": ""r1"", ""model"": ""m1"", ""text"": ""Sup.""}]"\n')

    assert (summary.items_created, summary.issue_counts) == (1, {})
    item = Item.objects.select_related("current_version", "concept__category").get(project__slug="csv")
    assert item.current_version.payload["responses"] == [
        {"id": "r1", "model": "m1", "text": "Sup.", "source": "import"}
    ]
    assert item.concept.category.name == "Kuliner"


@pytest.mark.parametrize("cell", ["not json", '"{""text"": ""Sup.""}"', "[1"])
def test_a_responses_cell_that_is_not_a_json_list_is_reported_and_the_prompt_kept_without_them(cell):
    summary = _import(f"P1,Kuliner,Apa itu soto?,,{cell}\n")

    assert (summary.items_created, summary.issue_counts, summary.rows_skipped) == (1, {"bad_responses": 1}, [])
    assert Item.objects.get(project__slug="csv").current_version.payload["responses"] == []


@given(st.text(max_size=200))
def test_any_cell_gives_a_list_or_none_and_never_raises(cell):
    assert _responses(cell) is None or isinstance(_responses(cell), list)


@given(st.lists(st.fixed_dictionaries({"model": st.text(max_size=20), "text": st.text(max_size=50)}), max_size=5))
def test_a_json_list_written_in_a_cell_reads_back_as_the_same_list(responses):
    assert _responses(json.dumps(responses)) == responses
