"""Process-wide resources of an evaluation: one sandbox pool, started on first use."""

from __future__ import annotations

import atexit
import os
import threading

from mutators.sandbox import Sandbox

_sandbox: Sandbox | None = None
_lock = threading.Lock()


def shared_sandbox() -> Sandbox:
    """The sandbox pool for equivalence checks and scoring (``DYNBENCH_SANDBOX_WORKERS`` workers,
    default one per core)."""
    global _sandbox
    with _lock:
        if _sandbox is None:
            workers = int(os.environ.get("DYNBENCH_SANDBOX_WORKERS", "0")) or None
            _sandbox = Sandbox(workers=workers)
            atexit.register(_sandbox.close)
        return _sandbox


_java_judge = None


def shared_java_judge():
    """The Java judge pool for translation scoring (``DYNBENCH_JAVA_WORKERS`` JVMs, default one
    per core)."""
    global _java_judge
    from dynbench_tasks.java_judge import JavaJudge

    with _lock:
        if _java_judge is None:
            workers = int(os.environ.get("DYNBENCH_JAVA_WORKERS", "0")) or None
            _java_judge = JavaJudge(workers=workers)
            atexit.register(_java_judge.close)
        return _java_judge
