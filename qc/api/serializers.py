"""API shapes of QC: review decisions, the error taxonomy, the dashboard, gold-set export runs and file
imports."""

from __future__ import annotations

from django.urls import reverse
from rest_framework import serializers

from annotation import limits
from qc.forms import parse_regions
from qc.models import ErrorType, ExportRun, Review


class ErrorTypeSerializer(serializers.ModelSerializer):
    class Meta:
        model = ErrorType
        fields = ["id", "code", "label", "description"]


class ReviewInputSerializer(serializers.Serializer):
    version_id = serializers.IntegerField(help_text="The version being decided on: the item's current one.")
    decision = serializers.ChoiceField(choices=Review.Decision.values)
    # No max_length here: the service refuses more than limits.FEEDBACK with the pages' message.
    feedback = serializers.CharField(required=False, allow_blank=True, default="")
    error_types = serializers.ListField(
        child=serializers.SlugField(max_length=60),
        required=False,
        default=list,
        max_length=50,
        help_text="Error type codes of the project's taxonomy; required for a revision request.",
    )

    def validate(self, attrs):
        if attrs["decision"] == Review.Decision.APPROVE and attrs["error_types"]:
            raise serializers.ValidationError({"error_types": ["An approval has no error types."]})
        return attrs


class DashboardCategorySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class DashboardErrorTypeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    code = serializers.CharField()
    label = serializers.CharField()


class DashboardProgressSerializer(serializers.Serializer):
    done = serializers.IntegerField()
    total = serializers.IntegerField()


class DashboardAnnotatorSerializer(serializers.Serializer):
    user_id = serializers.IntegerField()
    username = serializers.CharField()
    code = serializers.CharField()
    active = serializers.BooleanField()
    progress = DashboardProgressSerializer(many=True, help_text="One per category, in `categories` order.")
    errors = serializers.ListField(
        child=serializers.IntegerField(), help_text="QC error counts, one per error type in `error_types` order."
    )


class DashboardSerializer(serializers.Serializer):
    categories = DashboardCategorySerializer(many=True)
    error_types = DashboardErrorTypeSerializer(many=True)
    status_counts = serializers.DictField(child=serializers.IntegerField(), help_text="Items per status.")
    annotators = DashboardAnnotatorSerializer(many=True)


class ExportInputSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=ExportRun.Format.choices)


class ExportRunSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    format = serializers.ChoiceField(choices=ExportRun.Format.choices)
    status = serializers.ChoiceField(choices=ExportRun.Status.choices)
    progress = serializers.IntegerField(help_text="Items written so far.")
    total = serializers.IntegerField(allow_null=True, help_text="Items to write (known once the run starts).")
    files = serializers.DictField(child=serializers.CharField(), help_text="split (and readme) -> file name.")
    downloads = serializers.SerializerMethodField(help_text="file name -> API address to download it.")
    error = serializers.CharField()
    created_by = serializers.CharField(source="created_by.username", allow_null=True)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    def get_downloads(self, run) -> dict[str, str]:
        if run.status != ExportRun.Status.DONE:
            return {}
        slug = self.context["slug"]
        return {
            name: reverse("api-export-file", args=[slug, run.pk, name])
            for name in sorted(set((run.files or {}).values()))
        }


class ItemsImportInputSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="The released file (JSON array or JSON Lines, as the format says).")
    format = serializers.CharField(
        max_length=60,
        required=False,
        allow_blank=True,
        default="",
        help_text="One of the import formats of the project's task type; defaults to its first.",
    )
    language = serializers.CharField(
        max_length=20,
        required=False,
        allow_blank=True,
        default="",
        help_text="Defaults to the project's first language.",
    )
    annotator_regions = serializers.CharField(
        required=False, allow_blank=True, default="", help_text="W1=West Java,W2=Central Java (or one per line)."
    )

    def validate_file(self, value):
        problem = limits.upload_size_problem(value.size)
        if problem:
            raise serializers.ValidationError(problem)
        return value

    def validate_annotator_regions(self, value: str) -> dict[str, str]:
        from django import forms

        try:
            return parse_regions(value)
        except forms.ValidationError as exc:
            raise serializers.ValidationError(exc.messages) from None


class IssueSerializer(serializers.Serializer):
    row = serializers.IntegerField()
    id = serializers.CharField()
    code = serializers.CharField()
    message = serializers.CharField()


class ItemsImportSummarySerializer(serializers.Serializer):
    project = serializers.CharField()
    format = serializers.CharField()
    project_created = serializers.BooleanField()
    language_added = serializers.BooleanField()
    rows = serializers.IntegerField()
    items_created = serializers.IntegerField()
    items_existing = serializers.IntegerField()
    judgments_created = serializers.IntegerField()
    annotators_created = serializers.IntegerField()
    categories_created = serializers.IntegerField()
    concepts_created = serializers.IntegerField()
    rows_skipped = serializers.ListField(child=serializers.IntegerField())
    issue_counts = serializers.DictField(child=serializers.IntegerField())
    issue_rows = serializers.DictField(child=serializers.ListField(child=serializers.IntegerField()))
    issues = IssueSerializer(many=True)
