"""The fast driver walks fields in source order and gives exactly what libcst's own driver gives."""

import ast
import dataclasses
import inspect
import textwrap

import libcst as cst
import pytest

import mutators.condaug
import mutators.constunfold
import mutators.for2while
import mutators.renaming
import mutators.while2for
from dynbench_tasks.benchmarks import BENCHMARKS, WITH_OWN_PROGRAMS, load_benchmark
from mutators import mutate
from mutators.tree import _child_fields

_NODE_TYPES = [
    c for _, c in inspect.getmembers(cst)
    if inspect.isclass(c) and issubclass(c, cst.CSTNode) and dataclasses.is_dataclass(c) and not inspect.isabstract(c)
]


def _libcst_visit_order(node_type) -> list[str]:
    """Keyword order of the constructor call in libcst's _visit_and_replace_children."""
    source = textwrap.dedent(inspect.getsource(node_type._visit_and_replace_children))
    calls = [
        node for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == node_type.__name__
    ]
    return [k.arg for k in calls[0].keywords] if calls else []


@pytest.mark.parametrize("node_type", _NODE_TYPES, ids=lambda t: t.__name__)
def test_child_fields_follow_libcst_source_order(node_type):
    order = _libcst_visit_order(node_type)
    ours = list(_child_fields(node_type))
    visited = [name for name in order if name in ours]
    if visited:
        assert visited == [name for name in ours if name in visited]


@pytest.mark.parametrize("chain", ["V1", "V2", "U", "F", "W", "A"])
def test_fast_driver_matches_libcst_driver(chain, data_dir, monkeypatch):
    programs = []
    for name in WITH_OWN_PROGRAMS:
        benchmark = BENCHMARKS[name]
        records = load_benchmark(name, str(data_dir))
        programs += [benchmark.program(record) for record in records[::10]]

    def run():
        return [mutate(p.code, chain, 5, kind=p.kind, entry_point=p.entry_point, call_arguments=p.call_arguments).code
                for p in programs]

    fast = run()
    for module in (mutators.renaming, mutators.constunfold, mutators.condaug, mutators.for2while, mutators.while2for):
        monkeypatch.setattr(module, "transform", lambda node, transformer: node.visit(transformer))
    assert run() == fast
