"""A line every ``PROGRESS_EVERY_SECONDS`` while a task's documents are built, where no progress bar
shows (the output is not a terminal): how long it has taken, how many programs are rewritten of how
many, and how many runs in the sandbox (equivalence checks, new inputs and outputs) are done of those
asked for so far. Rewriting runs ahead of the sandbox, which is given each slice of programs as it is
rewritten, so the runs asked for grow until the last slice is in."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable

from dynbench_tasks.lmeval.cost import PROGRESS_EVERY_SECONDS, clock


class _CountingSandbox:
    """A sandbox that counts the runs it is given and those done, for :class:`BuildProgress`."""

    def __init__(self, sandbox, progress: BuildProgress) -> None:
        self._sandbox, self._progress = sandbox, progress

    def run(self, tasks, progress: Callable[[int], None] | None = None):
        self._progress.runs_asked += len(tasks)

        def done(count: int) -> None:
            self._progress.runs_done += count
            if progress is not None:
                progress(count)

        return self._sandbox.run(tasks, progress=done)

    def __getattr__(self, name):
        return getattr(self._sandbox, name)


class BuildProgress:
    """Counts a build's rewritten programs and sandbox runs; prints them now and then from a thread."""

    def __init__(self, label: str, programs: int, every: float | None = None) -> None:
        self.label, self.programs = label, programs
        self.every = PROGRESS_EVERY_SECONDS if every is None else every
        self.rewritten = self.runs_asked = self.runs_done = 0
        self._stopped = threading.Event()
        self._started = time.monotonic()

    def rewriting(self, mutate_one: Callable) -> Callable:
        """``mutate_one``, counted."""
        def counted(*args, **kwargs):
            result = mutate_one(*args, **kwargs)
            self.rewritten += 1
            return result

        return counted

    def sandboxes(self, sandbox: Callable) -> Callable:
        """``sandbox(hash_seed)``, each sandbox it gives counted."""
        return lambda hash_seed=None: _CountingSandbox(sandbox(hash_seed), self)

    def line(self) -> str:
        elapsed = clock(time.monotonic() - self._started)
        return (f"dynbench: {self.label}: building documents for {elapsed}: {self.rewritten} of {self.programs} "
                f"programs rewritten, {self.runs_done} of {self.runs_asked} sandbox runs asked for so far done")

    def _report(self) -> None:
        while not self._stopped.wait(self.every):
            print(self.line(), file=sys.stderr, flush=True)

    def __enter__(self) -> BuildProgress:
        if not sys.stderr.isatty():  # on a terminal the progress bars say it
            threading.Thread(target=self._report, name="dynbench-build-progress", daemon=True).start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._stopped.set()
