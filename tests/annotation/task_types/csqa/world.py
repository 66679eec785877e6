"""A small cross-answering project shared by the cross-answering page, API and browser tests.

Four annotators W1..W4 (regions Jawa Barat, Jawa Barat, Bali, Aceh), m = 3, ambiguity threshold 1,
one approved item written by each: item k by W(k+1), the author's answer A, B, C, D in turn, in
categories culinary, family, culinary, family.

`answered_world` adds these answers (rows: item; W1..W4; "-" = the author):

    item0 (W1, A)  -   A   B   A
    item1 (W2, B)  B   -   B   C*   * W4 uncertain, flags option C ambiguous
    item2 (W3, C)  D   D   -   C
    item3 (W4, D)  D   D   D   -    W1 and W2 flag the question ambiguous -> excluded (2 > 1)

so the conflicts (answerer x creator) are W1xW3 = 1, W2xW3 = 1, W3xW1 = 1, W4xW2 = 1.

Also: a small id-csqa file to import, and the list of every issue-3 endpoint and page (for the
permission matrices).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from annotation.models import Item, Membership, Project
from annotation.services.projects import membership_add
from qc.gold import gold_recompute_project
from tests.qc.helpers import CLEAR, add_judgment, make_item, make_project, make_user

User = get_user_model()
REGIONS = ["Jawa Barat", "Jawa Barat", "Bali", "Aceh"]
CATEGORIES = ["culinary", "family"]
CHOICES = [
    ["Ketupat", "Rendang", "Opor ayam", "Sambal goreng", "Nastar"],
    ["Sungkem", "Mudik", "Halalbihalal", "Ziarah", "Takbiran"],
    ["Pagi hari", "Siang hari", "Sore hari", "Malam hari", "Tengah malam"],
    ["Nenek", "Paman", "Sepupu", "Tetangga", "Guru"],
]
QUESTIONS = [
    "Apa hidangan utama saat Lebaran di kampung?",
    "Apa yang dilakukan keluarga pada pagi Lebaran?",
    "Kapan biasanya orang berbuka puasa bersama?",
    "Siapa yang paling dulu dikunjungi saat Lebaran?",
]
OPTION_C = [False, False, True, False, False]


@dataclass
class World:
    project: Project
    admin: object
    reviewer: object
    people: list
    items: list[Item]


def make_world(*, slug: str = "xa", items_per_author: int = 1) -> World:
    project, people = make_project(slug=slug, annotators=4, m=3, threshold=1, regions=REGIONS)
    admin = User.objects.get(username=f"{slug}-admin")
    reviewer = make_user(f"{slug}-reviewer")
    membership_add(project=project, user=reviewer, role=Membership.Role.REVIEWER)
    items = []
    for round_ in range(items_per_author):
        for k, author in enumerate(people):
            items.append(
                make_item(
                    project,
                    author,
                    category=CATEGORIES[k % 2],
                    concept=f"konsep{k}",
                    question=QUESTIONS[k] if round_ == 0 else f"{QUESTIONS[k][:-1]} ({round_})?",
                    choices=CHOICES[k],
                    answer="ABCD"[k],
                )
            )
    return World(project=project, admin=admin, reviewer=reviewer, people=people, items=items)


def add_answers(world: World) -> None:
    """The answers in the table above, for every round of items (items k, k+4, k+8, ... alike)."""
    w1, w2, w3, w4 = world.people
    for start in range(0, len(world.items), 4):
        i0, i1, i2, i3 = world.items[start : start + 4]
        add_judgment(i0, w2, "A")
        add_judgment(i0, w3, "B")
        add_judgment(i0, w4, "A")
        add_judgment(i1, w1, "B")
        add_judgment(i1, w3, "B")
        add_judgment(i1, w4, "C", uncertain=True, options=OPTION_C, comment="C juga bisa")
        add_judgment(i2, w1, "D")
        add_judgment(i2, w2, "D")
        add_judgment(i2, w4, "C")
        add_judgment(i3, w1, "D", question_ambiguous=True)
        add_judgment(i3, w2, "D", question_ambiguous=True)
        add_judgment(i3, w3, "D", options=CLEAR)
    gold_recompute_project(project=world.project)


def answered_world(*, slug: str = "xa", items_per_author: int = 1) -> World:
    world = make_world(slug=slug, items_per_author=items_per_author)
    add_answers(world)
    return world


def id_csqa_file(rows: int = 3) -> bytes:
    """A small id-csqa HUMAN_GEN file (JSON array) written by W1..W3 and answered by the other two,
    with two oddities: an "Uncertain" in capitals (normalised, reported) and a row without an id
    (skipped, reported)."""
    out = []
    for r in range(rows):
        author = f"W{r % 3 + 1}"
        answerers = [c for c in ("W1", "W2", "W3") if c != author]
        out.append(
            {
                "id": f"orig_h_test_{r}",
                "category": "culinary",
                "question_concept": f"konsep{r}",
                "question": f"Apa hidangan khas nomor {r} saat Lebaran?",
                "choices": {"label": list("ABCDE"), "text": [f"Pilihan {r}{x}" for x in "abcde"]},
                "answer_creator": "A",
                "answer_majority": "A",
                "answers": dict.fromkeys(answerers, "A"),
                "answers_uncertainty": dict.fromkeys(answerers, "certain"),
                "question_ambiguity": dict.fromkeys(answerers, "clear"),
                "option_ambiguity": {c: ["clear"] * 5 for c in answerers},
                "reason": dict.fromkeys(answerers, ""),
            }
        )
    out[0]["answers_uncertainty"][next(iter(out[0]["answers"]))] = "Uncertain"
    broken = dict(out[-1])
    del broken["id"]
    out.append(broken)
    return json.dumps(out, ensure_ascii=False).encode()


def api_requests(slug, *, assignment_id, run_id):
    """Every issue-3 API endpoint of the project `slug`, with a body an allowed caller could send."""
    base = f"/api/projects/{slug}"
    return [
        ("post", f"{base}/plans/judging/", {"seed": 3}),
        ("post", f"{base}/judgments/next/", {}),
        ("get", f"{base}/judgments/{assignment_id}/", None),
        ("post", f"{base}/judgments/{assignment_id}/", {"answer": "A"}),
        ("get", f"{base}/reports/csqa/", None),
        ("get", f"{base}/exports/", None),
        ("post", f"{base}/exports/", {"format": "csv"}),
        ("get", f"{base}/exports/{run_id}/", None),
        ("get", f"{base}/exports/{run_id}/files/test.jsonl", None),
        ("post", f"{base}/imports/", "multipart"),
    ]


def page_requests(slug, *, assignment_id, run_id):
    """Every issue-3 page of the project `slug`, GET and POST."""
    return [
        ("get", reverse("judging_plan", args=[slug]), None),
        ("post", reverse("judging_plan", args=[slug]), {}),
        ("get", reverse("answer_queue", args=[slug]), None),
        ("get", reverse("answer_item", args=[slug, assignment_id]), None),
        ("post", reverse("answer_item", args=[slug, assignment_id]), {"answer": "A"}),
        ("get", reverse("report_page", args=[slug]), None),
        ("get", reverse("report_json", args=[slug]), None),
        ("get", reverse("conflicts_csv", args=[slug]), None),
        ("get", reverse("items_import_page", args=[slug]), None),
        ("post", reverse("items_import_page", args=[slug]), "multipart"),
        ("get", reverse("export_page", args=[slug]), None),
        ("post", reverse("export_page", args=[slug]), {"format": "csv"}),
        ("get", reverse("export_download", args=[slug, run_id, "test.jsonl"]), None),
    ]


def call(client, method, path, body):
    """One request with an API client (token) or a page client (session); "multipart" uploads a file."""
    if body == "multipart":
        upload = SimpleUploadedFile("ind.json", id_csqa_file(), content_type="application/json")
        data = {"file": upload, "language": "id"}
        return (
            client.post(path, data, format="multipart") if hasattr(client, "credentials") else client.post(path, data)
        )
    if hasattr(client, "credentials"):
        return getattr(client, method)(path, body, format="json")
    return getattr(client, method)(path, body or {})
