"""Shapes of the work-is-never-lost endpoints: the authoring autosave and skip with a reason."""

from django.utils.translation import gettext as _
from rest_framework import serializers

from annotation.models import Skip
from annotation.services.skips import NOTE_MAX


class AutosaveInputSerializer(serializers.Serializer):
    fields = serializers.DictField(
        help_text="The authoring form's fields as the author left them (name -> text, or a list of texts); "
        "not validated."
    )

    def validate_fields(self, value):
        for name, given in value.items():
            texts = given if isinstance(given, list) else [given]
            if not all(isinstance(t, str) for t in texts):
                raise serializers.ValidationError(_("%(name)s: give a text or a list of texts.") % {"name": name})
        return value


class AutosaveSerializer(serializers.Serializer):
    fields = serializers.DictField()
    saved_at = serializers.DateTimeField()


class SkipInputSerializer(serializers.Serializer):
    reason = serializers.ChoiceField(choices=Skip.Reason.choices)
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=NOTE_MAX)


class SkipSerializer(serializers.Serializer):
    assignment = serializers.IntegerField(source="assignment_id")
    reason = serializers.CharField()
    note = serializers.CharField()
    created_at = serializers.DateTimeField()
