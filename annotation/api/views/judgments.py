"""Judging over the API: plan round 1 (admins), take the next item, judge it (judges).

One word for every protocol: plans/judging/, judgments/next/, judgments/<id>/. The kind of work is the task
type's rule, the shapes its `judging_api_shape` (annotation.api.serializers.judgments.SHAPES). The item and
the judge's own judgment come from the same selectors as the judging pages, the judgment goes to the same
service. The cross-answering addresses the API began with (plans/cross-answers/, answers/) stay as
deprecated aliases of the same views, with their own operation ids, so existing clients keep working.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiResponse, PolymorphicProxySerializer, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.response import Response

from annotation.api.permissions import ADMIN_ONLY
from annotation.api.serializers import PlanInputSerializer
from annotation.api.serializers.judgments import (
    JudgeTaskSerializer,
    JudgingPlanSummarySerializer,
    JudgmentBodySerializer,
    JudgmentRecordSerializer,
    JudgmentSerializer,
    MultipleChoiceBodySerializer,
    MultipleChoiceTaskSerializer,
    judging_shape,
    judgment_as_shown,
)
from annotation.api.views.base import ERROR, NOT_FOUND, REFUSED, ProjectApi, validated
from annotation.errors import InvalidInput
from annotation.models import Assignment, Project
from annotation.selectors.judgments import (
    judge_assignment_for_user,
    judge_task_for,
    own_judgment_of,
)
from annotation.services.assignments import assignment_resume_or_claim
from annotation.services.judging import judging_plan, judging_rule_for
from annotation.services.judgments import judgment_change

JUDGMENT_REFUSED = {**REFUSED, 409: ERROR}
# One schema per operation whatever the task type: the project's task type picks one of these shapes.
TASK = PolymorphicProxySerializer(
    component_name="JudgingTask",
    serializers=[MultipleChoiceTaskSerializer, JudgeTaskSerializer],
    resource_type_field_name=None,
)
BODY = PolymorphicProxySerializer(
    component_name="JudgingBody",
    serializers=[MultipleChoiceBodySerializer, JudgmentBodySerializer],
    resource_type_field_name=None,
)
RESULT = PolymorphicProxySerializer(
    component_name="JudgingResult",
    serializers=[JudgmentSerializer, JudgmentRecordSerializer],
    resource_type_field_name=None,
)


def _kind(project: Project) -> str:
    """The judges' assignment kind; a project without judging has none (404, as for an unknown route)."""
    try:
        return judging_rule_for(project).kind
    except InvalidInput:
        raise Http404("This project has no judging.") from None


def _task(view: ProjectApi, assignment: Assignment, kind: str) -> dict[str, Any]:
    shape = judging_shape(view.project.task_type)
    reads = judge_task_for(project=view.project, assignment=assignment, user=view.request.user, kind=kind)
    task = {
        "id": assignment.pk,
        "status": assignment.status,
        "lease_expires_at": assignment.lease_expires_at,
        "round": assignment.round,
        "item": reads.item,
        shape.own_key: reads.own,
        "progress": {"done": reads.done, "total": reads.total},
    }
    return shape.task(task).data


class JudgingPlanApi(ProjectApi):
    project_roles = {"POST": ADMIN_ONLY}

    @extend_schema(
        operation_id="plans_judging",
        summary="Plan judging round 1: each approved item (of the rule's share) to judges who did not write it, "
        "balanced.",
        request=PlanInputSerializer,
        responses={200: JudgingPlanSummarySerializer, **REFUSED},
    )
    def post(self, request, slug):
        data = validated(PlanInputSerializer, request.data)
        summary = judging_plan(project=self.project, seed=data["seed"])
        return Response(JudgingPlanSummarySerializer(asdict(summary)).data)


class JudgeNextApi(ProjectApi):
    @extend_schema(
        operation_id="judgments_next",
        summary="My next item to judge (the one I have open, else the next one); 204 when none is left.",
        request=None,
        responses={200: TASK, 204: OpenApiResponse(description="Nothing left to judge."), **NOT_FOUND},
    )
    def post(self, request, slug):
        kind = _kind(self.project)
        assignment = assignment_resume_or_claim(project=self.project, user=request.user, kind=kind)
        if assignment is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(_task(self, assignment, kind))


class JudgeApi(ProjectApi):
    @extend_schema(
        operation_id="judgments_retrieve",
        summary="One of my judging assignments: what the task type shows a judge, and my own judgment if any.",
        responses={200: TASK, **NOT_FOUND},
    )
    def get(self, request, slug, assignment_id):
        kind = _kind(self.project)
        assignment = judge_assignment_for_user(
            project=self.project, user=request.user, assignment_id=assignment_id, kind=kind
        )
        return Response(_task(self, assignment, kind))

    @extend_schema(
        operation_id="judgments_submit",
        summary="Judge (or change my judgment): the task type's judgment, e.g. an option A-E with flags, or a "
        "label with an error flag and a correction.",
        request=BODY,
        responses={200: RESULT, **JUDGMENT_REFUSED},
    )
    def post(self, request, slug, assignment_id):
        assignment = judge_assignment_for_user(
            project=self.project, user=request.user, assignment_id=assignment_id, kind=_kind(self.project)
        )
        shape = judging_shape(self.project.task_type)
        body = validated(shape.body, request.data)
        # As on the page: a done judgment changes only while nobody has used it (annotation.services.undo).
        judgment = judgment_change(assignment_id=assignment.pk, user=request.user, data=shape.judgment_data(body))
        # What the judge is shown of it, never the stored value (it may say which option was the best).
        own = own_judgment_of(judgment=judgment, user=request.user, task_type_name=self.project.task_type)
        return Response(shape.judgment(judgment_as_shown(judgment, own)).data)


# --- the older addresses: the same views, each operation under its old id and marked deprecated ------


def _deprecated(operation_id: str):
    # Each alias keeps the operation id it was published under: ids are unique in a schema, and generated
    # clients name their methods after them. Summary, body and replies come from the view it extends.
    return extend_schema(operation_id=operation_id, deprecated=True)


@extend_schema_view(post=_deprecated("plans_cross_answers"))
class CrossAnswerPlanAlias(JudgingPlanApi):
    """Deprecated address: use plans/judging/."""


@extend_schema_view(post=_deprecated("answers_next"))
class AnswerNextAlias(JudgeNextApi):
    """Deprecated address: use judgments/next/."""


@extend_schema_view(get=_deprecated("answers_retrieve"), post=_deprecated("answers_submit"))
class AnswerAlias(JudgeApi):
    """Deprecated address: use judgments/<id>/."""
