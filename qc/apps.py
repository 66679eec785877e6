from django.apps import AppConfig


class QcConfig(AppConfig):
    name = "qc"
    verbose_name = "Quality control"

    def ready(self) -> None:
        # qc builds on annotation and plugs its part of the core's work in (annotation/hooks.py); the
        # tasks are registered in every process, so services can send them by name (qc/task_names.py).
        from annotation import hooks
        from qc import gold, tasks  # noqa: F401  (tasks: registered with Celery on import)
        from qc.adjudication import item_adjudication_panel
        from qc.models import GoldDecision
        from qc.services import error_types_seed_defaults

        hooks.gold_engine_register(
            hooks.GoldEngine(
                decision_model=GoldDecision,
                recompute_outcomes=gold.gold_recompute_outcomes,
                recompute_locked_item=gold.gold_recompute_locked_item,
                recompute_for_rounds=gold.gold_recompute_for_rounds,
            )
        )
        hooks.on_project_created(error_types_seed_defaults)
        hooks.on_item_page_for_reviewers(item_adjudication_panel)
