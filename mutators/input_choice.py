"""Choosing NewInput's new inputs: candidates run on the original program in the sandbox, judged
here by the rules of :mod:`mutators.newinput`."""

from __future__ import annotations

import ast
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from mutators.engine import MutationResult, rename_keywords
from mutators.execution.plain import PlainDataError, decode
from mutators.newinput import NewInput
from mutators.perturb import perturbed_inputs, render_arguments
from mutators.programs import MUTATED, UNCHANGED, CallTests

NOT_LITERAL, FAILS, NONDETERMINISTIC, NOT_A_LITERAL_OUTPUT, SAME_OUTPUT, TOO_LARGE = (
    "the input is not made of literals", "the program fails on it", "its output depends on the hash seed",
    "its output is no literal", "it gives the same output", "it is too large")


@dataclass(frozen=True)
class InputRules:
    candidates: int = 20
    seconds: float = 0.5  # a candidate slower than this is no input to reason about by hand


def _candidates(tests: CallTests, seed: int, code: str, count: int) -> list[str]:
    rng = random.Random(f"{seed}\x00newinput\x00{code}")
    return [render_arguments(args, kwargs) for args, kwargs in perturbed_inputs(tests.arguments[:1], rng, count)]


def _call(tests: CallTests, arguments: str) -> str:
    return f"(lambda value: (value, repr(value)))({tests.function}({arguments}))"


def _task(code: str, tests: CallTests, candidates: Sequence[str], seconds: float) -> dict:
    """One child that runs the program afresh for each candidate and calls it on that candidate."""
    return {"kind": "evaluate_each",
            "payload": {"program": tests.preamble + "\n" + code, "expressions": [_call(tests, c) for c in candidates],
                        "seconds": seconds},
            "limits": {"wall_seconds": len(candidates) * 2 * seconds + 5,
                       "cpu_seconds": int(len(candidates) * 2 * seconds) + 1, "memory_mb": 1024}}


def _each(sandbox, jobs: list[tuple[_Search, list[str]]], seconds: float) -> list[list[dict]]:
    """For each (search, candidates) job, one outcome per candidate, as a child running that candidate
    alone would report it. A child that did not finish its batch (one candidate crashed it, or ran it
    out of time or memory) has its candidates run again one per child, so no candidate is judged by
    what another one did."""
    outcomes = sandbox.run([_task(s.code, s.tests, candidates, seconds) for s, candidates in jobs])
    retry = [(index, s, candidate) for index, ((s, candidates), outcome) in enumerate(zip(jobs, outcomes, strict=True))
             if not _finished(outcome, len(candidates)) for candidate in candidates]
    alone = sandbox.run([_task(s.code, s.tests, [candidate], seconds) for _, s, candidate in retry])
    per_candidate = [_split(outcome) if _finished(outcome, len(candidates)) else []
                     for (_, candidates), outcome in zip(jobs, outcomes, strict=True)]
    for (index, _, _), outcome in zip(retry, alone, strict=True):
        per_candidate[index].append(_split(outcome)[0] if _finished(outcome, 1) else outcome)
    return per_candidate


def _finished(outcome: dict, count: int) -> bool:
    result = outcome.get("result") if outcome.get("status") == "ok" else None
    return isinstance(result, dict) and isinstance(result.get("results"), list) and len(result["results"]) == count


def _split(outcome: dict) -> list[dict]:
    return [{"status": "ok", "result": result} for result in outcome["result"]["results"]]


def _value(outcome: dict):
    """(value, repr) of a candidate's run; else the rule it breaks (it failed, or its value is not
    plain data and so no literal)."""
    result = outcome.get("result") if outcome.get("status") == "ok" else None
    if isinstance(result, dict) and result.get("outcome") == "not_plain":
        return NOT_A_LITERAL_OUTPUT
    if not isinstance(result, dict) or result.get("outcome") != "values":
        return FAILS
    try:
        value, text = decode(result["values"][0])
    except (PlainDataError, TypeError, ValueError, KeyError, IndexError, RecursionError):
        return FAILS
    return (value, text) if isinstance(text, str) else FAILS


def _judge(candidate: str, ran, original_input: str, original_output) -> str | None:
    """None if a candidate's first run qualifies it (the second hash seed is asked only then), else
    the rule it breaks."""
    if isinstance(ran, str):
        return ran
    value, text = ran
    try:
        literal = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return NOT_A_LITERAL_OUTPUT
    if type(literal) is not type(value) or literal != value:
        return NOT_A_LITERAL_OUTPUT
    if type(literal) is type(original_output) and literal == original_output:
        return SAME_OUTPUT
    if len(candidate) > 2 * len(original_input) + 20 or len(text) > 2 * len(repr(original_output)) + 20:
        return TOO_LARGE
    return None


@dataclass
class _Search:
    """One program's search: its candidates in the seed's order, how far it got, what it found."""

    code: str
    tests: CallTests
    original_output: object
    candidates: list[str]
    tried: int = 0
    chosen: tuple[str, str] | None = None  # (input, output repr)
    broken: Counter = field(default_factory=Counter)


_ROUNDS = (2, 6)  # candidates tried per round before the rest: most programs settle in the first
_chosen: dict[tuple, tuple[str, str] | str] = {}  # (seed, code, input, rules) -> (input, output) or why not


def _search(searches: list[_Search], sandboxes, rules: InputRules) -> None:
    """Try candidates in rounds; a candidate that qualifies on the first hash seed is run again on the
    second, and chosen only if it gives the same output there."""
    first, second = sandboxes
    pending = list(searches)
    for size in (*_ROUNDS, rules.candidates):
        jobs = [(search, search.candidates[search.tried : search.tried + size]) for search in pending]
        jobs = [job for job in jobs if job[1]]
        if not jobs:
            break
        hopefuls = []
        for (search, candidates), outcomes in zip(jobs, _each(first, jobs, rules.seconds), strict=True):
            for candidate, outcome in zip(candidates, outcomes, strict=True):
                search.tried += 1
                ran = _value(outcome)
                rule = _judge(candidate, ran, search.tests.arguments[0], search.original_output)
                if rule is None:
                    hopefuls.append((search, candidate, ran[1]))
                    break
                search.broken[rule] += 1
        again = _each(second, [(search, [candidate]) for search, candidate, _ in hopefuls], rules.seconds)
        for (search, candidate, text), (outcome,) in zip(hopefuls, again, strict=True):
            repeated = _value(outcome)
            if not isinstance(repeated, str) and repeated[1] == text:
                search.chosen = (candidate, text)
            else:
                search.broken[NONDETERMINISTIC] += 1
        pending = [s for s in pending if s.chosen is None and s.tried < len(s.candidates)]


def choose_new_inputs(items: Sequence[tuple[str, MutationResult, CallTests, str]], seed: int, sandboxes,
                      rules: InputRules | None = None) -> None:
    """For every ``(original code, result, tests, original output)`` whose chain has NewInput, pick the
    new input and set it (as shown, and as the original program spells it) and its output on the
    result. ``sandboxes``: two sandboxes with different fixed hash seeds. A choice depends only on the
    seed, the program and its input, so it is made once per process (the same for every chain)."""
    rules = rules or InputRules()
    wanted, searches = [], {}
    for code, result, tests, output in items:
        if NewInput.letter not in result.chain.split("+") or result.status not in (MUTATED, UNCHANGED):
            continue
        key = (seed, code, tests.arguments[0] if tests.arguments else None, rules)
        wanted.append((key, code, result, tests))
        if key in _chosen or key in searches:
            continue
        try:
            original_output = ast.literal_eval(output)
        except (ValueError, SyntaxError):
            original_output = object()  # equal to no output
        candidates = _candidates(tests, seed, code, rules.candidates) if tests.arguments else []
        searches[key] = _Search(code, tests, original_output, candidates)
    _search(list(searches.values()), sandboxes, rules)
    for key, search in searches.items():
        broken = search.broken.most_common(1)[0][0] if search.broken else NOT_LITERAL
        _chosen[key] = search.chosen or broken
    for key, code, result, tests in wanted:
        step = next(s for s in result.steps if s.operator == NewInput.name)
        chosen = _chosen[key]
        if isinstance(chosen, str):
            result.reason = (result.reason + "; " if result.reason else "") + f"newinput: no new input ({chosen})"
            continue
        result.new_input, result.expected_output = chosen
        result.call_arguments = rename_keywords(tests.function, result.new_input, result.keyword_renames)
        step.changed, step.sites = True, 1
        if result.status == UNCHANGED:
            result.code, result.status, result.reason = code, MUTATED, ""
