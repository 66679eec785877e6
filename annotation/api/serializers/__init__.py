"""API shapes. Input serializers check the shape of a request; output serializers render objects.

Neither decides anything: content rules (a payload's validity, who may do what) live in the services
and the task types, so the pages and the API refuse the same things with the same messages.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from annotation import limits
from annotation.models import AnnotatorProfile, Assignment, Item, Membership, ProjectLanguage
from annotation.task_types import get_task_type, registered_task_types, task_type_choices

# --- auth -------------------------------------------------------------------------------------------


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=512, trim_whitespace=False, write_only=True)


class TokenSerializer(serializers.Serializer):
    # The key is shown in this response only: the server keeps a digest and cannot show it again.
    token = serializers.CharField(source="key")
    expiry = serializers.DateTimeField(allow_null=True)


# --- projects ---------------------------------------------------------------------------------------


class LanguageSerializer(serializers.Serializer):
    code = serializers.CharField(max_length=20)
    name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    direction = serializers.ChoiceField(
        choices=ProjectLanguage.Direction.choices, default=ProjectLanguage.Direction.LTR
    )


class ProjectUpdateInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, required=False)
    guidelines = serializers.CharField(
        max_length=limits.GUIDELINES, required=False, allow_blank=True, trim_whitespace=False
    )
    authors_per_concept = serializers.IntegerField(min_value=1, max_value=100, required=False)
    settings = serializers.DictField(
        required=False,
        help_text="The task type's own settings by name (validated by the task type); each may also be "
        "given at the top level, as before this field existed.",
    )
    plan_seed = serializers.IntegerField(min_value=0, max_value=2**31 - 1, required=False)
    max_annotators = serializers.IntegerField(min_value=1, max_value=100_000, required=False)
    languages = LanguageSerializer(many=True, required=False, allow_empty=False)

    def to_internal_value(self, data):
        """Gather the task-type settings into `settings`: those under `settings` and those given at the top
        level. A name no registered task type declares is refused here; the project's task type then
        validates the values (and refuses another task type's settings)."""
        values = super().to_internal_value(data)
        known = {name for tt in registered_task_types() for name in tt.settings_spec}
        given = dict(values.get("settings") or {})
        unknown = sorted(set(given) - known)
        if unknown:
            raise serializers.ValidationError({"settings": [f"Unknown settings: {', '.join(unknown)}."]})
        if hasattr(data, "keys"):
            for name in sorted(known & set(data.keys())):
                given.setdefault(name, data[name])
        values["settings"] = given
        return values


class ProjectCreateInputSerializer(ProjectUpdateInputSerializer):
    name = serializers.CharField(max_length=200)
    slug = serializers.SlugField(max_length=80, required=False, allow_blank=True, default="")
    task_type = serializers.ChoiceField(choices=[])
    languages = LanguageSerializer(many=True, allow_empty=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Read at request time: task-type plugins register themselves lazily.
        self.fields["task_type"].choices = task_type_choices()


class ProjectSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    slug = serializers.CharField()
    name = serializers.CharField()
    task_type = serializers.CharField()
    languages = LanguageSerializer(many=True, source="languages.all")
    guidelines = serializers.CharField()
    authors_per_concept = serializers.IntegerField()
    settings = serializers.DictField(source="task_settings", help_text="The task type's own settings.")
    plan_seed = serializers.IntegerField()
    max_annotators = serializers.IntegerField()
    licence = serializers.CharField()
    created_at = serializers.DateTimeField()
    role = serializers.SerializerMethodField(help_text="The caller's role in this project.")

    @extend_schema_field(serializers.ChoiceField(choices=Membership.Role.choices))
    def get_role(self, obj) -> str:
        return getattr(obj, "my_role", None) or self.context["role"]

    def to_representation(self, instance):
        # Each task-type setting is also repeated at the top level, where clients written before
        # `settings` existed read them.
        data = super().to_representation(instance)
        for name, value in instance.task_settings.items():
            data.setdefault(name, value)
        return data


# --- members ----------------------------------------------------------------------------------------


class MemberAddInputSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=Membership.Role.choices)
    code = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    password = serializers.CharField(
        max_length=512,
        required=False,
        allow_blank=True,
        default="",
        trim_whitespace=False,
        write_only=True,
        help_text="Only to create a new account; leave out to add an existing user.",
    )

    def validate(self, attrs):
        if attrs["password"]:
            candidate = get_user_model()(username=attrs["username"])
            try:
                password_validation.validate_password(attrs["password"], user=candidate)
            except DjangoValidationError as exc:
                raise serializers.ValidationError({"password": list(exc.messages)}) from None
        return attrs


class MemberUpdateInputSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=Membership.Role.choices, required=False)
    is_active = serializers.BooleanField(required=False)

    def validate(self, attrs):
        if not attrs:
            raise serializers.ValidationError("Give a role or is_active.")
        return attrs


class MembershipSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    user_id = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    role = serializers.ChoiceField(choices=Membership.Role.choices)
    code = serializers.CharField()
    is_active = serializers.BooleanField()
    joined_at = serializers.DateTimeField()


class InvitationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    project = serializers.CharField(source="project.slug")
    username = serializers.CharField()
    role = serializers.ChoiceField(choices=Membership.Role.choices)
    code = serializers.CharField()
    status = serializers.CharField()
    created_at = serializers.DateTimeField()


class ProfileSerializer(serializers.ModelSerializer):
    """In and out. A PUT replaces the profile: a field left out is cleared."""

    native_languages = serializers.CharField(max_length=200, allow_blank=True, default="")
    region = serializers.CharField(max_length=200, allow_blank=True, default="")
    country = serializers.CharField(max_length=100, allow_blank=True, default="")
    ethnicity = serializers.CharField(max_length=200, allow_blank=True, default="")
    years_in_region = serializers.IntegerField(min_value=0, max_value=150, allow_null=True, default=None)
    education = serializers.CharField(max_length=200, allow_blank=True, default="")

    class Meta:
        model = AnnotatorProfile
        fields = ["native_languages", "region", "country", "ethnicity", "years_in_region", "education"]


# --- catalog ----------------------------------------------------------------------------------------


class CategorySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    translations = serializers.DictField(child=serializers.CharField())
    concept_count = serializers.IntegerField()


class ConceptBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    category = serializers.CharField(source="category.name")


class ConceptSerializer(ConceptBriefSerializer):
    category_id = serializers.IntegerField()
    translations = serializers.DictField(child=serializers.CharField())


class ConceptQuerySerializer(serializers.Serializer):
    category = serializers.IntegerField(required=False, min_value=1, help_text="A category id.")


# Named (settings.SPECTACULAR_SETTINGS) so the schema doesn't confuse it with the export formats.
CONCEPT_FILE_FORMATS = [("", "detect"), ("csv", "CSV"), ("jsonl", "JSON Lines")]


class ConceptImportInputSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="CSV (category, concept, concept_<lang>...) or JSON Lines.")
    format = serializers.ChoiceField(choices=CONCEPT_FILE_FORMATS, required=False, default="")

    def validate_file(self, value):
        problem = limits.upload_size_problem(value.size)
        if problem:
            raise serializers.ValidationError(problem)
        return value


class ConceptImportSummarySerializer(serializers.Serializer):
    rows = serializers.IntegerField()
    categories_created = serializers.IntegerField()
    concepts_created = serializers.IntegerField()
    concepts_updated = serializers.IntegerField()


class PlanInputSerializer(serializers.Serializer):
    seed = serializers.IntegerField(
        min_value=0,
        max_value=2**31 - 1,
        required=False,
        allow_null=True,
        default=None,
        help_text="Defaults to the project's plan_seed.",
    )


class PlanSummarySerializer(serializers.Serializer):
    created = serializers.IntegerField()
    kept = serializers.IntegerField()
    removed = serializers.IntegerField()
    reactivated = serializers.IntegerField()
    workers = serializers.IntegerField()
    units = serializers.IntegerField()


# --- assignments ------------------------------------------------------------------------------------


class AssignmentQuerySerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Assignment.Kind.choices, required=False)
    status = serializers.ChoiceField(choices=Assignment.Status.choices, required=False)


class AssignmentNextInputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Assignment.Kind.choices, default=Assignment.Kind.AUTHOR)


class AssignmentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Assignment.Kind.choices)
    status = serializers.ChoiceField(choices=Assignment.Status.choices)
    concept = ConceptBriefSerializer(allow_null=True)
    item_id = serializers.IntegerField(
        source="item_pk", allow_null=True, help_text="The item written for it (authoring) or to judge."
    )
    lease_expires_at = serializers.DateTimeField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    completed_at = serializers.DateTimeField(allow_null=True)


class AuthoringInputSerializer(serializers.Serializer):
    payload = serializers.DictField(
        help_text="The task type's payload, e.g. {question, choices[5], answer} for multiple choice."
    )
    # No max_length here: the service refuses more than limits.JUSTIFICATION with the pages' message.
    justification = serializers.CharField(required=False, allow_blank=True, default="", trim_whitespace=False)


# --- items ------------------------------------------------------------------------------------------


class ItemQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Item.Status.choices, required=False)
    # The item list's filters, the same as the page's, so a script finds what a person sees.
    q = serializers.CharField(
        required=False,
        max_length=200,
        help_text="Words of the item's current payload: each word given begins a word of the text, in any order.",
    )
    inside = serializers.BooleanField(
        required=False, default=False, help_text="Match `q` anywhere in the text, also inside words (slower)."
    )
    author = serializers.CharField(required=False, max_length=150, help_text="The author's user name.")
    category = serializers.IntegerField(required=False, min_value=1, help_text="A category id.")
    language = serializers.CharField(required=False, max_length=20, help_text="A project language code.")
    source = serializers.ChoiceField(choices=Item.Source.choices, required=False)


class ItemSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Item.Status.choices)
    task_type = serializers.CharField()
    concept = ConceptBriefSerializer(allow_null=True)
    author = serializers.CharField(source="author.username", allow_null=True)
    assignment_id = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField(source="current_version.number", allow_null=True)
    language = serializers.CharField(help_text="A code of the project's languages.")
    source = serializers.ChoiceField(choices=Item.Source.choices)
    summary = serializers.SerializerMethodField()
    updated_at = serializers.DateTimeField()

    def get_summary(self, obj) -> str:
        if obj.current_version is None:
            return ""
        return get_task_type(obj.task_type).summary(obj.current_version.payload)


class VersionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    payload = serializers.DictField()
    justification = serializers.CharField()
    created_at = serializers.DateTimeField()
    submitted_at = serializers.DateTimeField(allow_null=True)


class ReviewSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    item_id = serializers.IntegerField()
    version_id = serializers.IntegerField(source="item_version_id")
    decision = serializers.ChoiceField(choices=[("approve", "approve"), ("revise", "revise"), ("reject", "reject")])
    error_types = serializers.SerializerMethodField(help_text="Error type codes.")
    feedback = serializers.CharField()
    reviewer = serializers.CharField(source="reviewer.username")
    created_at = serializers.DateTimeField()

    def get_error_types(self, obj) -> list[str]:
        return [error_type.code for error_type in obj.error_types.all()]


class ChangeSerializer(serializers.Serializer):
    field = serializers.CharField()
    old = serializers.CharField()
    new = serializers.CharField()


class ItemDetailSerializer(ItemSerializer):
    category = serializers.CharField(source="concept.category.name", allow_null=True)
    status_reason = serializers.CharField()
    reviewer = serializers.CharField(source="reviewer.username", allow_null=True)
    version_id = serializers.IntegerField(source="current_version_id", allow_null=True)
    payload = serializers.DictField(source="current_version.payload", allow_null=True)
    justification = serializers.CharField(source="current_version.justification", allow_null=True)
    versions = VersionSerializer(many=True, source="versions.all")
    reviews = ReviewSerializer(many=True, source="reviews.all")
    diff = serializers.SerializerMethodField(help_text="Changes from the previous version to the current one.")

    @extend_schema_field(ChangeSerializer(many=True))
    def get_diff(self, obj) -> list[dict]:
        versions = list(obj.versions.all())
        if len(versions) < 2:
            return []
        changes = get_task_type(obj.task_type).diff(versions[-2].payload, versions[-1].payload)
        return ChangeSerializer(changes, many=True).data
