"""The limits and the environment every sandboxed process gets, defined once.

The fork server (:mod:`mutators.execution.worker`) runs as ``python -I -S`` and cannot import this
package: the client sends it each task's complete limits and starts it with this environment and
user id, so the worker holds no copy of its own.
"""

# nobody:nogroup; sandboxed processes take it when started as root.
UNPRIVILEGED_ID = 65534

# Children get nothing else from the caller's environment (HOME and TMPDIR point at their workdir).
# Numerical libraries stay single-threaded: a thread pool would not fit the process limit.
CLEAN_ENVIRONMENT = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
                     "MKL_NUM_THREADS": "1"}

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
