"""Client side of the sandbox: a pool of fork servers (:mod:`mutators.sandbox_worker`), one per core.

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
from concurrent.futures import ThreadPoolExecutor

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


class Sandbox:
    """``with Sandbox() as box: results = box.run(tasks)``; results come back in task order."""

    def __init__(self, workers: int | None = None, batch_size: int = 32) -> None:
        _check_platform()
        self.size = max(1, workers or os.cpu_count() or 1)
        self.batch_size = batch_size
        self.workers = [_Worker() for _ in range(self.size)]
        self._free = list(self.workers)
        self._free_lock = threading.Lock()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        for worker in self.workers:
            worker.close()

    def _run_batch(self, tasks: list[dict]) -> list[dict]:
        with self._free_lock:
            worker = self._free.pop()
        try:
            return worker.run(tasks)
        finally:
            with self._free_lock:
                self._free.append(worker)

    def run(self, tasks: Sequence[dict], progress: Callable[[int], None] | None = None) -> list[dict]:
        """Run every task; ``progress(n)`` is called as each batch of ``n`` tasks finishes."""
        batches = [list(tasks[i : i + self.batch_size]) for i in range(0, len(tasks), self.batch_size)]
        results: list[dict] = []
        with ThreadPoolExecutor(max_workers=self.size) as pool:
            futures = [pool.submit(self._run_batch, batch) for batch in batches]
            for batch, future in zip(batches, futures, strict=True):
                results.extend(future.result())
                if progress is not None:
                    progress(len(batch))
        return results
