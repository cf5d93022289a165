"""Choosing NewInput's new inputs: candidates run on the original program in the sandbox, judged
here by the rules of :mod:`mutators.newinput`. Every call's lines are counted, and one that runs more
than ``InputRules.steps`` fails, the same on every machine; its time limit only stops a runaway in C
(:mod:`mutators.runaway`)."""

from __future__ import annotations

import difflib
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from mutators import batched_calls, runaway, thread_safe_ast
from mutators.engine import MutationResult, rename_keywords
from mutators.execution.limits import COUNTED_SLOWER, wall_seconds
from mutators.execution.plain import PlainDataError, decode
from mutators.newinput import NewInput
from mutators.perturb import parse_arguments, perturbed_inputs, render_arguments, to_source
from mutators.programs import MUTATED, UNCHANGED, CallTests
from mutators.shown_guesses import among, copied, shown_guesses

NOT_LITERAL, FAILS, NONDETERMINISTIC, NOT_A_LITERAL_OUTPUT, SAME_OUTPUT, TOO_LARGE = (
    "the input is not made of literals", "the program fails on it", "its output depends on the hash seed",
    "its output is no literal", "it gives the same output", "it is too large")


@dataclass(frozen=True)
class InputRules:
    candidates: int = 20  # neighbours of the original input
    reshaped: int = 16  # then inputs grown, shrunk, reordered or taken from other problems
    # Lines a call may run, a candidate's or a decoy's: one that runs more is no input to reason about by
    # hand (the longest published call runs 625; a grown input may take several times as many), and one
    # that loops for ever costs this many.
    steps: int = 1_000_000
    # CPU seconds per call, uncounted (a counted call gets COUNTED_SLOWER times as long): a runaway stop. The
    # slowest CRUXEval candidate that ran within its budget took 20 ms counted (2 busy cores), 25 times less.
    seconds: float = 0.05

    @property
    def counted_seconds(self) -> float:
        return COUNTED_SLOWER * self.seconds


class Donors:
    """Argument values of the benchmark's problems, by type, shortest first: what an empty or
    unchangeable input of one problem can take from the others."""

    def __init__(self, argument_texts: Sequence[str]) -> None:
        by_type: dict[type, dict[str, object]] = {}
        for text in argument_texts:
            parsed = parse_arguments(text)
            for value in [*parsed[0], *parsed[1].values()] if parsed else []:
                by_type.setdefault(type(value), {}).setdefault(to_source(value), value)
        self.by_type = {kind: [values[source] for source in sorted(values, key=lambda s: (len(s), s))]
                        for kind, values in by_type.items()}
        self.key = tuple(sorted((kind.__name__, tuple(map(to_source, values)))
                                for kind, values in self.by_type.items()))

    def like(self, value, rng: random.Random, longest: int, count: int) -> list:
        """Up to ``count`` values of ``value``'s type from other problems, each no longer than
        ``longest`` characters."""
        fitting = [v for v in self.by_type.get(type(value), [])[:64] if v != value and len(to_source(v)) <= longest]
        return rng.sample(fitting, min(count, len(fitting)))


# What an empty collection grows into: one or two small elements of the commonest kinds.
_GROWN_FROM_EMPTY = {str: ["a", "ab", "1"], list: [[1], ["a"], [1, 2], [[1]]], tuple: [(1,), ("a",)],
                     dict: [{1: 1}, {"a": 1}, {"a": "a"}, {1: "a"}], set: [{1}, {"a"}], frozenset: [frozenset({1})]}


def _reshaped_values(value) -> list:
    """``value`` grown, shrunk and reordered (strings, lists, tuples, dicts and sets)."""
    if not value and type(value) in _GROWN_FROM_EMPTY:
        return list(_GROWN_FROM_EMPTY[type(value)])
    if isinstance(value, str):
        return [value + value[-1:], value[1:], value[::-1], value + value]
    if isinstance(value, (list, tuple)):
        items = list(value)
        made = [items[1:], items[:-1], items[::-1], items + items[-1:], sorted(items, key=to_source)]
        return [type(value)(m) for m in made]
    if isinstance(value, dict):
        keys = list(value)
        return [{k: value[k] for k in keys[1:]}, {k: value[k] for k in reversed(keys)}]
    if isinstance(value, (set, frozenset)):
        return [type(value)(sorted(value, key=to_source)[1:])]
    return []


_DONATED = 4  # values taken from other problems, per argument
_BORROWED = 3  # parts taken from the call's other arguments, per argument


def _from_the_others(value, others: list, rng: random.Random) -> list:
    """``value`` made to meet the call's other arguments: a string becomes one of their characters, a
    list gains one of their elements (a search for a character that is not there finds it then)."""
    if isinstance(value, str):
        pool = sorted({c for other in others if isinstance(other, str) for c in other} - set(value))
        return rng.sample(pool, min(_BORROWED, len(pool)))
    if isinstance(value, list):
        pool = sorted({to_source(item): item for other in others if isinstance(other, (list, tuple)) for item in other
                       if item not in value}.items())
        return [[*value, item] for _, item in rng.sample(pool, min(_BORROWED, len(pool)))]
    return []


def _reshaped(arguments: str, rng: random.Random, donors: Donors | None, count: int) -> list[str]:
    """Up to ``count`` inputs made by reshaping one argument of ``arguments`` or taking it from
    another problem (donors), in the seed's order."""
    parsed = parse_arguments(arguments)
    if parsed is None:
        return []
    args, kwargs = parsed
    slots = [("args", i, v) for i, v in enumerate(args)] + [("kwargs", k, v) for k, v in kwargs.items()]
    made: list[str] = []
    for where, key, value in slots:
        options = _reshaped_values(value) + _from_the_others(value, [v for _, k, v in slots if k != key], rng)
        if donors is not None:
            options += donors.like(value, rng, 2 * len(to_source(value)) + 20, _DONATED)
        for option in options:
            new_args, new_kwargs = list(args), dict(kwargs)
            (new_args if where == "args" else new_kwargs)[key] = option
            text = render_arguments(new_args, new_kwargs)
            if text != arguments and text not in made:
                made.append(text)
    rng.shuffle(made)
    return made[:count]


def _candidates(arguments: str, seed: int, code: str, rules: InputRules, donors: Donors | None) -> list[str]:
    """Neighbours of the original input first (the smallest changes), then reshaped and donated ones."""
    rng = random.Random(f"{seed}\x00newinput\x00{code}")
    near = [render_arguments(args, kwargs) for args, kwargs in perturbed_inputs([arguments], rng, rules.candidates)]
    far = _reshaped(arguments, rng, donors, rules.reshaped)
    return near + [text for text in far if text not in near]


def _as_literals(searches: list[_Search], sandbox, rules: InputRules) -> dict[int, str]:
    """For each search whose input is computed (``'ab'.upper()``, ``dict(a=1)``, a name of the program),
    the same input spelled as literals, where its values are plain data: the input it is evaluated
    to in the sandbox, among the program's names. By ``id`` of the search."""
    computed = [s for s in searches if parse_arguments(s.tests.arguments[0]) is None]
    seconds = rules.counted_seconds
    tasks = [{"kind": "evaluate", "payload": {"program": s.tests.preamble + "\n" + s.code, "seconds": seconds,
                                                "expressions": [f"(lambda *a, **k: (a, k))({s.tests.arguments[0]})"],
                                                "clock": "cpu", "steps": rules.steps},
              "limits": {"wall_seconds": wall_seconds(2 * seconds), "cpu_seconds": int(2 * seconds) + 1,
                         "memory_mb": 1024}} for s in computed]
    outcomes = sandbox.run(tasks) if tasks else []
    runaway.note(outcomes)
    spelled = {}
    for search, outcome in zip(computed, outcomes, strict=True):
        result = outcome.get("result") if outcome.get("status") == "ok" else None
        try:
            args, kwargs = decode(result["values"][0])
            text = render_arguments(list(args), kwargs)
        except (PlainDataError, TypeError, ValueError, KeyError, IndexError, RecursionError, AttributeError):
            continue
        if parse_arguments(text) is not None:
            spelled[id(search)] = text
    return spelled


def _call(tests: CallTests, arguments: str) -> str:
    return f"(lambda value: (value, repr(value)))({tests.function}({arguments}))"


def _task(code: str, tests: CallTests, candidates: Sequence[str], rules: InputRules) -> dict:
    """One child that runs the program afresh for each candidate and calls it on that candidate."""
    budget = len(candidates) * 2 * rules.counted_seconds
    return {"kind": "evaluate_each",
            "payload": {"program": tests.preamble + "\n" + code, "expressions": [_call(tests, c) for c in candidates],
                        "seconds": rules.counted_seconds, "clock": "cpu", "steps": rules.steps},
            "limits": {"wall_seconds": wall_seconds(budget), "cpu_seconds": int(budget) + 1, "memory_mb": 1024}}


def _each(sandbox, jobs: list[tuple[_Search, list[str]]], rules: InputRules) -> list[list[dict]]:
    """For each (search, candidates) job, one outcome per candidate, as a child running that candidate
    alone would report it. Jobs whose programs may share children do (:mod:`mutators.batched_calls`);
    the others, and those of a child that did not finish, run one job per child, and the candidates
    of a job whose child did not finish one per child, so no candidate is judged by what another did."""
    shared = [index for index, (search, _) in enumerate(jobs) if batched_calls.shareable(search.code)]
    packs = batched_calls.children(shared)
    tasks = [batched_calls.task([call for i in pack for call in _program_calls(*jobs[i])], rules.counted_seconds,
                                rules.steps) for pack in packs]
    per_candidate: list[list[dict] | None] = [None] * len(jobs)
    for pack, outcome in zip(packs, sandbox.run(tasks) if tasks else [], strict=True):
        runs = batched_calls.results(outcome, sum(len(jobs[i][1]) for i in pack))
        if runs is not None:
            runaway.note(runs)
            runs = iter(runs)
            for index in pack:
                per_candidate[index] = [{"status": "ok", "result": next(runs)} for _ in jobs[index][1]]
    again = [index for index, found in enumerate(per_candidate) if found is None]
    for index, found in zip(again, _each_apart(sandbox, [jobs[i] for i in again], rules) if again else [],
                            strict=True):
        per_candidate[index] = found
    return per_candidate


def _program_calls(search: _Search, candidates: list[str]) -> list[tuple[str, str]]:
    return [(search.tests.preamble + "\n" + search.code, _call(search.tests, candidate)) for candidate in candidates]


def _each_apart(sandbox, jobs: list[tuple[_Search, list[str]]], rules: InputRules) -> list[list[dict]]:
    """As :func:`_each`, a child for each job, and for each candidate of a job whose child did not finish."""
    outcomes = sandbox.run([_task(s.code, s.tests, candidates, rules) for s, candidates in jobs])
    retry = [(index, s, candidate) for index, ((s, candidates), outcome) in enumerate(zip(jobs, outcomes, strict=True))
             if not _finished(outcome, len(candidates)) for candidate in candidates]
    alone = sandbox.run([_task(s.code, s.tests, [candidate], rules) for _, s, candidate in retry])
    runaway.note([outcome for outcome, (_, candidates) in zip(outcomes, jobs, strict=True)
                  if _finished(outcome, len(candidates))] + alone)
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


def reads_back(value, text: str) -> bool:
    """Whether ``text`` (the ``repr`` of ``value``) is a literal that reads back equal and of the same type."""
    try:
        literal = thread_safe_ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return type(literal) is type(value) and literal == value


def same_literal(first: str, second: str) -> bool:
    """Whether two literals spell equal values of the same type."""
    try:
        a, b = thread_safe_ast.literal_eval(first), thread_safe_ast.literal_eval(second)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return first == second
    return type(a) is type(b) and a == b


ALIKE = 0.8  # an answer whose text is at least this much alike the published one (difflib's ratio) is a patch of it


def likeness(text: str, published: str) -> float:
    """How alike an answer's text is the published answer's, from 0 to 1 (difflib's ratio)."""
    return difflib.SequenceMatcher(None, text, published, autojunk=False).ratio()


def guess_likeness(arguments: str, value, text: str, published: str) -> float | None:
    """None if an answer could not be had without working the program out; else its :func:`likeness`
    to the published answer (the least alike is the least a memoriser gains from). It could be had
    if it is one of the call's arguments (copied from the call), or a patch of the published answer
    (``text`` at least :data:`ALIKE` alike ``published``): a model that remembers the published
    answer and sees how the input changed can make that edit to it."""
    alike = likeness(text, published)
    return alike if copied(arguments, value) or alike >= ALIKE else None


def guessable(arguments: str, value, text: str, published: str) -> bool:
    """Whether an answer could be had without working the program out (:func:`guess_likeness`)."""
    return guess_likeness(arguments, value, text, published) is not None


def _judge(candidate: str, ran, original_input: str, original_output) -> str | None:
    """None if a candidate's first run qualifies it (the second hash seed is asked only then), else
    the rule it breaks."""
    if isinstance(ran, str):
        return ran
    value, text = ran
    if not reads_back(value, text):
        return NOT_A_LITERAL_OUTPUT
    if type(value) is type(original_output) and value == original_output:
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
    published: str  # the published output's text
    candidates: list[str]
    tried: int = 0
    chosen: tuple[str, str] | None = None  # (input, output repr)
    decoy: str | None = None  # the output repr of a neighbour of the chosen input (see _find_decoys)
    broken: Counter = field(default_factory=Counter)
    guessable: list[tuple[float, str, str]] = field(default_factory=list)  # qualified, but guessable: (likeness, …)


_ROUNDS = (2, 6)  # candidates tried per round before the rest: most programs settle in the first
_chosen: dict[tuple, tuple[str, str] | str] = {}  # (seed, code, input, rules) -> (input, output) or why not
_decoys: dict[tuple, str | None] = {}  # the same key -> the decoy's output repr, where there is one
# Small changes of the chosen input tried for a decoy. Seed 0's 738 new CRUXEval inputs: 16 gave 561
# decoys, 64 give 580; 127 cannot have one (a trivial or copyable published output, docs/detect.md).
DECOY_CANDIDATES = 64


def _confirm(hopefuls: list[tuple[_Search, str, str]], second, rules: InputRules) -> None:
    """Choose each (search, candidate, output repr) whose candidate gives the same output under the
    second hash seed."""
    again = _each(second, [(search, [candidate]) for search, candidate, _ in hopefuls], rules)
    for (search, candidate, text), (outcome,) in zip(hopefuls, again, strict=True):
        repeated = _value(outcome)
        if not isinstance(repeated, str) and repeated[1] == text:
            search.chosen = (candidate, text)
        else:
            search.broken[NONDETERMINISTIC] += 1


def _search(searches: list[_Search], sandboxes, rules: InputRules) -> None:
    """Try candidates in rounds; a candidate that qualifies on the first hash seed is run again on the
    second, and chosen only if it gives the same output there. Candidates whose output is
    :func:`guessable` come last, the least alike the published output first (a memoriser gains the
    least from them)."""
    first, second = sandboxes
    pending = list(searches)
    for size in (*_ROUNDS, rules.candidates + rules.reshaped):
        jobs = [(search, search.candidates[search.tried : search.tried + size]) for search in pending]
        jobs = [job for job in jobs if job[1]]
        if not jobs:
            break
        hopefuls = []
        for (search, candidates), outcomes in zip(jobs, _each(first, jobs, rules), strict=True):
            for candidate, outcome in zip(candidates, outcomes, strict=True):
                search.tried += 1
                ran = _value(outcome)
                rule = _judge(candidate, ran, search.tests.arguments[0], search.original_output)
                if rule is not None:
                    search.broken[rule] += 1
                elif (alike := guess_likeness(candidate, ran[0], ran[1], search.published)) is not None:
                    search.guessable.append((alike, candidate, ran[1]))
                else:
                    hopefuls.append((search, candidate, ran[1]))
                    break
        _confirm(hopefuls, second, rules)
        pending = [s for s in pending if s.chosen is None and s.tried < len(s.candidates)]
    pending = [s for s in searches if s.chosen is None and s.guessable]
    for search in pending:
        search.guessable.sort(key=lambda found: found[0])
    while pending:
        _confirm([(search, *search.guessable.pop(0)[1:]) for search in pending], second, rules)
        pending = [s for s in pending if s.chosen is None and s.guessable]


def trivial(value) -> bool:
    """Whether a value is one a model writes without working anything out (empty, None, 0, ±1, a bool)."""
    if isinstance(value, (str, bytes, list, tuple, dict, set, frozenset)):
        return len(value) == 0
    return value is None or isinstance(value, bool) or (isinstance(value, (int, float)) and value in (0, 1, -1))


def _find_decoys(searches: list[_Search], sandboxes, seed: int, rules: InputRules) -> None:
    """For each search with a chosen input, a decoy: the output of a small change of the *chosen*
    input (the same perturbations that changed the published input into the chosen one, drawn from
    the seed), never the published input itself, that qualifies as the chosen one did, cannot be
    guessed from the shown text (:mod:`mutators.shown_guesses`), is not trivial, and differs from the
    published and the new output, on both hash seeds, each call within ``rules.steps``. The
    published input and the decoy's input are then both one small change away from the input a model
    is shown, so a model that misreads the shown input, or guesses, lands on either as often; one that
    remembers the published output writes it more often (the verdict of ``dynbench detect``,
    docs/detect.md). A published output that is trivial or can be guessed from the shown text gets no
    decoy (its stale answers prove nothing)."""
    first, second = sandboxes
    jobs, guesses = [], {}
    for search in searches:
        if search.chosen is None or trivial(search.original_output):
            continue
        guesses[id(search)] = shown_guesses(search.code, search.chosen[0])  # once, not per candidate
        if among(search.original_output, guesses[id(search)]):
            continue
        rng = random.Random(f"{seed}\x00decoy\x00{search.code}")
        published = parse_arguments(search.tests.arguments[0])
        near = [render_arguments(args, kwargs) for args, kwargs in
                perturbed_inputs([search.chosen[0]], rng, DECOY_CANDIDATES) if (args, kwargs) != published]
        if near:
            jobs.append((search, near))
    found, tried = [], 0
    for size in (*_ROUNDS, DECOY_CANDIDATES):  # the first that qualifies is taken: most are in the first round
        round_jobs = [(search, candidates[tried : tried + size]) for search, candidates in jobs]
        round_jobs = [job for job in round_jobs if job[1]]
        if not round_jobs:
            break
        tried += size
        settled = set()
        for (search, candidates), outcomes in zip(round_jobs, _each(first, round_jobs, rules),
                                                   strict=True):
            for candidate, outcome in zip(candidates, outcomes, strict=True):
                ran = _value(outcome)
                if (_judge(candidate, ran, search.tests.arguments[0], search.original_output) is None
                        and not trivial(ran[0]) and not among(ran[0], guesses[id(search)])
                        and not same_literal(ran[1], search.chosen[1])):
                    found.append((search, candidate, ran[1]))
                    settled.add(id(search))
                    break
        jobs = [(search, candidates) for search, candidates in jobs if id(search) not in settled]
    again = _each(second, [(search, [candidate]) for search, candidate, _ in found],
                  rules) if found else []
    for (search, _, text), (outcome,) in zip(found, again, strict=True):
        repeated = _value(outcome)
        if not isinstance(repeated, str) and repeated[1] == text:
            search.decoy = text


def choose_new_inputs(items: Sequence[tuple[str, MutationResult, CallTests, str]], seed: int, sandboxes,
                      rules: InputRules | None = None, donors: Donors | None = None) -> None:
    """For every ``(original code, result, tests, original output)`` whose chain has NewInput, pick the
    new input and set it (as shown, and as the original program spells it) and its output on the
    result. ``sandboxes``: two sandboxes with different fixed hash seeds; ``donors``: the argument
    values of the benchmark's problems. A choice depends only on the seed, the program, its input and
    the donors, so it is made once per process (the same for every chain)."""
    rules = rules or InputRules()
    wanted, searches = [], {}
    for code, result, tests, output in items:
        if NewInput.letter not in result.chain.split("+") or result.status not in (MUTATED, UNCHANGED):
            continue
        key = (seed, code, tests.arguments[0] if tests.arguments else None, rules, donors.key if donors else None)
        wanted.append((key, code, result, tests))
        if key in _chosen or key in searches:
            continue
        try:
            original_output = thread_safe_ast.literal_eval(output)
        except (ValueError, SyntaxError):
            original_output = object()  # equal to no output
        searches[key] = _Search(code, tests, original_output, output, [])
    before = runaway.stopped()
    literal = _as_literals([s for s in searches.values() if s.tests.arguments], sandboxes[0], rules)
    for search in searches.values():
        if search.tests.arguments:
            base = literal.get(id(search), search.tests.arguments[0])
            search.candidates = _candidates(base, seed, search.code, rules, donors)
    _search(list(searches.values()), sandboxes, rules)
    _find_decoys(list(searches.values()), sandboxes, seed, rules)
    runaway.report("choosing new inputs", before)
    for key, search in searches.items():
        broken = search.broken.most_common(1)[0][0] if search.broken else NOT_LITERAL
        _chosen[key] = search.chosen or broken
        _decoys[key] = search.decoy
    for key, code, result, tests in wanted:
        step = next(s for s in result.steps if s.operator == NewInput.name)
        chosen = _chosen[key]
        if isinstance(chosen, str):
            result.reason = (result.reason + "; " if result.reason else "") + f"newinput: no new input ({chosen})"
            continue
        result.new_input, result.expected_output = chosen
        result.decoy_output = _decoys[key]
        result.call_arguments = rename_keywords(tests.function, result.new_input, result.keyword_renames)
        # The published output is no answer any more, nor is the published input (it gives that output).
        result.changed_answers = ["output", "input"]
        step.changed, step.sites = True, 1
        if result.status == UNCHANGED:
            result.code, result.status, result.reason = code, MUTATED, ""
