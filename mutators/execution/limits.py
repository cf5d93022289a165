"""The limits and the environment every sandboxed process gets, defined once.

The fork server (:mod:`mutators.execution.worker`) runs as ``python -I -S`` and cannot import this
package: the client sends it each task's complete limits and starts it with this environment and
user id, so the worker holds no copy of its own.
"""

import ast
import functools

# nobody:nogroup; sandboxed processes take it when started as root.
UNPRIVILEGED_ID = 65534

# Children get nothing else from the caller's environment (HOME and TMPDIR point at their workdir).
# Numerical libraries stay single-threaded: a thread pool would not fit the process limit.
CLEAN_ENVIRONMENT = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
                     "MKL_NUM_THREADS": "1"}

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
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return tuple(sorted(name for name in names if name.split(".")[0] in PRELOADABLE))


DEFAULT_LIMITS = {
    "wall_seconds": 10.0,
    "cpu_seconds": 10,
    "memory_mb": 2048,
    "nproc": 1,
    "fsize_mb": 16,
    "nofile": 64,
}

# A run's wall-clock limit, where its CPU time is what limits it: only a process that sleeps, or a machine
# so busy that it gets less than a tenth of a core, reaches it (a quarter of one core is 4 s of wall
# time per CPU second).
WALL_PER_CPU_SECOND = 10


def wall_seconds(cpu_seconds: float) -> float:
    """The wall-clock limit of a run or task that ``cpu_seconds`` of CPU time limits (see above)."""
    return WALL_PER_CPU_SECOND * cpu_seconds + 5

# How many times slower a run is when its lines are counted (a trace function per line): 4.6 times for
# the median published CRUXEval call, 7.0 for the worst, 7.1 for a tight loop. A counted run's time
# limit is its uncounted limit times this.
COUNTED_SLOWER = 10
