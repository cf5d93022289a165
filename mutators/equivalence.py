"""Equivalence check: run original and mutant on the benchmark's inputs, in the sandbox, and compare.

Function programs (CRUXEval, TransCoder) are called in one sandboxed child per program on every
given input plus perturbed extra inputs (:mod:`mutators.perturb`): the original once for all the
mutants checked together (one per chain of a group), then each mutant, every one from a fresh
namespace; return value (``==`` and type), printed text and exception type must agree. Extra
inputs on which the original fails or runs past its step budget are dropped, and that budget is small:
a perturbed input that does not finish quickly is one that blew the program up, and waiting out a long
limit was most of a cold build. Their lines are counted (:mod:`mutators.execution.worker`), so every
machine drops the same ones. Stdin programs (Avatar, CodeNet) run once per test as ``__main__``,
original (once for all its mutants) and mutant in separate children; exit and stdout must agree. Their
lines are counted too: a test on which the original runs more than ``script_steps`` lines is not checked
(a few Avatar programs run tens of millions on some tests, and checking every chain's mutant there was
most of a cold build), and a mutant may run ``_MUTANT_SLOWER`` times the original's lines on a test. A
disagreement rejects the mutant, with the input that showed it in the reason. The benchmark's own
function calls have CPU time limits far above what their programs need; where one stops a run the
check says so (:mod:`mutators.runaway`). Mutation is correct by construction; this is the safety net.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from mutators import runaway
from mutators.engine import MutationResult, rename_keywords
from mutators.execution import Sandbox
from mutators.execution.limits import COUNTED_SLOWER, preloaded, shares_a_process, wall_seconds
from mutators.perturb import perturbed_inputs, render_arguments
from mutators.programs import MUTATED, REJECTED, CallTests, StdinTests, Tests


@dataclass
class CheckSettings:
    # CPU seconds per given call (a counted script run: COUNTED_SLOWER times as long); the mutant gets thrice that
    seconds: float = 2.0
    seed: int = 0
    # Lines a perturbed extra call of the original may run (the mutant three times as many): the longest
    # published CRUXEval call runs 625.
    extra_steps: int = 200_000
    extra_seconds: float = 0.025  # CPU seconds per extra call, uncounted (counted: COUNTED_SLOWER times as long)
    # Lines the original may run on one stdin test: 90% of Avatar's tests run under 21,000 and CodeNet's
    # heaviest 44,014; Avatar's heaviest run over 20 million (its tests past this are not checked; checking
    # every chain's mutant on them was most of a cold build's work).
    script_steps: int = 200_000

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


_MUTANT_SLOWER = 10  # times the original's lines on a test a mutant may run there (For2While's loop runs 2 to 3)
_MUTANT_SLACK = 100  # lines more, for the few statements a mutant adds where its original runs almost none


def _scripts_task(source: str, stdins: list[str], seconds: float, steps: list[int]) -> dict:
    """Counted runs of a stdin program, one per stdin (each in a process of its own, with its step budget in
    ``steps``); ``seconds`` (uncounted, COUNTED_SLOWER times as long) stops runaways."""
    seconds *= COUNTED_SLOWER
    return {
        "kind": "run_scripts",
        "payload": {"source": source, "stdins": stdins, "seconds": seconds, "steps": steps, "every": True,
                    "preload": preloaded(source), "shared": shares_a_process(source),
                    "run_wall_seconds": wall_seconds(seconds)},
        "limits": {"wall_seconds": len(stdins) * wall_seconds(seconds), "cpu_seconds": int(seconds) + 2, "nproc": 64},
    }


def _each_run(outcome: dict, count: int) -> list[dict]:
    """A ``run_scripts`` outcome as one outcome per run, as a task of its own would have given it: a run
    that reported nothing ``timeout`` or ``died``; each run of a task that did not finish, the task's status."""
    result = outcome.get("result") if outcome.get("status") == "ok" else None
    runs = result.get("results") if isinstance(result, dict) else None
    if not isinstance(runs, list) or len(runs) != count:
        return [{"status": outcome.get("status") if outcome.get("status") != "ok" else "error"} for _ in range(count)]
    return [{"status": str(run["ended"])} if isinstance(run, dict) and "ended" in run
            else {"status": "ok", "result": run} for run in runs]


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


def _script_run(outcome: dict) -> dict:
    """What a finished script run reported (empty for one that did not finish or reported garbage)."""
    result = outcome.get("result") if outcome.get("status") == "ok" else None
    return result if isinstance(result, dict) else {}


def _script_outcome(outcome: dict) -> str:
    if outcome.get("status") == "ok":
        return str(_script_run(outcome).get("outcome", "error"))
    return str(outcome.get("status", "error"))


def _mutant_steps(original: dict, settings: CheckSettings) -> int:
    """A mutant's step budget on a test: ``_MUTANT_SLOWER`` times what its original counted there, or
    times the original's own budget where its run counted nothing (it died, say)."""
    steps = _script_run(original).get("steps")
    counted = steps if type(steps) is int else settings.script_steps
    return _MUTANT_SLOWER * counted + _MUTANT_SLACK


def _judge_scripts(result: MutationResult, tests: StdinTests, checked: list[int], original_runs, mutant_runs) -> None:
    """Judge a script mutant on the tests at ``checked`` (those its original ran within budget)."""
    expected = tests.expected if tests.expected is not None else [None] * len(tests.inputs)
    for index, original, mutant in zip(checked, original_runs, mutant_runs, strict=True):
        stdin, wanted = tests.inputs[index], expected[index]
        before, after = _script_outcome(original), _script_outcome(mutant)
        printed_before, printed_after = _script_run(original).get("stdout"), _script_run(mutant).get("stdout")
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
    stdins: dict[tuple[str, str], list[str]] = {}  # each original's tests, run once for all its mutants
    for code, _, tests in scripts:
        wanted = stdins.setdefault((code, tests.script(code)), [])
        wanted += [stdin for stdin in dict.fromkeys(tests.inputs) if stdin not in wanted]
    for (_, script), wanted in stdins.items():
        tasks.append(_scripts_task(script, wanted, settings.seconds, [settings.script_steps] * len(wanted)))
    before = runaway.stopped()
    outcomes = sandbox.run(tasks, progress=progress)
    original_runs = {}
    for ((code, _), wanted), outcome in zip(stdins.items(), outcomes[len(programs):], strict=True):
        original_runs.update(((code, stdin), run) for stdin, run in zip(wanted, _each_run(outcome, len(wanted)),
                                                                         strict=True))
    runaway.note(original_runs.values())  # the scripts' runs; the programs' as they are judged
    _judge_programs(programs, outcomes, sandbox, settings)
    originals = [original_runs[code, stdin] for code, _, tests in scripts for stdin in tests.inputs]
    _check_scripts(scripts, originals, sandbox, settings, progress)
    for result, checked in twins:
        result.status, result.reason = checked.status, checked.reason
        result.checked_inputs, result.verified_inputs = checked.checked_inputs, checked.verified_inputs
    runaway.report("the equivalence check", before)


def _check_scripts(scripts, original_runs: list[dict], sandbox: Sandbox, settings: CheckSettings,
                   progress: Callable[[int], None] | None) -> None:
    """Run each script mutant on the tests its original finished within ``script_steps`` (``original_runs``:
    every script's tests in turn), with ``_MUTANT_SLOWER`` times the original's lines there, and judge it."""
    runs = iter(original_runs)
    plans, tasks = [], []
    for _, result, tests in scripts:
        originals = [next(runs) for _ in tests.inputs]
        checked = [index for index, run in enumerate(originals)
                   if _script_outcome(run) not in ("timeout", "over_budget")]
        checked_originals = [originals[index] for index in checked]
        plans.append((result, tests, checked, checked_originals, len(tasks) if checked else None))
        if checked:
            budgets = [_mutant_steps(run, settings) for run in checked_originals]
            tasks.append(_scripts_task(tests.script(result.code), [tests.inputs[index] for index in checked],
                                       3 * settings.seconds, budgets))
    outcomes = sandbox.run(tasks, progress=progress) if tasks else []
    for result, tests, checked, originals, task in plans:
        runs = [] if task is None else _each_run(outcomes[task], len(checked))
        runaway.note(runs)
        _judge_scripts(result, tests, checked, originals, runs)


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
