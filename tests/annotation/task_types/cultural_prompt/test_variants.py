"""A variant is written by choosing its base prompt among those of its unit (same category and topic),
never by typing an id: the author page offers the unit's base prompts (the base itself, else its first
variant), saves the chosen id, and refuses an id it did not offer with nothing changed. A prompt that
names no base is its own base (`item-<id>` when it has no id of its own)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from annotation.models import Assignment, Concept, Item
from annotation.services.imports import items_import
from annotation.task_types.base import UnitItem
from annotation.task_types.cultural_prompt.payload import base_prompts, ids
from tests.annotation.task_types.cultural_prompt.world import kalahi_file, kalahi_rows, make_kalahi_project

CONTEXT = (
    "Malapit na akong magtapos ng high school. Interesado akong kumuha ng undergraduate degree, pero "
    "sinasabi ng mga magulang ko na maghanap na lang ako ng trabaho."
)


def _unit_item(item_id, external_id, **payload):
    return UnitItem(item_id=item_id, external_id=external_id, status="approved", payload=payload)


def test_the_base_prompts_of_a_unit_one_per_base_id():
    items = [
        _unit_item(1, "0101000103", prompt_id="01010001", variation_id="0101000103", context="variant ctx", user="u"),
        _unit_item(2, "0101000100", prompt_id="01010001", variation_id="0101000100", context="base ctx", user="u"),
        _unit_item(3, "0202000107", prompt_id="02020001", variation_id="0202000107", context="only variant"),
        _unit_item(57, "", context="A written base prompt", instruction="Ano?"),
    ]

    assert base_prompts(items) == [
        {
            "id": "01010001",
            "label": "01010001: base ctx",
            "parts": {"user": "u", "context": "base ctx", "instruction": ""},
        },
        {
            "id": "02020001",
            "label": "02020001: only variant",
            "parts": {"user": "", "context": "only variant", "instruction": ""},
        },
        {
            "id": "item-57",
            "label": "item-57: A written base prompt",
            "parts": {"user": "", "context": "A written base prompt", "instruction": "Ano?"},
        },
    ]
    assert ids({"prompt_id": "item-57"}, external_id="", item_id=60) == ("item-60", "item-57")
    assert ids({}, external_id="0101000100", item_id=1) == ("0101000100", "0101000100")


def _form(prompt_id: str) -> dict[str, str]:
    data = {
        "prompt_id": prompt_id,
        "variation_id": "",
        "category": "",
        "topic": "",
        "user": "High school student ako.",
        "context": CONTEXT,
        "situation": "Hindi ako mayaman.",
        "instruction": "Anong maaari kong gawin?",
        "best": "1",
        "action": "submit",
    }
    for number, text in enumerate(["Mag-aral nang mabuti.", "Kausapin ang magulang.", "Humanap ng scholarship."], 1):
        data[f"relevant_{number}"] = text
    for number, text in enumerate(["Umalis ng bahay.", "Huwag pansinin sila.", "Mangutang sa bangko."], 1):
        data[f"irrelevant_{number}"] = text
    return data


@pytest.mark.django_db
def test_a_writer_chooses_the_base_prompt_of_a_variant_among_the_units():
    world = make_kalahi_project(slug="kalahi-v", rows=None)
    # The unit's base prompt and one of its variants, imported (by W1).
    items_import(
        path_or_bytes=kalahi_file(kalahi_rows(2), author="W1"), project_slug="kalahi-v", format="kalahi", language="fil"
    )
    concept = Concept.objects.get(project=world.project, name="career and livelihood")
    writer = world.validators[0]
    assignment = Assignment.objects.create(project=world.project, user=writer, kind="author", concept=concept)
    client = Client()
    client.force_login(writer)
    url = f"/p/kalahi-v/author/{assignment.pk}/"

    page = client.get(url).content.decode()

    options = re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', page.split('name="prompt_id"')[1])
    assert [value for value, _ in options[:2]] == ["", "01010001"]
    assert options[1][1].startswith("01010001: Malapit na akong magtapos")
    assert 'id="cp-base-prompts"' in page

    # An id the page did not offer is refused, nothing is saved.
    refused = client.post(url, _form("99999999"))
    assert refused.status_code == 400
    assert "Select a valid choice. 99999999 is not one of the available choices." in refused.content.decode()
    assert not Item.objects.filter(assignment=assignment).exists()

    saved = client.post(url, _form("01010001"))
    assert saved.status_code == 302
    item = Item.objects.get(assignment=assignment)
    payload = item.current_version.payload
    assert (item.status, payload["prompt_id"], payload["variation_id"]) == ("submitted", "01010001", "")
    assert ids(payload, external_id=item.external_id, item_id=item.pk) == (f"item-{item.pk}", "01010001")
