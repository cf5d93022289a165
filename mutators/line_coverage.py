"""Which statements of a program its scored inputs run. NewOutput refuses an edit that leaves more of
the program's statements unexecuted on every scored input than the unedited program leaves (a loop
that no longer runs, a branch that no input takes any more, a statement added where nothing reaches
it): such an edit makes code dead, and its answers could then be had from less of the program than
is shown. The counts are compared, not the lines themselves, so an edit that swaps which branch runs
passes. A traced run has the step budget and time limit of the untraced run it repeats (both count
their lines: :mod:`mutators.execution.worker`), so it finishes where that run did, bar a runaway;
a program whose traced run does not finish cleanly is not checked, and an edit that could not be
checked is not taken.

The runs are traced in the sandbox (:mod:`mutators.execution.worker`, a payload's ``trace``); the
line numbers come back as data and are judged here."""

from __future__ import annotations

import ast

from mutators import batched_calls, thread_safe_ast
from mutators.execution.limits import preloaded, shares_a_process, wall_seconds


def statements(code: str) -> set[int]:
    """The line each statement of ``code`` starts on."""
    return {node.lineno for node in ast.walk(thread_safe_ast.parse(code)) if isinstance(node, ast.stmt)}


def calls_task(source: str, expressions: list[str], seconds: float, steps: int | None) -> dict:
    """A traced sandbox task making each call of ``source`` (the program after its preamble)."""
    return batched_calls.task([(source, expression) for expression in expressions], seconds, steps, traced=True)


def _shift(code: str, source: str) -> int:
    """How many lines of ``source`` come before ``code``, its end."""
    return source[: len(source) - len(code)].count("\n")


def scripts_task(source: str, stdins: list[str], seconds: float, steps: int | None, code: str | None = None,
                 allowed: int | None = None) -> dict:
    """A traced sandbox task running the script ``source`` on each of ``stdins``; with ``code`` (the end
    of ``source``) and ``allowed``, one that stops once at most ``allowed`` statements of ``code`` are
    unexecuted (the rest of the tests could only run more of them)."""
    payload = {"source": source, "stdins": stdins, "seconds": seconds, "steps": steps, "every": True, "trace": True,
               "preload": preloaded(source), "shared": shares_a_process(source),
               "run_wall_seconds": wall_seconds(seconds)}
    if code is not None and allowed is not None and source.endswith(code):
        shift = _shift(code, source)
        payload["enough"] = {"lines": sorted(line + shift for line in statements(code)), "missing": allowed}
    return {"kind": "run_scripts", "payload": payload,
            "limits": {"wall_seconds": len(stdins) * wall_seconds(seconds), "cpu_seconds": int(seconds) + 2,
                       "nproc": 64}}


def unexecuted(code: str, source: str, runs: list | None, clean: str, allowed: int | None = None) -> int | None:
    """How many statements of ``code`` (the end of ``source``, which ran) no run of a traced task's
    ``runs`` reached; None unless every run finished with outcome ``clean`` and reported its lines. A
    run that is None was not made: the count over the runs made is then an upper bound, taken only where
    it is at most ``allowed``."""
    made = [run for run in runs or () if run is not None]
    if not made or not source.endswith(code) or (len(made) < len(runs) and allowed is None):
        return None
    shift, reached = _shift(code, source), set()
    for run in made:
        lines = run.get("lines") if isinstance(run, dict) and run.get("outcome") == clean else None
        if not isinstance(lines, list):
            return None
        reached.update(line - shift for line in lines if isinstance(line, int))
    count = len(statements(code) - reached)
    return count if len(made) == len(runs) or count <= allowed else None
