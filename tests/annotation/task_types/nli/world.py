"""An NLI project for tests: an admin, a reviewer, writers/validators, premises imported by the real service."""

from __future__ import annotations

import json
from dataclasses import dataclass

from annotation.models import Assignment, Concept, Membership, Project
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.catalog import concepts_import
from annotation.services.projects import membership_add, project_create
from tests.factories import UserFactory

PREMISES = [
    {
        "text": "Kota Gunungsitoli terletak di Pulau Nias dan berjarak sekitar 85 mil laut dari Kota Sibolga.",
        "source": "wiki",
        "topic": "geografi",
        "document_id": "wiki-1",
    },
    {
        "text": "Topan Molave menewaskan 36 orang di Vietnam. Sebanyak 46 orang lainnya hilang.",
        "source": "news",
        "topic": "bencana",
        "document_id": "news-1",
    },
]

# Six hypotheses for PREMISES[0] that pass every check: two per label, one sentence, a shared keyword.
SIX = [
    {"hypothesis": "Gunungsitoli berada di Pulau Nias.", "label": "entailment", "tags": ["LSUB"]},
    {"hypothesis": "Jarak Gunungsitoli ke Sibolga sekitar 85 mil laut.", "label": "entailment", "tags": ["NUM"]},
    {"hypothesis": "Kota Sibolga terletak di Pulau Nias.", "label": "contradiction", "tags": ["STRUCT", "SPAT"]},
    {"hypothesis": "Gunungsitoli berjarak 10 mil laut dari Sibolga.", "label": "contradiction", "tags": ["NUM"]},
    {"hypothesis": "Gunungsitoli adalah kota terbesar di Pulau Nias.", "label": "neutral", "tags": ["COMP"]},
    {"hypothesis": "Ada kapal setiap hari dari Gunungsitoli ke Sibolga.", "label": "neutral", "tags": ["WORLD"]},
]


@dataclass
class NliProject:
    project: Project
    admin: object
    reviewer: object
    annotators: list


def premises_jsonl(rows: list[dict]) -> bytes:
    return "\n".join(json.dumps(row, ensure_ascii=False) for row in rows).encode()


def make_nli_project(
    *, slug: str = "nli", annotators: int = 4, expert: bool = False, qc_review: bool = True, premises=PREMISES
) -> NliProject:
    admin = UserFactory(username=f"{slug}-admin")
    project = project_create(
        creator=admin,
        name=f"NLI {slug}",
        slug=slug,
        task_type="nli",
        languages=[{"code": "id", "name": "Indonesian"}],
        guidelines="Tulis enam hipotesis.",
        annotator_type="expert" if expert else "lay",
        qc_review=qc_review,
    )
    reviewer = UserFactory(username=f"{slug}-reviewer")
    membership_add(project=project, user=reviewer, role=Membership.Role.REVIEWER)
    people = []
    for i in range(annotators):
        user = UserFactory(username=f"{slug}-ann{i + 1}")
        membership_add(project=project, user=user, role=Membership.Role.ANNOTATOR, code=f"W{i + 1}")
        people.append(user)
    if premises:
        concepts_import(project=project, data=premises_jsonl(premises), filename="premises.jsonl")
    return NliProject(project=project, admin=admin, reviewer=reviewer, annotators=people)


def writing_assignment(world: NliProject, *, premise_index: int = 0) -> Assignment:
    """Plan authoring and return the assignment of the premise (its writer is assignment.user)."""
    assignment_plan_authoring(project=world.project)
    concept = Concept.objects.get(project=world.project, data__document_id=PREMISES[premise_index]["document_id"])
    return Assignment.objects.get(project=world.project, concept=concept, kind=Assignment.Kind.AUTHOR)
