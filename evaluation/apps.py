from django.apps import AppConfig

# Modules that register run kinds (evaluation/kinds.py `register`) when imported; each task type's own
# kinds (evaluation/task_types/<name>/kinds.py) are found by evaluation.task_types.
KIND_MODULES = ["evaluation.kinds", "evaluation.benchmarks.kind"]


class EvaluationConfig(AppConfig):
    name = "evaluation"
    verbose_name = "Evaluation"

    def ready(self) -> None:
        from importlib import import_module

        # The tasks are registered in every process, so services can send them by name (evaluation/task_names.py).
        from evaluation import tasks  # noqa: F401
        from evaluation.task_types import task_type_modules

        for module in [*KIND_MODULES, *task_type_modules("kinds")]:
            import_module(module)
