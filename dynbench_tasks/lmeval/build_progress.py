"""A line every ``PROGRESS_EVERY_SECONDS`` while a task's documents are built, where no progress bar
shows (the output is not a terminal): how long it has taken, how many programs are rewritten of how
many, and how many runs in the sandbox are done of those asked for so far, for each of the build's
stages: checking mutants (the equivalence check, in its sandbox) and choosing new inputs and outputs
(in the two sandboxes of the other hash seeds). Rewriting runs ahead of the sandbox, which is given each
slice of programs as it is rewritten, and a search asks for its next round of candidates once a round
is judged, so the runs asked for grow until the last is in: a count, not an estimate. The estimate is
the time the same build (the same tasks of the same benchmark, another seed, this engine) took on this
machine before, kept in dynbench's cache folder: a leaderboard round builds a fresh seed of the tasks
the last round built."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from dynbench_tasks.lmeval.cost import PROGRESS_EVERY_SECONDS, clock
from dynbench_tasks.locations import cache_folder
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


def _build_seconds() -> Path:
    return cache_folder() / "build_seconds.json"


def _took_before(kind: str | None) -> float | None:
    """The seconds the build ``kind`` names took the last time it finished on this machine, if it did."""
    try:
        seconds = json.loads(_build_seconds().read_text(encoding="utf-8")).get(kind) if kind else None
    except (OSError, ValueError, AttributeError):
        return None
    return float(seconds) if isinstance(seconds, (int, float)) and seconds > 0 else None


def _record(kind: str, seconds: float) -> None:
    """Keep how long the build ``kind`` took (best effort: an estimate must never stop a build)."""
    path = _build_seconds()
    try:
        try:
            times = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            times = {}
        times = times if isinstance(times, dict) else {}
        times[kind] = round(seconds, 1)
        path.parent.mkdir(parents=True, exist_ok=True)
        written = path.with_name(f"{path.name}.{os.getpid()}")
        written.write_text(json.dumps(times, sort_keys=True), encoding="utf-8")
        written.replace(path)
    except OSError:
        pass


class BuildProgress:
    """Counts a build's rewritten programs and sandbox runs; prints them now and then from a thread. ``kind``
    names the build for its estimate: the same kind's time on this machine before (no seed in it)."""

    def __init__(self, label: str, programs: int, every: float | None = None, kind: str | None = None) -> None:
        self.label, self.programs, self.kind = label, programs, kind
        self.before = _took_before(kind)
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
                f"programs rewritten; {runs}{self._estimate()}")

    def _estimate(self) -> str:
        if self.before is None:
            return ""
        left = self.before - (time.monotonic() - self._started)
        took = f"these tasks took {clock(self.before)} to build on this machine before"
        return f"; about {clock(left)} left ({took})" if left > 0 else f"; longer than before ({took})"

    def _report(self) -> None:
        while not self._stopped.wait(self.every):
            print(self.line(), file=sys.stderr, flush=True)

    def __enter__(self) -> BuildProgress:
        if not sys.stderr.isatty():  # on a terminal the progress bars say it
            threading.Thread(target=self._report, name="dynbench-build-progress", daemon=True).start()
        return self

    def __exit__(self, failure, *exc_info) -> None:
        self._stopped.set()
        if failure is None and self.kind:
            _record(self.kind, time.monotonic() - self._started)
