from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy


class Assignment(models.Model):
    """A unit of work for one user. The unit is a concept (authoring) or an item (review, answer, ...)."""

    class Kind(models.TextChoices):
        AUTHOR = "author", gettext_lazy("Author")
        REVIEW = "review", gettext_lazy("Review")
        ANSWER = "answer", gettext_lazy("Answer")
        VALIDATE = "validate", gettext_lazy("Validate")
        RATE = "rate", gettext_lazy("Rate")

    class Status(models.TextChoices):
        PENDING = "pending", gettext_lazy("Pending")
        ACTIVE = "active", gettext_lazy("Active")
        DONE = "done", gettext_lazy("Done")
        CANCELLED = "cancelled", gettext_lazy("Cancelled")

    # Lookups by project, concept and item use the composite and unique indexes below (same leading
    # column), so their single-column FK indexes are left out: each costs time on every bulk plan.
    # `project` is a copy of the concept's or item's project (both have foreign keys) kept for the queue
    # index; like `target_author` it has no foreign key of its own, which saves a per-row check on
    # every 500,000-row plan. Deleting a project still cascades (Django does it, not the database).
    project = models.ForeignKey(
        "annotation.Project",
        on_delete=models.CASCADE,
        related_name="assignments",
        db_index=False,
        db_constraint=False,
    )
    # Every query of assignments names the project too, so the queue index (project, user, ...) serves it.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assignments", db_index=False
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    concept = models.ForeignKey(
        "annotation.Concept",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="assignments",
        db_index=False,
    )
    target_item = models.ForeignKey(
        "annotation.Item",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="assignments",
        db_index=False,
    )
    # Author of target_item, copied so the database itself can refuse "answer your own item" (the check
    # constraint below). It is a copy of item.author, which has its own foreign key; a second one here
    # would only add a per-row check to every bulk plan (1.8 s at 500,000 rows), so it has none.
    target_author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        related_name="+",
        db_index=False,
        db_constraint=False,
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    # Judging round this assignment belongs to (1 for authoring, review and single-round judging).
    round = models.PositiveSmallIntegerField(default=1, db_default=1)
    # Order in which the queue hands the work out (deterministic per plan).
    position = models.PositiveIntegerField(default=0)
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["concept", "user", "kind"],
                condition=models.Q(concept__isnull=False),
                name="uniq_assignment_concept_user_kind",
            ),
            models.UniqueConstraint(
                fields=["target_item", "user", "kind"],
                condition=models.Q(target_item__isnull=False),
                name="uniq_assignment_item_user_kind",
            ),
            models.CheckConstraint(
                condition=models.Q(concept__isnull=False) | models.Q(target_item__isnull=False),
                name="assignment_has_unit",
            ),
            models.CheckConstraint(
                condition=models.Q(target_author__isnull=True) | ~models.Q(user=models.F("target_author")),
                name="assignment_not_own_item",
            ),
        ]
        indexes = [
            models.Index(fields=["project", "user", "kind", "status", "position"], name="assignment_queue"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} for {self.user_id} ({self.status})"


class AssignmentTally(models.Model):
    """How many assignments a user holds per project, kind and status: a judge's progress in one read.

    Kept by PostgreSQL itself (statement-level triggers on the assignment table, installed by migration
    0009, firing also while a bulk write has the per-row triggers off), so every writer keeps it right,
    bulk plans and raw SQL included, at the cost of one grouped upsert per statement. Counting a judge's
    rows instead took 24 ms per request at 83,000 open assignments. Other databases (the SQLite demo)
    have no tallies and count. No foreign keys: a deleted project's rows drop to zero with its assignments.
    One status is not an assignment's: "planned", the slots of a big plan waiting in PlannedBlock rows,
    kept by annotation.services.planned_blocks as it stores and writes them.
    """

    project = models.ForeignKey(
        "annotation.Project", on_delete=models.DO_NOTHING, related_name="+", db_index=False, db_constraint=False
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.DO_NOTHING, related_name="+", db_index=False, db_constraint=False
    )
    kind = models.CharField(max_length=20)
    status = models.CharField(max_length=20)
    n = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["project", "user", "kind", "status"], name="uniq_assignment_tally"),
        ]

    def __str__(self) -> str:
        return f"{self.n} {self.kind}/{self.status} for {self.user_id} in {self.project_id}"


class PlannedBlock(models.Model):
    """Judge assignments planned but not written yet: a block of consecutive queue positions of a big plan.

    A plan of 500,000 judge assignments decides every slot at once, but writing them all into the
    assignment table (three indexes, foreign keys, tallies) cost seven to ten times a plain COPY of as
    many rows. So a big plan stores its slots here, a few hundred units per block, and the blocks become
    assignment rows in queue order when a judge's queue runs dry (annotation.services.planned_blocks).
    A block holds whole units: all judges of an item are written together, so whatever reads an item's
    assignments sees either all of them or none. The columns are PostgreSQL array literals ({1,2,3}),
    read back with unnest; only PostgreSQL ever has blocks (other databases write every plan at once).
    """

    project = models.ForeignKey("annotation.Project", on_delete=models.CASCADE, related_name="+", db_index=False)
    kind = models.CharField(max_length=20)
    round = models.PositiveSmallIntegerField(default=1)
    # Queue position of the block's first slot; slot i has position first_position + i.
    first_position = models.PositiveIntegerField()
    slots = models.PositiveIntegerField()
    item_ids = models.TextField()
    user_ids = models.TextField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["project", "kind", "first_position"], name="uniq_planned_block"),
        ]

    def __str__(self) -> str:
        return f"{self.slots} planned {self.kind} slots from {self.first_position} in {self.project_id}"
