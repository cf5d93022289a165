"""Client side of the sandbox: a pool of fork servers (:mod:`mutators.execution.worker`), one per core.

Untrusted code never runs in the calling process. Tasks go to worker processes in batches; each task
runs in its own forked child with resource limits, so a hung, crashing or forking task costs only
its own result (``{"status": "timeout" | "died" | "error"}``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence

from mutators.errors import DynbenchError
from mutators.execution.limits import CLEAN_ENVIRONMENT, DEFAULT_LIMITS, UNPRIVILEGED_ID
from mutators.execution.pool import WorkerPool

WORKER_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "worker.py")


class SandboxUnavailable(DynbenchError, RuntimeError):
    """The sandbox cannot run here; the message says why."""


def _check_platform() -> None:
    if os.name != "posix" or not hasattr(os, "fork"):
        raise SandboxUnavailable("the dynbench sandbox needs a POSIX system with fork() (Linux or macOS)")


class _Worker:
    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-I", "-S", WORKER_SCRIPT, str(UNPRIVILEGED_ID)],
            # What children inherit; a short environment also forks faster.
            env=CLEAN_ENVIRONMENT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        self.lock = threading.Lock()

    def run(self, tasks: list[dict]) -> list[dict]:
        with self.lock:
            self.process.stdin.write(json.dumps({"tasks": tasks}) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        if not line:
            raise SandboxUnavailable(f"sandbox worker exited with status {self.process.poll()}")
        return json.loads(line)["results"]

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()


class Sandbox(WorkerPool):
    """``with Sandbox() as box: results = box.run(tasks)``; results come back in task order."""

    def __init__(self, workers: int | None = None, batch_size: int = 32) -> None:
        _check_platform()
        super().__init__([_Worker() for _ in range(max(1, workers or os.cpu_count() or 1))], batch_size)

    def run(self, tasks: Sequence[dict], progress: Callable[[int], None] | None = None) -> list[dict]:
        """Run every task; ``progress(n)`` is called as each batch of ``n`` tasks finishes."""
        complete = [dict(task, limits={**DEFAULT_LIMITS, **task.get("limits", {})}) for task in tasks]
        return self.map(lambda worker, batch: worker.run(batch), complete, progress)
