"""Work in progress that must not be lost: autosaved authoring drafts, and skips with their reason."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class WorkDraft(models.Model):
    """The authoring form's fields as the author last left them, saved without validation (autosave).

    One per assignment. It is not an item version: half-typed text is often invalid, and a draft never
    replaces a submitted item. Saving the item (draft button or submit) deletes it.
    """

    assignment = models.OneToOneField("annotation.Assignment", on_delete=models.CASCADE, related_name="work_draft")
    # Form field name -> value (a list for fields holding several values), as posted.
    fields = models.JSONField(default=dict)
    saved_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"Draft of assignment {self.assignment_id}"


class Skip(models.Model):
    """An assignment its holder gave back, with why. The assignment is cancelled; the planners never
    give its unit to this user again (annotation.selectors.skips)."""

    class Reason(models.TextChoices):
        UNKNOWN_CONCEPT = "unknown_concept", _("I don't know this concept")
        UNSUITABLE = "unsuitable", _("Concept unsuitable")
        OTHER = "other", _("Other")

    # A copy of the assignment's project, for the admin's list (project, newest first).
    project = models.ForeignKey("annotation.Project", on_delete=models.CASCADE, related_name="+", db_index=False)
    assignment = models.OneToOneField("annotation.Assignment", on_delete=models.CASCADE, related_name="skip")
    reason = models.CharField(max_length=20, choices=Reason.choices)
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["project", "-created_at", "-id"], name="skip_project_recent")]

    def __str__(self) -> str:
        return f"Skip of assignment {self.assignment_id} ({self.reason})"
