"""The interface in the user's language: Indonesian strings on every page of the main flow, and an
Arabic interface laid out right to left while the project's (Indonesian) content keeps its own direction."""

import pytest

from annotation.models import Assignment, Item, UserPreferences
from tests.browser.conftest import log_in
from tests.browser.flow_pages import make_flow_pages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXT = "() => document.body.innerText"
DIRECTION = "el => getComputedStyle(el).direction"


def _flow(slug: str, language: str):
    flow = make_flow_pages(slug=slug)
    for user in (flow.admin, flow.reviewer, flow.annotator):
        UserPreferences.objects.create(user=user, language=language, time_zone="Asia/Jakarta")
    authoring = Assignment.objects.filter(user=flow.annotator, kind="author").order_by("id").first()
    judging = Assignment.objects.filter(user=flow.annotator, kind="answer").order_by("id").first()
    submitted = Item.objects.get(project__slug=slug, status=Item.Status.SUBMITTED)
    return flow, authoring, judging, submitted


def test_an_indonesian_user_sees_indonesian_on_every_page_of_the_flow(new_page, transactional_db):
    flow, authoring, judging, submitted = _flow("lokal", "id")
    p = f"/p/{flow.slug}"
    # (who, page, Indonesian strings it shows, the English string it no longer shows)
    expected = [
        ("annotator", f"{p}/", ["Penulisan", "Buka antrean saya", "Antrean saya"], "Open my queue"),
        ("annotator", f"{p}/author/", ["Simpan draf", "Kemajuan"], "Save draft"),
        (
            "annotator",
            f"{p}/author/{authoring.pk}/",
            ["Pilihan A–E: tandai yang benar", "Lewati yang ini"],
            "Skip this one",
        ),
        ("annotator", f"{p}/items/", ["Butir saya", "Saring", "Konsep", "Butir"], "Filter"),
        ("annotator", f"{p}/judge/{judging.pk}/", ["Jawab pertanyaan", "Papan ketik", "Jawaban Anda"], "Keyboard"),
        ("reviewer", f"{p}/review/", ["Antrean tinjauan", "Tinjau berikutnya"], "Review next"),
        ("reviewer", f"{p}/review/{submitted.pk}/", ["Simpan keputusan", "Kembali ke antrean"], "Back to the queue"),
        ("admin", f"{p}/dashboard/", ["Dasbor", "Butir menurut status"], "Items by status"),
        ("admin", f"{p}/reports/", ["Laporan jawaban silang", "Kesepakatan"], "Cross-answering report"),
    ]
    pages = {}
    for role, user in (("annotator", flow.annotator), ("reviewer", flow.reviewer), ("admin", flow.admin)):
        pages[role] = new_page()
        log_in(pages[role], user.username)

    missing, english = {}, {}
    for role, path, strings, gone in expected:
        page = pages[role]
        assert page.goto(path).status == 200, path
        assert page.evaluate("document.documentElement.lang") == "id", path
        text = page.evaluate(TEXT)
        if absent := [s for s in strings if s not in text]:
            missing[path] = absent
        if gone in text:
            english[path] = gone

    assert (missing, english) == ({}, {})


def test_the_arabic_interface_is_right_to_left_and_the_content_keeps_its_direction(new_page, transactional_db):
    flow, authoring, _judging, _submitted = _flow("rtl-ui", "ar")
    page = new_page()
    log_in(page, flow.annotator.username)

    for path in (f"/p/{flow.slug}/", f"/p/{flow.slug}/items/", f"/p/{flow.slug}/author/{authoring.pk}/"):
        assert page.goto(path).status == 200, path
        assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["ar", "rtl"]
        for selector in ("body", "header.topbar", "nav.project-nav", "main#main"):
            assert page.eval_on_selector(selector, DIRECTION) == "rtl", (path, selector)
    assert "قائمتي" in page.evaluate(TEXT)

    # The project is Indonesian: the form's controls follow the interface (right to left), the fields the
    # author writes the item in stay left to right, marked as Indonesian.
    assert page.eval_on_selector("#author-form", DIRECTION) == "rtl"
    assert page.get_attribute("#id_question", "lang") == "id"
    assert page.eval_on_selector("#id_question", DIRECTION) == "ltr"
    assert page.eval_on_selector("#submit-item", "el => el.innerText").startswith("إرسال")
