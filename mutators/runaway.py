"""Runs that a time limit stopped where a step budget should have decided.

Candidate edits, inputs and checks are refused for being slow on their counted steps
(:mod:`mutators.execution.worker`), which every machine counts the same. Their time limits only stop
runaways: work done in C, which no line counts, or a machine starved of CPU. A build's sandbox runs a task
that a wall-clock deadline stopped once more (``Sandbox.rerun_stalled``): a stall of the machine passes.
A stop that stands decides like a failure, and on a faster or idler machine the run might have finished:
so a build whose choices rested on one says so, in one line, with how many runs it stopped.
"""

from __future__ import annotations

import logging

logger = logging.getLogger("lm_eval.dynbench")

_TIMED_OUT = ("timeout", "program_timeout")  # a worker run's outcome when its timer stopped it
_stopped = 0  # runs stopped so far in this process


def stopped_runs(item) -> int:
    """Runs a time limit stopped in a worker task's outcome (``{"status": ..., "result": ...}``) or in one
    of its results: a run of its own, the runs of ``evaluate_each`` or ``run_scripts``, the calls of a
    ``compare_calls``."""
    if not isinstance(item, dict):
        return 0
    if "status" in item:
        return 1 if item["status"] == "timeout" else stopped_runs(item.get("result"))
    runs = item.get("results") if isinstance(item.get("results"), list) else []
    calls = [entry for mutant in item.get("mutants") or () if isinstance(mutant, dict)
             for entry in mutant.get("inputs") or () if isinstance(entry, dict)]
    stopped = item.get("outcome") in _TIMED_OUT and item.get("ended") != "died"  # a run that died was not stopped
    return stopped + sum(map(stopped_runs, runs)) + sum(
        entry.get("original") == "timeout" or entry.get("mutant") == "timeout" for entry in calls)


def stalled(item) -> bool:
    """Whether a wall-clock deadline stopped a run of a worker task's outcome (or the task itself), as a machine
    that stalls a process for seconds stops one: no CPU limit or step budget did (``worker.WALL_CLOCK_STOP``)."""
    if not isinstance(item, dict):
        return False
    if item.get("clock") == "wall":
        return True
    runs = item.get("results") if isinstance(item.get("results"), list) else []
    return stalled(item.get("result")) or any(map(stalled, runs))


def note(items) -> None:
    """Count the runs a time limit stopped among worker outcomes or results whose verdict stands."""
    global _stopped
    _stopped += sum(map(stopped_runs, items))


def add(count: int) -> None:
    """Count ``count`` runs a time limit (or a failing machine) decided outside the sandbox's outcomes: the
    benchmark's own Java, checking Avatar's derived inputs or giving TransCoder's reference values."""
    global _stopped
    _stopped += count


def stopped() -> int:
    """Runs a time limit stopped so far in this process (see :func:`note`)."""
    return _stopped


def report(what: str, before: int) -> None:
    """One line if ``what`` (choosing new outputs, say) rested on runs a time limit stopped since ``before``."""
    count = _stopped - before
    if count:
        logger.warning("%s: %d run%s stopped by a time limit rather than a step budget; the documents they decided "
                       "may differ when built on another machine", what, count, "" if count == 1 else "s")
