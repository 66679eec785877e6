"""Writes of the sentence-completion task type beyond the core: the paper's default catalog."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from annotation.errors import InvalidInput
from annotation.models import Category, Concept, Project
from annotation.task_types.sentence_completion.catalog import default_units


@dataclass(frozen=True)
class TopicsSummary:
    topics_created: int
    subtopics_created: int
    slots_created: int


@transaction.atomic
def topics_add(*, project: Project, slots_per_topic: int) -> TopicsSummary:
    """Add the paper's 12 topics (each with its one subtopic of the same name) and `slots_per_topic`
    writing slots per topic for the authoring plan. Idempotent: names are matched case-insensitively and
    nothing is created twice; nothing is renamed or removed."""
    if project.task_type != "sentence_completion":
        message = "The ArabCulture topics are for sentence-completion projects."
        raise InvalidInput(message, field_errors={"project": [message]})
    units = default_units(slots_per_topic)
    Project.objects.select_for_update().filter(pk=project.pk).get()  # two admins clicking at once
    categories = {c.name.casefold(): c for c in Category.objects.filter(project=project)}
    topics_created = 0
    for topic, _name, _data in units:
        if topic.casefold() not in categories:
            categories[topic.casefold()] = Category.objects.create(project=project, name=topic)
            topics_created += 1
    existing = {(c.category_id, c.name.casefold()) for c in Concept.objects.filter(project=project)}
    new = [
        Concept(project=project, category=categories[topic.casefold()], name=name, data=data)
        for topic, name, data in units
        if (categories[topic.casefold()].pk, name.casefold()) not in existing
    ]
    Concept.objects.bulk_create(new, batch_size=2000)
    slots = sum(1 for c in new if c.data)
    return TopicsSummary(topics_created=topics_created, subtopics_created=len(new) - slots, slots_created=slots)
