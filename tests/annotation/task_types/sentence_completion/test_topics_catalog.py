"""The paper's 12 topics in one click, and writing slots: the plan deals out slots per topic (N items per
annotator, spread over the topics); the author of a slot must pick a topic and subtopic from the list,
which never shows the slots."""

import pytest
from django.contrib.auth import get_user_model

from annotation.errors import InvalidInput
from annotation.models import Assignment, Category, Concept, Item, Membership
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.items import unit_submit
from annotation.services.projects import membership_add, project_create
from annotation.task_types.sentence_completion.places import TOPICS
from tests.annotation.task_types.sentence_completion.data import payload

pytestmark = pytest.mark.django_db
User = get_user_model()


def _project():
    admin = User.objects.create_user(username="ac-admin")
    project = project_create(
        creator=admin,
        name="ArabCulture",
        slug="ac",
        task_type="sentence_completion",
        languages=[{"code": "ar", "name": "العربية", "direction": "rtl"}],
        authors_per_concept=1,
        plan_seed=3,
    )
    authors = []
    for n in (1, 2):
        user = User.objects.create_user(username=f"ac-{n}")
        membership_add(project=project, user=user, role=Membership.Role.ANNOTATOR, code=f"W{n}")
        authors.append(user)
    return project, admin, authors


def _catalog(project):
    return list(Concept.objects.filter(project=project).order_by("pk").values_list("category__name", "name", "data"))


def test_one_click_adds_the_papers_topics_with_slots_and_a_second_click_adds_nothing(client):
    project, admin, _ = _project()
    client.force_login(admin)

    first = client.post("/p/ac/arabculture-topics/", {"slots": "2"}, follow=True)
    second = client.post("/p/ac/arabculture-topics/", {"slots": "2"}, follow=True)

    assert "12 topics, 12 subtopics and 24 writing slots added." in first.content.decode()
    assert "0 topics, 0 subtopics and 0 writing slots added." in second.content.decode()
    assert sorted(Category.objects.filter(project=project).values_list("name", flat=True)) == sorted(TOPICS)
    assert _catalog(project)[:3] == [
        ("Food", "Food", {}),
        ("Food", "Food slot 1", {"slot": True}),
        ("Food", "Food slot 2", {"slot": True}),
    ]
    assert len(_catalog(project)) == 36
    assert 'id="arabculture-topics-form"' in client.get("/p/ac/").content.decode()


def test_a_bad_slot_count_is_refused_and_nothing_is_added(client):
    project, admin, authors = _project()
    client.force_login(admin)

    response = client.post("/p/ac/arabculture-topics/", {"slots": "501"}, follow=True)

    assert "Slots per topic must be between 0 and 500." in response.content.decode()
    assert (Category.objects.filter(project=project).count(), _catalog(project)) == (0, [])
    client.force_login(authors[0])
    assert client.post("/p/ac/arabculture-topics/", {"slots": "2"}).status_code == 404
    assert _catalog(project) == []


def test_the_plan_gives_each_annotator_their_share_of_slots_spread_over_topics(client):
    project, admin, authors = _project()
    client.force_login(admin)
    client.post("/p/ac/arabculture-topics/", {"slots": "3"})

    assignment_plan_authoring(project=project)

    planned = Assignment.objects.filter(project=project, kind="author").select_related("concept__category")
    assert sorted(planned.values_list("user_id", flat=True)).count(authors[0].pk) == 18
    assert sorted(planned.values_list("user_id", flat=True)).count(authors[1].pk) == 18
    assert all(a.concept.data == {"slot": True} for a in planned)
    per_topic = {}
    for a in planned:
        per_topic.setdefault((a.user_id, a.concept.category.name), 0)
        per_topic[(a.user_id, a.concept.category.name)] += 1
    assert sorted(set(per_topic.values())) == [1, 2]
    assert {t: sum(n for (u, c), n in per_topic.items() if c == t) for t in TOPICS} == dict.fromkeys(TOPICS, 3)


def test_the_author_of_a_slot_sees_its_topic_never_the_slots_and_must_pick(client):
    project, admin, authors = _project()
    client.force_login(admin)
    client.post("/p/ac/arabculture-topics/", {"slots": "1"})
    assignment_plan_authoring(project=project)
    author = authors[0]
    client.force_login(author)

    response = client.get("/p/ac/author/", follow=True)
    html = response.content.decode()
    assignment = Assignment.objects.get(pk=int(response.redirect_chain[-1][0].rstrip("/").rsplit("/", 1)[1]))
    topic = assignment.concept.category.name
    with pytest.raises(InvalidInput) as refused:
        unit_submit(assignment_id=assignment.pk, user=author, data=payload(0))
    items_after_refusal = Item.objects.filter(project=project).count()
    item = unit_submit(
        assignment_id=assignment.pk, user=author, data={**payload(0), "topic": "Idioms", "subtopic": "Idioms"}
    )[0]

    assert f'<option value="{topic}" selected>{topic}</option>' in html
    assert " slot " not in html.split('id="id_subtopic"', 1)[1].split("</select>", 1)[0]
    assert html.count("data-topic=") == 12
    assert refused.value.field_errors == {"topic": ["Choose a topic and a subtopic from the project's list."]}
    assert items_after_refusal == 0
    assert (item.concept.category.name, item.concept.name) == ("Idioms", "Idioms")


def test_a_slot_can_not_be_picked_as_a_subtopic():
    project, admin, authors = _project()
    from evaluation.task_types.sentence_completion.services import topics_add

    topics_add(project=project, slots_per_topic=1)
    assignment_plan_authoring(project=project)
    author = authors[0]
    assignment = Assignment.objects.filter(user=author, kind="author").order_by("pk").first()

    with pytest.raises(InvalidInput) as refused:
        unit_submit(
            assignment_id=assignment.pk, user=author, data={**payload(0), "topic": "Food", "subtopic": "Food slot 1"}
        )

    assert refused.value.field_errors == {"subtopic": ["“Food slot 1” is not a subtopic of “Food” in this project."]}
    assert Item.objects.filter(project=project).count() == 0
