"""Small gold sets for benchmark tests (the replies are scripted in tests/evaluation/benchmarks/script.py).

Multiple-choice project (five gold items, categories "makanan" and "adat"):

    item  gold (author)  majority  endpoint alpha: Choices template | helm template   beta (any)
    soal1      A             A      "A"            correct          | "A"   correct     "A"  correct
    soal2      B             C      "Jawaban: B"   correct          | same  correct     "A"  wrong
    soal3      C             C      "The correct answer is D."  wrong | "C." correct    "A"  wrong
    soal4      D             D      "Saya tidak tahu."  unparsed    | same  unparsed    "A"  wrong
    soal5      E             A      "**E**"        correct          | same  correct     "A"  wrong
"""

from __future__ import annotations

from annotation.models import Category, Concept, Item, ItemVersion, Judgment, Project, ProjectLanguage
from qc.models import GoldDecision
from tests.evaluation.benchmarks.script import ITEMS, NLI_ITEMS
from tests.factories import UserFactory


def _item(project, concept, payload, *, status=Item.Status.GOLD, source=Item.Source.HUMAN, slot=0):
    item = Item.objects.create(
        project=project, task_type=project.task_type, concept=concept, status=status, source=source, slot=slot
    )
    version = ItemVersion.objects.create(item=item, number=1, payload=payload)
    Item.objects.filter(pk=item.pk).update(current_version=version)
    return item


def choice_project(slug: str = "bench-mc") -> tuple[Project, list[Item]]:
    project = Project.objects.create(name="Bench MC", slug=slug, task_type="csqa")
    ProjectLanguage.objects.create(project=project, code="id", name="Indonesian")
    categories = {name: Category.objects.create(project=project, name=name) for name in ("makanan", "adat")}
    items = []
    for key, category, gold, majority, _a, _b in ITEMS:
        concept = Concept.objects.create(project=project, category=categories[category], name=f"konsep {key}")
        payload = {
            "question": f"Apa jawaban {key}?",
            "choices": [f"pilihan {key} {letter}" for letter in "ABCDE"],
            "answer": gold,
        }
        item = _item(project, concept, payload)
        GoldDecision.objects.create(
            item=item, policy="csqa_majority_v1", outcome="gold", details={"majority": majority, "author_answer": gold}
        )
        items.append(item)
    # Not in the default slice: an approved item without gold, and an excluded one.
    concept = Concept.objects.create(project=project, category=categories["adat"], name="konsep lain")
    payload = {"question": "Apa jawaban soal6?", "choices": list("vwxyz"), "answer": "A"}
    _item(project, concept, payload, status=Item.Status.APPROVED)
    _item(project, concept, payload, status=Item.Status.EXCLUDED)
    return project, items


def label_project(slug: str = "bench-label") -> tuple[Project, list[Item]]:
    """Four gold hypotheses on one premise; two validators each: the first always agrees with the gold
    label, the second says "neutral" (so the human baseline is 5 of 8)."""
    project = Project.objects.create(name="Bench labels", slug=slug, task_type="nli")
    ProjectLanguage.objects.create(project=project, code="id", name="Indonesian")
    category = Category.objects.create(project=project, name="berita")
    concept = Concept.objects.create(
        project=project, category=category, name="p-1", data={"text": "Budi pergi ke pasar pagi ini."}
    )
    first, second = UserFactory(), UserFactory()
    items = []
    for slot, (hypothesis, label, _reply) in enumerate(NLI_ITEMS):
        item = _item(project, concept, {"hypothesis": hypothesis, "label": label, "tags": []}, slot=slot)
        GoldDecision.objects.create(item=item, policy="nli_rounds_v1", outcome="gold", details={"label": label})
        for user, value in ((first, label), (second, "neutral")):
            Judgment.objects.create(
                project=project, item=item, user=user, kind="validate", round=1, value={"label": value}, flags={}
            )
        items.append(item)
    return project, items
