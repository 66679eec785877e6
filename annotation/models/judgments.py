from django.conf import settings
from django.db import models


class Judgment(models.Model):
    """One user's judgment of an item: a cross-answer, a validation label, an MC1 pick, a rating."""

    # `project` and `item_author` are copies of the item's project and author (both have foreign keys on
    # the item), kept for the project filter and for the check constraint below. Like the copies on
    # Assignment they have no foreign key of their own: each would add a per-row check at commit, two
    # of the five per judgment, on every import and plan (about 3 s of a 500,000-answer import).
    # Deleting a project still cascades (Django does it, not the database).
    project = models.ForeignKey(
        "annotation.Project", on_delete=models.CASCADE, related_name="judgments", db_constraint=False
    )
    # Lookups by item use the unique (item, user, kind) index, so the item has no index of its own.
    item = models.ForeignKey("annotation.Item", on_delete=models.CASCADE, related_name="judgments", db_index=False)
    # Every lookup by user names the item or the project too (the unique and project indexes serve it).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="judgments", db_index=False
    )
    # Copied from the item so the database refuses a judgment of one's own item; read by nothing else.
    item_author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        db_index=False,
        db_constraint=False,
    )
    # At most one judgment per assignment: the partial unique constraint below, over the judgments that
    # have one. Imported judgments have none, and a plain unique index (a one-to-one field's) would
    # hold an entry for each of their NULLs.
    assignment = models.ForeignKey(
        "annotation.Assignment",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
    )
    kind = models.CharField(max_length=20, default="answer")
    # The judging round it was given in (incremental validation: 1, 2 or 3; single-round protocols: 1).
    round = models.PositiveSmallIntegerField(default=1, db_default=1)
    # Task-type specific, validated by the task type: {"answer": "C"}, {"label": "e"}, {"relevance": 4}.
    value = models.JSONField()
    # Task-type specific flags: {"uncertain": true, "question_ambiguous": false, "option_ambiguous": [...]}.
    flags = models.JSONField(default=dict, blank=True)
    comment = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["item_id", "user_id"]
        constraints = [
            models.UniqueConstraint(fields=["item", "user", "kind"], name="uniq_judgment_item_user_kind"),
            models.UniqueConstraint(
                fields=["assignment"], condition=models.Q(assignment__isnull=False), name="uniq_judgment_assignment"
            ),
            models.CheckConstraint(
                condition=models.Q(item_author__isnull=True) | ~models.Q(user=models.F("item_author")),
                name="judgment_not_own_item",
            ),
        ]

    def __str__(self) -> str:
        return f"Judgment {self.pk} of item {self.item_id} by {self.user_id}"
