"""What LLM_GEN and LLM_ADAPT runs leave behind, beside the items they put into QC.

- `GeneratedItem`: the provenance of one item a run created (annotation never imports evaluation, so
  the link lives here): the run, the call whose reply it came from, the model, every step's output,
  the back-translation score when there was one. `dedup_key` (the normalised question) is unique per
  run, so two workers accepting the same question at once can't both create it: the second insert
  fails on the constraint and the draft is recorded as filtered (`duplicate_in_run`) instead.
- `FilteredDraft`: a draft a run did not keep, with the reason (the generation pipeline's
  REASONS, or an adaptation step's), for the run page's "filtered (reason)" list.
- `AdaptationState`: one English question going through LLM_ADAPT's steps. Its row is locked while a
  step's reply is recorded, so the five relevance votes, answered by parallel workers, are counted by
  exactly one of them when the fifth arrives.
- `PromptTemplate`: a project's own version of a kind's prompt (the paper's text is the default).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class GeneratedItem(models.Model):
    run = models.ForeignKey("evaluation.Run", on_delete=models.CASCADE, related_name="generated_items")
    call = models.ForeignKey(
        "evaluation.Call", null=True, blank=True, on_delete=models.SET_NULL, related_name="generated_items"
    )
    item = models.OneToOneField("annotation.Item", on_delete=models.CASCADE, related_name="generation")
    kind = models.CharField(max_length=40)  # the run's kind, kept for reports that read many runs
    model = models.CharField(max_length=200, blank=True)  # the endpoint's model when the item was made
    concept_name = models.CharField(max_length=300, blank=True)
    # The object as the model wrote it (generation) or each step's output (adaptation).
    steps = models.JSONField(default=dict, blank=True)
    backtranslation_score = models.FloatField(null=True, blank=True)
    backtranslation_method = models.CharField(max_length=30, blank=True)
    dedup_key = models.CharField(max_length=1000, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["run", "dedup_key"], condition=~models.Q(dedup_key=""), name="eval_generated_once_per_run"
            ),
        ]

    def __str__(self) -> str:
        return f"item {self.item_id} from run {self.run_id}"


class FilteredDraft(models.Model):
    run = models.ForeignKey("evaluation.Run", on_delete=models.CASCADE, related_name="filtered_drafts")
    call = models.ForeignKey(
        "evaluation.Call", null=True, blank=True, on_delete=models.SET_NULL, related_name="filtered_drafts"
    )
    reason = models.CharField(max_length=40)
    detail = models.TextField(blank=True)
    concept_name = models.CharField(max_length=300, blank=True)
    record = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["run", "reason"], name="eval_filtered_run_reason")]

    def __str__(self) -> str:
        return f"{self.reason} in run {self.run_id}"


class AdaptationState(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("In progress")
        KEPT = "kept", _("Kept")
        FILTERED = "filtered", _("Filtered")

    run = models.ForeignKey("evaluation.Run", on_delete=models.CASCADE, related_name="adaptations")
    source_id = models.CharField(max_length=200)  # the CommonsenseQA id
    source = models.JSONField()  # the English question as imported
    votes = models.JSONField(default=dict, blank=True)  # prompt index -> true / false / null
    relevant = models.BooleanField(null=True, blank=True)
    relevance_reason = models.CharField(max_length=30, blank=True)
    steps = models.JSONField(default=dict, blank=True)  # step name -> its output
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    reason = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["run", "source_id"], name="eval_adaptation_once")]

    def __str__(self) -> str:
        return f"{self.source_id} in run {self.run_id}"


class PromptTemplate(models.Model):
    project = models.ForeignKey("annotation.Project", on_delete=models.CASCADE, related_name="prompt_templates")
    name = models.CharField(max_length=40)  # the run kind's template name, e.g. "llm_gen"
    text = models.TextField()
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["project", "name"], name="eval_prompt_template_once")]

    def __str__(self) -> str:
        return f"{self.name} of {self.project_id}"
