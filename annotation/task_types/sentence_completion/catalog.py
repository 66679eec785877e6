"""The paper's default catalog of an ArabCulture project, and the plan's writing slots.

The paper names its 12 topics but not its 54 subtopics, so each topic gets one subtopic of its own name
(as the release's `sub_topic` names a topic); admins add real subtopics as `category,concept` rows.
A writing slot ("<topic> slot <n>", Concept.data {"slot": true}) is a unit of the authoring plan only:
the plan deals the slots out per topic, so each annotator gets their share of items spread over the
topics, and the author picks the item's topic and subtopic; a slot is never in the list they pick from.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from annotation.errors import InvalidInput
from annotation.task_types.sentence_completion.places import TOPICS

SLOT = {"slot": True}
MAX_SLOTS = 500


def is_slot(data: dict[str, Any]) -> bool:
    return bool((data or {}).get("slot"))


def slot_name(topic: str, n: int) -> str:
    # Written once, when the project's units are made, in the language of the person who made it.
    return gettext("%(topic)s slot %(n)s") % {"topic": topic, "n": n}


def default_units(slots_per_topic: int) -> list[tuple[str, str, dict[str, Any]]]:
    """(topic, unit name, data): each of the paper's topics, its one subtopic, then its writing slots."""
    if isinstance(slots_per_topic, bool) or not isinstance(slots_per_topic, int):
        raise InvalidInput(
            gettext("Slots per topic must be a whole number."), field_errors={"slots": [gettext("Not a number.")]}
        )
    if not 0 <= slots_per_topic <= MAX_SLOTS:
        message = gettext("Slots per topic must be between 0 and %(max)s.") % {"max": MAX_SLOTS}
        raise InvalidInput(message, field_errors={"slots": [message]})
    units = []
    for topic in TOPICS:
        units.append((topic, topic, {}))
        units.extend((topic, slot_name(topic, n), dict(SLOT)) for n in range(1, slots_per_topic + 1))
    return units
