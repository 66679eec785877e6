from rest_framework import serializers

from qc.models import ErrorType, Review


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
