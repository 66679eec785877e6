"""cultural_prompt's model side (imported by evaluation.apps through evaluation.task_types): KALAHI's
scores for the shared benchmark run kind (reference_scorers), no run kind of its own."""

from evaluation.benchmarks.reference_scorers import ReferenceScorer, register
from evaluation.task_types.cultural_prompt import scoring

# continuation_prefix "": the chatml template ends with the assistant's header, the response is its reply.
register(
    "cultural_prompt",
    ReferenceScorer(likelihood=scoring.likelihood, open_ended=scoring.open_ended, continuation_prefix=""),
)
