"""A line every ``PROGRESS_EVERY_SECONDS`` while a task's documents are built, where no progress bar
shows (the output is not a terminal): how long it has taken, how many programs are rewritten of how
many, and how many runs in the sandbox are done of those asked for so far, for each of the build's
stages: checking mutants (the equivalence check, in the unseeded sandbox) and choosing new inputs and
outputs (in the two sandboxes with fixed hash seeds). Rewriting runs ahead of the sandbox, which is
given each slice of programs as it is rewritten, and a search asks for its next round of candidates
once a round is judged, so the runs asked for grow until the last is in: a count, not an estimate."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable

from dynbench_tasks.lmeval.cost import PROGRESS_EVERY_SECONDS, clock
from mutators.execution.limits import CHECK_HASH_SEED

_STAGES = {True: "checking mutants", False: "choosing new inputs and outputs"}  # by whether the sandbox is the check's


class _CountingSandbox:
    """A sandbox that counts the runs it is given and those done, for :class:`BuildProgress`."""

    def __init__(self, sandbox, progress: BuildProgress, stage: str) -> None:
        self._sandbox, self._progress, self._stage = sandbox, progress, stage

    def run(self, tasks, progress: Callable[[int], None] | None = None):
        self._progress.runs_asked[self._stage] += len(tasks)

        def done(count: int) -> None:
            self._progress.runs_done[self._stage] += count
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
        self.rewritten = 0
        self.runs_asked, self.runs_done = dict.fromkeys(_STAGES.values(), 0), dict.fromkeys(_STAGES.values(), 0)
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
        """``sandbox(hash_seed)``, each sandbox it gives counted under its stage."""
        return lambda hash_seed: _CountingSandbox(sandbox(hash_seed), self, _STAGES[hash_seed == CHECK_HASH_SEED])

    def line(self) -> str:
        elapsed = clock(time.monotonic() - self._started)
        stages = [f"{self.runs_done[stage]} of {asked} {stage}" for stage, asked in self.runs_asked.items() if asked]
        runs = "sandbox runs done of those asked for so far: " + ", ".join(stages) if stages else \
            "no sandbox runs asked for yet"
        return (f"dynbench: {self.label}: building documents for {elapsed}: {self.rewritten} of {self.programs} "
                f"programs rewritten; {runs}")

    def _report(self) -> None:
        while not self._stopped.wait(self.every):
            print(self.line(), file=sys.stderr, flush=True)

    def __enter__(self) -> BuildProgress:
        if not sys.stderr.isatty():  # on a terminal the progress bars say it
            threading.Thread(target=self._report, name="dynbench-build-progress", daemon=True).start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._stopped.set()
