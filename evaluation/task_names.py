"""The names of evaluation's Celery tasks: evaluation.tasks runs them over the engine and the run services,
which send them by name (qc.task_names.task_send), so neither imports the other. evaluation.apps imports
evaluation.tasks at start-up, so in every process a name finds its registered task."""

RUN_START = "evaluation.run_start"
RUN_HELP = "evaluation.run_help"
SWEEP_RUNS = "evaluation.sweep_runs"
