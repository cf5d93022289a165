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
    seconds: float = 2.0


def _candidates(tests: CallTests, seed: int, code: str, count: int) -> list[str]:
    rng = random.Random(f"{seed}\x00newinput\x00{code}")
    return [render_arguments(args, kwargs) for args, kwargs in perturbed_inputs(tests.arguments[:1], rng, count)]


def _task(code: str, tests: CallTests, arguments: str, seconds: float) -> dict:
    expression = f"(lambda value: (value, repr(value)))({tests.function}({arguments}))"
    return {"kind": "evaluate", "payload": {"program": tests.preamble + "\n" + code, "expressions": [expression],
                                             "seconds": seconds},
            "limits": {"wall_seconds": 2 * seconds + 5, "cpu_seconds": int(2 * seconds) + 1, "memory_mb": 1024}}


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
        batch = [(search, search.candidates[i]) for search in pending
                 for i in range(search.tried, min(search.tried + size, len(search.candidates)))]
        if not batch:
            break
        outcomes = first.run([_task(s.code, s.tests, candidate, rules.seconds) for s, candidate in batch])
        hopefuls = []
        for (search, candidate), outcome in zip(batch, outcomes, strict=True):
            if search.chosen is not None or any(h[0] is search for h in hopefuls):
                continue
            search.tried += 1
            ran = _value(outcome)
            rule = _judge(candidate, ran, search.tests.arguments[0], search.original_output)
            if rule is None:
                hopefuls.append((search, candidate, ran[1]))
            else:
                search.broken[rule] += 1
        again = second.run([_task(s.code, s.tests, candidate, rules.seconds) for s, candidate, _ in hopefuls])
        for (search, candidate, text), outcome in zip(hopefuls, again, strict=True):
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
