"""A small sentiment project with something on every page: the crawls (tests/protocol_reach.py) and the
tutorial's page tests build it.

Four annotators W1..W4, a reviewer, eight topics (one author each, two per annotator). Imported
(sentiment-jsonl): s1 labelled positive by W2 and W3 (gold), s2 labelled positive by W3 and negative by
W4 (a tie: no_gold), s3 and s4 without labels, which the judging plan sends to two judges each.
Written: W1 writes one sentence and submits it; it waits for review.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from annotation.models import Assignment, Membership, Project
from annotation.services.assignments import assignment_claim_next, assignment_plan_authoring
from annotation.services.catalog import concepts_import
from annotation.services.imports import items_import
from annotation.services.items import unit_submit
from annotation.services.judging import judging_plan
from annotation.services.projects import membership_add, project_create
from tests.factories import UserFactory

ROWS = [
    {"id": "s1", "text": "Nasi gorengnya enak sekali.", "judges": ["W2", "W3"], "judge_labels": ["positive"] * 2},
    {"id": "s2", "text": "Harganya lumayan.", "judges": ["W3", "W4"], "judge_labels": ["positive", "negative"]},
    {"id": "s3", "text": "Antreannya panjang sekali.", "author_label": "negative"},
    {"id": "s4", "text": "Warung buka jam tujuh."},
]


TOPICS = {"food": ("street food", "coffee", "breakfast", "snacks"), "travel": ("trains", "buses", "ferries", "roads")}


def units_file() -> bytes:
    return ("category,concept\n" + "".join(f"{c},{t}\n" for c, topics in TOPICS.items() for t in topics)).encode()


def sentences_file(rows: list[dict] = ROWS) -> bytes:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows).encode()


@dataclass
class World:
    project: Project
    admin: object
    reviewer: object
    annotators: list


def make_world(*, slug: str = "senti") -> World:
    admin = UserFactory(username=f"{slug}-admin")
    project = project_create(
        creator=admin,
        name="Sentiment (tutorial)",
        slug=slug,
        task_type="sentiment",
        languages=[{"code": "id", "name": "Indonesian"}],
        guidelines="Tulis satu kalimat tentang topiknya.",
        authors_per_concept=1,
    )
    reviewer = UserFactory(username=f"{slug}-reviewer")
    membership_add(project=project, user=reviewer, role=Membership.Role.REVIEWER)
    annotators = []
    for n in range(1, 5):
        user = UserFactory(username=f"{slug}-w{n}")
        membership_add(project=project, user=user, role=Membership.Role.ANNOTATOR, code=f"W{n}")
        annotators.append(user)
    concepts_import(project=project, data=units_file(), filename="units.csv")
    assignment_plan_authoring(project=project)
    items_import(path_or_bytes=sentences_file(), project_slug=slug, format="sentiment-jsonl", language="id")
    judging_plan(project=project)
    writer = annotators[0]
    assignment = assignment_claim_next(project=project, user=writer, kind=Assignment.Kind.AUTHOR)
    unit_submit(assignment_id=assignment.pk, user=writer, data={"text": "Kopinya pahit.", "label": "negative"})
    return World(project=project, admin=admin, reviewer=reviewer, annotators=annotators)
