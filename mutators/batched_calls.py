"""Calls of many programs in one sandbox child. A child costs milliseconds to start and tear down (a
fork of the worker, its limits, its exec filter), far more than a call of a benchmark program, and
choosing new inputs and outputs makes thousands of calls: so programs share children here. Each
call defines its program afresh in a namespace of its own, seeds the random module and is timed and
its steps counted on its own (the definition's among them), as a child of its own would run it. A
child that does not finish (a call crashed it, or ran it out of memory) tells nothing of its other
calls: the caller runs them again apart. A program
that could change what the programs after it see (it imports a module, or reaches a dunder name and
so builtins) gets a child of its own."""

from __future__ import annotations

from mutators.execution.limits import wall_seconds

PROGRAMS_PER_CHILD = 16
PROGRAM_FILENAME = "<benchmark>"  # what each program is compiled as: a traced task reports its lines

_DEFINE_AND_CALL = f"""
import random as _dynbench_random
def _dynbench_call(program, expression):
    namespace = {{"__name__": "__dynbench_program__", "__builtins__": __builtins__}}
    exec(compile(program, {PROGRAM_FILENAME!r}, "exec"), namespace)
    _dynbench_random.seed(0)
    return eval(expression, namespace)
"""


def shareable(code: str) -> bool:
    """Whether a program may share a child with others (see the module's docstring)."""
    return "import" not in code and "__" not in code


def children(items: list) -> list[list]:
    """``items`` (programs, or whatever stands for them) cut into the groups that share a child."""
    return [items[start : start + PROGRAMS_PER_CHILD] for start in range(0, len(items), PROGRAMS_PER_CHILD)]


def task(calls: list[tuple[str, str]], seconds: float, steps: int | None, traced: bool = False) -> dict:
    """One child making every (program, expression) call, each with ``seconds`` of CPU time and its
    executed lines counted, at most ``steps`` of them (None: no budget; :mod:`mutators.execution.worker`);
    ``traced``: each call's result also holds the lines of its program it ran."""
    expressions = [f"_dynbench_call({program!r}, {expression!r})" for program, expression in calls]
    budget = len(expressions) * 2 * seconds
    return {"kind": "evaluate_each",
            "payload": {"program": _DEFINE_AND_CALL, "expressions": expressions, "seconds": seconds, "clock": "cpu",
                        "filename": PROGRAM_FILENAME, "steps": steps, "trace": traced},
            "limits": {"wall_seconds": wall_seconds(budget), "cpu_seconds": int(budget) + 1, "memory_mb": 1024}}


def results(outcome: dict, count: int) -> list | None:
    """Each call's result in a child's outcome (as ``evaluate`` gives one), None if the child did not
    finish all ``count`` calls."""
    result = outcome.get("result") if outcome.get("status") == "ok" else None
    runs = result.get("results") if isinstance(result, dict) else None
    return runs if isinstance(runs, list) and len(runs) == count else None
