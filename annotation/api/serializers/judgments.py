"""API shapes of cross-answering. An answerer's view of an item has its question and options only:
never the author's answer, never anyone else's judgment."""

from __future__ import annotations

from rest_framework import serializers

from annotation.models import Assignment
from annotation.task_types.csqa.answers import MAX_COMMENT
from annotation.task_types.csqa.payload import LABELS


class CrossAnswerPlanSummarySerializer(serializers.Serializer):
    created = serializers.IntegerField()
    reactivated = serializers.IntegerField()
    moved = serializers.IntegerField(help_text="Open work of annotators who left, cancelled and planned again.")
    items = serializers.IntegerField()
    workers = serializers.IntegerField()


class AnswerItemSerializer(serializers.Serializer):
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


class AnswerTaskSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The answer assignment.")
    status = serializers.ChoiceField(choices=Assignment.Status.choices)
    lease_expires_at = serializers.DateTimeField(allow_null=True)
    item = AnswerItemSerializer()
    my_answer = MyAnswerSerializer(allow_null=True, help_text="My own earlier answer, if I have answered.")
    progress = ProgressSerializer()


class AnswerInputSerializer(serializers.Serializer):
    answer = serializers.CharField(max_length=10, help_text="One of " + ", ".join(LABELS) + ".")
    uncertain = serializers.BooleanField(default=False)
    question_ambiguous = serializers.BooleanField(default=False)
    option_ambiguous = serializers.ListField(
        child=serializers.BooleanField(),
        required=False,
        help_text=f"One flag per option A-E ({len(LABELS)}); all false when left out.",
    )
    reason = serializers.CharField(max_length=MAX_COMMENT, required=False, allow_blank=True, default="")


class JudgmentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    item_id = serializers.IntegerField()
    assignment_id = serializers.IntegerField(allow_null=True)
    answer = serializers.CharField(source="value.answer")
    uncertain = serializers.BooleanField(source="flags.uncertain")
    question_ambiguous = serializers.BooleanField(source="flags.question_ambiguous")
    option_ambiguous = serializers.ListField(child=serializers.BooleanField(), source="flags.option_ambiguous")
    reason = serializers.CharField(source="comment")
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
