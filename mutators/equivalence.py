"""Equivalence check: run original and mutant on the benchmark's inputs, in the sandbox, and compare.

Function programs (CRUXEval, TransCoder) are called side by side in one sandboxed child on every
given input plus perturbed extra inputs (:mod:`mutators.perturb`); return value (``==`` and type),
printed text and exception type must agree. Extra inputs on which the original fails or times out
are dropped. Stdin programs (Avatar, CodeNet) run once per test as ``__main__``, original and mutant
in separate children; exit and stdout must agree. A disagreement rejects the mutant, with the input
that showed it in the reason. Mutation is correct by construction; this is the safety net.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mutators.engine import MutationResult, rename_keywords
from mutators.execution import Sandbox
from mutators.perturb import perturbed_inputs, render_arguments
from mutators.programs import MUTATED, REJECTED, CallTests, StdinTests, Tests


@dataclass
class CheckSettings:
    seconds: float = 2.0  # per call or per script run; the mutant gets three times as long
    seed: int = 0


def _call_inputs(result: MutationResult, tests: CallTests, settings: CheckSettings, code: str):
    """(original text, mutant text, is_given) for every input to try: the benchmark's own, the new
    one NewInput chose, and perturbed extra ones; the mutant's spelling follows its renamed keywords."""
    renames = result.keyword_renames
    given = [*tests.arguments, *([result.new_input] if result.new_input else [])]
    inputs = [(text, rename_keywords(tests.function, text, renames), True) for text in given]
    rng = random.Random(f"{settings.seed}\x00perturb\x00{code}")
    for args, kwargs in perturbed_inputs(tests.arguments, rng, tests.extra_inputs):
        renamed_kwargs = {renames.get(k, k): v for k, v in kwargs.items()}
        inputs.append((render_arguments(args, kwargs), render_arguments(args, renamed_kwargs), False))
    return inputs


def _compare_task(original: str, mutant: str, tests: CallTests, inputs, seconds: float) -> dict:
    budget = seconds * 4 * (len(inputs) + 1) + 5
    return {
        "kind": "compare_calls",
        "payload": {
            "preamble": tests.preamble,
            "original": original,
            "mutant": mutant,
            "function": tests.function,
            "inputs": [[o, m] for o, m, _ in inputs],
            "seconds": seconds,
        },
        "limits": {"wall_seconds": budget, "cpu_seconds": int(budget) + 1},
    }


def _script_task(source: str, stdin: str, seconds: float) -> dict:
    return {
        "kind": "run_script",
        "payload": {"source": source, "stdin": stdin, "seconds": seconds},
        "limits": {"wall_seconds": seconds + 5, "cpu_seconds": int(seconds) + 2, "nproc": 64},
    }


def _reject(result: MutationResult, reason: str) -> None:
    result.status, result.reason = REJECTED, reason


def _judge_calls(result: MutationResult, inputs, outcome: dict) -> None:
    if outcome.get("status") != "ok":
        why = f"{outcome.get('status')} {outcome.get('error', '')}".strip()
        _reject(result, f"equivalence check could not finish: {why}")
        return
    report = outcome["result"]
    if report["definition"] != "ok":
        _reject(result, report["definition"])
        return
    for (original_text, _, given), entry in zip(inputs, report["inputs"], strict=True):
        if entry["original"] == "timeout" or (not given and entry["original"] != "return"):
            continue  # an extra input the original cannot run cleanly tells us nothing
        if not entry["agree"]:
            _reject(result, f"differs on input ({original_text}): {entry['why']}")
            return
        result.checked_inputs += 1
        result.verified_inputs += entry["original"] == "return"  # a call that fails verifies nothing


def _script_outcome(outcome: dict) -> str:
    if outcome.get("status") == "ok":
        return outcome["result"]["outcome"]
    return outcome.get("status", "error")


def _judge_scripts(result: MutationResult, tests: StdinTests, original_runs, mutant_runs) -> None:
    expected = tests.expected if tests.expected is not None else [None] * len(tests.inputs)
    for stdin, wanted, original, mutant in zip(tests.inputs, expected, original_runs, mutant_runs, strict=True):
        before, after = _script_outcome(original), _script_outcome(mutant)
        if before == "timeout":
            continue
        printed_before = original.get("result", {}).get("stdout")
        printed_after = mutant.get("result", {}).get("stdout")
        if before != after or printed_before != printed_after:
            shown = stdin if len(stdin) <= 60 else stdin[:57] + "..."
            _reject(
                result,
                f"differs on stdin {shown!r}: original {before} printing {printed_before!r:.80}; "
                f"mutant {after} printing {printed_after!r:.80}",
            )
            return
        result.checked_inputs += 1
        # A run verifies the mutant only where the original itself passes the benchmark's test.
        result.verified_inputs += before == "exit:0" and (wanted is None or tests.matches(printed_before, wanted))


@dataclass
class _CallPlan:
    """One mutant's calls: the inputs tried, answered by the sandbox task at ``task``."""

    result: MutationResult
    inputs: list[tuple[str, str, bool]]
    task: int


@dataclass
class _ScriptPlan:
    """One mutant's stdin runs: the original's runs start at ``task``, the mutant's follow them."""

    result: MutationResult
    tests: StdinTests
    task: int


def check_equivalence(
    items: Sequence[tuple[str, MutationResult, Tests]],
    sandbox: Sandbox,
    settings: CheckSettings | None = None,
    progress: Callable[[int], None] | None = None,
) -> None:
    """Check every mutated ``(original code, result, tests)``; reject in place those that differ."""
    settings = settings or CheckSettings()
    tasks: list[dict] = []
    plans: list[_CallPlan | _ScriptPlan] = []
    for code, result, tests in items:
        if result.status != MUTATED:
            continue
        if isinstance(tests, CallTests):
            inputs = _call_inputs(result, tests, settings, code)
            plans.append(_CallPlan(result, inputs, len(tasks)))
            tasks.append(_compare_task(code, result.code, tests, inputs, settings.seconds))
        else:
            plans.append(_ScriptPlan(result, tests, len(tasks)))
            tasks.extend(_script_task(code, stdin, settings.seconds) for stdin in tests.inputs)
            tasks.extend(_script_task(result.code, stdin, settings.seconds * 3) for stdin in tests.inputs)
    outcomes = sandbox.run(tasks, progress=progress)
    for plan in plans:
        if isinstance(plan, _CallPlan):
            _judge_calls(plan.result, plan.inputs, outcomes[plan.task])
        else:
            count, start = len(plan.tests.inputs), plan.task
            _judge_scripts(plan.result, plan.tests, outcomes[start : start + count],
                           outcomes[start + count : start + 2 * count])
