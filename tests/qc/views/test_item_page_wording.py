"""Small wording on the item page: no numbered "1. No overrides.", and a version without a person (a
model's draft, an import) says where it came from instead of "by ,"."""

import pytest
from django.urls import reverse

from annotation.models import Item, ItemVersion
from tests.qc.test_adjudication import _world

pytestmark = pytest.mark.django_db


def test_an_item_without_overrides_says_so_without_a_numbered_list(client):
    w = _world()
    client.force_login(w.admin)

    html = client.get(reverse("item_detail", args=[w.project.slug, w.gold.pk])).content.decode()

    assert '<p class="muted" id="gold-overrides">No overrides.</p>' in html
    assert '<ol class="overrides"' not in html


def test_a_model_written_version_names_its_source_not_an_empty_author(client):
    w = _world()
    ItemVersion.objects.filter(item=w.gold).update(created_by=None)
    Item.objects.filter(pk=w.gold.pk).update(source=Item.Source.LLM_GEN)
    client.force_login(w.admin)

    html = client.get(reverse("item_detail", args=[w.project.slug, w.gold.pk])).content.decode()

    history = html[html.index('id="history"') :]
    assert '<p class="muted">LLM generated, ' in history
    assert 'by <span dir="auto"></span>,' not in history
