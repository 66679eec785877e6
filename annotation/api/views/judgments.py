"""Cross-answering over the API: plan (admins), take the next question, answer it (annotators)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from annotation.api.permissions import ADMIN_ONLY
from annotation.api.serializers import PlanInputSerializer
from annotation.api.serializers.judgments import (
    AnswerInputSerializer,
    AnswerTaskSerializer,
    CrossAnswerPlanSummarySerializer,
    JudgmentSerializer,
)
from annotation.api.views.base import ERROR, NOT_FOUND, REFUSED, ProjectApi, validated
from annotation.models import Assignment
from annotation.selectors import assignment_current
from annotation.selectors.judgments import (
    answer_assignment_for_user,
    answer_progress,
    answer_question,
    own_answer,
)
from annotation.services.assignments import assignment_claim_next
from annotation.services.crossanswer import assignment_plan_cross_answers
from annotation.services.judgments import judgment_record

ANSWER = Assignment.Kind.ANSWER
ANSWER_REFUSED = {**REFUSED, 409: ERROR}


def _task(view: ProjectApi, assignment: Assignment) -> dict[str, Any]:
    user = view.request.user
    question = answer_question(assignment=assignment, user=user)
    done, total = answer_progress(project=view.project, user=user)
    return {
        "id": assignment.pk,
        "status": assignment.status,
        "lease_expires_at": assignment.lease_expires_at,
        "item": question,
        "my_answer": own_answer(item_id=question.item_id, user=user),
        "progress": {"done": done, "total": total},
    }


class CrossAnswerPlanApi(ProjectApi):
    project_roles = {"POST": ADMIN_ONLY}

    @extend_schema(
        operation_id="plans_cross_answers",
        summary="Plan cross-answering: each approved item to m annotators who did not write it, balanced.",
        request=PlanInputSerializer,
        responses={200: CrossAnswerPlanSummarySerializer, **REFUSED},
    )
    def post(self, request, slug):
        data = validated(PlanInputSerializer, request.data)
        summary = assignment_plan_cross_answers(project=self.project, seed=data["seed"])
        return Response(CrossAnswerPlanSummarySerializer(asdict(summary)).data)


class AnswerNextApi(ProjectApi):
    @extend_schema(
        operation_id="answers_next",
        summary="My next question to answer (the one I have open, else the next one); 204 when none is left.",
        request=None,
        responses={200: AnswerTaskSerializer, 204: OpenApiResponse(description="Nothing left to answer."), **NOT_FOUND},
    )
    def post(self, request, slug):
        assignment = assignment_current(project=self.project, user=request.user, kind=ANSWER) or assignment_claim_next(
            project=self.project, user=request.user, kind=ANSWER
        )
        if assignment is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(AnswerTaskSerializer(_task(self, assignment)).data)


class AnswerApi(ProjectApi):
    @extend_schema(
        operation_id="answers_retrieve",
        summary="One of my answer assignments: the question, its options, and my own answer if any.",
        responses={200: AnswerTaskSerializer, **NOT_FOUND},
    )
    def get(self, request, slug, assignment_id):
        assignment = answer_assignment_for_user(project=self.project, user=request.user, assignment_id=assignment_id)
        return Response(AnswerTaskSerializer(_task(self, assignment)).data)

    @extend_schema(
        operation_id="answers_submit",
        summary="Answer (or change my answer): one option, certainty, ambiguity flags, an optional reason.",
        request=AnswerInputSerializer,
        responses={200: JudgmentSerializer, **ANSWER_REFUSED},
    )
    def post(self, request, slug, assignment_id):
        assignment = answer_assignment_for_user(project=self.project, user=request.user, assignment_id=assignment_id)
        data = validated(AnswerInputSerializer, request.data)
        judgment = judgment_record(
            assignment_id=assignment.pk,
            user=request.user,
            data={
                "answer": data["answer"],
                "uncertain": data["uncertain"],
                "question_ambiguous": data["question_ambiguous"],
                "option_ambiguous": data.get("option_ambiguous"),
                "comment": data["reason"],
            },
        )
        return Response(JudgmentSerializer(judgment).data)
