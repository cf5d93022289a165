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
