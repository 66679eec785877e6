"""Model-based aggregation of categorical judgments, beside each task type's published gold rule.

`fitting` fits a crowd-kit model (Dawid-Skene, GLAD, MACE) on integer-coded judgments and recomputes one
item's posterior from the stored per-annotator parameters (pure, no database); `store` reads the inputs
through the task type's `categorical_item` hook and saves and reads the last fit; `tasks` fits in the
background, debounced, when judgments change.
"""
