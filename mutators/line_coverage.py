"""Which statements of a program its scored inputs run. NewOutput refuses an edit that leaves more of
the program's statements unexecuted on every scored input than the unedited program leaves (a loop
that no longer runs, a branch that no input takes any more, a statement added where nothing reaches
it): such an edit makes code dead, and its answers could then be had from less of the program than
is shown. The counts are compared, not the lines themselves, so an edit that swaps which branch runs
passes. A program whose traced run does not finish cleanly within ``SLOWER`` times its budget is not
checked, and an edit that could not be checked is not taken.

The runs are traced in the sandbox (:mod:`mutators.execution.worker`, a payload's ``trace``); the
line numbers come back as data and are judged here."""

from __future__ import annotations

import ast

from mutators import batched_calls

SLOWER = 10  # tracing every line makes a Python program several times slower
SCRIPT_FILENAME = "<program>"  # what the worker compiles a stdin script as


def statements(code: str) -> set[int]:
    """The line each statement of ``code`` starts on."""
    return {node.lineno for node in ast.walk(ast.parse(code)) if isinstance(node, ast.stmt)}


def calls_task(source: str, expressions: list[str], seconds: float) -> dict:
    """A traced sandbox task making each call of ``source`` (the program after its preamble)."""
    return batched_calls.task([(source, expression) for expression in expressions], seconds * SLOWER, traced=True)


def scripts_task(source: str, stdins: list[str], seconds: float) -> dict:
    """A traced sandbox task running the script ``source`` on each of ``stdins``."""
    seconds *= SLOWER
    return {"kind": "run_scripts", "payload": {"source": source, "stdins": stdins, "seconds": seconds, "every": True,
                                               "trace": SCRIPT_FILENAME},
            "limits": {"wall_seconds": len(stdins) * (seconds + 3) + 5, "cpu_seconds": int(seconds) + 2, "nproc": 64}}


def unexecuted(code: str, source: str, runs: list | None, clean: str) -> int | None:
    """How many statements of ``code`` (the end of ``source``, which ran) no run of a traced task's
    ``runs`` reached; None unless every run finished with outcome ``clean`` and reported its lines."""
    if not runs or not source.endswith(code):
        return None
    shift = source[: len(source) - len(code)].count("\n")
    reached = set()
    for run in runs:
        lines = run.get("lines") if isinstance(run, dict) and run.get("outcome") == clean else None
        if not isinstance(lines, list):
            return None
        reached.update(line - shift for line in lines if isinstance(line, int))
    return len(statements(code) - reached)
