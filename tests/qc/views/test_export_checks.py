"""The known-answer checks' file from the export page: an admin starts it beside the gold export (a run of
the format "checks", in the background like every export) and downloads exactly the rows of
`export_gold --checks`, with a README.md; members who are not admins reach neither the page nor the API's
exports, and nothing is created for them."""

import json
import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from annotation.models import Membership
from annotation.services.known_answers import item_set_known_answer
from annotation.services.projects import membership_add
from qc.exports.checks import checks_export
from qc.models import ExportRun
from tests.qc.helpers import add_judgment, make_item, make_project, make_user

pytestmark = pytest.mark.django_db

CHECK_ROW = {  # id-csqa's gold export layout, no judgment yet, and the answer a judge must give
    "id": "ka-check",
    "category": "culinary",
    "question_concept": "culinary-concept",
    "question": "Makanan apa yang dibawa saat mudik?",
    "choices": {"label": ["A", "B", "C", "D", "E"], "text": ["Ketupat", "Pizza", "Sushi", "Taco", "Burger"]},
    "answer_creator": "A",
    "answer_majority": "",
    "answers": {},
    "answers_uncertainty": {},
    "question_ambiguity": {},
    "option_ambiguity": {},
    "reason": {},
    "language": "id",
    "known_answer": "A",
}


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


@pytest.fixture
def project():
    return checks_world()


def checks_world():
    """Project "ka" (csqa): two approved items with their judgments, one check (CHECK_ROW) and a reviewer."""
    project, people = make_project(slug="ka", annotators=3)
    for n in range(2):
        item = make_item(project, people[0], question=f"Pertanyaan {n}", answer="B", external_id=f"q{n}")
        for judge in people[1:]:
            add_judgment(item, judge, "B")
    check = make_item(
        project, people[0], question="Makanan apa yang dibawa saat mudik?", answer="A", external_id="ka-check"
    )
    item_set_known_answer(item_id=check.pk, project=project, answer="A")
    membership_add(project=project, user=make_user("ka-reviewer"), role=Membership.Role.REVIEWER)
    return project


def _admin(project):
    return project.memberships.get(role="admin").user


def test_an_admin_starts_the_checks_export_from_the_page_and_downloads_exactly_its_rows(
    project, client, django_capture_on_commit_callbacks, tmp_path
):
    client.force_login(_admin(project))
    url = reverse("export_page", args=["ka"])
    page = client.get(url).content.decode()
    assert " ".join(re.search(r'id="export-checks-count">(.*?)</p>', page, re.S)[1].split()).startswith(
        "The project has 1 known-answer check. They are never in the gold set."
    )
    form = re.search(
        r'<form method="post" action="([^"]+)" class="inline">\s*<input type="hidden" name="csrf[^>]+>\s*'
        r'<input type="hidden" name="format" value="(\w+)">\s*<button type="submit" id="export-checks-start">',
        page,
    )
    assert form.groups() == (url, "checks")

    with django_capture_on_commit_callbacks(execute=True):
        started = client.post(form[1], {"format": form[2]})

    assert started.status_code == 302
    run = ExportRun.objects.get(project=project)
    assert (run.format, run.status, run.progress, run.total) == ("checks", "done", 1, 1)
    assert run.files == {"checks": "checks.jsonl", "readme": "README.md"}
    listed = client.get(url).content.decode()
    links = re.findall(rf'<td id="run-{run.pk}-files">\s*(.*?)\s*</td>', listed, re.S)[0]
    hrefs = re.findall(r'<a href="([^"]+)" download>([^<]+)</a>', links)
    assert [name for _, name in hrefs] == ["checks.jsonl", "README.md"]
    assert "Known-answer checks (JSON Lines)" in listed
    download = client.get(hrefs[0][0])
    body = b"".join(download.streaming_content).decode("utf-8")
    assert download["Content-Disposition"] == f'attachment; filename="ka-export-{run.pk}-checks.jsonl"'
    assert [json.loads(line) for line in body.splitlines()] == [CHECK_ROW]
    path, _ = checks_export(project=project, out_dir=tmp_path / "command")
    assert body == path.read_text("utf-8")
    readme = b"".join(client.get(hrefs[1][0]).streaming_content).decode("utf-8")
    assert readme.splitlines()[0] == "# Project ka: known-answer checks"


def test_members_who_are_not_admins_reach_neither_the_page_nor_the_api_and_nothing_is_created(project, client):
    for username in ("ka-reviewer", "ka-w2"):
        user = project.memberships.get(user__username=username).user
        client.force_login(user)
        api = APIClient()
        api.force_login(user)

        page = client.post(reverse("export_page", args=["ka"]), {"format": "checks"})
        listed = client.get(reverse("export_page", args=["ka"]))
        refused = api.post("/api/projects/ka/exports/", {"format": "checks"}, format="json")

        assert (page.status_code, listed.status_code, refused.status_code) == (404, 404, 403)
        assert "checks" not in refused.content.decode()
    assert ExportRun.objects.count() == 0
