"""The scope analysis agrees with CPython's own symbol table on every benchmark program."""

import symtable
from collections import Counter

import libcst as cst
import pytest

from dynbench_tasks.benchmarks import BENCHMARKS, WITH_OWN_PROGRAMS, load_benchmark
from mutators.scopes import ScopeKind, analyze

_COMPREHENSION_NAMES = {cst.ListComp: "listcomp", cst.SetComp: "setcomp", cst.DictComp: "dictcomp",
                        cst.GeneratorExp: "genexpr"}


def _ours(code: str) -> Counter:
    signatures = Counter()
    for scope in analyze(cst.parse_module(code)).scopes:
        if scope.kind == ScopeKind.MODULE:
            continue
        node = scope.node
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            name = node.name.value
        elif isinstance(node, cst.Lambda):
            name = "lambda"
        else:
            name = _COMPREHENSION_NAMES[type(node)]
        kind = "class" if scope.kind == ScopeKind.CLASS else "function"
        signatures[(kind, name, tuple(sorted(scope.bound)))] += 1
    return signatures


def _cpython(code: str) -> Counter:
    signatures = Counter()
    stack = list(symtable.symtable(code, "<program>", "exec").get_children())
    while stack:
        table = stack.pop()
        stack.extend(table.get_children())
        kind = table.get_type()
        kind = kind if isinstance(kind, str) else kind.name.lower()
        if kind == "function":
            bound = table.get_locals()
        else:
            bound = [s.get_name() for s in table.get_symbols() if s.is_local()]
        signatures[(kind, table.get_name(), tuple(sorted(n for n in bound if not n.startswith("."))))] += 1
    return signatures


def _programs(data_dir):
    for name in WITH_OWN_PROGRAMS:
        benchmark = BENCHMARKS[name]
        for record in load_benchmark(name, str(data_dir)):
            yield f"{name}:{record['id']}", benchmark.program(record).code


@pytest.mark.slow
def test_bound_names_of_every_scope_match_symtable(data_dir):
    mismatches = [label for label, code in _programs(data_dir) if _ours(code) != _cpython(code)]
    assert not mismatches, mismatches[:10]


@pytest.mark.parametrize(
    "code",
    [
        "def f(a, /, b, *c, d, **e):\n    g = lambda h, *i: h\n    return [j for j in c if (k := j)]\n",
        "x = 1\ndef f():\n    global x\n    x = 2\n    def g():\n        nonlocal_y = 0\n    return g\n",
        "def f():\n    y = 0\n    def g():\n        nonlocal y\n        y += 1\n    class C:\n        z = y\n        def m(self):\n            return z\n    return C\n",
        "def f(xs):\n    try:\n        pass\n    except E as err:\n        pass\n    with open(xs) as (a, b):\n        del a\n    import os.path as p, sys\n    from m import q\n",
        "def f(v):\n    match v:\n        case [a, *rest] if a:\n            pass\n        case {'k': b, **kw}:\n            pass\n        case P(x=c) as d:\n            pass\n",
        "def f(n):\n    return {k: [m for m in range(k) if (w := m)] for k in range(n)}, w\n",
        "class A:\n    x = 1\n    y = [x for _ in range(3)]\n    def g(self, x=x):\n        return x\n",
        # Python reads identifiers NFKC-normalised: a ligature or full-width spelling is the same name.
        "def f():\n    \ufb01le = 1\n    return file\n",
        "def f(\uff58):\n    g = lambda: x\n    return [\uff59 for y in \uff58]\n",
    ],
)
def test_tricky_scopes_match_symtable(code):
    assert _ours(code) == _cpython(code)
