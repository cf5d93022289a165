"""Client side of the sandbox: a pool of fork servers (:mod:`mutators.execution.worker`), one per core,
each behind the boundary :mod:`.isolation` offers, every child under the worker's exec filter where
it holds (:attr:`Isolation.denies_exec`).

Untrusted code never runs in the calling process. Tasks go to worker processes in batches; each task
runs in its own forked child with resource limits, so a hung, crashing or forking task costs only
its own result (``{"status": "timeout" | "died" | "error"}``). Nothing a task does can raise here: a
worker that ends or answers garbage is started afresh, and each task of its batch runs once more alone.
A build's sandbox (``rerun_stalled``) also runs once more alone each task that a wall-clock deadline stopped
(a run of it, or the whole): a machine that stalls a process for seconds (a busy or swapping host) must not
decide what a document holds. A CPU limit is no such clock: a stall spends no CPU time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence

from mutators.errors import DynbenchError
from mutators.execution.isolation import (
    BUBBLEWRAP,
    EXECUTION_FOLDER,
    WORKER_SCRIPT,
    Isolation,
    bubblewrap_launch,
    inside,
    isolation,
    python_readable,
    python_site_folders,
    sandbox_paths,
)
from mutators.execution.limits import CLEAN_ENVIRONMENT, DEFAULT_LIMITS, UNPRIVILEGED_ID
from mutators.execution.pool import WorkerPool
from mutators.runaway import stalled

WORKER_ENDED = {"status": "error", "error": "sandbox worker ended"}


class SandboxUnavailable(DynbenchError, RuntimeError):
    """The sandbox cannot run here; the message says why."""


def _check_platform() -> None:
    if os.name != "posix" or not hasattr(os, "fork"):
        raise SandboxUnavailable("the dynbench sandbox needs a POSIX system with fork() (Linux or macOS)")


class _Worker:
    def __init__(self, boundary: Isolation, hidden: Sequence[str], hash_seed: int | None) -> None:
        self.boundary, self.hidden, self.hash_seed = boundary, list(hidden), hash_seed
        self.lock = threading.Lock()
        self.process: subprocess.Popen | None = None
        self.launch = None
        self._start()

    def _start(self) -> None:
        isolated = self.boundary.kind == BUBBLEWRAP
        paths = sandbox_paths([*python_readable(), EXECUTION_FOLDER]) if isolated else {}
        config = {"user": None if isolated else UNPRIVILEGED_ID, "init": isolated,
                  "site": [inside(folder, paths) for folder in python_site_folders()] if isolated
                  else python_site_folders(), "deny_exec": self.boundary.denies_exec}
        python = inside(sys.executable, paths) if isolated else sys.executable
        script = inside(WORKER_SCRIPT, paths) if isolated else WORKER_SCRIPT
        # -I would also ignore PYTHONHASHSEED; the environment is ours alone either way.
        argv = [python, "-I" if self.hash_seed is None else "-s", "-S", script, json.dumps(config)]
        environment = dict(CLEAN_ENVIRONMENT)  # what children inherit; a short one also forks faster
        if self.hash_seed is not None:
            environment["PYTHONHASHSEED"] = str(self.hash_seed)
        if isolated:
            self.launch = bubblewrap_launch(argv, paths, self.hidden, environment=environment)
            argv = self.launch.argv
        try:
            self.process = subprocess.Popen(argv, env=environment, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace",
                                            bufsize=1)
            ready = self.process.stdout.readline()
        except OSError as error:
            raise SandboxUnavailable(f"the sandbox worker could not start: {error}") from None
        if ready.strip() != '{"ready": true}':
            self.process.kill()
            reason = (self.process.stderr.read().strip().splitlines() or ["no reason given"])[-1][:300]
            raise SandboxUnavailable(f"the sandbox worker could not start ({self.boundary.describe()}): {reason}")
        self.process.stderr.close()  # from here on, only what the worker prints on stdout counts

    def run(self, tasks: list[dict]) -> list[dict]:
        with self.lock:
            try:
                self.process.stdin.write(json.dumps({"tasks": tasks}) + "\n")
                self.process.stdin.flush()
                line = self.process.stdout.readline()
                results = json.loads(line)["results"]
                if not isinstance(results, list) or len(results) != len(tasks):
                    raise ValueError("wrong number of results")
            except (OSError, ValueError, KeyError, TypeError, RecursionError, MemoryError):
                self.close()
                self._start()
                return [dict(WORKER_ENDED) for _ in tasks]
        if self.launch is not None:
            self.launch.cleanup()  # the sandbox holds its own binds now
        return [r if isinstance(r, dict) else {"status": "error", "error": "garbled result"} for r in results]

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            try:
                self.process.stdin.close()
                self.process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        if self.launch is not None:
            self.launch.cleanup()


class Sandbox(WorkerPool):
    """``with Sandbox() as box: results = box.run(tasks)``; results come back in task order.

    ``hidden``: folders no sandboxed process may see even where they lie inside a folder it reads
    (benchmark data, caches). ``hash_seed``: a fixed PYTHONHASHSEED for every process (set and dict
    order then repeat across runs). ``rerun_stalled``: each task a wall-clock deadline stopped runs once more
    alone, and that run's result stands (for builds: see the module's docstring). ``isolation`` says which
    boundary the workers have."""

    def __init__(self, workers: int | None = None, batch_size: int = 32, hidden: Sequence[str] = (),
                 hash_seed: int | None = None, rerun_stalled: bool = False) -> None:
        _check_platform()
        self.isolation = isolation()
        self.rerun_stalled = rerun_stalled
        count = max(1, workers or os.cpu_count() or 1)
        super().__init__(lambda: _Worker(self.isolation, hidden, hash_seed), batch_size, count)

    def run(self, tasks: Sequence[dict], progress: Callable[[int], None] | None = None) -> list[dict]:
        """Run every task; ``progress(n)`` is called as each batch of ``n`` tasks finishes."""
        complete = [dict(task, limits={**DEFAULT_LIMITS, **task.get("limits", {})}) for task in tasks]
        results = self.map(lambda worker, batch: worker.run(batch), complete, progress)
        # A worker that ended cost each task of its batch an error, whatever the task did; and which tasks shared
        # that batch depends on the machine's core count. Each runs once more in a batch of its own, so that only
        # a task that ends its worker by itself keeps the error; so does each task a stall may have stopped.
        undecided = [index for index, result in enumerate(results)
                     if result == WORKER_ENDED or (self.rerun_stalled and stalled(result))]
        again = self.map(lambda worker, batch: worker.run(batch), [complete[i] for i in undecided], largest_batch=1)
        for index, result in zip(undecided, again, strict=True):
            results[index] = result
        return results
