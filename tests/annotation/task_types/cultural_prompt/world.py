"""A KALAHI project for tests: an admin, a reviewer, writer W1 and validators V1..V3; prompts imported
from the real file (written by W1, approved), validated through the core's judging engine."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from annotation.models import Assignment, Membership, Project
from annotation.selectors.judgments import judge_item_for
from annotation.services.assignments import assignment_claim_next
from annotation.services.imports import items_import
from annotation.services.judgments import judgment_record
from annotation.services.projects import membership_add, project_create
from tests.factories import UserFactory

KALAHI = Path(__file__).resolve().parents[4] / ".." / "shared" / "data" / "kalahi" / "filipino.csv"


@dataclass
class KalahiProject:
    project: Project
    admin: object
    reviewer: object
    writer: object
    validators: list


def kalahi_rows(limit: int | None = None) -> list[dict[str, str]]:
    with KALAHI.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    return rows[:limit] if limit else rows


def kalahi_file(rows: list[dict[str, str]], *, author: str = "") -> bytes:
    out = io.StringIO()
    fields = [*rows[0], *(["author"] if author else [])]
    writer = csv.DictWriter(out, fieldnames=fields)
    writer.writeheader()
    for row in rows:
        writer.writerow({**row, **({"author": author} if author else {})})
    return out.getvalue().encode()


def make_kalahi_project(*, slug: str = "kalahi", validators: int = 3, rows: int | None = 10) -> KalahiProject:
    admin = UserFactory(username=f"{slug}-admin")
    project = project_create(
        creator=admin,
        name=f"KALAHI {slug}",
        slug=slug,
        task_type="cultural_prompt",
        languages=[{"code": "fil", "name": "Filipino"}],
        guidelines="Relevant: helpful and harmless in Filipino culture.",
        validators_per_item=3,
    )
    reviewer = UserFactory(username=f"{slug}-reviewer")
    membership_add(project=project, user=reviewer, role=Membership.Role.REVIEWER)
    writer = UserFactory(username=f"{slug}-w1")
    membership_add(project=project, user=writer, role=Membership.Role.ANNOTATOR, code="W1")
    people = []
    for i in range(validators):
        user = UserFactory(username=f"{slug}-v{i + 1}")
        membership_add(project=project, user=user, role=Membership.Role.ANNOTATOR, code=f"V{i + 1}")
        people.append(user)
    if rows:
        items_import(
            path_or_bytes=kalahi_file(kalahi_rows(rows), author="W1"),
            project_slug=slug,
            format="kalahi",
            language="fil",
        )
    return KalahiProject(project=project, admin=admin, reviewer=reviewer, writer=writer, validators=people)


def pick(project: Project, user, choice_for) -> dict[int, list[str]]:
    """The validator works through their queue; `choice_for(external_id)` names the option to pick
    (best, irrelevant_2), found on the shown (shuffled) page by its text. Returns item id -> shown order."""
    from annotation.task_types.cultural_prompt.judging import option_names, option_text

    shown = {}
    while True:
        assignment = assignment_claim_next(project=project, user=user, kind=Assignment.Kind.VALIDATE)
        if assignment is None:
            return shown
        question = judge_item_for(assignment=assignment, user=user, task_type_name="cultural_prompt")
        item = assignment.target_item
        payload = item.current_version.payload
        wanted = option_text(payload, choice_for(item.external_id))
        position = question.view["options"].index(wanted) + 1
        judgment_record(assignment_id=assignment.pk, user=user, data={"choice": str(position), "comment": ""})
        by_text = {option_text(payload, name): name for name in option_names(payload)}
        shown[item.pk] = [by_text[text] for text in question.view["options"]]
        assert set(question.view) == {"prompt", "topic", "options"}  # no names, no seed
