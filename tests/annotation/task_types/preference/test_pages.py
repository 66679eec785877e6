"""The preference pages: the rating page (anonymous, per-rater order, form in shown positions), rater
groups, pair downloads and the statistics page."""

from __future__ import annotations

import io
import json
import re
from html import escape, unescape

import pyarrow.parquet as pq
import pytest
from django.test import Client

from annotation.models import Assignment, Category, Concept, Item, Judgment, Membership, UserPreferences
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.projects import membership_add, project_create
from annotation.task_types.preference.rubrics import CATEGORIES, rubric
from evaluation.task_types.preference.kinds import PromptResponses
from evaluation.task_types.preference.services import prompt_slots_add
from qc.services import review_approve
from tests.annotation.task_types.preference.world import MODELS, make_world, plan, rate_all, score
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_rating_page_shows_the_responses_anonymously_and_records_the_shown_order():
    world = make_world(raters_per_group=1)
    plan(world)
    rater = world.raters["B"][0]
    client = _client(rater)

    queue = client.get("/p/pref/judge/")
    page = client.get(queue["Location"])

    html = page.content.decode()
    assert page.status_code == 200
    assert not any(model in html for model in MODELS)
    assert html.count('name="relevance_') == 25 and html.count('name="fluency_') == 25  # 5 responses x 5 scores
    assert "js/task_types/preference/rating.js" in html
    assignment = Assignment.objects.get(pk=int(queue["Location"].rstrip("/").rsplit("/", 1)[1]))
    item = assignment.target_item
    category = item.concept.category.name
    for criterion in ("relevance", "fluency"):  # the category's rubric, both languages
        for language in ("en", "id"):
            assert all(escape(text) in html for text in rubric(criterion, category, language))
    p = int(item.external_id[1:])
    text_to_r = {r["text"]: int(r["id"][1:]) for r in item.current_version.payload["responses"]}
    shown = [text_to_r[text] for text in _response_texts(html, text_to_r)]
    data = {"best": "2", "comment": ""}
    for position, r in enumerate(shown, 1):
        data[f"relevance_{position}"] = str(score(p, r, 1)["relevance"])
        data[f"fluency_{position}"] = str(score(p, r, 1)["fluency"])

    posted = client.post(queue["Location"], data)

    assert posted.status_code == 302
    value = Judgment.objects.get(item=item, user=rater).value
    assert value["order"] == [f"r{r}" for r in shown]
    assert value["best"] == f"r{shown[1]}"
    assert value["group"] == "B"
    assert value["ratings"] == {f"r{r}": score(p, r, 1) for r in shown}
    # Opened again, the page gives the rating back by position (the order it was made in), never by id.
    again = client.get(queue["Location"]).content.decode()
    chosen = json.loads(unescape(re.search(r'data-chosen="([^"]*)"', again)[1]))
    assert chosen == {"ratings": [score(p, r, 1) for r in shown], "best": "2"}


def _response_texts(html: str, texts: dict[str, int]) -> list[str]:
    """The response texts in the order the page shows them."""
    return sorted(texts, key=html.index)


def test_an_incomplete_rating_is_refused_on_the_page_and_saves_nothing():
    world = make_world(raters_per_group=1)
    plan(world)
    rater = world.raters["A"][0]
    client = _client(rater)
    location = client.get("/p/pref/judge/")["Location"]

    posted = client.post(location, {"best": "1", "relevance_1": "5", "fluency_1": "5"})

    assert posted.status_code == 400
    assert "Rate all 5 responses" in posted.content.decode()
    assert not Judgment.objects.filter(user=rater).exists()


def _groups(world):
    return dict(
        Membership.objects.filter(project=world.project, role="annotator").values_list("code", "group").order_by("code")
    )


def test_an_admin_sets_every_raters_group_in_one_save_and_others_get_404():
    world = make_world(raters_per_group=2)
    ids = dict(Membership.objects.filter(project=world.project, role="annotator").values_list("code", "pk"))
    admin = _client(world.admin)

    page = admin.get("/p/pref/raters/").content.decode()
    saved = admin.post(
        "/p/pref/raters/", {f"group-{ids['A1']}": "B", f"group-{ids['B2']}": "", f"group-{ids['A2']}": "A"}
    )

    assert page.count('type="radio" name="group-') == 4 * 3
    assert f'name="group-{ids["A1"]}" value="A" checked' in page
    assert saved.status_code == 302
    assert _groups(world) == {"A1": "B", "A2": "A", "B1": "B", "B2": ""}
    assert "2 raters moved." in admin.get("/p/pref/raters/").content.decode()
    assert _client(world.raters["B"][0]).get("/p/pref/raters/").status_code == 404


def test_one_bad_row_refuses_the_whole_save():
    world = make_world(raters_per_group=2)
    ids = dict(Membership.objects.filter(project=world.project, role="annotator").values_list("code", "pk"))
    admin_membership = Membership.objects.get(project=world.project, user=world.admin)
    admin = _client(world.admin)
    before = _groups(world)

    bad_group = admin.post("/p/pref/raters/", {f"group-{ids['A1']}": "B", f"group-{ids['A2']}": "no spaces"})
    not_a_rater = admin.post("/p/pref/raters/", {f"group-{ids['A1']}": "B", f"group-{admin_membership.pk}": "A"})

    assert bad_group.status_code == 400
    assert "A group is at most 20 letters, digits, &#x27;-&#x27; or &#x27;_&#x27;." in bad_group.content.decode()
    assert not_a_rater.status_code == 400
    assert "Some of these raters are not annotators of this project." in not_a_rater.content.decode()
    assert _groups(world) == before
    assert Membership.objects.get(pk=admin_membership.pk).group == ""


def test_pairs_download_and_statistics_page_after_rating():
    world = make_world()
    plan(world)
    rate_all(world)
    admin = _client(world.admin)
    report = json.loads(admin.get("/p/pref/report.json").content)

    indopref = admin.get("/p/pref/pairs/?shape=indopref&format=jsonl")
    chosen = admin.get("/p/pref/pairs/?shape=chosen_rejected&format=csv")
    stats = admin.get("/p/pref/reports/")

    rows = [json.loads(line) for line in indopref.content.decode().splitlines()]
    assert len(rows) == report["pairs"] > 0
    assert set(rows[0]) == {"id", "domain", "language", "input", "response_1", "response_2", "actual_score"}
    assert {r["actual_score"] for r in rows} == {"Response 1", "Response 2"}
    lines = chosen.content.decode().splitlines()
    assert lines[0].startswith("id,domain,language,prompt,input,chosen,rejected") and len(lines) == len(rows) + 1
    html = stats.content.decode()
    assert stats.status_code == 200
    assert f'id="pref-pairs">{report["pairs"]}<' in html and 'id="pref-per-model"' in html
    for model in MODELS:  # the score distributions, one small bar chart per model and criterion
        assert f'aria-label="relevance scores of {model}"' in html and f'aria-label="fluency scores of {model}"' in html


def test_parquet_and_data_card_downloads_and_refusals():
    world = make_world(raters_per_group=1)
    plan(world)
    rate_all(world)
    admin = _client(world.admin)
    expected = json.loads(admin.get("/p/pref/report.json").content)["pairs"]

    parquet = admin.get("/p/pref/pairs/?shape=chosen_rejected&format=parquet")
    card = admin.get("/p/pref/pairs/?shape=indopref&format=card")
    stats = admin.get("/p/pref/reports/").content.decode()

    table = pq.read_table(io.BytesIO(parquet.content)).to_pylist()
    assert parquet["Content-Disposition"] == 'attachment; filename="pref-pairs-chosen_rejected.parquet"'
    assert len(table) == expected > 0
    assert set(table[0]) == {
        "id", "domain", "language", "prompt", "input", "chosen", "rejected",
        "chosen_model", "rejected_model", "chosen_scores", "rejected_scores", "rule",
    }  # fmt: skip
    text = card.content.decode()
    assert card["Content-Type"] == "text/markdown; charset=utf-8"
    assert f"{expected} pairs in `pref-pairs-indopref.jsonl`" in text and "## Annotation protocol" in text
    assert 'id="pairs-parquet"' in stats and 'id="pairs-card"' in stats
    assert admin.get("/p/pref/pairs/?shape=indopref&format=xlsx").status_code == 404
    assert _client(world.raters["A"][0]).get("/p/pref/pairs/?format=card").status_code == 404


@pytest.mark.parametrize(("setting", "first", "second"), [("id", "id", "en"), ("en", "en", "id")])
def test_the_rubric_is_printed_once_in_the_project_rubric_language_with_the_other_folded(setting, first, second):
    world = make_world(raters_per_group=1, rubric_language=setting)
    plan(world)
    client = _client(world.raters["A"][0])
    location = client.get("/p/pref/judge/")["Location"]
    item = Assignment.objects.get(pk=int(location.rstrip("/").rsplit("/", 1)[1])).target_item
    category = item.concept.category.name

    html = client.get(location).content.decode()

    for criterion in ("relevance", "fluency"):
        shown, other = rubric(criterion, category, first), rubric(criterion, category, second)
        assert [html.count(escape(text)) for text in shown + other] == [1] * 10  # once, not per response
        shown_at = html.index(f'class="rubric-rows rubric-{criterion}-{first}"')
        other_at = html.index(f'class="rubric-rows rubric-{criterion}-{second}"')
        assert shown_at < html.rindex('<details class="rubric-other">', 0, other_at) < other_at


@pytest.mark.parametrize(
    ("language", "relevance", "fluency"),
    [
        ("en", "Irrelevant", "Excellent"),
        ("id", "Tidak relevan", "Sangat baik"),
        ("ar", "غير ذي صلة", "ممتاز"),
    ],
)
def test_the_scales_carry_the_anchor_words_in_the_interface_language(language, relevance, fluency):
    world = make_world(raters_per_group=1)
    plan(world)
    rater = world.raters["A"][0]
    UserPreferences.objects.create(user=rater, language=language, time_zone="UTC")
    client = _client(rater)
    location = client.get("/p/pref/judge/")["Location"]
    category = Assignment.objects.get(pk=int(location.rstrip("/").rsplit("/", 1)[1])).target_item.concept.category.name

    html = client.get(location).content.decode()

    first = relevance if category != "coding" else {"en": "Incorrect", "id": "Tidak benar", "ar": "غير صحيح"}[language]
    assert html.count(f'<span class="score-number">1</span><span class="score-anchor">{first}</span>') == 5
    assert html.count(f'<span class="score-number">5</span><span class="score-anchor">{fluency}</span>') == 5


def test_an_admin_adds_the_papers_ten_categories_with_prompt_slots_once():
    admin = UserFactory(username="slots-admin")
    project = project_create(
        creator=admin, name="Slots", slug="slots", task_type="preference", languages=[{"code": "id", "name": "Id"}]
    )
    writer = UserFactory(username="slots-writer")
    membership_add(project=project, user=writer, role="annotator", code="W1")
    client = _client(admin)

    panel = client.get("/p/slots/").content.decode()
    added = client.post("/p/slots/prompt-slots/", {"slots": "2"}, follow=True)
    again = client.post("/p/slots/prompt-slots/", {"slots": "2"}, follow=True)
    before = list(Concept.objects.filter(project=project).values_list("category__name", "name").order_by("pk"))
    refused = client.post("/p/slots/prompt-slots/", {"slots": "0"}, follow=True)
    not_admin = _client(writer).post("/p/slots/prompt-slots/", {"slots": "3"})

    assert 'id="prompt-slots-form"' in panel
    assert "10 categories and 20 prompt slots added." in added.content.decode()
    assert "0 categories and 0 prompt slots added." in again.content.decode()
    assert "Slots per category must be between 1 and 500." in refused.content.decode()
    assert not_admin.status_code == 404
    assert list(Category.objects.filter(project=project).order_by("pk").values_list("name", flat=True)) == list(
        CATEGORIES
    )
    assert before == [(c, f"{c} prompt {n}") for c in CATEGORIES for n in (1, 2)]
    assert list(Concept.objects.filter(project=project).values_list("category__name", "name").order_by("pk")) == before


def test_a_writer_writes_a_prompt_for_a_slot_and_qc_approves_it_for_the_response_run():
    admin = UserFactory(username="w-admin")
    project = project_create(
        creator=admin, name="Write", slug="write", task_type="preference", languages=[{"code": "id", "name": "Id"}]
    )
    writer = UserFactory(username="w-writer")
    membership_add(project=project, user=writer, role="annotator", code="W1")
    prompt_slots_add(project=project, slots_per_category=1)
    assignment_plan_authoring(project=project)
    client = _client(writer)

    location = client.get("/p/write/author/")["Location"]
    page = client.get(location).content.decode()
    assignment = Assignment.objects.get(pk=int(location.rstrip("/").rsplit("/", 1)[1]))
    category = assignment.concept.category.name
    empty = client.post(location, {"prompt": "", "input": "", "action": "submit", "justification": ""})
    saved = client.post(
        location,
        {
            "prompt": "Ringkas artikel berikut.",
            "input": "Artikel tentang batik.",
            "action": "submit",
            "justification": "",
        },
    )

    assert f'id="prompt-category">Category: <strong dir="auto">{category}</strong>' in page
    assert empty.status_code == 400
    assert saved.status_code == 302
    item = Item.objects.get(project=project)
    assert (item.status, item.current_version.payload["prompt"], item.current_version.payload["input"]) == (
        "submitted",
        "Ringkas artikel berikut.",
        "Artikel tentang batik.",
    )
    review_approve(item_id=item.pk, version_id=item.current_version_id, reviewer=admin)
    item.refresh_from_db()
    assert item.status == "approved"
    assert PromptResponses().clean_parameters({}, project=project)["items"] == [item.pk]
