"""Equivalence check: run original and mutant on the benchmark's inputs, in the sandbox, and compare.

Function programs (CRUXEval, TransCoder) are called in one sandboxed child per program on every
given input plus perturbed extra inputs (:mod:`mutators.perturb`): the original once for all the
mutants checked together (one per chain of a group), then each mutant, every one from a fresh
namespace; return value (``==`` and type), printed text and exception type must agree. Extra
inputs on which the original fails or runs past its step budget are dropped, and that budget is small:
a perturbed input that does not finish quickly is one that blew the program up, and waiting out a long
limit was most of a cold build. Their lines are counted (:mod:`mutators.execution.worker`), so every
machine drops the same ones. Stdin programs (Avatar, CodeNet) run once per test as ``__main__``,
original (once for all its mutants) and mutant in separate children; exit and stdout must agree. A
disagreement rejects the mutant, with the input that showed it in the reason. The benchmark's own
inputs have CPU time limits far above what their programs need; where one stops a run the check says
so (:mod:`mutators.runaway`). Mutation is correct by construction; this is the safety net.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from mutators import runaway
from mutators.engine import MutationResult, rename_keywords
from mutators.execution import Sandbox
from mutators.execution.limits import COUNTED_SLOWER, wall_seconds
from mutators.perturb import perturbed_inputs, render_arguments
from mutators.programs import MUTATED, REJECTED, CallTests, StdinTests, Tests


@dataclass
class CheckSettings:
    seconds: float = 2.0  # CPU seconds per given call or per script run; the mutant gets three times as long
    seed: int = 0
    # Lines a perturbed extra call of the original may run (the mutant three times as many): the longest
    # published CRUXEval call runs 625.
    extra_steps: int = 200_000
    extra_seconds: float = 0.025  # CPU seconds per extra call, uncounted (counted: COUNTED_SLOWER times as long)

    @property
    def extra_budget(self) -> float:
        return min(COUNTED_SLOWER * self.extra_seconds, self.seconds)


def _extra_inputs(tests: CallTests, settings: CheckSettings, code: str) -> list[tuple[tuple, dict]]:
    """The perturbed extra inputs of a program, the same for every one of its mutants."""
    rng = random.Random(f"{settings.seed}\x00perturb\x00{code}")
    return list(perturbed_inputs(tests.arguments, rng, tests.extra_inputs))


def _call_inputs(result: MutationResult, tests: CallTests, extras) -> list[tuple[str, str, bool]]:
    """(original text, mutant text, is_given) for every input to try: the benchmark's own, the extra
    ones, and last the one NewInput chose, so that the inputs of a chain without NewInput are a prefix
    of them and the original runs once for both; the mutant's spelling follows its renamed keywords."""
    renames = result.keyword_renames
    inputs = [(text, rename_keywords(tests.function, text, renames), True) for text in tests.arguments]
    for args, kwargs in extras:
        renamed_kwargs = {renames.get(k, k): v for k, v in kwargs.items()}
        inputs.append((render_arguments(args, kwargs), render_arguments(args, renamed_kwargs), False))
    if result.new_input:
        inputs.append((result.new_input, rename_keywords(tests.function, result.new_input, renames), True))
    return inputs


def _compare_task(plan: _ProgramPlan, mutants: list[_Mutant], settings: CheckSettings) -> dict:
    """One sandbox task comparing ``mutants`` (all of ``plan``'s program) with the original."""
    numbers: dict[tuple, int] = {}  # each distinct sequence of inputs, numbered in order of first use
    for mutant in mutants:
        numbers.setdefault(mutant.sequence, len(numbers))
    sequences = [[[text, settings.seconds, None] if given else [text, settings.extra_budget, settings.extra_steps]
                  for text, given in sequence] for sequence in numbers]
    seconds = [settings.seconds + sum(s for _, s, _ in sequence) for sequence in sequences]
    budget = sum(seconds) + sum(seconds[numbers[m.sequence]] * 3 for m in mutants) + 5
    return {
        "kind": "compare_calls",
        "payload": {
            "preamble": plan.tests.preamble,
            "original": plan.code,
            "function": plan.tests.function,
            "sequences": sequences,  # the inputs in the original's spelling, with the original's seconds and steps
            "mutants": [{"source": m.result.code, "sequence": numbers[m.sequence],
                         "inputs": [spelled for _, spelled, _ in m.inputs]} for m in mutants],
            "seconds": settings.seconds,
        },
        "limits": {"wall_seconds": wall_seconds(budget), "cpu_seconds": int(budget) + 1},
    }


def _script_task(source: str, stdin: str, seconds: float) -> dict:
    return {
        "kind": "run_script",
        "payload": {"source": source, "stdin": stdin, "seconds": seconds},
        "limits": {"wall_seconds": wall_seconds(seconds), "cpu_seconds": int(seconds) + 2, "nproc": 64},
    }


def _reject(result: MutationResult, reason: str) -> None:
    result.status, result.reason = REJECTED, reason


def _reports(outcome: dict, count: int) -> list[dict] | None:
    """Each mutant's report from a compare task's outcome; None if the task did not finish them all."""
    result = outcome.get("result") if outcome.get("status") == "ok" else None
    reports = result.get("mutants") if isinstance(result, dict) else None
    return reports if isinstance(reports, list) and len(reports) == count else None


def _judge_calls(mutant: _Mutant, outcome: dict, report: dict | None) -> None:
    result, inputs = mutant.result, mutant.inputs
    if report is None:
        why = f"{outcome.get('status')} {outcome.get('error', '')}".strip()
        _reject(result, f"equivalence check could not finish: {why}")
        return
    if report["definition"] != "ok":
        _reject(result, report["definition"])
        return
    for (original_text, _, given), entry in zip(inputs, report["inputs"], strict=True):
        if entry["original"] in ("timeout", "over_budget") or (not given and entry["original"] != "return"):
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
class _Mutant:
    """One mutant of a function program: the inputs it is tried on (original's spelling, its own,
    whether the benchmark gave it) and, as a key, the sequence the original runs for them."""

    result: MutationResult
    inputs: list[tuple[str, str, bool]]

    @property
    def sequence(self) -> tuple[tuple[str, bool], ...]:
        return tuple((text, given) for text, _, given in self.inputs)


@dataclass
class _ProgramPlan:
    """The mutants of one function program, compared with it in one sandbox task at ``task``; the
    original runs each distinct sequence of inputs once for all of them."""

    code: str
    tests: CallTests
    extras: list[tuple[tuple, dict]]
    mutants: list[_Mutant] = field(default_factory=list)
    task: int = 0


@dataclass
class _ScriptPlan:
    """One mutant's stdin runs: the original's runs (shared by its mutants) at ``original``, the
    mutant's from ``task`` on."""

    result: MutationResult
    tests: StdinTests
    original: list[int]
    task: int


def _plan(items, settings: CheckSettings):
    """The function programs' plans and the script mutants to check; and, for every mutant that is
    the same text on the same inputs as one already planned (chains that share their text operators,
    such as FUV and FUVO), the result it takes its verdict from."""
    programs: dict[tuple[str, int], _ProgramPlan] = {}
    scripts: list[tuple[str, MutationResult, StdinTests]] = []
    planned: dict[tuple, MutationResult] = {}
    twins: list[tuple[MutationResult, MutationResult]] = []
    for code, result, tests in items:
        if result.status != MUTATED:
            continue
        if isinstance(tests, CallTests):
            key = (code, id(tests))
            if key not in programs:
                programs[key] = _ProgramPlan(code, tests, _extra_inputs(tests, settings, code))
            plan = programs[key]
            mutant = _Mutant(result, _call_inputs(result, tests, plan.extras))
            identity = (key, result.code, tuple(mutant.inputs))
        else:
            identity = (code, id(tests), result.code)
        if identity in planned:
            twins.append((result, planned[identity]))
            continue
        planned[identity] = result
        if isinstance(tests, CallTests):
            plan.mutants.append(mutant)
        else:
            scripts.append((code, result, tests))
    return list(programs.values()), scripts, twins


def check_equivalence(
    items: Sequence[tuple[str, MutationResult, Tests]],
    sandbox: Sandbox,
    settings: CheckSettings | None = None,
    progress: Callable[[int], None] | None = None,
) -> None:
    """Check every mutated ``(original code, result, tests)``; reject in place those that differ.
    Items may hold several mutants of one program (one per chain): they are checked together."""
    settings = settings or CheckSettings()
    programs, scripts, twins = _plan(items, settings)
    tasks: list[dict] = []
    for plan in programs:
        plan.task = len(tasks)
        tasks.append(_compare_task(plan, plan.mutants, settings))
    original_runs: dict[tuple[str, str], int] = {}
    script_plans = []
    for code, result, tests in scripts:
        original = []
        for stdin in tests.inputs:
            if (code, stdin) not in original_runs:
                original_runs[code, stdin] = len(tasks)
                tasks.append(_script_task(tests.script(code), stdin, settings.seconds))
            original.append(original_runs[code, stdin])
        script_plans.append(_ScriptPlan(result, tests, original, len(tasks)))
        tasks.extend(_script_task(tests.script(result.code), stdin, settings.seconds * 3) for stdin in tests.inputs)
    before = runaway.stopped()
    outcomes = sandbox.run(tasks, progress=progress)
    runaway.note(outcomes[len(programs):])  # the scripts' runs; the programs' as they are judged
    _judge_programs(programs, outcomes, sandbox, settings)
    for plan in script_plans:
        count = len(plan.tests.inputs)
        _judge_scripts(plan.result, plan.tests, [outcomes[i] for i in plan.original],
                       outcomes[plan.task : plan.task + count])
    for result, checked in twins:
        result.status, result.reason = checked.status, checked.reason
        result.checked_inputs, result.verified_inputs = checked.checked_inputs, checked.verified_inputs
    runaway.report("the equivalence check", before)


def _judge_programs(programs: list[_ProgramPlan], outcomes: list[dict], sandbox: Sandbox,
                    settings: CheckSettings) -> None:
    """Judge each mutant on its program's task; where a task with several mutants did not finish
    (one of them crashed it, or ran it out of time), each of those mutants is checked again alone."""
    alone = []
    for plan in programs:
        outcome = outcomes[plan.task]
        reports = _reports(outcome, len(plan.mutants))
        if reports is None and len(plan.mutants) > 1:
            alone.extend((plan, mutant) for mutant in plan.mutants)
            continue
        runaway.note([outcome])
        for mutant, report in zip(plan.mutants, reports or [None] * len(plan.mutants), strict=True):
            _judge_calls(mutant, outcome, report)
    again = sandbox.run([_compare_task(plan, [mutant], settings) for plan, mutant in alone])
    runaway.note(again)
    for (_, mutant), outcome in zip(alone, again, strict=True):
        reports = _reports(outcome, 1)
        _judge_calls(mutant, outcome, reports[0] if reports else None)
