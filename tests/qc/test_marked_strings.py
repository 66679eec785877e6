"""Strings that were shown in English whatever the interface language, now from the catalogues: QC error
types (review form, item history), task type names (new-project page), adjudication cells, applicant
statuses and screening reasons. A project's own error type label is shown as written."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from annotation.models import Application, Membership
from annotation.services.projects import membership_add
from annotation.services.screening import applications_for
from annotation.task_types.csqa.plugin import CSQA_ERROR_TYPES
from qc.adjudication import answer_text, flag_texts
from qc.models import ErrorType
from qc.services import error_types_seed
from tests.annotation.views.helpers import submitted_item
from tests.conftest import VALID_PAYLOAD
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    translation.deactivate()


def _client(user, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def test_error_types_are_stored_in_english_and_shown_in_the_readers_language(csqa):
    item = submitted_item(csqa, VALID_PAYLOAD)
    ErrorType.objects.create(project=csqa.project, code="own", label="Kata daerah", position=99)

    html = _client(csqa.reviewer, "id").get(f"/p/demo/review/{item.pk}/").content.decode()

    assert ErrorType.objects.get(project=csqa.project, code="typo").label == "Typo / mechanics"
    assert '<span dir="auto">Salah ketik / mekanika</span>' in html
    assert 'title="Ejaan, tanda baca, huruf kapital."' in html
    assert '<span dir="auto">Kata daerah</span>' in html  # the project's own label, as written
    assert "Typo / mechanics" not in html


def test_a_project_created_in_arabic_stores_its_error_types_in_english(csqa):
    with translation.override("ar"):
        ErrorType.objects.filter(project=csqa.project).delete()
        error_types_seed(project=csqa.project, error_types=CSQA_ERROR_TYPES)

    labels = list(ErrorType.objects.filter(project=csqa.project).values_list("label", flat=True)[:2])
    assert labels == ["Typo / mechanics", "Sentence fluency"]


@pytest.mark.parametrize(
    ("language", "names"),
    [
        ("id", ["QA akal sehat (pertanyaan + 5 pilihan)", "NLI (premis + 6 hipotesis, putaran validasi)"]),
        ("ar", ["أسئلة الحسّ العام (سؤال + 5 خيارات)", "NLI (مقدمة + 6 فرضيات، جولات تحقق)"]),
    ],
)
def test_task_type_names_on_the_new_project_page(language, names):
    admin = UserFactory(is_staff=True, is_superuser=True)

    html = _client(admin, language).get("/projects/new/").content.decode()

    assert [name for name in names if name not in html] == []
    assert "Commonsense QA (question + 5 options)" not in html


def test_adjudication_cells_in_indonesian():
    with translation.override("id"):
        assert answer_text({"answer": "C"}) == "jawaban: C"
        assert flag_texts({"uncertain": True, "question_ambiguous": False}) == ("tidak yakin",)
        assert answer_text(True) == "ya"


def test_applicant_statuses_in_arabic(csqa):
    user = UserFactory()
    membership = membership_add(project=csqa.project, user=user, role=Membership.Role.ANNOTATOR, code="X1")
    Application.objects.create(membership=membership, status=Application.Status.PASSED)

    with translation.override("ar"):
        rows = {row["code"]: row for row in applications_for(project=csqa.project)}
        shown = (rows["X1"]["status"], str(rows["X1"]["status_label"]))

    assert shown == ("passed", "ناجح، بانتظار القبول")
