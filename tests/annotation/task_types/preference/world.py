"""A preference project for tests: 20 prompts x 5 responses (imported with their models), 5 raters in
group A and 5 in group B, rating planned (one rater of each group per prompt), and known scores.

Scores: relevance and fluency of response r (1..5) of prompt p (0..19) by group g (0 = A, 1 = B) follow
fixed formulas (`score`), so tests compute pairs, ties, alphas and means on their own."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from annotation.models import Assignment, Item, Membership, Project
from annotation.selectors.judgments import judge_item_for
from annotation.services.imports import items_import
from annotation.services.judging import judging_plan
from annotation.services.judgments import judgment_record
from annotation.services.members import member_set_group
from annotation.services.projects import membership_add
from tests.factories import UserFactory

MODELS = ("gemini-1.5-flash", "llama-3.1-8b", "aya-expanse-8b", "gpt-4o-mini", "gpt-4o")
CATEGORIES = ("math", "coding", "safety", "translation")
PROMPTS = 20
GROUPS = ("A", "B")


def score(p: int, r: int, g: int) -> dict[str, int]:
    """Known scores: response r of prompt p rated by group g (r in 1..5)."""
    relevance = 1 + (p + 2 * r + (g if p % 3 == 0 else 0)) % 5
    fluency = 1 + (p * r + g * (p % 2)) % 5
    return {"relevance": relevance, "fluency": fluency}


def best_of(p: int, g: int) -> int:
    """The response (1..5) group g picks as the best of prompt p: its highest relevance + fluency, the
    first one on a tie."""
    totals = [(score(p, r, g)["relevance"] + score(p, r, g)["fluency"], -r) for r in range(1, 6)]
    return -max(totals)[1]


def prompts_file() -> bytes:
    lines = []
    for p in range(PROMPTS):
        lines.append(
            {
                "id": f"P{p:02d}",
                "category": CATEGORIES[p % len(CATEGORIES)],
                "prompt": f"Pertanyaan nomor {p}: jelaskan langkahnya.",
                "input": "" if p % 2 else f"Teks masukan {p}.",
                "responses": [
                    {"model": m, "text": f"Jawaban ke-{r + 1} untuk soal {p}."} for r, m in enumerate(MODELS)
                ],
            }
        )
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode()


@dataclass
class World:
    project: Project
    admin: object
    raters: dict[str, list] = field(default_factory=dict)  # group -> users
    items: dict[int, Item] = field(default_factory=dict)  # p -> item

    def group_of(self, user) -> int:
        return 0 if user in self.raters["A"] else 1

    def rate(self, assignment: Assignment, *, best: int | None = None) -> None:
        """The rater's known scores, posted by shown position as the page would."""
        user = assignment.user
        item = Item.objects.get(pk=assignment.target_item_id)
        p = int(item.external_id[1:])
        g = self.group_of(user)
        shown = judge_item_for(assignment=assignment, user=user, task_type_name="preference")
        text_to_r = {r["text"]: int(r["id"][1:]) for r in item.current_version.payload["responses"]}
        ratings, best_position = [], None
        for response in shown.view["responses"]:
            r = text_to_r[response["text"]]
            ratings.append(score(p, r, g))
            if r == (best or best_of(p, g)):
                best_position = response["position"]
        judgment_record(
            assignment_id=assignment.pk, user=user, data={"ratings": ratings, "best": best_position, "comment": ""}
        )


def make_world(*, slug: str = "pref", raters_per_group: int = 5, prompts: bytes | None = None, **settings) -> World:
    """`prompts`: a preference-prompts file (ids "P00", "P01", ...) instead of the 20 known ones."""
    admin = UserFactory(username=f"{slug}-admin")
    items_import(
        path_or_bytes=prompts if prompts is not None else prompts_file(),
        project_slug=slug,
        format="preference-prompts",
        language="id",
        creator=admin,
    )
    project = Project.objects.get(slug=slug)
    if settings:
        project.settings = {**project.settings, **settings}
        project.save(update_fields=["settings"])
    world = World(project=project, admin=admin)
    for group in GROUPS:
        world.raters[group] = []
        for n in range(raters_per_group):
            user = UserFactory(username=f"{slug}-{group.lower()}{n + 1}")
            membership = membership_add(project=project, user=user, role="annotator", code=f"{group}{n + 1}")
            member_set_group(membership=membership, group=group)
            world.raters[group].append(user)
    world.items = {int(i.external_id[1:]): i for i in Item.objects.filter(project=project)}
    return world


def plan(world: World) -> None:
    judging_plan(project=world.project)


def rate_all(world: World) -> None:
    for assignment in (
        Assignment.objects.filter(project=world.project, kind="rate").select_related("user").order_by("pk")
    ):
        world.rate(assignment)


def membership(world: World, user) -> Membership:
    return Membership.objects.get(project=world.project, user=user)
