"""Shared helpers for the cross-answering, gold, report and export tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone

from annotation.models import Category, Concept, Item, ItemVersion, Judgment, Project
from annotation.services.item_language import first_language
from tests.factories import make_csqa_project

User = get_user_model()

LABELS = ["A", "B", "C", "D", "E"]
CLEAR = [False] * 5


def shared_data_dir() -> Path:
    """The published datasets live beside the repository (../shared/data); they are never copied in."""
    return Path(settings.BASE_DIR).parent / "shared" / "data"


def require(path: Path) -> Path:
    if not path.exists():
        pytest.fail(
            f"Test data missing: {path} not found. These tests read the published id-csqa release from "
            f"{shared_data_dir()} (see its README.md); put the data there and run again.",
            pytrace=False,
        )
    return path


def ind_file() -> Path:
    return require(shared_data_dir() / "id-csqa" / "v2_human_gen" / "ind" / "filtered_test.json")


def human_gen_files() -> list[str]:
    """Every v2_human_gen/<language>/filtered_test.json present; a placeholder that fails if none is."""
    base = shared_data_dir() / "id-csqa" / "v2_human_gen"
    found = sorted(str(p) for p in base.glob("*/filtered_test.json"))
    return found or [str(base / "<missing>" / "filtered_test.json")]


def make_user(username: str):
    """No password: these people never log in here, and hashing (Argon2) would dominate test time."""
    return User.objects.create_user(username=username, password=None)


def make_project(*, slug: str = "xa", annotators: int = 6, m: int = 5, threshold: int = 3, regions=None):
    """A csqa project judged by m of its `annotators` (`<slug>-w<n>`, with `regions` when given), without
    reviewers or catalog (items come from make_item): (project, annotators)."""
    world = make_csqa_project(
        slug=slug,
        annotators=annotators,
        reviewers=0,
        categories=0,
        annotator_name="w",
        regions=regions,
        guidelines="",
        authors_per_concept=None,
        answerers_per_item=m,
        ambiguity_threshold=threshold,
    )
    return world.project, world.annotators


def make_item(
    project: Project,
    author,
    *,
    category: str = "culinary",
    concept: str | None = None,
    question: str = "Apa makanan khas Lebaran?",
    choices: list[str] | None = None,
    answer: str = "A",
    status: str = Item.Status.APPROVED,
    source: str = Item.Source.HUMAN,
    external_id: str = "",
) -> Item:
    cat, _ = Category.objects.get_or_create(project=project, name=category)
    con, _ = Concept.objects.get_or_create(project=project, category=cat, name=concept or f"{category}-concept")
    item = Item.objects.create(
        project=project,
        task_type="csqa",
        source=source,
        status=status,
        author=author,
        concept=con,
        external_id=external_id,
        language=first_language(project),
    )
    version = ItemVersion.objects.create(
        item=item,
        number=1,
        payload={
            "question": question,
            "choices": choices or ["Ketupat", "Pizza", "Sushi", "Taco", "Burger"],
            "answer": answer,
        },
        created_by=author,
        submitted_at=timezone.now(),
    )
    item.current_version = version
    item.save(update_fields=["current_version"])
    return item


def add_judgment(item: Item, user, answer: str, *, uncertain=False, question_ambiguous=False, options=None, comment=""):
    return Judgment.objects.create(
        project=item.project,
        item=item,
        user=user,
        item_author=item.author,
        kind="answer",
        value={"answer": answer},
        flags={"uncertain": uncertain, "question_ambiguous": question_ambiguous, "option_ambiguous": options or CLEAR},
        comment=comment,
    )
