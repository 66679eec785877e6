"""The QC and evaluation pages in Indonesian (and one in Arabic): the browser's language (Accept-Language),
the language cookie or the user's own choice picks the catalogue; each page shows its translated strings
and none of the English ones they replace. Without a choice the pages stay English."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from annotation.models import Item
from annotation.services.preferences import preferences_update
from evaluation.models import Endpoint
from evaluation.services.runs import run_create
from qc.models import Review
from qc.services import review_approve
from tests.annotation.views.helpers import submitted_item
from tests.conftest import VALID_PAYLOAD

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english_afterwards():
    # LocaleMiddleware activates the request's language for the thread and nothing resets it: later tests
    # in this process call services directly and expect their English messages.
    yield
    translation.deactivate()


def browser(user, language: str = "id") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def assert_localised(html: str, *, shown: list[str], gone: list[str]) -> None:
    assert [s for s in shown if s not in html] == []
    assert [s for s in gone if s in html] == []


def test_review_queue_and_review_page_in_indonesian(csqa):
    item = submitted_item(csqa, VALID_PAYLOAD)
    client = browser(csqa.reviewer)

    queue = page(client, reverse("review_queue", args=["demo"]))
    review = page(client, reverse("review_item", args=["demo", item.pk]))

    assert '<html lang="id"' in queue
    assert_localised(
        queue,
        shown=["Antrean tinjauan", "Tinjau berikutnya <kbd>N</kbd>", "<th>Diambil oleh</th>", "<th>Butir</th>"],
        gone=["Review queue", "Review next", "Claimed by", "Nothing is waiting"],
    )
    assert_localised(
        review,
        shown=[
            f"Tinjau butir #{item.pk}",
            "<legend>Keputusan</legend>",
            "<legend>Jenis kesalahan</legend>",
            "Setujui",
            "Minta revisi",
            "Simpan keputusan",
            "Kembali ke antrean",
        ],
        gone=["Review item", "Save decision", "Request revision", "Back to the queue", "Error types"],
    )


def test_a_refused_decision_is_explained_in_indonesian_and_changes_nothing(csqa):
    item = submitted_item(csqa, VALID_PAYLOAD)
    client = browser(csqa.reviewer)

    response = client.post(
        reverse("review_item", args=["demo", item.pk]),
        {"version_id": item.current_version_id, "decision": "revise", "feedback": "", "error_types": []},
    )

    html = response.content.decode()
    assert response.status_code == 400
    assert "Permintaan revisi memerlukan masukan dan setidaknya satu jenis kesalahan." in html
    assert "Beri tahu penulis apa yang harus diubah." in html
    assert "Tell the author what to change." not in html
    item.refresh_from_db()
    assert (item.status, Review.objects.count()) == (Item.Status.SUBMITTED, 0)


def test_dashboard_and_report_page_in_indonesian(csqa):
    submitted_item(csqa, VALID_PAYLOAD)
    client = browser(csqa.admin)

    dashboard = page(client, reverse("dashboard", args=["demo"]))
    report = page(client, reverse("report_page", args=["demo"]))

    assert_localised(
        dashboard,
        shown=[
            "<h1>Dasbor</h1>",
            "Kemajuan penulisan per anotator dan kategori (selesai / direncanakan)",
            "Jenis kesalahan QC per anotator",
            "<th>Anotator</th>",
        ],
        gone=["Authoring progress per annotator", "QC error types per annotator", "<th>Annotator</th>"],
    )
    assert_localised(report, shown=["<title>Laporan · Project demo · Gotong</title>"], gone=["Reports ·"])


def test_import_and_export_pages_in_indonesian(csqa):
    client = browser(csqa.admin)

    imports = page(client, reverse("items_import_page", args=["demo"]))
    exports = page(client, reverse("export_page", args=["demo"]))

    assert_localised(
        imports,
        shown=["<h1>Impor berkas</h1>", "<h2>Apa yang terjadi</h2>", "Wilayah anotator", "Kode bahasa berkas"],
        gone=["Import a file", "What happens", "Annotator regions", "Language code of the file"],
    )
    assert_localised(
        exports,
        shown=["<h1>Ekspor set emas</h1>", "<h2>Ekspor baru</h2>", "Belum ada ekspor.", '<th scope="col">Berkas</th>'],
        gone=["Export the gold set", "New export", "No exports yet.", "Started by"],
    )


def test_exporting_says_so_in_indonesian(csqa):
    client = browser(csqa.admin)

    response = client.post(reverse("export_page", args=["demo"]), {"format": "jsonl"}, follow=True)

    html = response.content.decode()
    run_id = csqa.project.export_runs.get().pk
    assert f"Ekspor #{run_id} (JSON Lines) dimulai." in html
    assert "started." not in html


def _endpoint() -> Endpoint:
    # Never called: the runs below stay pending (the test transaction never commits, so nothing is queued).
    return Endpoint.objects.create(name="alpha", base_url="http://127.0.0.1:9/v1", model="alpha-model", is_local=True)


def test_run_list_and_benchmark_pages_in_indonesian(csqa):
    item = submitted_item(csqa, VALID_PAYLOAD)
    review_approve(item_id=item.pk, version_id=item.current_version_id, reviewer=csqa.reviewer)
    endpoint = _endpoint()
    run = run_create(
        kind="benchmark",
        endpoints=[endpoint],
        parameters={"templates": [], "gold_key": "author", "mode": "chat", "statuses": ["approved"]},
        project=csqa.project,
        user=csqa.admin,
    )
    client = browser(csqa.admin)

    runs = page(client, reverse("llm_run_list", args=["demo"]))
    benchmarks = page(client, reverse("benchmark_list", args=["demo"]))
    leaderboard = page(client, reverse("benchmark_leaderboard", args=["demo", run.pk]))
    run_page = page(client, reverse("llm_run_page", args=["demo", run.pk]))

    assert_localised(
        runs,
        shown=["<h1>Run LLM</h1>", "Minta respons dari model", "Mulai run", "Menunggu", "Satu prompt per baris."],
        gone=["LLM runs", "Ask a model for responses", "Start run", "Pending", "One prompt per line."],
    )
    assert_localised(
        benchmarks,
        shown=["<h2>Mulai benchmark</h2>", "Run benchmark", "Bandingkan dua run", "Bahasa prompt", "Kunci emas"],
        gone=["Start a benchmark", "Benchmark runs", "Compare two runs", "Prompt language", "Gold key"],
    )
    assert_localised(
        leaderboard,
        shown=[
            f"Benchmark #{run.pk}",
            "<h2>Keseluruhan</h2>",
            "Interval kepercayaan",
            "<h2>Model dan manusia</h2>",
            "Run masih menunggu: angka ini mencakup jawaban yang tercatat sejauh ini.",
        ],
        gone=["Overall", "Models and humans", "95% interval", "The run is still"],
    )
    assert_localised(
        run_page,
        shown=[f"Run #{run.pk}</span></h1>", "<dt>Panggilan per detik</dt>", "Jeda", "Batalkan"],
        gone=["Calls per second", ">Pause<", ">Cancel<"],
    )


def test_the_users_own_choice_and_the_cookie_pick_the_language(csqa):
    submitted_item(csqa, VALID_PAYLOAD)
    preferences_update(user=csqa.reviewer, language="ar", time_zone="")
    chosen = Client(HTTP_ACCEPT_LANGUAGE="id")
    chosen.force_login(csqa.reviewer)
    cookie = Client()
    cookie.force_login(csqa.admin)
    cookie.cookies[settings.LANGUAGE_COOKIE_NAME] = "id"

    arabic = page(chosen, reverse("review_queue", args=["demo"]))
    indonesian = page(cookie, reverse("review_queue", args=["demo"]))

    assert '<html lang="ar" dir="rtl"' in arabic
    assert_localised(arabic, shown=["قائمة المراجعة", "راجع التالي"], gone=["Antrean tinjauan", "Review queue"])
    assert_localised(indonesian, shown=["Antrean tinjauan"], gone=["Review queue"])


def test_without_a_choice_the_pages_stay_english(csqa):
    submitted_item(csqa, VALID_PAYLOAD)
    client = Client()
    client.force_login(csqa.reviewer)

    html = page(client, reverse("review_queue", args=["demo"]))

    assert_localised(html, shown=["Review queue", "Review next <kbd>N</kbd>", "<th>Claimed by</th>"], gone=["Antrean"])
