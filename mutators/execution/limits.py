"""The limits and the environment every sandboxed process gets, defined once.

The fork server (:mod:`mutators.execution.worker`) runs as ``python -I -S`` and cannot import this
package: the client sends it each task's complete limits and starts it with this environment and
user id, so the worker holds no copy of its own.
"""

import ast
import functools
import importlib

from mutators import thread_safe_ast

# nobody:nogroup; sandboxed processes take it when started as root.
UNPRIVILEGED_ID = 65534

# Children get nothing else from the caller's environment (HOME and TMPDIR point at their workdir).
# Numerical libraries stay single-threaded: a thread pool would not fit the process limit.
CLEAN_ENVIRONMENT = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
                     "MKL_NUM_THREADS": "1"}

# The PYTHONHASHSEED of every process of the equivalence check (whose sandbox the caller gives it): a set's order,
# and with it the lines a program runs, then repeat on every machine, so no draw decides a mutant's budget or verdict.
CHECK_HASH_SEED = 0

# Modules a task running one program's stdin tests imports once, before it forks a process for each test, where
# the program imports them (preloaded): those the benchmarks' programs import whose import defines things and
# does nothing else. A run importing one afresh pays for it on every test (measured in a forked child: numpy
# 91 ms of CPU, scipy 100, networkx 156, fractions 11, statistics 11, re 7, queue 6).
PRELOADABLE = frozenset({"numpy", "scipy", "networkx", "fractions", "decimal", "statistics", "string", "re", "queue",
                         "datetime", "collections", "heapq", "bisect", "itertools", "functools", "math", "copy",
                         "operator"})


@functools.lru_cache(maxsize=4096)  # a build gives one program's tests to the sandbox again and again
def preloaded(source: str) -> tuple[str, ...]:
    """The modules ``source`` imports (``import a.b`` names ``a.b``) that are :data:`PRELOADABLE`."""
    try:
        tree = thread_safe_ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return tuple(sorted(name for name in names if name.split(".")[0] in PRELOADABLE))


# Modules that keep no state a program could change and a later run of it see: a program that imports
# only these, and none of _SHARING_HAZARDS, may have its stdin tests run one after another in one process
# (shares_a_process). Not random (its generator's state), decimal (its context), numpy (its settings),
# threading, os, io, ...
SHAREABLE = frozenset({"sys", "math", "cmath", "collections", "heapq", "bisect", "itertools", "functools", "operator",
                       "string", "re", "fractions", "statistics", "copy", "queue", "typing", "array", "datetime"})
# Names that reach past the program's own namespace (open but as open(0), to read stdin)
_SHARING_HAZARDS = frozenset({"__builtins__", "builtins", "globals", "vars", "exec", "eval", "compile", "__import__",
                              "setattr", "delattr", "breakpoint", "open", "__loader__", "__spec__"})
# What of sys a program may use in a shared process (the worker sets the streams and limits afresh for each run)
_SHAREABLE_SYS = frozenset({"stdin", "stdout", "stderr", "setrecursionlimit", "getrecursionlimit", "exit", "maxsize",
                            "float_info", "int_info", "version_info", "version", "byteorder", "maxunicode",
                            "getsizeof", "set_int_max_str_digits", "get_int_max_str_digits", "hexversion", "platform"})


def _imported(tree: ast.AST) -> tuple[set[str], set[str]]:
    """The modules ``tree`` imports (``import a.b`` names ``a.b``) and the names it binds to them or to what
    it takes from them (``from collections import Counter`` binds ``Counter``)."""
    modules, bound = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            modules.add("." * node.level + (node.module or ""))
            bound.update(alias.asname or alias.name for alias in node.names if alias.name != "*")
            if any(alias.name == "*" for alias in node.names) and not node.level and node.module in SHAREABLE:
                bound.update(name for name in dir(importlib.import_module(node.module)) if not name.startswith("_"))
    return modules, bound


def _root(node: ast.expr) -> ast.expr:
    """What an attribute or subscript chain starts from (``a`` of ``a.b[0].c``)."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node


def _changes_an_import(node: ast.AST, bound: set[str]) -> bool:
    """Whether ``node`` stores into or deletes from what an import bound (``Counter.x = 1``,
    ``collections.Counter.x = 1``, ``copy._deepcopy_dispatch[k] = f``), or reaches a private name of it, whose
    changes a later run would see (``copy._deepcopy_dispatch.clear()``)."""
    if not isinstance(node, (ast.Attribute, ast.Subscript)):
        return False
    root = _root(node)
    if not (isinstance(root, ast.Name) and root.id in bound):
        return False
    return not isinstance(node.ctx, ast.Load) or (isinstance(node, ast.Attribute) and node.attr.startswith("_"))


@functools.lru_cache(maxsize=4096)
def shares_a_process(source: str) -> bool:
    """Whether ``source``'s stdin tests may run one after another in one process, each from a fresh namespace,
    with the answers each would give in a process of its own: it imports only :data:`SHAREABLE` modules, takes
    from ``sys`` only its streams and limits (which the worker sets afresh for every run), changes nothing an
    import bound (:func:`_changes_an_import`) and names none of ``_SHARING_HAZARDS`` but ``open(0)``."""
    try:
        tree = thread_safe_ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    modules, bound = _imported(tree)
    if any(name.split(".")[0] not in SHAREABLE for name in modules) or any(
            isinstance(node, ast.Import) and any(alias.name == "sys" and alias.asname for alias in node.names)
            for node in ast.walk(tree)):
        return False
    reading_stdin = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)
                     and isinstance(node.func, ast.Name) and node.func.id == "open" and node.args
                     and isinstance(node.args[0], ast.Constant) and node.args[0].value == 0}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in _SHARING_HAZARDS and id(node) not in reading_stdin:
            return False
        if _changes_an_import(node, bound) or (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                                               and node.value.id == "sys" and node.attr not in _SHAREABLE_SYS):
            return False
        if isinstance(node, ast.ImportFrom) and node.module == "sys" and any(
                alias.name not in _SHAREABLE_SYS for alias in node.names):
            return False
    return True


DEFAULT_LIMITS = {
    "wall_seconds": 10.0,
    "cpu_seconds": 10,
    "memory_mb": 2048,
    "nproc": 1,
    "fsize_mb": 16,
    "nofile": 64,
}

# A run's wall-clock limit, where its CPU time is what limits it: only a process that sleeps, or a machine
# so busy that it gets less than a fortieth of a core, reaches it. A build confined to a quarter of one core
# shares it among its sandbox processes, each of which may then get a tenth or less: at ten times, such a
# build of all Avatar had two runs stopped there (which decided no document otherwise, but could have).
WALL_PER_CPU_SECOND = 40


def wall_seconds(cpu_seconds: float) -> float:
    """The wall-clock limit of a run or task that ``cpu_seconds`` of CPU time limits (see above)."""
    return WALL_PER_CPU_SECOND * cpu_seconds + 5

# How many times slower a run is when its lines are counted (a trace function per line): 4.6 times for
# the median published CRUXEval call, 7.0 for the worst, 7.1 for a tight loop. A counted run's time
# limit is its uncounted limit times this.
COUNTED_SLOWER = 10
