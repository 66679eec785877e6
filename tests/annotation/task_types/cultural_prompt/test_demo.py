"""The KALAHI demo project loaded by `manage.py load_demo`: the paper's fifteen (category, topic) units,
two writers each (the second may write a variant of the first's prompt), Filipino, three validators."""

from collections import Counter
from io import StringIO

import pytest
from django.core.management import call_command

from annotation.models import Assignment, Concept, Project, ProjectLanguage


@pytest.mark.django_db
def test_load_demo_creates_the_kalahi_project_with_its_topics_and_two_writers_each():
    out = StringIO()
    call_command("load_demo", stdout=out)

    project = Project.objects.get(slug="demo-kalahi")
    assert (project.name, project.task_type, project.authors_per_concept) == (
        "Gotong demo: Filipino cultural prompts (KALAHI)",
        "cultural_prompt",
        2,
    )
    assert project.task_settings == {
        "validators_per_item": 3,
        "validation_percent": 100,
        "qc_review": True,
        "judging_mode": "fixed",
        "adaptive_confidence": 99,
        "adaptive_min_judges": 2,
    }
    assert project.guidelines.startswith("# Writing situated prompts (KALAHI)\n")
    assert list(ProjectLanguage.objects.filter(project=project).values_list("code", "name", "direction")) == [
        ("fil", "Filipino", "ltr")
    ]
    units = Concept.objects.filter(project=project)
    assert dict(Counter(units.values_list("category__name", flat=True))) == {"ethics": 9, "shared knowledge": 6}
    assert units.filter(category__name="ethics", name="career and livelihood").exists()
    author = Assignment.objects.filter(project=project, kind="author")
    assert author.count() == 30
    assert set(Counter(author.values_list("concept_id", flat=True)).values()) == {2}
    assert dict(Counter(author.values_list("user__username", flat=True))) == {f"w{n}": 5 for n in range(1, 7)}
    assert "Demo project: Gotong demo: Filipino cultural prompts (KALAHI) (demo-kalahi)" in out.getvalue()
