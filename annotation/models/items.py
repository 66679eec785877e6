from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy


class Item(models.Model):
    """One unit of the dataset. Its content lives in versions; `current_version` is the latest."""

    class Status(models.TextChoices):
        DRAFT = "draft", gettext_lazy("Draft")
        SUBMITTED = "submitted", gettext_lazy("Submitted")
        REVISION_REQUESTED = "revision_requested", gettext_lazy("Revision requested")
        APPROVED = "approved", gettext_lazy("Approved")
        REJECTED = "rejected", gettext_lazy("Rejected")
        JUDGED = "judged", gettext_lazy("Judged")
        GOLD = "gold", gettext_lazy("Gold")
        EXCLUDED = "excluded", gettext_lazy("Excluded")
        # An item with a known answer, mixed into judging queues to measure each judge: outside every
        # status set gold, agreement, reports and exports read (DECIDABLE, EXPORTED, JUDGEABLE), so
        # none of them ever counts it.
        CHECK = "check", gettext_lazy("Known-answer check")

    class Source(models.TextChoices):
        HUMAN = "human", gettext_lazy("Human")
        LLM_GEN = "llm_gen", gettext_lazy("LLM generated")
        LLM_ADAPT = "llm_adapt", gettext_lazy("LLM adapted")
        IMPORT = "import", gettext_lazy("Imported")

    # Lookups by project (and by project and status) use the (project, status) index, lookups by
    # assignment the unique (assignment, slot) one: single-column indexes on them, or on status alone
    # (every query of items names the project), would only slow down each bulk write and status update.
    project = models.ForeignKey("annotation.Project", on_delete=models.CASCADE, related_name="items", db_index=False)
    task_type = models.CharField(max_length=40)
    source = models.CharField(max_length=20, choices=Source.choices, default=Source.HUMAN)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="authored_items"
    )
    concept = models.ForeignKey(
        "annotation.Concept", null=True, blank=True, on_delete=models.PROTECT, related_name="items"
    )
    # The authoring assignment this item answers. A task type whose unit yields several items (a
    # writer writes six hypotheses per premise) numbers them by `slot`; (assignment, slot) is unique.
    assignment = models.ForeignKey(
        "annotation.Assignment",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="items",
        related_query_name="item",
        db_index=False,
    )
    slot = models.PositiveSmallIntegerField(default=0, db_default=0)
    # The judging round the item is in (0: not sent to judging). Planned by the core's judging engine
    # from the task type's rule; each Judgment and judge Assignment stores its own round too.
    judging_round = models.PositiveSmallIntegerField(default=0, db_default=0)
    # No index on current_version or reviewer: nothing looks items up by them (the reviewer's
    # resubmissions are found through the (project, status) index), and every index is written again
    # by each status change, 90,000 of them when a validation round is decided.
    current_version = models.ForeignKey(
        "annotation.ItemVersion", null=True, blank=True, on_delete=models.PROTECT, related_name="+", db_index=False
    )
    # The reviewer who last decided on this item: a resubmission goes back to them while they are active.
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reviewed_items",
        db_index=False,
    )
    # Identifier in an external release (e.g. a released file's `id`); unique per project when set.
    external_id = models.CharField(max_length=200, blank=True)
    # A code of the project's ProjectLanguage rows: lists filter by it, exports carry it and
    # item pages mark the text with its lang/dir. No index of its own: the list filters it while walking
    # the (project, updated_at, id) index, and every index slows each bulk write. Whoever creates an item
    # sets it (the writer's choice, the import's column, a run's project language).
    language = models.CharField(max_length=20, blank=True, default="", db_default="")
    status_reason = models.TextField(blank=True)
    # The answer a known-answer check expects, in the task type's answer vocabulary (the value its
    # agreement_value reads from a judgment: a chosen letter, a label, a response id); "" for
    # an ordinary item. Set with the CHECK status by annotation.services.known_answers.
    known_answer = models.CharField(max_length=200, blank=True, default="", db_default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["project", "external_id"],
                condition=~models.Q(external_id=""),
                name="uniq_item_external_id",
            ),
            models.UniqueConstraint(
                fields=["assignment", "slot"],
                condition=models.Q(assignment__isnull=False),
                name="uniq_item_assignment_slot",
            ),
        ]
        indexes = [
            models.Index(fields=["project", "status"], name="item_project_status"),
            # The item list's order (newest change first): a page's ids come from this index alone, read
            # backwards. Ascending, because new and changed items (the newest updated_at, rising ids) then
            # land at the index's right edge, which PostgreSQL splits 90/10: the descending index took them
            # at its left edge, split pages 50/50 and was twice as big (896 pages against 499 at 100,000
            # items), so a deep page's skip read twice the pages.
            models.Index(fields=["project", "updated_at", "id"], name="item_project_updated_asc"),
        ]

    def __str__(self) -> str:
        return f"Item {self.pk} ({self.status})"


class ItemVersion(models.Model):
    # Lookups by item use the unique (item, number) index.
    item = models.ForeignKey(Item, on_delete=models.CASCADE, related_name="versions", db_index=False)
    number = models.PositiveIntegerField()
    payload = models.JSONField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Why this version exists: "draft", "revision after review 12", "import", ...
    note = models.CharField(max_length=300, blank=True)
    # Written by the author when a soft check (e.g. concept not found in the question) is overridden.
    justification = models.TextField(blank=True)
    # Null while the author is still editing; a submitted version is frozen.
    submitted_at = models.DateTimeField(null=True, blank=True)
    # False while the version waits for the search indexes (annotation.search_index): an import writes its
    # versions so and a background task indexes them after its commit; until then search reads them one by
    # one (they are few, or just imported). Every other write leaves the default: indexed as it is saved.
    search_ready = models.BooleanField(default=True, db_default=True)

    class Meta:
        ordering = ["item_id", "number"]
        constraints = [models.UniqueConstraint(fields=["item", "number"], name="uniq_item_version_number")]
        # The versions waiting for the search indexes, found without reading the others.
        indexes = [models.Index(fields=["id"], condition=Q(search_ready=False), name="itemversion_search_pending")]

    def __str__(self) -> str:
        return f"Item {self.item_id} v{self.number}"


# Approved by QC, possibly decided already: the statuses an item is judged in (judgments may still come
# in or change).
JUDGEABLE = (Item.Status.APPROVED, Item.Status.JUDGED, Item.Status.GOLD, Item.Status.EXCLUDED)
