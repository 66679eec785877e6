from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy

from annotation.models.aggregation import AggregationModel
from annotation.task_types import project_settings


class Project(models.Model):
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    task_type = models.CharField(max_length=40)
    guidelines = models.TextField(blank=True, help_text="Markdown shown to annotators beside the form.")
    # The answering/judging page shows these, not the writing guidelines above: a judge must not be told
    # how the answer was meant to be written.
    judging_guidelines = models.TextField(blank=True, default="", db_default="")
    # The guidelines in other languages, {"<language code>": {"writing": md, "judging": md}}; the
    # user's UI language picks one, falling back to the two fields above (annotation.guidelines).
    guidelines_translations = models.JSONField(
        default=dict, blank=True, db_default=models.Value({}, output_field=models.JSONField())
    )
    authors_per_concept = models.PositiveSmallIntegerField(default=2, validators=[MinValueValidator(1)])
    # A bound on annotator memberships: an import or an admin can't make more (a 213-byte file once
    # created 2,000 accounts by naming annotator Z2000).
    max_annotators = models.PositiveIntegerField(default=200, validators=[MinValueValidator(1)])
    # Seed for every deterministic plan made in this project (authoring, cross-answering).
    plan_seed = models.PositiveIntegerField(default=0)
    licence = models.CharField(max_length=100, blank=True, default="CC BY-NC 4.0")
    # Annotators work only once admitted through screening, training and pilot (ScreeningSetup); a copy of
    # ScreeningSetup.required on the row every work request already loads, so the common case costs no query.
    screening_required = models.BooleanField(default=False)
    # The model fitted on the project's categorical judgments beside the published gold rule
    # (annotation.aggregation); "off": none. The rule stays what decides gold.
    aggregation_model = models.CharField(
        max_length=20, choices=AggregationModel.choices, default=AggregationModel.DAWID_SKENE
    )
    # Known-answer checks (annotation.services.known_answers): one judging item in `check_every` is a
    # check (0: none); an annotator whose accuracy on checks falls below `pause_below_percent` after at
    # least `pause_after_checks` of them is paused (0: never). Core settings, the same for every task type.
    check_every = models.PositiveSmallIntegerField(default=0, db_default=0)
    pause_below_percent = models.PositiveSmallIntegerField(default=0, db_default=0)
    pause_after_checks = models.PositiveSmallIntegerField(default=10, db_default=10)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Declared after the fields above: in this class body the name shadows django.conf.settings.
    # The task type's own settings, validated by its `settings_clean`; read them with
    # `annotation.task_types.project_settings`, which fills in the defaults.
    settings = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=models.Q(authors_per_concept__gte=1), name="project_k_positive"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def task_settings(self) -> dict:
        return project_settings(self)


class ProjectLanguage(models.Model):
    class Direction(models.TextChoices):
        LTR = "ltr", gettext_lazy("Left to right")
        RTL = "rtl", gettext_lazy("Right to left")

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="languages")
    code = models.CharField(max_length=20, help_text="BCP 47 code, e.g. id, su, ar.")
    name = models.CharField(max_length=100)
    direction = models.CharField(max_length=3, choices=Direction.choices, default=Direction.LTR)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "code"]
        constraints = [models.UniqueConstraint(fields=["project", "code"], name="uniq_project_language")]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


class Membership(models.Model):
    class Role(models.TextChoices):
        ADMIN = "admin", gettext_lazy("Admin")
        REVIEWER = "reviewer", gettext_lazy("QC reviewer")
        ANNOTATOR = "annotator", gettext_lazy("Annotator")

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=20, choices=Role.choices)
    # Leaving a project deactivates the membership; history (items, reviews) keeps pointing at it.
    is_active = models.BooleanField(default=True)
    # Short public code used in reports and exports instead of the user name (W1, W2, ...).
    code = models.CharField(max_length=40, blank=True)
    # An annotator of an imported dataset: an account of the project's own namespace, not a person who
    # signed in. Only these memberships may be matched by an import's annotator codes.
    is_imported = models.BooleanField(default=False)
    # The rater group (e.g. "A", "B") of a task type whose judging rule plans judges per group
    # (JudgingRule.groups); "" for none.
    group = models.CharField(max_length=20, blank=True, default="")
    # The countries a reviewer reviews for (the author's AnnotatorProfile.country must be one of them)
    # in a project whose task type scopes QC by country (TaskType.country_scope); [] for none.
    countries = models.JSONField(default=list, blank=True)
    # A pause (too many known-answer checks failed): no new work until an admin lifts it. Lifting keeps
    # the record of who lifted it and when; nothing is deleted.
    paused_at = models.DateTimeField(null=True, blank=True)
    # The figures the pause was decided on ({"checks": 10, "correct": 6, "below": 70}): the queue's message
    # is written from them in the reader's language.
    pause_figures = models.JSONField(
        default=dict, blank=True, db_default=models.Value({}, output_field=models.JSONField())
    )
    unpaused_at = models.DateTimeField(null=True, blank=True)
    unpaused_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["project", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["project", "user"], name="uniq_membership"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.project} as {self.role}"


class AnnotatorProfile(models.Model):
    """What a member told this project about themselves (one per membership, never shared between
    projects): a project admin sees and edits only what was given to their project."""

    membership = models.OneToOneField(Membership, on_delete=models.CASCADE, related_name="profile")
    native_languages = models.CharField(max_length=200, blank=True, help_text="Comma-separated codes.")
    region = models.CharField(max_length=200, blank=True, help_text="Region or domicile.")
    country = models.CharField(max_length=100, blank=True)
    ethnicity = models.CharField(max_length=200, blank=True)
    years_in_region = models.PositiveSmallIntegerField(null=True, blank=True)
    education = models.CharField(max_length=200, blank=True)
    screening_answers = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"Profile of membership {self.membership_id}"


class Invitation(models.Model):
    """A project admin's offer of a role to a user name; the person joins only by accepting it.

    Kept by user name (not a user id) so that inviting a name nobody has looks exactly like inviting
    one that exists: the add form must not tell a project admin who has an account on the site.
    """

    class Status(models.TextChoices):
        PENDING = "pending", gettext_lazy("Pending")
        ACCEPTED = "accepted", gettext_lazy("Accepted")
        DECLINED = "declined", gettext_lazy("Declined")
        WITHDRAWN = "withdrawn", gettext_lazy("Withdrawn")

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="invitations")
    username = models.CharField(max_length=150)
    role = models.CharField(max_length=20, choices=Membership.Role.choices)
    code = models.CharField(max_length=40, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["project", "username"],
                condition=models.Q(status="pending"),
                name="uniq_pending_invitation",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.username} invited to {self.project} as {self.role} ({self.status})"


class Category(models.Model):
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="categories")
    name = models.CharField(max_length=200)
    translations = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["project", "name"]
        verbose_name_plural = "categories"
        constraints = [models.UniqueConstraint(fields=["project", "name"], name="uniq_category")]

    def __str__(self) -> str:
        return self.name


class Concept(models.Model):
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="concepts")
    category = models.ForeignKey(Category, on_delete=models.CASCADE, related_name="concepts")
    name = models.CharField(max_length=300)
    translations = models.JSONField(default=dict, blank=True)
    # The catalog unit's task-type attributes, validated by the task type: a premise keeps its
    # text, genre, topic, document id and sentence size here; a plain concept needs none.
    data = models.JSONField(default=dict, blank=True, db_default=models.Value({}, output_field=models.JSONField()))
    # Retired units get no new assignments from the planners; their items and past work stay.
    retired_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["category_id", "name"]
        constraints = [models.UniqueConstraint(fields=["category", "name"], name="uniq_concept")]

    def __str__(self) -> str:
        return self.name
