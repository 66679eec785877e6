"""The author picks the item's topic and subtopic from the project's list: the page presets the
planned unit, lists only the catalog's subtopics (tagged with their topic), and the page and the API refuse
a pair not in the list with the same message, saving nothing. The item's unit becomes the pick, and the
report, the export and the benchmark items read it."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from annotation.errors import InvalidInput
from annotation.models import Assignment, Concept, Item
from annotation.services.items import unit_save_draft, unit_submit
from annotation.services.judging import judging_plan
from annotation.services.judgments import judgment_record
from annotation.task_types import get_task_type
from annotation.task_types.sentence_completion.forms import CompletionAuthorForm
from qc.exports import gold_records
from qc.services import review_claim_next, review_decide
from tests.annotation.task_types.sentence_completion.data import payload
from tests.annotation.task_types.sentence_completion.world import make_world, peer_letter

pytestmark = pytest.mark.django_db

FORM = {
    "premise": "يقوم أحمد بتحضير الفول",
    "completion_a": "يتم تناوله بالخبز",
    "completion_b": "يتم تناوله مع الفواكه",
    "completion_c": "يتم تناوله مع الأرز",
    "answer": "A",
    "country": "Egypt",
    "relevant_to_this_country": "yes",
    "relevant_to_other_countries": "no",
}


def _snapshot(world):
    return (
        list(Assignment.objects.filter(project=world.project).order_by("pk").values_list("pk", "user_id", "status")),
        list(Item.objects.filter(project=world.project).values_list("pk", "concept_id", "status")),
    )


def test_the_page_presets_the_planned_unit_and_lists_the_catalogs_subtopics_by_topic(client):
    world = make_world()
    client.force_login(world.authors["Egypt"][0])

    response = client.get("/p/ac/author/", follow=True)

    html = response.content.decode()
    assignment = Assignment.objects.get(pk=int(response.redirect_chain[-1][0].rstrip("/").rsplit("/", 1)[1]))
    planned = assignment.concept
    assert f'<option value="{planned.category.name}" selected>{planned.category.name}</option>' in html
    assert (
        f'<option value="{planned.name}" data-topic="{planned.category.name}" selected>{planned.name}</option>' in html
    )
    # Topics in catalog order; every subtopic once, tagged with its topic.
    topics = html.split('id="id_topic"', 1)[1].split("</select>", 1)[0]
    assert [t.split('"', 1)[0] for t in topics.split('<option value="')[2:]] == [
        "Celebrations",
        "Food",
        "Habits",
        "Weddings",
    ]
    assert html.count('data-topic="Habits"') == 10
    other = "subtopic-03" if planned.name != "subtopic-03" else "subtopic-07"
    assert f'<option value="{other}" data-topic="Habits">{other}</option>' in html
    assert (
        '<textarea name="premise" cols="40" rows="2" dir="rtl" autocomplete="off" autofocus maxlength="2000" '
        'lang="ar" id="id_premise">' in html
    )  # the item's fields take the project's direction; the controls follow the interface


def test_a_picked_topic_and_subtopic_become_the_items_unit(client):
    world = make_world()
    author = world.authors["Egypt"][0]
    client.force_login(author)
    url = client.get("/p/ac/author/", follow=True).redirect_chain[-1][0]
    planned = Assignment.objects.get(pk=int(url.rstrip("/").rsplit("/", 1)[1])).concept
    pick = Concept.objects.get(
        project=world.project, name="subtopic-03" if planned.name != "subtopic-03" else "subtopic-07"
    )

    response = client.post(url, {**FORM, "topic": "Habits", "subtopic": pick.name, "action": "submit"})

    assert response.status_code == 302
    item = Item.objects.get(project=world.project)
    assert (item.concept_id, item.status, item.assignment.concept_id) == (pick.pk, "submitted", planned.pk)
    assert (item.current_version.payload["topic"], item.current_version.payload["subtopic"]) == ("Habits", pick.name)


def test_a_subtopic_of_another_topic_is_refused_on_the_page_and_nothing_is_saved(client):
    world = make_world()
    client.force_login(world.authors["Egypt"][0])
    url = client.get("/p/ac/author/", follow=True).redirect_chain[-1][0]
    before = _snapshot(world)

    for action in ("submit", "save"):
        response = client.post(url, {**FORM, "topic": "Food", "subtopic": "subtopic-01", "action": action})

        html = response.content.decode()
        assert response.status_code == 400
        assert "“subtopic-01” is not a subtopic of “Food” in this project." in html
        assert _snapshot(world) == before
    assert Item.objects.filter(project=world.project).count() == 0


def test_the_api_refuses_a_topic_not_in_the_list_with_the_same_words_and_changes_nothing(client):
    world = make_world()
    author = world.authors["Egypt"][0]
    client.force_login(author)
    assignment = Assignment.objects.filter(user=author, kind="author").order_by("pk").first()
    before = _snapshot(world)

    submitted = client.post(
        f"/api/projects/ac/assignments/{assignment.pk}/submit/",
        {"payload": {**payload(0), "topic": "Sports", "subtopic": "subtopic-00"}, "justification": ""},
        content_type="application/json",
    )
    drafted = client.put(
        f"/api/projects/ac/assignments/{assignment.pk}/draft/",
        {"payload": {**payload(0), "topic": "Food", "subtopic": "subtopic-01"}, "justification": ""},
        content_type="application/json",
    )

    assert (submitted.status_code, submitted.json()) == (
        400,
        {
            "detail": "The item can't be submitted yet.",
            "code": "invalid",
            "errors": {"topic": ["“Sports” is not a topic of this project."]},
        },
    )
    assert (drafted.status_code, drafted.json()) == (
        400,
        {
            "detail": "The item can't be saved: check the subtopic.",
            "code": "invalid",
            "errors": {"subtopic": ["“subtopic-01” is not a subtopic of “Food” in this project."]},
        },
    )
    assert _snapshot(world) == before


def test_a_subtopic_without_a_topic_is_refused():
    world = make_world()
    author = world.authors["KSA"][0]
    assignment = Assignment.objects.filter(user=author, kind="author").order_by("pk").first()

    with pytest.raises(InvalidInput) as refused:
        unit_submit(assignment_id=assignment.pk, user=author, data={**payload(0, country="KSA"), "subtopic": "x"})

    assert refused.value.field_errors == {"topic": ["Choose a topic."]}
    assert Item.objects.filter(project=world.project).count() == 0


def test_the_api_accepts_a_pick_and_a_later_draft_can_change_it():
    world = make_world()
    author = world.authors["KSA"][0]
    assignment = Assignment.objects.filter(user=author, kind="author").order_by("pk").first()
    data = payload(0, country="KSA")

    unit_save_draft(assignment_id=assignment.pk, user=author, data={**data, "topic": "Food", "subtopic": "subtopic-04"})
    item = unit_submit(
        assignment_id=assignment.pk, user=author, data={**data, "topic": "Weddings", "subtopic": "subtopic-05"}
    )[0]

    item.refresh_from_db()
    assert (item.concept.category.name, item.concept.name, item.status) == ("Weddings", "subtopic-05", "submitted")
    assert [v.payload["subtopic"] for v in item.versions.order_by("number")] == ["subtopic-05"]


def test_the_report_export_and_benchmark_items_read_the_items_own_topic(tmp_path):
    world = make_world()
    author = world.authors["Egypt"][0]
    peer = world.authors["Egypt"][1]
    for k, (topic, subtopic) in enumerate([("Habits", "subtopic-03"), ("Habits", "subtopic-07")]):
        assignment = Assignment.objects.filter(user=author, kind="author", status="pending").order_by("pk").first()
        unit_submit(assignment_id=assignment.pk, user=author, data={**payload(k), "topic": topic, "subtopic": subtopic})
    reviewer = world.reviewers["Egypt"]
    while (item := review_claim_next(project=world.project, reviewer=reviewer)) is not None:
        review_decide(item_id=item.pk, version_id=item.current_version_id, reviewer=reviewer, decision="approve")
    judging_plan(project=world.project)
    for assignment in Assignment.objects.filter(project=world.project, kind="answer", user=peer).select_related(
        "target_item__current_version"
    ):
        item = assignment.target_item
        judgment_record(assignment_id=assignment.pk, user=peer, data={"choice": peer_letter(world, item, right=True)})

    out = StringIO()
    call_command("report", "ac", "--json", stdout=out)
    by_topic = json.loads(out.getvalue())["completion"]["by_topic"]
    call_command("export_gold", "ac", "--format", "jsonl", "--out", str(tmp_path), stdout=StringIO())
    exported = [json.loads(line) for line in (tmp_path / "test.jsonl").read_text(encoding="utf-8").splitlines()]
    task_type = get_task_type("sentence_completion")
    fields = [task_type.benchmark_item(r, gold_key="answer").fields for r in gold_records(project=world.project)]

    assert by_topic == {"Habits": {"written": 2, "rejected": 0, "discarded": 0, "kept": 2, "pending": 0}}
    assert [row["sub_topic"] for row in exported] == ["subtopic-03", "subtopic-07"]
    assert [(f["topic"], f["subtopic"]) for f in fields] == [("Habits", "subtopic-03"), ("Habits", "subtopic-07")]


def test_a_topic_with_one_subtopic_has_it_preselected():
    catalog = {"Food": ["Breakfast", "Feasts"], "Clothing": ["Clothing"]}

    single = CompletionAuthorForm(initial={"topic": "Clothing"}, catalog=catalog)
    several = CompletionAuthorForm(initial={"topic": "Food"}, catalog=catalog)
    chosen = CompletionAuthorForm(initial={"topic": "Food", "subtopic": "Feasts"}, catalog=catalog)

    assert [s for _t, s, selected in single.subtopic_options() if selected] == ["Clothing"]
    assert [s for _t, s, selected in several.subtopic_options() if selected] == []
    assert [s for _t, s, selected in chosen.subtopic_options() if selected] == ["Feasts"]
