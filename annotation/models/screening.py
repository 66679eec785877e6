"""Screening, training and pilot before an annotator may work (any task type).

A project may require them (`ScreeningSetup.required`): an applicant answers the screening form (every
criterion must be met), reads the guidelines and answers practice items with feedback (training),
then answers the pilot items; `pilot_pass` right of the pilot passes, within `max_attempts`. An admin
sees who passed and admits them; until then the applicant cannot open work.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy

from annotation.models.projects import Membership, Project


class ScreeningSetup(models.Model):
    project = models.OneToOneField(Project, on_delete=models.CASCADE, related_name="screening")
    required = models.BooleanField(default=True)
    # [{"code", "question"}]: criteria an applicant must all meet (answered yes).
    criteria = models.JSONField(default=list, blank=True)
    # [{"question", "options": [...], "answer": index, "feedback"}]: practice items (training) and pilot.
    training_items = models.JSONField(default=list, blank=True)
    pilot_items = models.JSONField(default=list, blank=True)
    pilot_pass = models.PositiveSmallIntegerField(default=4)
    max_attempts = models.PositiveSmallIntegerField(default=2)

    def __str__(self) -> str:
        return f"Screening of {self.project}"


class Application(models.Model):
    class Status(models.TextChoices):
        SCREENING = "screening", gettext_lazy("Screening form")
        TRAINING = "training", gettext_lazy("Training")
        PILOT = "pilot", gettext_lazy("Pilot")
        PASSED = "passed", gettext_lazy("Passed, waiting to be admitted")
        FAILED = "failed", gettext_lazy("Not admitted")
        ADMITTED = "admitted", gettext_lazy("Admitted")

    membership = models.OneToOneField(Membership, on_delete=models.CASCADE, related_name="application")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.SCREENING)
    screening_answers = models.JSONField(default=dict, blank=True)
    failed_reason = models.CharField(max_length=300, blank=True)
    training_answers = models.JSONField(default=list, blank=True)
    pilot_attempts = models.PositiveSmallIntegerField(default=0)
    pilot_scores = models.JSONField(default=list, blank=True)
    admitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    admitted_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Application of membership {self.membership_id}: {self.status}"
