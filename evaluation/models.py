"""The model side: OpenAI-compatible endpoints, runs executed by Celery workers, and every call they make.

- `Endpoint`: where a model is served. The API key is never stored: `api_key_env` names the environment
  variable of the worker (and web) processes that holds it, one granted to endpoints by its prefix
  GOTONG_LLM_KEY_ (evaluation/llm/keys.py). `is_local` is the admin's "local server"
  tick, the only way a loopback base URL is accepted (evaluation/llm/base_url.py).
- `Run` is a qc `BackgroundRun` (claim, heartbeat, sweep, fencing: qc/runs.py): one worker *owns* the
  run (plans its calls, drains them, finishes it) and helpers on other workers drain beside it. Its
  status adds `paused` and `cancelled` to the base's; both are "finished" for qc/runs.py (the sweeper
  and a late message leave them alone). `progress` counts finished calls (done + failed), `total` all.
- `Call`: one request and its response, unique per (run, unit, endpoint, template) so a unit is never
  sent twice by the planner. A call is leased to one worker at a time (`lease_token`, `lease_until`);
  every write of a result is fenced by the lease token, so a reply is recorded exactly once even when
  a worker that was presumed dead comes back.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from qc.models import BackgroundRun


class Endpoint(models.Model):
    name = models.SlugField(max_length=60, unique=True)
    base_url = models.URLField(max_length=500, help_text="The OpenAI-compatible API root, e.g. https://host/v1")
    model = models.CharField(max_length=200)
    api_key_env = models.CharField(
        max_length=100,
        blank=True,
        help_text="Name of the environment variable holding the API key (the key itself is never stored).",
    )
    is_local = models.BooleanField(
        default=False, help_text="A server on this machine: only then is a loopback address accepted."
    )
    timeout_seconds = models.FloatField(default=60, validators=[MinValueValidator(0.1)])
    max_concurrency = models.PositiveIntegerField(default=4, validators=[MinValueValidator(1)])
    requests_per_minute = models.PositiveIntegerField(null=True, blank=True, validators=[MinValueValidator(1)])
    price_input_per_million = models.DecimalField(max_digits=12, decimal_places=4, null=True, blank=True)
    price_output_per_million = models.DecimalField(max_digits=12, decimal_places=4, null=True, blank=True)
    offers_logprobs = models.BooleanField(default=False)
    offers_embeddings = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def cost_of(self, *, prompt_tokens: int, completion_tokens: int) -> Decimal:
        million = Decimal(1_000_000)
        cost = Decimal(0)
        if self.price_input_per_million is not None:
            cost += self.price_input_per_million * prompt_tokens / million
        if self.price_output_per_million is not None:
            cost += self.price_output_per_million * completion_tokens / million
        return cost


class Run(BackgroundRun):
    """A batch of LLM calls of one kind (evaluation/kinds.py), executed by workers on the `llm` queue."""

    run_kind = "llm_run"

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        RUNNING = "running", _("Running")
        PAUSED = "paused", _("Paused")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")
        CANCELLED = "cancelled", _("Cancelled")

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    kind = models.CharField(max_length=40)
    project = models.ForeignKey(
        "annotation.Project", null=True, blank=True, on_delete=models.CASCADE, related_name="llm_runs"
    )
    endpoints = models.ManyToManyField(Endpoint, related_name="runs")
    parameters = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Calls are created once, by the first worker that takes the run.
    planned_at = models.DateTimeField(null=True, blank=True)
    calls_done = models.PositiveIntegerField(default=0)
    calls_failed = models.PositiveIntegerField(default=0)
    prompt_tokens = models.PositiveBigIntegerField(default=0)
    completion_tokens = models.PositiveBigIntegerField(default=0)
    cost = models.DecimalField(max_digits=14, decimal_places=6, default=Decimal(0))
    last_call_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            # The sweeper reads the few unfinished runs every GOTONG_SWEEP_SECONDS, forever.
            models.Index(fields=["status"], name="eval_run_status"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} run #{self.pk}"

    @property
    def percent(self) -> int:
        if not self.total:
            return 100 if self.status == self.Status.DONE else 0
        return int(100 * self.progress / self.total)

    @property
    def calls_per_second(self) -> float | None:
        if not self.started_at or not self.last_call_at or not self.progress:
            return None
        seconds = (self.last_call_at - self.started_at).total_seconds()
        return round(self.progress / seconds, 2) if seconds > 0 else None

    @property
    def is_active(self) -> bool:
        return self.status in (self.Status.PENDING, self.Status.RUNNING)


class Call(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")
        CANCELLED = "cancelled", _("Cancelled")

    class Operation(models.TextChoices):
        CHAT = "chat", _("Chat completion")
        EMBED = "embed", _("Embeddings")
        SCORE = "score", _("Likelihood score")

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="calls")
    endpoint = models.ForeignKey(Endpoint, on_delete=models.PROTECT, related_name="calls")
    unit_key = models.CharField(max_length=200)
    template = models.CharField(max_length=100, blank=True)
    operation = models.CharField(max_length=10, choices=Operation.choices, default=Operation.CHAT)
    # What is sent: {"messages": [...], "params": {...}} for chat, {"input": [...]} for embeddings,
    # {"context": "...", "continuation": "..."} for a likelihood score.
    request = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    lease_token = models.CharField(max_length=32, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    # A retryable failure waits until then (backoff or the server's Retry-After).
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    response = models.JSONField(null=True, blank=True)
    text = models.TextField(blank=True)
    logprobs = models.JSONField(null=True, blank=True)
    prompt_tokens = models.PositiveIntegerField(null=True, blank=True)
    completion_tokens = models.PositiveIntegerField(null=True, blank=True)
    cost = models.DecimalField(max_digits=14, decimal_places=8, null=True, blank=True)
    latency_ms = models.PositiveIntegerField(null=True, blank=True)
    finish_reason = models.CharField(max_length=40, blank=True)
    # The last error (also of an attempt that was retried), and its class: timeout, rate_limited, ...
    error = models.TextField(blank=True)
    error_kind = models.CharField(max_length=30, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["run", "unit_key", "endpoint", "template"], name="eval_call_once"),
        ]
        indexes = [models.Index(fields=["run", "status"], name="eval_call_run_status")]

    def __str__(self) -> str:
        return f"call {self.unit_key} of run {self.run_id}"

    @property
    def retries(self) -> int:
        return max(0, self.attempts - 1)


from evaluation.models_benchmarks import BenchmarkCase, Prediction  # noqa: E402,F401
from evaluation.models_generation import AdaptationState, FilteredDraft, GeneratedItem, PromptTemplate  # noqa: E402,F401
