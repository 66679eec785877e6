"""API shapes of judging. A judge's view of an item is what the task type's judge_item keeps (e.g. a
question and its options, or a premise and a hypothesis): never the author's answer or label, never
anyone else's judgment.

Two shapes, picked by the task type's `judging_api_shape` (SHAPES below):
- "generic": the item as JudgeItem (id, category, view), the body is whatever the task type's
  normalize_judgment reads, the saved judgment as its judge is shown it (the task type's
  own_judgment: value, flags, comment) with its round;
- "multiple_choice": the flat question/choices and answer A-E shapes the cross-answering API began
  with, kept field for field for its clients.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rest_framework import serializers

from annotation import limits
from annotation.models import Assignment
from annotation.task_types import get_task_type

OPTIONS = 5
MAX_COMMENT = limits.COMMENT


class JudgingPlanSummarySerializer(serializers.Serializer):
    created = serializers.IntegerField()
    reactivated = serializers.IntegerField()
    moved = serializers.IntegerField(help_text="Open work of annotators who left, cancelled and planned again.")
    items = serializers.IntegerField()
    workers = serializers.IntegerField()


class MultipleChoiceItemSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="item_id")
    category = serializers.CharField()
    question = serializers.CharField()
    choices = serializers.ListField(child=serializers.CharField(), help_text="Options A-E, in order.")


class MyAnswerSerializer(serializers.Serializer):
    answer = serializers.CharField(allow_null=True)
    uncertain = serializers.BooleanField()
    question_ambiguous = serializers.BooleanField()
    option_ambiguous = serializers.ListField(child=serializers.BooleanField())
    reason = serializers.CharField(source="comment")


class ProgressSerializer(serializers.Serializer):
    done = serializers.IntegerField()
    total = serializers.IntegerField()


class MultipleChoiceTaskSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The judging assignment.")
    status = serializers.ChoiceField(choices=Assignment.Status.choices)
    lease_expires_at = serializers.DateTimeField(allow_null=True)
    item = MultipleChoiceItemSerializer()
    my_answer = MyAnswerSerializer(allow_null=True, help_text="My own earlier answer, if I have answered.")
    progress = ProgressSerializer()


class MultipleChoiceBodySerializer(serializers.Serializer):
    answer = serializers.CharField(max_length=10, help_text="One of A, B, C, D, E.")
    uncertain = serializers.BooleanField(default=False)
    question_ambiguous = serializers.BooleanField(default=False)
    option_ambiguous = serializers.ListField(
        child=serializers.BooleanField(),
        required=False,
        help_text=f"One flag per option A-E ({OPTIONS}); all false when left out.",
    )
    reason = serializers.CharField(max_length=MAX_COMMENT, required=False, allow_blank=True, default="")


class JudgmentSerializer(serializers.Serializer):
    """A saved answer as its judge sees it (judgment_as_shown: the task type's own_judgment)."""

    id = serializers.IntegerField()
    item_id = serializers.IntegerField()
    assignment_id = serializers.IntegerField(allow_null=True)
    answer = serializers.CharField()
    uncertain = serializers.BooleanField()
    question_ambiguous = serializers.BooleanField()
    option_ambiguous = serializers.ListField(child=serializers.BooleanField())
    reason = serializers.CharField(source="comment")
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


# --- the generic shapes ----------------------------------------------------------------------------


class JudgeItemSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="item_id")
    category = serializers.CharField()
    view = serializers.DictField(
        help_text="What the task type shows a judge (its judge_view), e.g. a premise and a hypothesis."
    )


class OwnJudgmentSerializer(serializers.Serializer):
    value = serializers.DictField(help_text="The task type's judgment value, e.g. {label}.")
    flags = serializers.DictField(help_text="The task type's flags, e.g. {error, correction}.")
    comment = serializers.CharField()


class JudgeTaskSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The judging assignment.")
    status = serializers.ChoiceField(choices=Assignment.Status.choices)
    lease_expires_at = serializers.DateTimeField(allow_null=True)
    round = serializers.IntegerField(help_text="The judging round the assignment belongs to (1, 2, ...).")
    item = JudgeItemSerializer()
    my_judgment = OwnJudgmentSerializer(allow_null=True, help_text="My own earlier judgment, if I have judged.")
    progress = ProgressSerializer()


class JudgmentBodySerializer(serializers.Serializer):
    """Any JSON object: the task type's normalize_judgment reads it and says what is wrong, field by field
    (flat, e.g. {"label": "neutral", "error": false, "correction": "", "comment": ""}, or nested
    {"value": {...}, "flags": {...}, "comment": "..."}). The fields below document the nested form; no key
    is checked here, so the task type's own messages are the ones a client gets."""

    value = serializers.DictField(required=False, help_text="The judgment's value, e.g. {label}.")
    flags = serializers.DictField(required=False, help_text="Its flags, e.g. {error, correction}.")
    comment = serializers.CharField(required=False, allow_blank=True)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, Mapping):
            raise serializers.ValidationError({"non_field_errors": ["Send the judgment as a JSON object."]})
        # A form-encoded body (QueryDict) gives its last value per key, as a page's form would.
        return dict(data.items())


class JudgmentRecordSerializer(serializers.Serializer):
    """A saved judgment as its judge sees it (judgment_as_shown): value, flags and comment are the task
    type's own_judgment of it, which may keep less than is stored (never which option was the best)."""

    id = serializers.IntegerField()
    item_id = serializers.IntegerField()
    assignment_id = serializers.IntegerField(allow_null=True)
    round = serializers.IntegerField()
    value = serializers.DictField()
    flags = serializers.DictField()
    comment = serializers.CharField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


# --- which shape a task type is served in ------------------------------------------------------------


def _multiple_choice_data(body: dict[str, Any]) -> dict[str, Any]:
    return {
        "answer": body["answer"],
        "uncertain": body["uncertain"],
        "question_ambiguous": body["question_ambiguous"],
        "option_ambiguous": body.get("option_ambiguous"),
        "comment": body["reason"],
    }


@dataclass(frozen=True)
class JudgingShape:
    task: type[serializers.Serializer]
    own_key: str  # the task's key for own_judgment(...): "my_answer" or "my_judgment"
    body: type[serializers.Serializer]
    judgment_data: Callable[[dict[str, Any]], dict[str, Any]]  # validated body -> normalize_judgment input
    judgment: type[serializers.Serializer]


SHAPES = {
    "generic": JudgingShape(
        task=JudgeTaskSerializer,
        own_key="my_judgment",
        body=JudgmentBodySerializer,
        judgment_data=dict,
        judgment=JudgmentRecordSerializer,
    ),
    "multiple_choice": JudgingShape(
        task=MultipleChoiceTaskSerializer,
        own_key="my_answer",
        body=MultipleChoiceBodySerializer,
        judgment_data=_multiple_choice_data,
        judgment=JudgmentSerializer,
    ),
}


def judgment_as_shown(judgment: Any, own: Any) -> dict[str, Any]:
    """The response to a judge's save: the judgment's record (ids, round, times) with the fields of the
    task type's own_judgment (a dataclass) in place of what is stored."""
    return {
        "id": judgment.pk,
        "item_id": judgment.item_id,
        "assignment_id": judgment.assignment_id,
        "round": judgment.round,
        "created_at": judgment.created_at,
        "updated_at": judgment.updated_at,
        **dataclasses.asdict(own),
    }


def judging_shape(task_type_name: str) -> JudgingShape:
    return SHAPES[get_task_type(task_type_name).judging_api_shape]
