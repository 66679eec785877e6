"""The examples part of the task-type contract: the contract test's examples and the demo project."""

from __future__ import annotations

from annotation.task_types.contract.marks import required
from annotation.task_types.records import ContractExamples, DemoProject


class ExampleHooks:
    """Examples: the tiny examples the contract test (tests/annotation/task_types/test_contract.py) runs every
    hook on, and the demo project `manage.py load_demo` creates.

    A task type must give: `contract_examples`. By default it has no demo.
    """

    @required
    def contract_examples(self) -> ContractExamples:
        """Tiny examples the contract test (tests/annotation/task_types/test_contract.py) runs this task type on."""
        raise NotImplementedError

    def demo(self) -> DemoProject | None:
        """A small demo project loaded by `manage.py load_demo` (None: this task type has none)."""
        return None
