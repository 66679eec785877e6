"""Screening, training and pilot over the API: the applicant's status and steps, an admin's admission."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from annotation.api.selectors import member_of
from annotation.api.views.base import REFUSED, ProjectApi, validated
from annotation.models import Application, ScreeningSetup
from annotation.selectors import ADMIN, ANNOTATOR
from annotation.services.members import member_set_countries
from annotation.services.screening import (
    application_admit,
    applications_for,
    pilot_submit,
    screening_submit,
    training_submit,
)


class StepSerializer(serializers.Serializer):
    step = serializers.ChoiceField(choices=["screening", "training", "pilot"])
    answers = serializers.JSONField(
        help_text="screening: {criterion code: true|false}; training, pilot: [option index]"
    )
    country = serializers.CharField(required=False, allow_blank=True, default="")


STATUS = inline_serializer(
    name="ScreeningStatus",
    fields={
        "status": serializers.CharField(),
        "failed_reason": serializers.CharField(),
        "pilot_attempts": serializers.IntegerField(),
        "pilot_scores": serializers.ListField(child=serializers.IntegerField()),
        "criteria": serializers.ListField(child=serializers.DictField()),
        "training_items": serializers.ListField(child=serializers.DictField()),
        "pilot_items": serializers.ListField(child=serializers.DictField()),
    },
)


def _public(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # The right option and its feedback come only with the training answers, never before.
    return [{"question": i["question"], "options": i["options"]} for i in items]


def _status(setup: ScreeningSetup, application: Application) -> dict[str, Any]:
    return {
        "status": application.status,
        "failed_reason": application.failed_reason,
        "pilot_attempts": application.pilot_attempts,
        "pilot_scores": application.pilot_scores,
        "criteria": setup.criteria,
        "training_items": _public(setup.training_items),
        "pilot_items": _public(setup.pilot_items),
    }


class ScreeningApi(ProjectApi):
    project_roles = {"GET": (ANNOTATOR,), "POST": (ANNOTATOR,)}

    def _setup(self) -> ScreeningSetup:
        setup = ScreeningSetup.objects.filter(project=self.project, required=True).first()
        if setup is None:
            raise Http404("This project has no screening.")
        return setup

    @extend_schema(
        operation_id="screening_status",
        summary="My application: its step and the items to answer.",
        responses={200: STATUS, **REFUSED},
    )
    def get(self, request, slug):
        setup = self._setup()
        application, _ = Application.objects.get_or_create(membership=self.membership)
        return Response(_status(setup, application))

    @extend_schema(
        operation_id="screening_submit",
        summary="Answer the current step (screening, training, pilot).",
        request=StepSerializer,
        responses={200: STATUS, **REFUSED},
    )
    def post(self, request, slug):
        setup = self._setup()
        data = validated(StepSerializer, request.data)
        feedback = None
        if data["step"] == "screening":
            screening_submit(membership=self.membership, answers=data["answers"], country=data["country"])
        elif data["step"] == "training":
            feedback = training_submit(membership=self.membership, answers=data["answers"])
        else:
            pilot_submit(membership=self.membership, answers=data["answers"])
        application = Application.objects.get(membership=self.membership)
        return Response({**_status(setup, application), **({"feedback": feedback} if feedback is not None else {})})


class ApplicantsApi(ProjectApi):
    project_roles = {"GET": (ADMIN,)}

    @extend_schema(
        operation_id="screening_applicants",
        summary="Every annotator's application (admins).",
        responses={200: serializers.ListSerializer(child=serializers.DictField()), **REFUSED},
    )
    def get(self, request, slug):
        return Response(applications_for(project=self.project))


class AdmitApi(ProjectApi):
    project_roles = {"POST": (ADMIN,)}

    @extend_schema(
        operation_id="screening_admit",
        summary="Admit an applicant who passed (admins).",
        request=None,
        responses={200: STATUS, **REFUSED},
    )
    def post(self, request, slug, membership_id):
        target = member_of(project=self.project, membership_id=membership_id)
        application = application_admit(membership=target, admin=request.user)
        return Response(_status(ScreeningSetup.objects.get(project=self.project), application))


class CountriesSerializer(serializers.Serializer):
    countries = serializers.ListField(child=serializers.CharField(allow_blank=True), allow_empty=True)


class MemberCountriesApi(ProjectApi):
    """The countries a reviewer reviews for (QC scoped by country, annotation.scope)."""

    project_roles = {"GET": (ADMIN,), "PUT": (ADMIN,)}

    @extend_schema(
        operation_id="member_countries",
        summary="A member's review countries (admins).",
        responses={200: CountriesSerializer, **REFUSED},
    )
    def get(self, request, slug, membership_id):
        return Response({"countries": member_of(project=self.project, membership_id=membership_id).countries})

    @extend_schema(
        operation_id="member_countries_set",
        summary="Set a member's review countries (admins).",
        request=CountriesSerializer,
        responses={200: CountriesSerializer, **REFUSED},
    )
    def put(self, request, slug, membership_id):
        data = validated(CountriesSerializer, request.data)
        target = member_set_countries(
            membership=member_of(project=self.project, membership_id=membership_id), countries=data["countries"]
        )
        return Response({"countries": target.countries})
