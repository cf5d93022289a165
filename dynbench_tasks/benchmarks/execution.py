"""Scoring by execution: what each sample asks the sandbox to compute, and the verdict on it.

The sandboxed child runs the answer (after the shown program, where there is one) and hands back
plain data only (:mod:`mutators.execution.plain`); the comparison with the reference happens here,
on values this process built itself, and the reference never enters the child. Whatever the answer
does, the sample gets a status and the run goes on; the only detail that reaches the logs is ours
(a built-in exception's name at most).
"""

from __future__ import annotations

import json
import logging
import operator
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

logger = logging.getLogger("lm_eval.dynbench")

PASSED, WRONG, ERROR, TIMEOUT = "passed", "wrong", "error", "timeout"
_LINKS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
          ">=": operator.ge, "is": operator.is_, "is not": operator.is_not,
          "in": lambda a, b: a in b, "not in": lambda a, b: a not in b}


@dataclass
class Check:
    """One sample: the answer as logged, and what to run for it (nothing when ``status`` is set)."""

    answer: str
    status: str = ""  # a verdict reached without running anything (empty, unparseable, ...)
    program: str | None = None  # run first; the expressions see its names
    expressions: list[str] = field(default_factory=list)  # evaluated in order; values come back
    links: list[str] = field(default_factory=list)  # comparison chain after "reference ==" (see verdict)


def chain_holds(reference: Any, values: Sequence[Any], links: Sequence[str]) -> bool:
    """``reference == values[0]``, then ``values[i - 1] <link i> values[i]``: the assertion
    ``assert <call> == v0 <link 1> v1 …`` as Python reads it, with the call's value known."""
    if not values or reference != values[0]:
        return False
    return all(_LINKS[link](left, right) for link, left, right in zip(links, values, values[1:], strict=False))


def verdict(check: Check, outcome: dict, reference: Any) -> tuple[str, str]:
    """(status, detail) of one checked sample; ``outcome`` is the sandbox's answer, as untrusted data."""
    from mutators.execution.plain import PlainDataError, decode_all, exception_name

    status = outcome.get("status") if isinstance(outcome, dict) else None
    if status == "timeout":
        return TIMEOUT, ""
    result = outcome.get("result") if status == "ok" else None
    if not isinstance(result, dict):
        return ERROR, "sandbox"
    kind = result.get("outcome")
    if kind in ("timeout", "program_timeout"):
        return TIMEOUT, ""
    if kind in ("raise", "program_raise"):
        return ERROR, exception_name(result.get("exception"))
    if kind == "not_plain":
        return (WRONG, "not plain data") if result.get("why") == "not plain data" else (ERROR, "value too large")
    values = result.get("values")
    if kind != "values" or not isinstance(values, list) or len(values) != len(check.expressions):
        return ERROR, "sandbox"
    try:
        decoded = decode_all(values)
    except (PlainDataError, RecursionError, MemoryError, ValueError):
        return ERROR, "undecodable"
    try:
        return (PASSED if chain_holds(reference, decoded, check.links) else WRONG), ""
    except Exception:  # noqa: BLE001 - e.g. [] < 1: Python's own assertion would raise too
        return ERROR, "comparison"


def sandbox_task(check: Check, seconds: float) -> dict:
    """The sandbox task for one check: everything it runs shares ``seconds`` (the program, if any,
    gets as long again)."""
    payload = {"program": check.program, "expressions": check.expressions, "seconds": seconds}
    budget = seconds * (2 if check.program is not None else 1)
    return {"kind": "evaluate", "payload": payload,
            "limits": {"wall_seconds": budget + 5, "cpu_seconds": int(budget) + 1, "memory_mb": 1024}}


def sanitized(text: str) -> str:
    """``text`` as UTF-8 can carry it (a lone surrogate would stop lm-eval from writing its logs)."""
    return text.encode("utf-8", "replace").decode("utf-8")


def score_checks(checks: list[list[Check]], references: list[Any], seconds: float, label: str,
                 others: list[dict[str, Any]] | None = None) -> list[list[str]]:
    """Every sample of every document, run in the sandbox in one batch and judged here. Each sample
    becomes a JSON object (answer, status, detail), which lm-eval keeps in the logged samples.
    ``others``: per document, answers that are not the reference by name (the published answer
    ``stale``, its control ``decoy``): each sample says, under that name, whether it wrote that one."""
    from tqdm import tqdm

    from dynbench_tasks.runtime import shared_sandbox

    where, tasks = [], []
    for doc_index, row in enumerate(checks):
        for sample_index, check in enumerate(row):
            if not check.status:
                where.append((doc_index, sample_index))
                tasks.append(sandbox_task(check, seconds))
    outcomes: list[dict] = []
    if tasks:
        with tqdm(total=len(tasks), desc=f"{label}: scoring", unit="check", disable=None, file=sys.stderr) as bar:
            outcomes = shared_sandbox().run(tasks, progress=bar.update)
    details: dict[tuple[int, int], tuple[str, str]] = {}
    wrote: dict[tuple[int, int], dict[str, bool]] = {}
    for position, outcome in zip(where, outcomes, strict=True):
        check = checks[position[0]][position[1]]
        try:
            details[position] = verdict(check, outcome, references[position[0]])
            if details[position][0] == WRONG and others:
                wrote[position] = {name: verdict(check, outcome, value)[0] == PASSED
                                   for name, value in others[position[0]].items()}
        except Exception:
            logger.exception("%s: a sample could not be judged; it counts as an error", label)
            details[position] = (ERROR, "judge")
    scored = []
    for doc_index, row in enumerate(checks):
        samples = []
        for sample_index, check in enumerate(row):
            status, detail = details.get((doc_index, sample_index), (check.status, ""))
            sample = {"answer": sanitized(check.answer), "status": status}
            if detail:
                sample["detail"] = detail
            for name in others[doc_index] if others else ():
                sample[name] = wrote.get((doc_index, sample_index), {}).get(name, False)
            samples.append(json.dumps(sample, ensure_ascii=False))
        scored.append(samples)
    return scored
