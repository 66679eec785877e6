"""The hooks a task type must give: required_hooks() reads the contract's marks, missing_hooks() checks
a task type against them (the contract test runs it over every registered one)."""

from annotation.task_types import missing_hooks, required_hooks
from annotation.task_types.base import BenchmarkSpec
from tests.annotation.tiny_task_type import RoundsTaskType

ALWAYS = [
    "name",
    "label",
    "author_template",
    "display_template",
    "normalize_payload",
    "check_payload",
    "form_class",
    "form_initial",
    "payload_from_form",
    "diff",
    "summary",
    "normalize_judgment",
    "judge_view",
    "gold_policy",
    "gold_decide",
    "agreement_value",
    "report_sections",
    "export_row",
    "export_split",
    "parquet_schema",
    "datacard_text",
    "contract_examples",
]


def test_the_required_hooks_are_the_marked_ones_and_two_follow_a_switch():
    hooks = required_hooks()

    assert [name for name, switch in hooks.items() if not switch] == ALWAYS
    assert {name: switch for name, switch in hooks.items() if switch} == {
        "report_sections_from_columns": "report_columns",
        "benchmark_item": "benchmark",
    }


def test_a_sketch_of_a_task_type_misses_what_it_does_not_give_yet():
    given = {"name", "label", "author_template", "display_template", "gold_policy"}
    given |= {"normalize_judgment", "gold_decide"}  # RoundsTaskType's own

    assert missing_hooks(RoundsTaskType()) == [name for name in ALWAYS if name not in given]


def test_a_switch_turned_on_requires_its_hook():
    class Columns(RoundsTaskType):
        report_columns = True

    class Benchmarked(RoundsTaskType):
        def benchmark(self) -> BenchmarkSpec:
            return BenchmarkSpec(kind="label", answers=("a",), gold_keys=("gold",), templates=(), fields=())

    sketch = set(missing_hooks(RoundsTaskType()))

    assert set(missing_hooks(Columns())) - sketch == {"report_sections_from_columns"}
    assert set(missing_hooks(Benchmarked())) - sketch == {"benchmark_item"}
