"""The house's arrows run one way: each room imports only rooms below it, and no files import each
other in a circle. Every import counts, wherever it is written: at module level, inside a function,
or under ``TYPE_CHECKING`` (a reader follows those too)."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("dynbench_tasks", "mutators")
# Rooms from the top down; a room may import the rooms of any layer below its own, never one beside
# or above it. A module of dynbench_tasks outside a subpackage is a room of its own.
LAYERS = (
    ("dynbench_tasks", "dynbench_tasks.cli"),
    ("dynbench_tasks.contamination",),
    ("dynbench_tasks.analysis", "dynbench_tasks.metrics"),
    ("dynbench_tasks.lmeval",),
    ("dynbench_tasks.mutation",),
    ("dynbench_tasks.benchmarks",),
    ("dynbench_tasks.runtime", "dynbench_tasks.settings"),
    ("dynbench_tasks.judge",),
    ("dynbench_tasks.errors", "dynbench_tasks.locations", "dynbench_tasks.scoring", "dynbench_tasks.variants"),
    ("mutators",),
)
LAYER = {room: depth for depth, rooms in enumerate(LAYERS) for room in rooms}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for package in PACKAGES for path in (REPO / package).rglob("*.py")}


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's own modules that ``name`` imports, by their full names."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            targets = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def room(name: str) -> str:
    if name.startswith("mutators"):
        return "mutators"
    return ".".join(name.split(".")[:2])


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imported(name, path, known) for name, path in known.items()}


def test_every_room_has_a_layer():
    assert {room(name) for name in modules()} <= set(LAYER)


def test_imports_run_down_the_layers():
    upward = sorted(f"{name} imports {target} ({room(target)} is not below {room(name)})"
                    for name, targets in graph().items() for target in targets
                    if room(target) != room(name) and LAYER[room(target)] <= LAYER[room(name)])
    assert not upward, "\n".join(upward)


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The groups of two or more modules that import each other, directly or not (Tarjan)."""
    index: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = lowest[node] = len(index)
        stack.append(node)
        for target in edges.get(node, ()):
            if target not in index:
                visit(target)
                lowest[node] = min(lowest[node], lowest[target])
            elif target in stack:
                lowest[node] = min(lowest[node], index[target])
        if lowest[node] == index[node]:
            group = []
            while not group or group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_modules_import_each_other_in_a_circle():
    assert circles(graph()) == []


def test_the_check_sees_function_local_and_type_only_imports(tmp_path, monkeypatch):
    package = tmp_path / "dynbench_tasks"
    (package / "benchmarks").mkdir(parents=True)
    (package / "lmeval").mkdir()
    for folder in (package, package / "benchmarks", package / "lmeval"):
        (folder / "__init__.py").write_text("")
    (package / "lmeval" / "task.py").write_text("from dynbench_tasks.benchmarks import base\n")
    (package / "benchmarks" / "base.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from dynbench_tasks.lmeval import task\n")
    (package / "benchmarks" / "cruxeval.py").write_text("def f():\n    from ..lmeval.task import x\n")
    monkeypatch.setitem(globals(), "REPO", tmp_path)
    edges = graph()
    assert edges["dynbench_tasks.benchmarks.base"] == {"dynbench_tasks.lmeval.task"}
    assert edges["dynbench_tasks.benchmarks.cruxeval"] == {"dynbench_tasks.lmeval.task"}
    assert circles(edges) == [["dynbench_tasks.benchmarks.base", "dynbench_tasks.lmeval.task"]]
