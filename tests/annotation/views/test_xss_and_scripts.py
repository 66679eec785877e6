"""User text is shown inert (escaped), and Sundanese / Arabic text survives the forms unchanged."""

import pytest
from django.urls import reverse

from annotation.models import Assignment, Item, Membership
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.items import item_submit
from annotation.services.projects import membership_add, project_create, project_update
from qc.services import review_request_revision
from tests.annotation.views.helpers import author_post
from tests.factories import CategoryFactory, ConceptFactory, UserFactory

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"
HX = '<div hx-get="/x">'
EVIL = f"{SCRIPT} {IMG} {HX}"
ESCAPED = {
    SCRIPT: "&lt;script&gt;alert(1)&lt;/script&gt;",
    IMG: "&lt;img src=x onerror=alert(1)&gt;",
    HX: "&lt;div hx-get=&quot;/x&quot;&gt;",
}


def assert_inert(html: str) -> None:
    for raw, escaped in ESCAPED.items():
        assert escaped in html
        assert raw not in html


def make_project(*, slug, languages, concept):
    admin = UserFactory(username=f"{slug}-admin")
    project = project_create(creator=admin, name=slug, slug=slug, task_type="csqa", languages=languages)
    reviewer, authors = UserFactory(username=f"{slug}-rev"), [UserFactory(username=f"{slug}-a{i}") for i in (1, 2)]
    membership_add(project=project, user=reviewer, role=Membership.Role.REVIEWER)
    for user in authors:
        membership_add(project=project, user=user, role=Membership.Role.ANNOTATOR)
    ConceptFactory(category=CategoryFactory(project=project, name=concept[0]), name=concept[1])
    assignment_plan_authoring(project=project)
    assignment = Assignment.objects.filter(project=project).order_by("id").first()
    return project, reviewer, assignment


def test_user_text_is_escaped_on_every_page(client):
    project, reviewer, assignment = make_project(
        slug="xss", languages=[{"code": "id", "name": "Indonesian"}], concept=(f"cat {EVIL}", EVIL)
    )
    author = assignment.user
    payload = {"question": f"Apa {EVIL}?", "choices": [f"{EVIL} {n}" for n in range(5)], "answer": "A"}
    item = item_submit(assignment_id=assignment.pk, user=author, data=payload, justification=EVIL)
    pages = {}
    client.force_login(reviewer)
    pages["review queue"] = client.get(reverse("review_queue", args=["xss"])).content.decode()
    pages["review item"] = client.get(reverse("review_item", args=["xss", item.pk])).content.decode()
    pages["item list"] = client.get(reverse("item_list", args=["xss"])).content.decode()
    pages["dashboard"] = client.get(reverse("dashboard", args=["xss"])).content.decode()
    review_request_revision(
        item_id=item.pk, version_id=item.current_version_id, reviewer=reviewer, feedback=EVIL, error_type_codes=["typo"]
    )
    client.force_login(author)
    pages["author item"] = client.get(reverse("author_item", args=["xss", assignment.pk])).content.decode()
    pages["item detail"] = client.get(reverse("item_detail", args=["xss", item.pk])).content.decode()
    pages["project detail"] = client.get(reverse("project_detail", args=["xss"])).content.decode()
    item_submit(assignment_id=assignment.pk, user=author, data={**payload, "question": f"Apa lagi {EVIL}?"})
    client.force_login(reviewer)
    pages["review diff"] = client.get(reverse("review_item", args=["xss", item.pk])).content.decode()
    client.force_login(project.created_by)
    pages["concepts"] = client.get(reverse("project_concepts", args=["xss"])).content.decode()

    for html in pages.values():
        assert_inert(html)
    assert 'dir="auto">Apa &lt;script&gt;alert(1)&lt;/script&gt;' in pages["review item"]
    assert '<p class="feedback" dir="auto" id="last-review-feedback">&lt;script&gt;' in pages["author item"]


def test_guidelines_markdown_is_sanitised(csqa, client):
    project_update(
        project=csqa.project, guidelines=f"**Bold** [ok](https://example.org)\n\n{SCRIPT}\n\n{IMG}\n\n{HX}hi</div>"
    )
    client.force_login(csqa.admin)

    html = client.get(reverse("project_detail", args=["demo"])).content.decode()

    guidelines = html.split('<div class="guidelines" dir="auto">')[1].split("</section>")[0]
    assert "<strong>Bold</strong>" in guidelines
    assert '<a href="https://example.org" rel="noopener noreferrer">ok</a>' in guidelines
    assert "<script" not in guidelines
    assert "alert(1)" not in guidelines
    assert "onerror" not in guidelines
    assert "hx-get" not in guidelines
    assert "<div>hi</div>" in guidelines


SUNDANESE = "Iraha urang Sunda biasana nganjang ka imah dulur? ᮃᮔ᮪ᮏᮀ"
ARABIC = "متى يزور الناس أقاربهم في العيد؟"


def test_sundanese_text_round_trips_through_the_authoring_form(client):
    project, _, assignment = make_project(
        slug="su", languages=[{"code": "su", "name": "Basa Sunda"}], concept=("budaya", "nganjang")
    )
    payload = {
        "question": SUNDANESE,
        "choices": ["Isuk-isuk", "Peuting", "ᮞᮥᮔ᮪ᮓ", "Poé Senén", "Bulan puasa"],
        "answer": "C",
    }
    client.force_login(assignment.user)
    url = reverse("author_item", args=["su", assignment.pk])

    client.post(url, author_post(payload, action="save"))
    html = client.get(url).content.decode()

    assert Item.objects.get(assignment=assignment).current_version.payload == payload
    assert (
        '<textarea name="question" cols="40" rows="3" dir="ltr" autocomplete="off" autofocus maxlength="2000" '
        f'lang="su" id="id_question">\n{SUNDANESE}</textarea>' in html
    )
    assert (
        '<input type="text" name="choice_c" value="ᮞᮥᮔ᮪ᮓ" dir="ltr" autocomplete="off" maxlength="500" lang="su" '
        'id="id_choice_c">' in html
    )
    assert '<html lang="en" dir="ltr">' in html


def test_arabic_project_renders_right_to_left_and_text_round_trips(client):
    project, reviewer, assignment = make_project(
        slug="ar", languages=[{"code": "ar", "name": "Arabic", "direction": "rtl"}], concept=("ثقافة", "يزور")
    )
    payload = {"question": ARABIC, "choices": ["الصباح", "الليل", "المطر", "الاثنين", "رمضان"], "answer": "A"}
    client.force_login(assignment.user)

    submitted = client.post(reverse("author_item", args=["ar", assignment.pk]), author_post(payload))
    item = Item.objects.get(assignment=assignment)
    client.force_login(reviewer)
    review = client.get(reverse("review_item", args=["ar", item.pk])).content.decode()
    decided = client.post(
        reverse("review_item", args=["ar", item.pk]),
        {
            "version_id": item.current_version_id,
            "decision": "revise",
            "feedback": "السؤال عام جدا",
            "error_types": ["too_general"],
        },
    )

    assert submitted.status_code == 302
    assert item.current_version.payload == payload
    assert '<html lang="en" dir="ltr">' in review
    # The frame of the item follows the interface (English, ltr); the item's text carries its language.
    assert '<section class="card" id="current">' in review
    assert '<div class="item-text" id="item-text" lang="ar" dir="rtl">' in review
    assert f'<p class="question" dir="auto">{ARABIC}</p>' in review
    assert '<h2 class="concept" dir="auto">يزور</h2>' in review
    assert '<span class="choice-text" dir="auto">الصباح</span>' in review
    assert decided.status_code == 302
    assert item.reviews.get().feedback == "السؤال عام جدا"
