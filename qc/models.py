from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from annotation import gold


class ErrorType(models.Model):
    """A QC error category in a project's taxonomy (seeded from the task type's defaults)."""

    project = models.ForeignKey("annotation.Project", on_delete=models.CASCADE, related_name="error_types")
    code = models.SlugField(max_length=60)
    label = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["project", "position", "code"]
        constraints = [models.UniqueConstraint(fields=["project", "code"], name="uniq_error_type")]

    def __str__(self) -> str:
        return self.label

    # The task type's defaults are stored in English (their msgids) and shown in the reader's language; a
    # label a project wrote itself has no catalogue entry and is shown as written.
    @property
    def label_shown(self) -> str:
        return gettext(self.label) if self.label else ""

    @property
    def description_shown(self) -> str:
        return gettext(self.description) if self.description else ""


class Review(models.Model):
    """A reviewer's decision on one submitted version. One decision per version, ever."""

    class Decision(models.TextChoices):
        APPROVE = "approve", _("Approve")
        REVISE = "revise", _("Request revision")
        REJECT = "reject", _("Reject")

    item = models.ForeignKey("annotation.Item", on_delete=models.CASCADE, related_name="reviews")
    item_version = models.OneToOneField("annotation.ItemVersion", on_delete=models.PROTECT, related_name="review")
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reviews")
    decision = models.CharField(max_length=20, choices=Decision.choices)
    error_types = models.ManyToManyField(ErrorType, blank=True, related_name="reviews")
    feedback = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["item_id", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.decision} on {self.item_version}"


class GoldDecision(models.Model):
    """The outcome of a gold policy for one item, recomputed in place whenever its judgments change.

    Items are never deleted: an excluded item keeps its row here with the reason.
    """

    # The outcomes are the core's (the task types' gold_decide gives them): defined once, in annotation.gold.
    Outcome = gold.Outcome

    item = models.OneToOneField("annotation.Item", on_delete=models.CASCADE, related_name="gold_decision")
    policy = models.CharField(max_length=60)
    outcome = models.CharField(max_length=20, choices=Outcome.choices)
    reason = models.TextField(blank=True)
    # What the policy computed (majority answer, flag counts, ...), for reports and exports.
    details = models.JSONField(default=dict, blank=True)
    judgment_ids = models.JSONField(default=list, blank=True)
    computed_at = models.DateTimeField(auto_now=True)
    # An admin's override in force (qc.overrides): every recompute saves the computed outcome, then puts
    # the override's outcome and note back. Null: the computed decision stands.
    override = models.ForeignKey(
        "qc.GoldOverride", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )

    class Meta:
        ordering = ["item_id"]
        indexes = [
            # Few decisions carry an override: a partial index, so a project's recompute (100,000 new decisions,
            # all without one) adds no entry to it (~55 ms of a 0.45 s insert, measured).
            models.Index(fields=["override"], name="golddecision_override", condition=models.Q(override__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"{self.outcome} for item {self.item_id}"


class GoldOverride(models.Model):
    """One admin action on an item's gold decision, kept forever as its audit trail.

    An override sets the outcome (with a note); a revert hands the item back to the computed decision.
    `outcome_before`/`outcome_after` are the decision's outcome around the action.
    """

    class Action(models.TextChoices):
        OVERRIDE = "override", _("Override")
        REVERT = "revert", _("Revert")

    item = models.ForeignKey("annotation.Item", on_delete=models.CASCADE, related_name="gold_overrides")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=10, choices=Action.choices)
    outcome_before = models.CharField(max_length=20)
    outcome_after = models.CharField(max_length=20)
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["item_id", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.action} {self.outcome_before}->{self.outcome_after} on item {self.item_id}"


class BackgroundRun(models.Model):
    """Work a Celery worker claims and keeps alive with a heartbeat; qc/runs.py claims, beats, finishes
    and sweeps any model derived from this one (gold exports now, LLM runs later)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    # Prefix of the structured log events ("export.claimed"); subclasses name themselves.
    run_kind = "run"

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    # Items written so far, and the number expected (counted when the run starts).
    progress = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    # How many times a worker claimed the run; a worker's writes are fenced by its attempt number.
    attempts = models.PositiveSmallIntegerField(default=0)
    # The last sign of life: when the run was queued (pending) or when its worker last beat (running).
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    # The Celery task id of the message that holds the run (or will run it), so that a redelivery of
    # that message recognises its own run.
    task_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def last_sign_at(self) -> datetime:
        # Runs from before heartbeats count from when they started or were made (as qc.runs does in SQL).
        return self.heartbeat_at or self.started_at or self.created_at


class ExportRun(BackgroundRun):
    """One gold-set export, run by a Celery worker; the page polls it for progress."""

    run_kind = "export"

    class Format(models.TextChoices):
        JSONL = "jsonl", _("JSON Lines")
        CSV = "csv", "CSV"
        PARQUET = "parquet", "Parquet"
        # Not the gold set: the known-answer checks with their answers (qc.exports.checks).
        CHECKS = "checks", _("Known-answer checks (JSON Lines)")

    project = models.ForeignKey("annotation.Project", on_delete=models.CASCADE, related_name="export_runs")
    format = models.CharField(max_length=10, choices=Format.choices)
    # Directory holding the files, relative to MEDIA_ROOT; `files` maps split -> file name.
    path = models.CharField(max_length=500, blank=True)
    files = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            # The sweeper reads the few unfinished runs every GOTONG_SWEEP_SECONDS, forever.
            models.Index(
                fields=["heartbeat_at"],
                condition=models.Q(status__in=["pending", "running"]),
                name="qc_exportrun_unfinished",
            )
        ]

    def __str__(self) -> str:
        return f"{self.format} export of {self.project_id} ({self.status})"


class ReportSnapshot(models.Model):
    """The last report of a project too big to build while a page waits (qc.reports.snapshots).

    Built by a Celery worker; the page shows the snapshot with when and from how many judgments it
    was built, and the build's stage while one runs.
    """

    project = models.OneToOneField("annotation.Project", on_delete=models.CASCADE, related_name="report_snapshot")
    data = models.JSONField(null=True, blank=True)
    built_at = models.DateTimeField(null=True, blank=True)
    build_seconds = models.FloatField(null=True, blank=True)
    # The project's judgments when the build started: a different count asks for a new build.
    judgments = models.PositiveIntegerField(default=0)
    # Set while a build is queued or running (a build older than the stale limit may be taken over).
    building_since = models.DateTimeField(null=True, blank=True)
    stage = models.CharField(max_length=40, blank=True)
    error = models.TextField(blank=True)
    # The items-per-language table (qc.reports.languages) counted by the same build: the page shows it
    # beside the report without a grouped count over every item on each view.
    languages = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return f"report of {self.project_id} built {self.built_at}"
