"""Choosing NewOutput's edits: each candidate (:func:`mutators.newoutput.edits`) runs in the sandbox
on every input the problem is scored on, and is judged here by the rules of :mod:`mutators.newoutput`.

A problem says what its answers are: the values of calls of its function (CRUXEval, TransCoder), or
what its script prints for each stdin test (Avatar, CodeNet). Its ``read`` turns what ran into the
answers as a task stores them (a literal, a Java harness record, printed text), or says why they
cannot be; its ``same`` says when two answers count as the same. An edit is kept when, in the seed's
order, it is the first under which the program

* runs cleanly on every scored input (no exception, non-zero exit or timeout),
* gives answers that ``read`` accepts,
* gives at least one answer that differs both from the unedited program's and from the published one,
* and gives the same answers again under a second hash seed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mutators.engine import MutationResult
from mutators.execution.plain import PlainDataError, decode
from mutators.newoutput import Edit, NewOutput, edits
from mutators.programs import MUTATED, UNCHANGED, CallTests, StdinTests

NO_SITES, FAILS, SAME_ANSWERS, NONDETERMINISTIC, UNPUBLISHED = (
    "nothing in the program is a literal or operator it edits", "the edited program fails on a scored input",
    "it gives the same answers", "its answers depend on the hash seed",
    "it does not give the published answers")


@dataclass(frozen=True)
class OutputRules:
    candidates: int = 24
    # CPU seconds per scored call: an edit that makes a call slow is no small edit. The slowest published
    # CRUXEval call takes 2 ms; an edit that loops for ever (a loop step edited to 0) costs this much.
    call_seconds: float = 0.1
    script_seconds: float = 2.0  # per stdin run


@dataclass
class Problem:
    """One program's scored inputs. ``inputs``: call arguments spelled for the shown program, or stdin
    texts. ``baseline``: the unedited program's answers (None: run it to find them, and they must then
    be the ``published`` ones). ``published``: the benchmark's own answers (None where unknown). ``also``:
    one more call whose answer is recorded but need not change (the published input of a CRUXEval
    problem, for input prediction). ``keep_arguments``: calls report their arguments after the call
    too (harnesses that compare arrays changed in place)."""

    code: str
    tests: CallTests | StdinTests
    inputs: list[str]
    read: Callable[[list[Any]], list | str]
    same: Callable[[Any, Any], bool]
    baseline: list | None = None
    published: list | None = None
    also: str | None = None
    keep_arguments: bool = False
    seconds: float | None = None  # per call or run, where the rules' default is too short for the benchmark
    # Run once with every problem that shares it, before anything runs (e.g. to fetch the published
    # answers from elsewhere); then, on the unedited program's values and answers, the reason the
    # problem cannot take new answers, if any.
    prepare: Callable[[list[Problem]], None] | None = None
    check: Callable[[list, list], str | None] | None = None


@dataclass
class Chosen:
    edit: Edit
    answers: list
    also_same: bool | None = None  # whether ``Problem.also`` gives the first answer too (None: no such call)


def _call_expression(function: str, arguments: str, keep_arguments: bool) -> str:
    if keep_arguments:
        return f"(lambda *a, **k: (lambda v: (v, a))({function}(*a, **k)))({arguments})"
    return f"(lambda value: (value, repr(value)))({function}({arguments}))"


# Several programs in one child: each call defines its program afresh, then calls it as scoring does
# (the random module seeded before the call).
_DEFINE_AND_CALL = """
import random as _dynbench_random
def _dynbench_call(program, expression):
    namespace = {"__name__": "__dynbench_program__", "__builtins__": __builtins__}
    exec(program, namespace)
    _dynbench_random.seed(0)
    return eval(expression, namespace)
"""


def _calls(problem: Problem) -> list[str]:
    return [*problem.inputs, *([problem.also] if problem.also is not None else [])]


def _each_task(program: str, expressions: list[str], seconds: float) -> dict:
    budget = len(expressions) * 2 * seconds
    return {"kind": "evaluate_each",
            "payload": {"program": program, "expressions": expressions, "seconds": seconds, "clock": "cpu"},
            "limits": {"wall_seconds": budget + 5, "cpu_seconds": int(budget) + 1, "memory_mb": 1024}}


def _tasks(problem: Problem, code: str, rules: OutputRules) -> list[dict]:
    """The sandbox tasks that run ``code`` on the problem's inputs: one child for all its calls (each
    from a fresh namespace), or one per stdin test."""
    tests = problem.tests
    if isinstance(tests, StdinTests):
        seconds = problem.seconds or rules.script_seconds
        return [{"kind": "run_scripts", "payload": {"source": code, "stdins": problem.inputs, "seconds": seconds},
                 "limits": {"wall_seconds": len(problem.inputs) * (seconds + 3) + 5, "cpu_seconds": int(seconds) + 2,
                            "nproc": 64}}]
    expressions = [_call_expression(tests.function, arguments, problem.keep_arguments) for arguments in _calls(problem)]
    return [_each_task(tests.preamble + "\n" + code, expressions, problem.seconds or rules.call_seconds)]


def _together(problem: Problem, codes: list[str], rules: OutputRules) -> dict:
    """One child running every one of ``codes`` (versions of the problem's program) on its calls."""
    tests = problem.tests
    expressions = [f"_dynbench_call({tests.preamble + chr(10) + code!r}, "
                   f"{_call_expression(tests.function, arguments, problem.keep_arguments)!r})"
                   for code in codes for arguments in _calls(problem)]
    return _each_task(_DEFINE_AND_CALL, expressions, problem.seconds or rules.call_seconds)


def _call_values(outcome: dict, count: int) -> list | None:
    """The decoded value of each call in an ``evaluate_each`` outcome, None for a call that did not
    return one; None for all of them if the child did not finish."""
    result = outcome.get("result") if outcome.get("status") == "ok" else None
    runs = result.get("results") if isinstance(result, dict) else None
    if not isinstance(runs, list) or len(runs) != count:
        return None
    values = []
    for run in runs:
        try:
            values.append(decode(run["values"][0]) if run.get("outcome") == "values" else None)
        except (PlainDataError, AttributeError, TypeError, KeyError, IndexError, RecursionError, MemoryError):
            values.append(None)
    return values


def _script_runs(outcomes: list[dict], count: int) -> list[dict | None]:
    """Each test's run in a ``run_scripts`` outcome; None for a test it did not reach."""
    result = outcomes[0].get("result") if outcomes and outcomes[0].get("status") == "ok" else None
    runs = result.get("results") if isinstance(result, dict) else None
    runs = runs if isinstance(runs, list) else []
    return [run if isinstance(run, dict) else None for run in runs[:count]] + [None] * (count - len(runs[:count]))


def _printed(outcomes: list[dict], count: int) -> list[str | None]:
    """What a script printed on each test; None for a run that did not exit cleanly (or was not made)."""
    return [run["stdout"] if run is not None and run.get("outcome") == "exit:0" and isinstance(run.get("stdout"), str)
            else None for run in _script_runs(outcomes, count)]


def _values(problem: Problem, outcomes: list[dict]) -> list | None:
    """The raw value of each scored input (and of ``also``, last) in a run of the problem's tasks."""
    if isinstance(problem.tests, StdinTests):
        values = _printed(outcomes, len(problem.inputs))
    else:
        values = _call_values(outcomes[0], len(problem.inputs) + (problem.also is not None))
    return None if values is None or any(value is None for value in values[: len(problem.inputs)]) else values


def _answers(problem: Problem, outcomes: list[dict]) -> tuple[list, bool | None] | str:
    """(answers, whether the ``also`` call gives the first answer too: None without one) read from a
    run of the problem's tasks, or the rule it breaks."""
    values = _values(problem, outcomes)
    if values is None:
        return FAILS
    answers = problem.read(values[: len(problem.inputs)])
    if isinstance(answers, str):
        return answers
    if problem.also is None:
        return answers, None
    also = None if values[-1] is None else problem.read(values[-1:])
    return answers, not isinstance(also, str) and also is not None and problem.same(also[0], answers[0])


def _differs(problem: Problem, answers: list) -> bool:
    references = [problem.baseline, problem.published]
    return any(all(reference is None or reference[i] is None or not problem.same(answer, reference[i])
                   for reference in references) for i, answer in enumerate(answers))


@dataclass
class _Search:
    """One problem's search: its candidates in the seed's order, how far it got, what it found."""

    problem: Problem
    candidates: list[Edit]
    tried: int = 0
    chosen: Chosen | None = None
    broken: Counter = field(default_factory=Counter)


_SLOWER = 3  # how much slower than the unedited program an edited script may run on its slowest test
_ROUNDS = (2, 6)  # candidates tried per round before the rest: most programs settle in the first
_chosen: dict[tuple, Chosen | str] = {}  # (seed, code, inputs, also, rules) -> the choice, or why none


def _outcomes(sandbox, jobs: list[tuple[Problem, str]], rules: OutputRules, together: bool = True) -> list[list[dict]]:
    """The sandbox's outcomes of every (problem, code) job, all in one batch: the versions of one
    function program share a child (a child per version cost most of the choice); a child that did
    not finish has its versions run again one per child, so none is judged by what another did."""
    grouped: dict[int, list[int]] = {}
    for index, (problem, _) in enumerate(jobs):
        if together and not isinstance(problem.tests, StdinTests):
            grouped.setdefault(id(problem), []).append(index)
    batches = [indices for indices in grouped.values() if len(indices) > 1]
    batched = {index for batch in batches for index in batch}
    alone = [i for i in range(len(jobs)) if i not in batched]
    tasks = [_together(jobs[batch[0]][0], [jobs[i][1] for i in batch], rules) for batch in batches]
    spans = {}
    for index in alone:
        made = _tasks(*jobs[index], rules)
        spans[index] = (len(tasks), len(made))
        tasks += made
    outcomes = sandbox.run(tasks) if tasks else []
    found: dict[int, list[dict]] = {i: outcomes[start : start + size] for i, (start, size) in spans.items()}
    retry = []
    for batch, outcome in zip(batches, outcomes[: len(batches)], strict=True):
        calls = len(_calls(jobs[batch[0]][0]))
        result = outcome.get("result") if outcome.get("status") == "ok" else None
        results = result.get("results") if isinstance(result, dict) else None
        if not isinstance(results, list) or len(results) != calls * len(batch):
            retry += batch
            continue
        for position, index in enumerate(batch):
            part = results[position * calls : (position + 1) * calls]
            found[index] = [{"status": "ok", "result": {"outcome": "each", "results": part}}]
    if retry:
        for index, outcome in zip(retry, _outcomes(sandbox, [jobs[i] for i in retry], rules, together=False),
                                  strict=True):
            found[index] = outcome
    return [found[i] for i in range(len(jobs))]


def _run(sandbox, jobs: list[tuple[Problem, str]], rules: OutputRules) -> list[tuple[list, bool | None] | str]:
    """Answers (or the broken rule) of every (problem, code) job."""
    return [_answers(problem, outcomes) for (problem, _), outcomes in
            zip(jobs, _outcomes(sandbox, jobs, rules), strict=True)]


def _why_not(problem: Problem, outcomes: list[dict], rules: OutputRules) -> str:
    """Why the unedited program gave no answers: it ran out of time on a scored input, or failed."""
    seconds = problem.seconds or (rules.script_seconds if isinstance(problem.tests, StdinTests) else rules.call_seconds)
    if isinstance(problem.tests, StdinTests):
        runs = _script_runs(outcomes, len(problem.inputs))
    else:
        result = outcomes[0].get("result") if outcomes[0].get("status") == "ok" else None
        runs = result.get("results") if isinstance(result, dict) and isinstance(result.get("results"), list) else []
    slow = outcomes[0].get("status") == "timeout" or any(isinstance(run, dict) and run.get("outcome") == "timeout"
                                                          for run in runs)
    return f"it takes longer than {seconds:g} s on a scored input" if slow else "it fails on a scored input"


def _find_baselines(searches: list[_Search], sandbox, rules: OutputRules) -> None:
    """The unedited program's answers where the problem does not know them: they must be the
    published answers (an edit is measured against a program that gives them), and pass the
    problem's own check."""
    for prepare in {id(s.problem.prepare): s.problem.prepare for s in searches if s.problem.prepare}.values():
        prepare([s.problem for s in searches if s.problem.prepare is prepare])
    missing = [s for s in searches if s.problem.baseline is None]
    jobs = [(s.problem, s.problem.code) for s in missing]
    for search, outcomes in zip(missing, _outcomes(sandbox, jobs, rules), strict=True):
        problem = search.problem
        values = _values(problem, outcomes)
        answers = _why_not(problem, outcomes, rules) if values is None else problem.read(values[: len(problem.inputs)])
        why = answers if isinstance(answers, str) else \
            problem.check(values, answers) if problem.check is not None else None
        if why is None and problem.published is not None and not all(
                published is None or problem.same(answer, published)
                for answer, published in zip(answers, problem.published, strict=True)):
            why = UNPUBLISHED
        if why is not None:
            search.broken[f"the unedited program: {why}"] += 1
            search.candidates = []
            continue
        problem.baseline = answers
        if isinstance(problem.tests, StdinTests):  # an edit that makes a test far slower is no small edit
            slowest = max(float(run.get("seconds") or 0) for run in _script_runs(outcomes, len(problem.inputs)))
            problem.seconds = min(problem.seconds or rules.script_seconds, _SLOWER * slowest + 1)


def _search(searches: list[_Search], sandboxes, rules: OutputRules) -> None:
    first, second = sandboxes
    _find_baselines(searches, first, rules)
    pending = [s for s in searches if s.candidates]
    for size in (*_ROUNDS, rules.candidates):
        jobs = [(search, search.candidates[search.tried : search.tried + size]) for search in pending]
        flat = [(search, edit) for search, batch in jobs for edit in batch]
        if not flat:
            break
        ran = _run(first, [(s.problem, edit.apply(s.problem.code)) for s, edit in flat], rules)
        hopefuls, settled = [], set()
        for (search, edit), outcome in zip(flat, ran, strict=True):
            if id(search) in settled:
                continue
            search.tried += 1
            if isinstance(outcome, str):
                search.broken[outcome] += 1
            elif not _differs(search.problem, outcome[0]):
                search.broken[SAME_ANSWERS] += 1
            else:
                hopefuls.append((search, edit, outcome))
                settled.add(id(search))
        again = _run(second, [(s.problem, edit.apply(s.problem.code)) for s, edit, _ in hopefuls], rules)
        for (search, edit, outcome), repeated in zip(hopefuls, again, strict=True):
            if not isinstance(repeated, str) and repeated[0] == outcome[0]:
                search.chosen = Chosen(edit, *outcome)
            else:
                search.broken[NONDETERMINISTIC] += 1
        pending = [s for s in pending if s.chosen is None and s.tried < len(s.candidates)]


def choose_new_outputs(items: Sequence[tuple[MutationResult, Problem]], seed: int, sandboxes,
                       rules: OutputRules | None = None) -> dict[int, Chosen]:
    """For every ``(result, problem)`` whose chain has NewOutput, choose the edit of the shown program
    (``problem.code``), apply it to the result and set its new answers (``new_answers``, and
    ``expected_output`` for a problem with one call). ``sandboxes``: two sandboxes with different
    fixed hash seeds. Returns the choices by ``id`` of each result that got one."""
    rules = rules or OutputRules()
    searches: dict[tuple, _Search] = {}
    wanted = []
    for result, problem in items:
        if NewOutput.letter not in result.chain.split("+") or result.status not in (MUTATED, UNCHANGED):
            continue
        key = (seed, problem.code, tuple(problem.inputs), problem.also, rules)
        wanted.append((key, result, problem))
        if key not in _chosen and key not in searches:
            searches[key] = _Search(problem, edits(problem.code, seed, rules.candidates))
    _search(list(searches.values()), sandboxes, rules)
    for key, search in searches.items():
        broken = search.broken.most_common(1)[0][0] if search.broken else NO_SITES
        _chosen[key] = search.chosen or broken
    made = {}
    for key, result, problem in wanted:
        step = next(s for s in result.steps if s.operator == NewOutput.name)
        chosen = _chosen[key]
        if isinstance(chosen, str):
            result.reason = (result.reason + "; " if result.reason else "") + f"newoutput: no edit ({chosen})"
            continue
        result.code, result.status, result.edit = chosen.edit.apply(problem.code), MUTATED, chosen.edit.what
        result.new_answers = list(chosen.answers)
        if len(chosen.answers) == 1 and isinstance(problem.tests, CallTests):
            result.expected_output = chosen.answers[0]
        # The published input still answers input prediction unless it gives another answer now.
        input_changed = "input" in result.changed_answers if chosen.also_same is None else not chosen.also_same
        result.changed_answers = ["output", "input"] if input_changed else ["output"]
        step.changed, step.sites = True, 1
        result.checked_inputs += len(problem.inputs)
        result.verified_inputs += len(problem.inputs)
        made[id(result)] = chosen
    return made
