"""Process-wide resources of an evaluation, each started on first use and closed at exit: the
Python sandbox pool and the Java judge pool."""

from __future__ import annotations

import atexit
import os
import threading
from collections.abc import Callable

_started: dict[str, object] = {}
_lock = threading.Lock()


def _shared(name: str, workers_variable: str, start: Callable[[int | None], object]):
    with _lock:
        if name not in _started:
            resource = start(int(os.environ.get(workers_variable, "0")) or None)
            atexit.register(resource.close)
            _started[name] = resource
        return _started[name]


def shared_sandbox(hash_seed: int | None = None):
    """The sandbox for equivalence checks and scoring (``DYNBENCH_SANDBOX_WORKERS`` workers,
    default one per core); with ``hash_seed``, one whose processes all use that PYTHONHASHSEED."""
    from dynbench_tasks.benchmarks.records import data_locations
    from mutators.execution import Sandbox

    return _shared(f"sandbox-{hash_seed}", "DYNBENCH_SANDBOX_WORKERS",
                   lambda workers: Sandbox(workers=workers, hidden=data_locations(), hash_seed=hash_seed))


def shared_java_judge():
    """The Java judge for translation scoring (``DYNBENCH_JAVA_WORKERS`` JVMs, default one per core)."""
    from dynbench_tasks.judge.pool import JavaJudge

    return _shared("java", "DYNBENCH_JAVA_WORKERS", lambda workers: JavaJudge(workers=workers))
