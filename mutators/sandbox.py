"""Client side of the sandbox: a pool of fork servers (:mod:`mutators.sandbox_worker`), one per core.

Untrusted code never runs in the calling process. Tasks go to worker processes in batches; each task
runs in its own forked child with resource limits, so a hung, crashing or forking task costs only
its own result (``{"status": "timeout" | "died" | "error"}``).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Generic, TypeVar

WORKER_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sandbox_worker.py")


class SandboxUnavailable(RuntimeError):
    pass


def _check_platform() -> None:
    if os.name != "posix" or not hasattr(os, "fork"):
        raise SandboxUnavailable("the dynbench sandbox needs a POSIX system with fork() (Linux or macOS)")


class _Worker:
    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-I", "-S", WORKER_SCRIPT],
            # Children clear what they inherit, and clearing a long environment costs a fork's worth of time.
            env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
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


W = TypeVar("W")
T = TypeVar("T")
R = TypeVar("R")


class WorkerPool(Generic[W]):
    """Batches of items go to a fixed set of workers, each busy with one batch at a time, all in
    parallel; ``map`` returns one result per item, in item order."""

    def __init__(self, workers: Sequence[W], batch_size: int) -> None:
        self.workers = list(workers)
        self.batch_size = batch_size
        self._free = list(self.workers)
        self._lock = threading.Lock()

    def _on_free_worker(self, work: Callable[[W, list[T]], list[R]], batch: list[T]) -> list[R]:
        with self._lock:
            worker = self._free.pop()
        try:
            return work(worker, batch)
        finally:
            with self._lock:
                self._free.append(worker)

    def map(self, work: Callable[[W, list[T]], list[R]], items: Sequence[T],
            progress: Callable[[int], None] | None = None) -> list[R]:
        """``work(worker, batch)`` for every batch; ``progress(n)`` as each batch of ``n`` finishes."""
        # Several batches per worker, so that one slow batch cannot keep the others idle for long.
        size = max(1, min(self.batch_size, math.ceil(len(items) / (4 * len(self.workers)))))
        batches = [list(items[i : i + size]) for i in range(0, len(items), size)]
        results: list[R] = []
        with ThreadPoolExecutor(max_workers=len(self.workers)) as pool:
            futures = [pool.submit(self._on_free_worker, work, batch) for batch in batches]
            for batch, future in zip(batches, futures, strict=True):
                results.extend(future.result())
                if progress is not None:
                    progress(len(batch))
        return results


class Sandbox:
    """``with Sandbox() as box: results = box.run(tasks)``; results come back in task order."""

    def __init__(self, workers: int | None = None, batch_size: int = 32) -> None:
        _check_platform()
        self.pool = WorkerPool([_Worker() for _ in range(max(1, workers or os.cpu_count() or 1))], batch_size)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        for worker in self.pool.workers:
            worker.close()

    def run(self, tasks: Sequence[dict], progress: Callable[[int], None] | None = None) -> list[dict]:
        """Run every task; ``progress(n)`` is called as each batch of ``n`` tasks finishes."""
        return self.pool.map(lambda worker, batch: worker.run(batch), tasks, progress)
