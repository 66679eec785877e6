"""What benchmark runs leave behind (evaluation/benchmarks/kind.py).

- `BenchmarkCase`: one item as the run asked it, frozen when the run is planned: the gold answer under
  the run's gold key, the options, the humans' answers, and the groups the report breaks down by
  (category, source, split). The report and the drill-down read these rows, never the items' current
  versions, so a later edit of an item does not change a finished run's figures.
- `Prediction`: one model reply to one (item, template) on one endpoint: the raw reply, the extracted
  answer, the rule that found it (or none: unparsed, counted as wrong), and whether it equals the gold
  answer. Unique per (run, item, endpoint, template), like the call it comes from.
  An open-ended reply (a template without options) is stored unjudged (rule "awaiting_judgment",
  unparsed); a reviewer's verdict (evaluation/benchmarks/judging.py) fills `judged_*` and makes it
  parsed, right or wrong, so every figure of the report reads it like an extracted answer.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class BenchmarkCase(models.Model):
    run = models.ForeignKey("evaluation.Run", on_delete=models.CASCADE, related_name="benchmark_cases")
    item = models.ForeignKey("annotation.Item", on_delete=models.CASCADE, related_name="+")
    gold = models.CharField(max_length=100)
    answers = models.JSONField(default=list)  # the letters or labels a reply may give
    options = models.JSONField(default=list, blank=True)  # the option texts, in `answers` order
    human_answers = models.JSONField(default=list, blank=True)
    category = models.CharField(max_length=200, blank=True)
    source = models.CharField(max_length=20, blank=True)
    split = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["run", "item"], name="eval_benchmark_case_once")]

    def __str__(self) -> str:
        return f"item {self.item_id} in run {self.run_id}"


class Prediction(models.Model):
    run = models.ForeignKey("evaluation.Run", on_delete=models.CASCADE, related_name="predictions")
    case = models.ForeignKey(BenchmarkCase, on_delete=models.CASCADE, related_name="predictions")
    item = models.ForeignKey("annotation.Item", on_delete=models.CASCADE, related_name="+", db_index=False)
    endpoint = models.ForeignKey("evaluation.Endpoint", on_delete=models.PROTECT, related_name="predictions")
    template = models.CharField(max_length=100)
    call = models.ForeignKey("evaluation.Call", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    reply = models.TextField(blank=True)  # raw, as the model wrote it
    answer = models.CharField(max_length=100, blank=True)  # "" when unparsed
    parsed = models.BooleanField(default=False)
    correct = models.BooleanField(default=False)
    gold = models.CharField(max_length=100)
    rule = models.CharField(max_length=60, blank=True)  # the extraction rule that matched, or why none did
    created_at = models.DateTimeField(auto_now_add=True)
    judged_correct = models.BooleanField(null=True, blank=True)  # None: not judged (or not open-ended)
    judged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    judged_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["run", "item", "endpoint", "template"], name="eval_prediction_once"),
        ]

    def __str__(self) -> str:
        return f"{self.answer or '?'} for item {self.item_id} in run {self.run_id}"
