import pytest
from django.urls import reverse

from annotation.models import Assignment, Item, ItemVersion
from annotation.services.assignments import assignment_plan_authoring
from qc.services import review_request_revision
from tests.annotation.views.helpers import author_post, db_snapshot, first_assignment, submitted_item
from tests.conftest import VALID_PAYLOAD

pytestmark = pytest.mark.django_db


@pytest.fixture
def planned(csqa):
    assignment_plan_authoring(project=csqa.project)
    return csqa


def author_url(project, assignment):
    return reverse("author_item", args=[project.slug, assignment.pk])


def test_queue_claims_the_first_assignment_and_opens_it(planned, client):
    annotator = planned.annotators[0]
    client.force_login(annotator)
    expected = Assignment.objects.filter(user=annotator).order_by("position", "id").first()

    response = client.get(reverse("author_queue", args=["demo"]))

    assert response.status_code == 302
    assert response.url == author_url(planned.project, expected)
    expected.refresh_from_db()
    assert expected.status == Assignment.Status.ACTIVE


def test_queue_resumes_the_open_assignment(planned, client):
    annotator = planned.annotators[0]
    client.force_login(annotator)
    first = client.get(reverse("author_queue", args=["demo"])).url

    again = client.get(reverse("author_queue", args=["demo"]))

    assert again.url == first
    assert Assignment.objects.filter(user=annotator, status=Assignment.Status.ACTIVE).count() == 1


def test_author_page_shows_concept_guidelines_progress_and_form(planned, client):
    annotator = planned.annotators[0]
    assignment = first_assignment(planned.project, annotator)
    client.force_login(annotator)

    response = client.get(author_url(planned.project, assignment))

    html = response.content.decode()
    assert response.status_code == 200
    assert '<h1 class="concept" dir="auto">kunjung</h1>' in html
    assert f'<p class="category" dir="auto">{assignment.concept.category.name}</p>' in html
    assert "<h1>Guidelines</h1>\n<p>Write about <strong>the concept</strong>.</p>" in html
    total = Assignment.objects.filter(user=annotator, concept__category=assignment.concept.category).count()
    assert f'<span class="progress-count">0 of {total}</span>' in html
    assert 'name="choice_e"' in html
    assert 'data-hotkey="5"' in html
    assert 'Submit <kbd class="hotkey"><kbd>Ctrl</kbd>+<kbd>Enter</kbd></kbd>' in html


def test_submit_creates_version_and_queue_opens_the_next_assignment(planned, client):
    annotator = planned.annotators[0]
    assignment = first_assignment(planned.project, annotator)
    client.force_login(annotator)

    response = client.post(author_url(planned.project, assignment), author_post(VALID_PAYLOAD), follow=True)

    item = Item.objects.get(assignment=assignment)
    assert item.status == Item.Status.SUBMITTED
    assert item.current_version.payload == VALID_PAYLOAD
    assert response.redirect_chain[0] == (reverse("author_queue", args=["demo"]) + "?saved=1", 302)
    next_assignment = Assignment.objects.get(user=annotator, status=Assignment.Status.ACTIVE)
    assert response.redirect_chain[1] == (author_url(planned.project, next_assignment), 302)
    assert "Submitted for review. Here is your next one." in response.content.decode()


def test_save_draft_keeps_the_item_editable(planned, client):
    annotator = planned.annotators[0]
    assignment = first_assignment(planned.project, annotator)
    client.force_login(annotator)
    draft = {**VALID_PAYLOAD, "choices": ["Pagi", "", "", "", ""], "answer": ""}

    response = client.post(author_url(planned.project, assignment), author_post(draft, action="save"), follow=True)

    item = Item.objects.get(assignment=assignment)
    assert item.status == Item.Status.DRAFT
    assert item.current_version.payload == {
        "question": VALID_PAYLOAD["question"],
        "choices": ["Pagi", "", "", "", ""],
        "answer": "",
    }
    assert response.redirect_chain == [(author_url(planned.project, assignment), 302)]
    assert 'value="Pagi"' in response.content.decode()


def test_htmx_draft_save_renders_only_the_form_partial(planned, client):
    annotator = planned.annotators[0]
    assignment = first_assignment(planned.project, annotator)
    client.force_login(annotator)

    response = client.post(
        author_url(planned.project, assignment), author_post(VALID_PAYLOAD, action="save"), HTTP_HX_REQUEST="true"
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<form method="post" action="')
    assert 'id="author-form"' in html
    assert "<html" not in html
    assert 'id="form-notice" role="status">Draft saved at ' in html
    assert ItemVersion.objects.filter(item__assignment=assignment).count() == 1


def test_submit_refusal_shows_errors_next_to_fields_and_saves_nothing(planned, client):
    annotator = planned.annotators[0]
    assignment = first_assignment(planned.project, annotator)
    client.force_login(annotator)
    bad = {"question": VALID_PAYLOAD["question"], "choices": ["Pagi", " pagi ", "", "Siang", "Malam"], "answer": ""}
    before = db_snapshot()

    response = client.post(author_url(planned.project, assignment), author_post(bad))

    html = response.content.decode()
    assert response.status_code == 400
    assert "The item can&#x27;t be submitted yet." in html
    assert 'id="field-choice_b"' in html
    assert '<p class="error" role="alert" dir="auto">Option B repeats option A.</p>' in html
    assert '<p class="error" role="alert" dir="auto">Option C is empty.</p>' in html
    assert '<p class="error" role="alert" dir="auto">Mark one option as the correct answer.</p>' in html
    assert "field attention" not in html
    assert db_snapshot() == before


def test_missing_concept_highlights_justification_then_submits_with_it(planned, client):
    annotator = planned.annotators[0]
    assignment = first_assignment(planned.project, annotator)
    client.force_login(annotator)
    payload = {**VALID_PAYLOAD, "question": "Apa makanan khas Lebaran di kampung?"}
    before = db_snapshot()

    refused = client.post(author_url(planned.project, assignment), author_post(payload))

    html = refused.content.decode()
    assert refused.status_code == 400
    assert 'class="field attention" id="field-justification"' in html
    assert "The question does not contain the concept “kunjung”." in html
    assert db_snapshot() == before

    accepted = client.post(
        author_url(planned.project, assignment), author_post(payload, justification="Mudik berarti berkunjung.")
    )

    assert accepted.status_code == 302
    version = Item.objects.get(assignment=assignment).current_version
    assert (version.payload["question"], version.justification) == (payload["question"], "Mudik berarti berkunjung.")


def test_revision_request_shows_feedback_and_resubmission_makes_version_two(planned, client):
    item = submitted_item(planned, VALID_PAYLOAD)
    review_request_revision(
        item_id=item.pk,
        version_id=item.current_version_id,
        reviewer=planned.reviewer,
        feedback="Terlalu umum, sebutkan daerahnya.",
        error_type_codes=["too_general", "typo"],
    )
    client.force_login(item.author)
    url = author_url(planned.project, item.assignment)

    page = client.get(url).content.decode()

    assert '<p class="feedback" dir="auto" id="last-review-feedback">Terlalu umum, sebutkan daerahnya.</p>' in page
    assert (
        '<span class="tag" dir="auto" title="E.g. “all over the world”: not specific to the culture.">'
        "Context too general</span>" in page
    )
    assert 'id="id_question">\nKapan orang biasanya berkunjung ke rumah saudara saat Lebaran?</textarea>' in page

    revised = {**VALID_PAYLOAD, "question": "Kapan orang Sunda biasanya berkunjung ke rumah mertua?"}
    response = client.post(url, author_post(revised))

    item.refresh_from_db()
    assert response.status_code == 302
    assert (item.status, item.current_version.number) == (Item.Status.SUBMITTED, 2)


def test_submitted_item_is_read_only_and_edits_are_refused(planned, client):
    item = submitted_item(planned, VALID_PAYLOAD)
    client.force_login(item.author)
    url = author_url(planned.project, item.assignment)

    page = client.get(url).content.decode()
    assert 'id="read-only"' in page
    assert 'id="author-form"' not in page
    assert "This item is submitted; it can't be edited now." in page

    before = db_snapshot()
    refused = client.post(url, author_post({**VALID_PAYLOAD, "question": "Kunjungan baru?"}, action="save"))

    assert refused.status_code == 409
    assert (
        "This item is submitted; it can only be edited as a draft or when a reviewer asks for a revision."
        in refused.content.decode()
    )
    assert db_snapshot() == before


def test_queue_shows_all_done_with_progress_and_revisions(planned, client):
    annotator = planned.annotators[0]
    Assignment.objects.filter(user=annotator).update(status=Assignment.Status.DONE)
    total = Assignment.objects.filter(user=annotator).count()
    client.force_login(annotator)

    response = client.get(reverse("author_queue", args=["demo"]))

    html = response.content.decode()
    assert response.status_code == 200
    assert f'<strong id="overall-progress">{total} of {total}</strong>' in html
    assert "Nothing to revise." in html


def test_reviewer_has_no_authoring_queue(planned, client):
    client.force_login(planned.reviewer)
    before = db_snapshot()

    assert client.get(reverse("author_queue", args=["demo"])).status_code == 404
    assert db_snapshot() == before


def test_annotator_cannot_open_someone_elses_assignment(planned, client):
    theirs = Assignment.objects.filter(user=planned.annotators[1]).first()
    client.force_login(planned.annotators[0])
    before = db_snapshot()

    assert client.get(author_url(planned.project, theirs)).status_code == 404
    assert client.post(author_url(planned.project, theirs), author_post(VALID_PAYLOAD)).status_code == 404
    assert db_snapshot() == before


def test_refused_htmx_draft_save_is_shown_inside_the_form(planned, client):
    item = submitted_item(planned, VALID_PAYLOAD)
    client.force_login(item.author)
    before = db_snapshot()

    response = client.post(
        author_url(planned.project, item.assignment), author_post(VALID_PAYLOAD, action="save"), HTTP_HX_REQUEST="true"
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert (
        '<p class="notice error" id="form-notice" role="alert">This item is submitted; it can only be edited as a '
        "draft or when a reviewer asks for a revision.</p>"
    ) in html
    assert db_snapshot() == before


def test_invalid_field_shape_is_refused_before_any_service(planned, client):
    annotator = planned.annotators[0]
    assignment = first_assignment(planned.project, annotator)
    client.force_login(annotator)
    before = db_snapshot()

    response = client.post(author_url(planned.project, assignment), {**author_post(VALID_PAYLOAD), "answer": "F"})

    html = response.content.decode()
    assert response.status_code == 400
    assert "Check the highlighted fields." in html
    assert "Select a valid choice. F is not one of the available choices." in html
    assert db_snapshot() == before
