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
* gives the same answers again under a second hash seed,
* and leaves no more of its statements unexecuted on every scored input than the unedited program
  does (:mod:`mutators.line_coverage`: no loop that stops running, no branch no input takes any more).

An edit whose answers could be had without working the program out (``Problem.guessable``: a
CRUXEval output that is one of the call's arguments or a patch of the published output) is taken
only if no other qualifies, and only if it is less alike the published answers than the unedited
program's (a new input's fresh answer is never traded for a guessable one); the least alike first.

A translation problem (``Problem.translation``) tries :mod:`mutators.structural`'s edits first, refuses
answers that are empty or the same on every input, and then takes a second, token edit in another
statement of the program the first left, where one makes both edits matter (undoing either changes an
answer): a recalled translation cannot be patched to such answers token by token.

A problem may come with stdin inputs derived from its published ones (``Problem.derived``,
:mod:`mutators.derived_inputs`): before anything else they are run on the unedited program under both
hash seeds and kept only where it answers them cleanly, within a step budget, alike, with something (and
where the problem's ``prepare`` checks them against a reference, where that agrees); the answers on
them are the edited program's, as on the published ones.

Where the unedited program fails, does not give the published answer, or (a translation problem's) runs
more than ``unedited_script_steps`` lines (a stdin test) or ``unedited_call_steps`` (a harness call), on
some of a problem's inputs but on no more than half of them, the problem is scored on the others only:
on those the benchmark is wrong about its own program (its Python and its reference disagree), so an
answer recomputed there could not be checked, or every edit searched would cost what the heaviest input
does. The new answers of the inputs left out are None.

Every run here has its program's lines counted (:mod:`mutators.execution.worker`), and an edit is refused
as too slow on its count, which every machine makes the same: a CRUXEval call may run ``call_steps``
lines; a translation problem's (which says its ``seconds``) as many as ``_SLOWER`` times the unedited
program's on its slowest input, plus ``call_steps`` or ``script_steps``. Time limits only stop runaways
(work in C that no line counts), far above any budgeted run; where one stops a run, the build says in
one line that its document may differ on another machine (:mod:`mutators.runaway`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from mutators import batched_calls, line_coverage, runaway
from mutators.engine import MutationResult
from mutators.execution.limits import COUNTED_SLOWER, preloaded, shares_a_process, wall_seconds
from mutators.execution.plain import PlainDataError, decode
from mutators.newoutput import Edit, Edits, NewOutput, edits
from mutators.programs import MUTATED, UNCHANGED, CallTests, StdinTests
from mutators.structural import statement_of, structural_edits

NO_SITES, FAILS, SAME_ANSWERS, NONDETERMINISTIC, UNPUBLISHED, NO_HARDER, FIRST_UNNEEDED = (
    "nothing in the program is a literal or operator it edits", "the edited program fails on a scored input",
    "it gives the same answers", "its answers depend on the hash seed",
    "it does not give the published answers", "its answers are no harder to guess than the program's own",
    "with it the first edit no longer changes an answer")
DEGENERATE = "its answers are empty or the same on every input"
DEAD_CODE, UNTRACED = ("it leaves more of the program unexecuted on every scored input",
                       "its lines run on the scored inputs could not be traced")


@dataclass(frozen=True)
class OutputRules:
    candidates: int = 24
    structural: int = 8  # structural candidates tried first, where a problem takes them (Problem.translation)
    # Lines a scored call may run: an edit that makes a call slow is no small edit. The longest published
    # CRUXEval call runs 625; an edit that loops for ever (a loop step edited to 0) costs this many, and
    # such edits are most of a cold CRUXEval build's work.
    call_steps: int = 100_000
    script_steps: int = 1_000_000  # lines an edited script may run beyond _SLOWER times the unedited program's
    # Lines the unedited program of a translation problem may run on one input, published or derived: an
    # input past it is not scored (as one the program fails), so no edit is searched on it. 90% of Avatar's
    # stdin tests run under 21,000 and CodeNet's heaviest 44,014; Avatar's heaviest, over 20 million, made
    # most of a cold build's work, as every candidate, confirmation and equivalence check ran them again.
    unedited_script_steps: int = 200_000
    unedited_call_steps: int = 2_000_000  # a harness call (TransCoder)
    # CPU seconds per call or stdin run, uncounted (a counted run gets COUNTED_SLOWER times as long): only
    # a runaway in C reaches them. The slowest CRUXEval edit that ran within its budget took 7.5 ms counted
    # (2 busy cores), 27 times less than its limit.
    call_seconds: float = 0.02
    script_seconds: float = 2.0


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
    steps: int | None = None  # the step budget of an edited program's call or run, set from the unedited one's
    # Run once with every problem that shares it, before anything runs (e.g. to fetch the published
    # answers from elsewhere); then, on the unedited program's values and answers, the reason the
    # problem cannot take new answers, if any.
    prepare: Callable[[list[Problem]], None] | None = None
    check: Callable[[list, list], str | None] | None = None
    scored: list[bool] | None = None  # which of the inputs it came with it is scored on (None: all)
    # None where answers could not be had without working the program out; else how alike the
    # published answers they are (0 to 1). An edit whose answers could be guessed (copied from the
    # shown call, or the published answers patched) is taken only if no other qualifies, the least
    # alike first.
    guessable: Callable[[list], float | None] | None = None
    # A translation problem: two edits in different statements, a structural one first where one qualifies,
    # each of which matters (a recalled translation must not be patchable token by token), else one; and no
    # answers a program that ignores its input could give (an empty one, or the same on every input).
    translation: bool = False
    # The last ``derived`` stdin inputs are derived from the published ones (mutators.derived_inputs): they
    # have no published answer, and are kept only where the unedited program answers them steadily
    # (``derived_answers``: what it printed, which stands for the published answer: a recalled program gives
    # it, so edits that together give it back on every input change nothing), and where ``reference`` (the
    # benchmark's own program in the target language) is given, only where ``prepare`` finds that it agrees.
    derived: int = 0
    derived_answers: list[str] = field(default_factory=list)
    reference: str | None = None

    def derived_inputs(self) -> list[str]:
        return self.inputs[len(self.inputs) - self.derived :]

    def keep_derived_where(self, kept: list[bool]) -> None:
        """Keep the derived inputs (and their answers) where ``kept`` says."""
        published = len(self.inputs) - self.derived
        self.inputs = self.inputs[:published] + [x for x, keep in zip(self.derived_inputs(), kept, strict=True) if keep]
        self.derived_answers = [answer for answer, keep in zip(self.derived_answers, kept, strict=True) if keep]
        if self.published is not None:
            self.published = self.published[:published] + list(self.derived_answers)
        self.derived = len(self.derived_answers)

    def narrow(self, kept: list[int]) -> None:
        """Score the problem on the inputs at ``kept`` only."""
        self.derived = sum(index >= len(self.inputs) - self.derived for index in kept)
        self.scored = [index in kept for index in range(len(self.inputs))]
        self.inputs = [self.inputs[index] for index in kept]
        if self.published is not None:
            self.published = [self.published[index] for index in kept]


@dataclass
class Chosen:
    edit: Edit | Edits
    answers: list
    also_same: bool | None = None  # whether ``Problem.also`` gives the first answer too (None: no such call)
    scored: list[bool] | None = None  # the problem's ``scored``: the inputs the answers are for
    derived: tuple[str, ...] = ()  # the derived inputs kept, whose answers come last

    def answers_by_input(self) -> list:
        """One answer per input the problem came with: None where it is not scored."""
        if self.scored is None:
            return list(self.answers)
        answers = iter(self.answers)
        return [next(answers) if scored else None for scored in self.scored]


def _call_expression(function: str, arguments: str, keep_arguments: bool) -> str:
    if keep_arguments:
        return f"(lambda *a, **k: (lambda v: (v, a))({function}(*a, **k)))({arguments})"
    return f"(lambda value: (value, repr(value)))({function}({arguments}))"


def _calls(problem: Problem) -> list[str]:
    return [*problem.inputs, *([problem.also] if problem.also is not None else [])]


def _expressions(problem: Problem) -> list[str]:
    tests = problem.tests
    return [_call_expression(tests.function, arguments, problem.keep_arguments) for arguments in _calls(problem)]


def _seconds(problem: Problem, rules: OutputRules) -> float:
    """The CPU time a counted call or run of the problem may take: a runaway stop."""
    default = rules.script_seconds if isinstance(problem.tests, StdinTests) else rules.call_seconds
    return COUNTED_SLOWER * (problem.seconds or default)


def _unedited_translation(problem: Problem) -> bool:
    """Whether the problem is a translation problem's unedited program (it says its ``seconds``), whose
    count sets its edits' budget (:func:`_find_baselines`)."""
    return problem.steps is None and (isinstance(problem.tests, StdinTests) or bool(problem.seconds))


def _unedited_steps(problem: Problem, rules: OutputRules) -> int:
    """The step budget of the unedited program of a translation problem on one input."""
    return rules.unedited_script_steps if isinstance(problem.tests, StdinTests) else rules.unedited_call_steps


def _steps(problem: Problem, rules: OutputRules) -> int:
    """The step budget of a call or run of the problem."""
    if problem.steps is not None:
        return problem.steps
    return _unedited_steps(problem, rules) if _unedited_translation(problem) else rules.call_steps


def _each_task(program: str, expressions: list[str], seconds: float, steps: int | None) -> dict:
    budget = len(expressions) * 2 * seconds
    return {"kind": "evaluate_each",
            "payload": {"program": program, "expressions": expressions, "seconds": seconds, "clock": "cpu",
                        "steps": steps},
            "limits": {"wall_seconds": wall_seconds(budget), "cpu_seconds": int(budget) + 1, "memory_mb": 1024}}


def _tasks(problem: Problem, code: str, rules: OutputRules, every: bool = False) -> list[dict]:
    """The sandbox tasks that run ``code`` on the problem's inputs: one child for all its calls (each
    from a fresh namespace), or one for its stdin tests (up to the first that fails, unless ``every``)."""
    tests, seconds, steps = problem.tests, _seconds(problem, rules), _steps(problem, rules)
    if isinstance(tests, StdinTests):
        script = tests.script(code)
        return [{"kind": "run_scripts", "payload": {"source": script, "stdins": problem.inputs, "seconds": seconds,
                                                   "steps": steps, "every": every, "preload": preloaded(script),
                                                   "shared": shares_a_process(script),
                                                   "run_wall_seconds": wall_seconds(seconds)},
                 "limits": {"wall_seconds": len(problem.inputs) * wall_seconds(seconds),
                            "cpu_seconds": int(seconds) + 2, "nproc": 64}}]
    return [_each_task(tests.preamble + "\n" + code, _expressions(problem), seconds, steps)]


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


def _each_value(problem: Problem, outcomes: list[dict]) -> list | None:
    """The raw value of each scored input (and of ``also``, last) in a run of the problem's tasks,
    None for one that did not give one; None if the run did not finish."""
    if isinstance(problem.tests, StdinTests):
        return _printed(outcomes, len(problem.inputs))
    return _call_values(outcomes[0], len(problem.inputs) + (problem.also is not None))


def _counted_steps(problem: Problem, outcomes: list[dict], count: int) -> list[int]:
    """The steps each of the first ``count`` inputs ran in a finished run of the problem's tasks."""
    if isinstance(problem.tests, StdinTests):
        runs = _script_runs(outcomes, count)
    else:
        runs = outcomes[0]["result"]["results"][:count]
    return [int(run.get("steps") or 0) for run in runs]


def _values(problem: Problem, outcomes: list[dict]) -> list | None:
    """As :func:`_each_value`, None unless every scored input gave a value."""
    values = _each_value(problem, outcomes)
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


def _degenerate(problem: Problem, answers: list) -> bool:
    """Whether a translation problem's answers could be given without reading the input."""
    if not problem.translation:
        return False
    empty = any(isinstance(answer, str) and not answer.strip() for answer in answers)
    return empty or (len(answers) > 1 and all(problem.same(answer, answers[0]) for answer in answers[1:]))


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
    guessable: list[tuple[float, Edit, tuple]] = field(default_factory=list)  # qualified, but guessable: (likeness, …)
    unexecuted: int | None = None  # statements of the unedited program no scored input runs (None: not traced)
    traced: bool = False


_SLOWER = 3  # how many times the unedited program's steps an edit may take on a translation problem's slowest input
_ROUNDS = (2, 6)  # candidates tried per round before the rest: most programs settle in the first
_chosen: dict[tuple, Chosen | str] = {}  # (seed, code, inputs, also, translation, rules) -> the choice, or why none


def _traced_tasks(problem: Problem, code: str, rules: OutputRules, allowed: int | None = None) -> list[dict]:
    """As :func:`_tasks`, every run traced (:mod:`mutators.line_coverage`); a script's runs stop once at
    most ``allowed`` of its statements are unexecuted."""
    tests, seconds, steps = problem.tests, _seconds(problem, rules), _steps(problem, rules)
    if isinstance(tests, StdinTests):
        return [line_coverage.scripts_task(tests.script(code), problem.inputs, seconds, steps, code, allowed)]
    return [line_coverage.calls_task(tests.preamble + "\n" + code, _expressions(problem), seconds, steps)]


def _outcomes(sandbox, jobs: list[tuple[Problem, str]], rules: OutputRules, together: bool = True,
              every: bool = False, traced: bool = False, allowed: list[int | None] | None = None) -> list[list[dict]]:
    """The sandbox's outcomes of every (problem, code) job, all in one batch: function programs that
    may share children do (:mod:`mutators.batched_calls`); the jobs of a child that did not finish run again one
    per child, so none is judged by what another did. ``every``: a script runs on every test, not
    only up to the first that fails. ``traced``: every run also reports the lines it ran (a script's
    stop once at most the job's ``allowed`` statements are unexecuted)."""
    by_limits: dict[tuple[float, int | None], list[int]] = {}
    for index, (problem, _) in enumerate(jobs):
        if together and not isinstance(problem.tests, StdinTests) and batched_calls.shareable(jobs[index][1]):
            by_limits.setdefault((_seconds(problem, rules), _steps(problem, rules)), []).append(index)
    packs = [(limits, pack) for limits, indices in by_limits.items() for pack in batched_calls.children(indices)]
    tasks = [batched_calls.task([(jobs[i][0].tests.preamble + "\n" + jobs[i][1], expression)
                                 for i in pack for expression in _expressions(jobs[i][0])], *limits, traced)
             for limits, pack in packs]
    packed = {index for _, pack in packs for index in pack}
    spans = {}
    for index in (i for i in range(len(jobs)) if i not in packed):
        made = _traced_tasks(*jobs[index], rules, allowed[index] if allowed else None) if traced else \
            _tasks(*jobs[index], rules, every)
        spans[index] = (len(tasks), len(made))
        tasks += made
    outcomes = sandbox.run(tasks) if tasks else []
    runaway.note(outcomes[len(packs):])
    found: dict[int, list[dict]] = {i: outcomes[start : start + size] for i, (start, size) in spans.items()}
    retry = []
    for (_, pack), outcome in zip(packs, outcomes[: len(packs)], strict=True):
        counts = [len(_calls(jobs[i][0])) for i in pack]
        runs = batched_calls.results(outcome, sum(counts))
        if runs is None:
            retry += pack
            continue
        runaway.note(runs)
        for index, count in zip(pack, counts, strict=True):
            found[index] = [{"status": "ok", "result": {"outcome": "each", "results": runs[:count]}}]
            runs = runs[count:]
    if retry:
        for index, outcome in zip(retry, _outcomes(sandbox, [jobs[i] for i in retry], rules, together=False,
                                                   traced=traced), strict=True):
            found[index] = outcome
    return [found[i] for i in range(len(jobs))]


def _run(sandbox, jobs: list[tuple[Problem, str]], rules: OutputRules) -> list[tuple[list, bool | None] | str]:
    """Answers (or the broken rule) of every (problem, code) job."""
    return [_answers(problem, outcomes) for (problem, _), outcomes in
            zip(jobs, _outcomes(sandbox, jobs, rules), strict=True)]


def answers_of(problem: Problem, sandbox, rules: OutputRules | None = None) -> list | str:
    """The answers ``problem.code`` gives on the problem's inputs, as a task stores them, or why it gives
    none: a document's shown program checked against the answers it is scored on."""
    outcome = _run(sandbox, [(problem, problem.code)], rules or OutputRules())[0]
    return outcome if isinstance(outcome, str) else outcome[0]


def _why_not(problem: Problem, outcomes: list[dict], rules: OutputRules) -> str:
    """Why the unedited program gave no answers: it ran past its step budget or out of time on a scored
    input, or failed."""
    if isinstance(problem.tests, StdinTests):
        runs = _script_runs(outcomes, len(problem.inputs))
    else:
        result = outcomes[0].get("result") if outcomes[0].get("status") == "ok" else None
        runs = result.get("results") if isinstance(result, dict) and isinstance(result.get("results"), list) else []
    kinds = {run.get("outcome") for run in runs if isinstance(run, dict)}
    if "over_budget" in kinds:
        return f"it runs more than {_steps(problem, rules)} lines on a scored input"
    if outcomes[0].get("status") == "timeout" or kinds & {"timeout", "program_timeout"}:
        return f"it takes longer than {_seconds(problem, rules):g} s on a scored input"
    return "it fails on a scored input"


_SHARE_SCORED = 0.5  # at least this share of a problem's inputs must be ones its unedited program gets right


def _baseline(problem: Problem, values: list) -> list | str:
    """The unedited program's answers, or why they cannot be the baseline: they must be the
    published answers and pass the problem's own check."""
    answers = problem.read(values[: len(problem.inputs)])
    if isinstance(answers, str):
        return answers
    why = problem.check(values, answers) if problem.check is not None else None
    if why is None and problem.published is not None and not all(
            published is None or problem.same(answer, published)
            for answer, published in zip(answers, problem.published, strict=True)):
        why = UNPUBLISHED
    return answers if why is None else why


def _agreeing(problem: Problem, values: list) -> list[int]:
    """The inputs on which the unedited program gave an answer, and the published one."""
    kept = []
    for index, value in enumerate(values[: len(problem.inputs)]):
        answer = None if value is None else problem.read([value])
        published = problem.published[index] if problem.published is not None else None
        if answer is not None and not isinstance(answer, str) and (
                published is None or problem.same(answer[0], published)):
            kept.append(index)
    return kept


def _find_baselines(searches: list[_Search], sandbox, rules: OutputRules) -> None:
    """The unedited program's answers where the problem does not know them (see :func:`_baseline`),
    on every input, else on the inputs it gets right if they are enough."""
    for prepare in {id(s.problem.prepare): s.problem.prepare for s in searches if s.problem.prepare}.values():
        prepare([s.problem for s in searches if s.problem.prepare is prepare])
    missing = [s for s in searches if s.problem.baseline is None]
    jobs = [(s.problem, s.problem.code) for s in missing]
    for search, outcomes in zip(missing, _outcomes(sandbox, jobs, rules, every=True), strict=True):
        problem = search.problem
        each, count = _each_value(problem, outcomes), len(problem.inputs)
        complete = each is not None and all(value is not None for value in each[:count])
        answers = _baseline(problem, each) if complete else _why_not(problem, outcomes, rules)
        if isinstance(answers, str) and each is not None:
            kept, published = _agreeing(problem, each), count - problem.derived
            # the share is of the published inputs: a derived one has no published answer to get right
            if _SHARE_SCORED * published <= sum(index < published for index in kept) and len(kept) < count:
                problem.narrow(kept)
                answers = _baseline(problem, [each[index] for index in kept] + each[count:])
        if isinstance(answers, str):
            search.broken[f"the unedited program: {answers}"] += 1
            search.candidates = []
            continue
        problem.baseline = answers
        if _unedited_translation(problem):  # an edit that makes it far slower is no small edit
            counted = _counted_steps(problem, outcomes, count)
            slack = rules.script_steps if isinstance(problem.tests, StdinTests) else rules.call_steps
            problem.steps = _SLOWER * max(steps for steps, scored in zip(counted, problem.scored or [True] * count,
                                                                         strict=True) if scored) + slack


def _steady(first: dict | None, second: dict | None) -> bool:
    """Whether two runs of the unedited program on a derived input (under the two hash seeds) exited
    cleanly within the probe's step budget (``unedited_script_steps``), printing the same, and something."""
    runs = (first, second)
    return all(run is not None and run.get("outcome") == "exit:0" and isinstance(run.get("stdout"), str)
               for run in runs) \
        and first["stdout"] == second["stdout"] and bool(first["stdout"].strip())


def keep_derived(problems: list[Problem], sandboxes, rules: OutputRules | None = None) -> None:
    """Each problem's derived inputs, kept only where the unedited program answers them steadily (under
    both ``sandboxes``' hash seeds). Problems with a baseline have been through this already."""
    rules = rules or OutputRules()
    problems = [problem for problem in problems if problem.derived and problem.baseline is None]
    probes = [replace(problem, inputs=problem.derived_inputs(), published=None, derived=0, prepare=None,
                      steps=rules.unedited_script_steps) for problem in problems]
    if not probes:
        return
    jobs = [(probe, probe.code) for probe in probes]
    first, second = (_outcomes(sandbox, jobs, rules, every=True) for sandbox in sandboxes)
    for problem, probe, once, again in zip(problems, probes, first, second, strict=True):
        count = len(probe.inputs)
        runs = list(zip(_script_runs(once, count), _script_runs(again, count), strict=True))
        steady = [_steady(run, rerun) for run, rerun in runs]
        problem.derived_answers = [run["stdout"] if kept else "" for (run, _), kept in zip(runs, steady, strict=True)]
        problem.keep_derived_where(steady)


def _search(searches: list[_Search], sandboxes, rules: OutputRules) -> None:
    first, second = sandboxes
    keep_derived([search.problem for search in searches], sandboxes, rules)
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
            elif _degenerate(search.problem, outcome[0]):
                search.broken[DEGENERATE] += 1
            elif search.problem.guessable is not None and (alike := search.problem.guessable(outcome[0])) is not None:
                search.guessable.append((alike, edit, outcome))
            else:
                hopefuls.append((search, edit, outcome))
                settled.add(id(search))
        _confirm(hopefuls, second, rules)
        pending = [s for s in pending if s.chosen is None and s.tried < len(s.candidates)]
    pending = [s for s in searches if s.chosen is None and s.guessable]
    for search in pending:
        bound = _guess_bound(search.problem)
        search.broken[NO_HARDER] += sum(found[0] >= bound for found in search.guessable)
        search.guessable = sorted((found for found in search.guessable if found[0] < bound), key=lambda found: found[0])
    pending = [s for s in pending if s.guessable]
    while pending:
        _confirm([(search, *search.guessable.pop(0)[1:]) for search in pending], second, rules)
        pending = [s for s in pending if s.chosen is None and s.guessable]


def _guess_bound(problem: Problem) -> float:
    """How alike the published answers a guessable edit's may be: anything, where the unedited program
    gives the published answers; less than its own, where those can be guessed too; nothing, where
    they cannot (a new input made them fresh, and a guessable edit would undo that)."""
    if problem.published is None or all(problem.same(answer, published) for answer, published
                                        in zip(problem.baseline, problem.published, strict=True)):
        return math.inf
    own = problem.guessable(problem.baseline)
    return -math.inf if own is None else own


def _unexecuted(problem: Problem, code: str, outcomes: list[dict], allowed: int | None = None) -> int | None:
    """How many statements of ``code`` no scored input ran in a traced run of it (a script's runs may
    stop once at most ``allowed`` are); None: not checked."""
    count = len(problem.inputs)
    if isinstance(problem.tests, StdinTests):
        return line_coverage.unexecuted(code, problem.tests.script(code), _script_runs(outcomes, count), "exit:0",
                                        allowed)
    result = outcomes[0].get("result") if outcomes[0].get("status") == "ok" else None
    runs = result.get("results") if isinstance(result, dict) else None
    return line_coverage.unexecuted(code, problem.tests.preamble + "\n" + code,
                                    runs[:count] if isinstance(runs, list) else None, "values")


def _coverage(hopefuls: list[tuple[_Search, Edit, tuple]], sandbox, rules: OutputRules) -> list[int | None]:
    """Statements each hopeful's edited program leaves unexecuted on every scored input, or at most
    the unedited program's count where a script's runs stopped there (None: not checked); each
    search's unedited program is traced first, the first time: on every input, or until every
    statement has run (the count is then exactly 0)."""
    untraced = list({id(search): search for search, _, _ in hopefuls if not search.traced}.values())
    jobs = [(s.problem, s.problem.code) for s in untraced]
    for search, outcomes in zip(untraced, _outcomes(sandbox, jobs, rules, traced=True, allowed=[0] * len(jobs)),
                                strict=True):
        search.unexecuted, search.traced = _unexecuted(search.problem, search.problem.code, outcomes, 0), True
    checked = [index for index, (search, _, _) in enumerate(hopefuls) if search.unexecuted is not None]
    jobs = [(hopefuls[i][0].problem, hopefuls[i][1].apply(hopefuls[i][0].problem.code)) for i in checked]
    allowed = [hopefuls[i][0].unexecuted for i in checked]
    counts: list[int | None] = [None] * len(hopefuls)
    for index, (problem, code), most, outcomes in zip(checked, jobs, allowed, _outcomes(
            sandbox, jobs, rules, traced=True, allowed=allowed), strict=True):
        counts[index] = _unexecuted(problem, code, outcomes, most)
    return counts


def _confirm(hopefuls: list[tuple[_Search, Edit, tuple]], second, rules: OutputRules) -> None:
    """Choose each (search, edit, outcome) whose edit gives the same answers under the second hash seed
    and leaves no more of the program unexecuted than the unedited program (:mod:`mutators.line_coverage`)."""
    again = _run(second, [(s.problem, edit.apply(s.problem.code)) for s, edit, _ in hopefuls], rules)
    for (search, edit, outcome), repeated, unexecuted in zip(hopefuls, again, _coverage(hopefuls, second, rules),
                                                             strict=True):
        if isinstance(repeated, str) or repeated[0] != outcome[0]:
            search.broken[NONDETERMINISTIC] += 1
        elif unexecuted is None or search.unexecuted is None:
            search.broken[UNTRACED] += 1
        elif unexecuted > search.unexecuted:
            search.broken[DEAD_CODE] += 1
        else:
            search.chosen = Chosen(edit, *outcome, scored=search.problem.scored,
                                   derived=tuple(search.problem.derived_inputs()))


_SECOND_ROUNDS = 3  # second edits found that leave the first mattering no more, before one edit is kept


def _candidates(problem: Problem, seed: int, rules: OutputRules) -> list[Edit]:
    token_edits = edits(problem.code, seed, rules.candidates)
    if not problem.translation:
        return token_edits
    return structural_edits(problem.code, seed)[: rules.structural] + token_edits


def _differ(problem: Problem, answers: list, others: list) -> bool:
    return any(not problem.same(answer, other) for answer, other in zip(answers, others, strict=True))


def _add_second_edits(searches: list[_Search], sandboxes, seed: int, rules: OutputRules) -> None:
    """For each search that chose a first edit: on the program it left, the first token edit in another
    statement under which both matter (undoing either changes an answer), added to the choice."""
    pairs = []
    for search in searches:
        first = search.chosen.edit
        code = first.apply(search.problem.code)
        taken = statement_of(code, first.line(search.problem.code))
        candidates = [edit for edit in edits(code, seed, rules.candidates)
                      if statement_of(code, edit.line(code)) != taken]
        problem = replace(search.problem, code=code, baseline=search.chosen.answers, prepare=None, check=None)
        pairs.append((search, _Search(problem, candidates)))
    for _ in range(_SECOND_ROUNDS):
        _search([second for _, second in pairs], sandboxes, rules)
        found = [(search, second) for search, second in pairs if second.chosen is not None]
        alone = _run(sandboxes[0], [(search.problem, second.chosen.edit.without(search.chosen.edit)
                                     .apply(search.problem.code)) for search, second in found], rules)
        pairs = []
        for (search, second), outcome in zip(found, alone, strict=True):
            if isinstance(outcome, str) or _differ(second.problem, outcome[0], second.chosen.answers):
                search.chosen = replace(second.chosen, edit=Edits((*search.chosen.edit.steps, second.chosen.edit)),
                                        scored=search.chosen.scored)
            else:
                second.chosen = None
                second.broken[FIRST_UNNEEDED] += 1
                pairs.append((search, second))


def _without_derived(problem: Problem) -> Problem:
    published = len(problem.inputs) - problem.derived
    return replace(problem, inputs=problem.inputs[:published], derived=0, reference=None, prepare=None,
                   published=None if problem.published is None else problem.published[:published])


def _search_all(searches: list[_Search], sandboxes, seed: int, rules: OutputRules) -> None:
    _search(searches, sandboxes, rules)
    _add_second_edits([s for s in searches if s.problem.translation and s.chosen is not None], sandboxes, seed, rules)


def choose_new_outputs(items: Sequence[tuple[MutationResult, Problem]], seed: int, sandboxes,
                       rules: OutputRules | None = None) -> dict[int, Chosen]:
    """For every ``(result, problem)`` whose chain has NewOutput, choose the edit of the shown program
    (``problem.code``), apply it to the result and set its new answers (``new_answers``, and
    ``expected_output`` for a problem with one call). ``sandboxes``: two sandboxes with different
    fixed hash seeds. Returns the choices by ``id`` of each result that got one."""
    rules = rules or OutputRules()
    searches: dict[tuple, _Search] = {}
    originals: dict[tuple, Problem] = {}
    wanted = []
    for result, problem in items:
        if NewOutput.letter not in result.chain.split("+") or result.status not in (MUTATED, UNCHANGED):
            continue
        key = (seed, problem.code, tuple(problem.inputs), problem.also, problem.translation, rules)
        wanted.append((key, result, problem))
        if key not in _chosen and key not in searches:
            searches[key] = _Search(replace(problem), _candidates(problem, seed, rules))  # a copy: searches change it
            originals[key] = problem
    before = runaway.stopped()
    _search_all(list(searches.values()), sandboxes, seed, rules)
    # Derived inputs add tests, never refusals: where no edit qualified on them, one is sought without them.
    again = {key: _Search(_without_derived(originals[key]), search.candidates) for key, search in searches.items()
             if search.chosen is None and originals[key].derived}
    _search_all(list(again.values()), sandboxes, seed, rules)
    searches.update({key: search for key, search in again.items() if search.chosen is not None})
    runaway.report("choosing new outputs", before)
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
        result.new_answers = chosen.answers_by_input()
        result.derived_inputs = list(chosen.derived)
        if chosen.scored is not None:
            result.reason = f"newoutput: scored on {len(chosen.answers)} of {len(chosen.scored)} inputs (on the " \
                            f"others the published program fails, runs more than {_unedited_steps(problem, rules):,} " \
                            "lines, " \
                            "or disagrees with the benchmark's answer)"
        if len(chosen.answers) == 1 and isinstance(problem.tests, CallTests):
            result.expected_output = chosen.answers[0]
        # The published input still answers input prediction unless it gives another answer now.
        input_changed = "input" in result.changed_answers if chosen.also_same is None else not chosen.also_same
        result.changed_answers = ["output", "input"] if input_changed else ["output"]
        step.changed, step.sites = True, len(chosen.edit.steps)
        result.checked_inputs += len(chosen.answers)
        result.verified_inputs += len(chosen.answers)
        made[id(result)] = chosen
    return made
