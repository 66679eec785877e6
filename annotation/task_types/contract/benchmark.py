"""The benchmark part of the task-type contract: how gold items become a task for language models."""

from __future__ import annotations

from annotation.task_types.contract.marks import required_with
from annotation.task_types.records import BenchmarkItem, BenchmarkSpec, ExportRecord


class BenchmarkHooks:
    """Benchmark: how the items become a model task (`BenchmarkSpec`: answers, gold keys, built-in
    templates) and each item as one (`BenchmarkItem`), for the evaluation engine.

    A task type must give: `benchmark_item` once `benchmark()` gives a spec. By default it has no
    benchmark.
    """

    def benchmark(self) -> BenchmarkSpec | None:
        """How items become a model task (answers, gold keys, built-in templates); None: no benchmark."""
        return None

    @required_with("benchmark")
    def benchmark_item(self, record: ExportRecord, *, gold_key: str) -> BenchmarkItem | None:
        """One item (with its judgments and gold decision, `record.gold` always filled by the benchmark
        engine when the item has one) as a model task under `gold_key`; None leaves the item out."""
        raise NotImplementedError
