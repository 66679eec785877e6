"""An import-linter contract type of our own: no import cycle between any two modules of a package.

import-linter's `acyclic_siblings` squashes each sibling with its descendants, so it holds for qc,
evaluation and annotation's subpackages but says nothing inside annotation's top level, whose
subpackages lean on each other by design (selectors read what services plan, task types use the core
and the core loads task types). This contract looks at modules one by one, wherever they sit: two
modules that import each other, directly or through others, break it. Imports inside functions count
(grimp reads every import statement), so a circle can't be hidden there. Imports under
`if TYPE_CHECKING:` are left out with `exclude_type_checking_imports`: they never run, so they close no
circle at run time (the plugin contract names the core's models in its hooks' types that way); the
layer contracts still see them.

Registered in pyproject.toml ([tool.importlinter] contract_types); tests/config/test_import_layers.py runs it.
"""

from __future__ import annotations

import ast
import importlib.util
from collections import deque
from functools import cache
from pathlib import Path

from grimp import ImportGraph
from importlinter import Contract, ContractCheck, fields, output


class AcyclicModulesContract(Contract):
    type_name = "acyclic_modules"

    packages = fields.ListField(subfield=fields.StringField())
    exclude_type_checking_imports = fields.BooleanField(default=False)

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        # One graph over every package: a cycle may run from one package into another and back.
        modules = set()
        for package in self.packages:  # type: ignore[attr-defined]
            modules |= {package, *graph.find_descendants(package)}
        edges = {m: graph.find_modules_directly_imported_by(m) & modules for m in modules}
        if self.exclude_type_checking_imports:  # type: ignore[attr-defined]
            for importer, imported in list(_pairs(edges)):
                lines = {d["line_number"] for d in graph.get_import_details(importer=importer, imported=imported)}
                if lines and lines <= _type_checking_lines(importer):
                    edges[importer].discard(imported)
        cycles = [_one_cycle(edges, c) for c in strongly_connected(edges) if len(c) > 1]
        metadata = {"cycles": [_with_lines(graph, cycle) for cycle in sorted(cycles)]}
        return ContractCheck(kept=not cycles, metadata=metadata)

    def render_broken_contract(self, check: ContractCheck) -> None:
        for cycle in check.metadata["cycles"]:
            output.print_error(f"{cycle[0][0]} imports itself through:", bold=True)
            for importer, imported, lines in cycle:
                output.print_error(f"- {importer} -> {imported} ({lines})")
            output.new_line()


def strongly_connected(edges: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components, iterative (a deep import chain would pass Python's
    recursion limit); modules in sorted order so the report is the same from run to run."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                components.append(component)
    return components


def _one_cycle(edges: dict[str, set[str]], component: set[str]) -> list[str]:
    """The shortest cycle through the component's first module (breadth first, inside the component)."""
    start = min(component)
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for child in sorted(edges[node] & component):
            if child == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if child not in came_from:
                came_from[child] = node
                queue.append(child)
    raise AssertionError(f"{start} is in a cycle but no path leads back to it")


def _with_lines(graph: ImportGraph, cycle: list[str]) -> list[tuple[str, str, str]]:
    steps = []
    for importer, imported in zip(cycle, cycle[1:], strict=False):
        details = graph.get_import_details(importer=importer, imported=imported)
        lines = ", ".join(f"l.{d['line_number']}" for d in details) or "?"
        steps.append((importer, imported, lines))
    return steps


def _pairs(edges: dict[str, set[str]]):
    for importer, imported in edges.items():
        for module in imported:
            yield importer, module


@cache
def _type_checking_lines(module: str) -> frozenset[int]:
    """The lines of the import statements under `if TYPE_CHECKING:` in the module's source. The file is found
    from its top-level package, which is not executed (importing a submodule would run Django's models)."""
    top, *rest = module.split(".")
    spec = importlib.util.find_spec(top)
    if spec is None or not spec.submodule_search_locations:
        return frozenset()
    base = Path(next(iter(spec.submodule_search_locations))).joinpath(*rest)
    path = base.with_suffix(".py") if base.with_suffix(".py").is_file() else base / "__init__.py"
    if not path.is_file():
        return frozenset()
    lines = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            for inner in node.body:
                for statement in ast.walk(inner):
                    if isinstance(statement, (ast.Import, ast.ImportFrom)):
                        lines.add(statement.lineno)
    return frozenset(lines)
