"""No clock decides what a document holds: a candidate edit, input or extra check input is refused for
being slow on the lines it runs, which every machine counts the same; time limits only stop runaways
(issue 50). The slow test builds slices of a translation task and a CRUXEval answer-changing task idle
and under CPU load and finds the same documents."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dynbench_tasks.lmeval import task_manager
from mutators import ProgramKind, mutate
from mutators.equivalence import CheckSettings, check_equivalence
from mutators.execution.plain import decode
from mutators.input_choice import FAILS as INPUT_FAILS
from mutators.input_choice import InputRules, _each, _Search, _value
from mutators.output_choice import FAILS, OutputRules, Problem, _run
from mutators.programs import MUTATED, CallTests, StdinTests

# f(n) runs 2 + 2n lines: its def line, then the loop's header and body n times, then the return.
LOOP = "def f(n):\n    total = 0\n    for i in range(n):\n        total += i\n    return total\n"


def _evaluate(sandbox, expression: str, steps: int | None, seconds: float) -> dict:
    payload = {"program": LOOP, "expressions": [expression], "seconds": seconds, "clock": "cpu", "steps": steps}
    task = {"kind": "evaluate_each", "payload": payload, "limits": {"wall_seconds": 60, "cpu_seconds": 60}}
    return sandbox.run([task])[0]["result"]["results"][0]


def test_a_call_is_counted_the_same_on_every_run_and_stopped_past_its_budget_whatever_its_timer(sandbox):
    counted = [_evaluate(sandbox, "f(100)", None, seconds) for seconds in (0.5, 5.0)]
    assert [run["outcome"] for run in counted] == ["values", "values"]
    steps = counted[0]["steps"]
    assert steps == counted[1]["steps"] and 200 < steps < 220  # the program's lines only, the definition's too
    for seconds in (0.5, 5.0):
        assert _evaluate(sandbox, "f(100)", steps, seconds)["outcome"] == "values"
        over = _evaluate(sandbox, "f(100)", steps - 1, seconds)
        assert over["outcome"] == "over_budget" and over["steps"] == steps


def test_a_program_that_swallows_its_exceptions_is_still_stopped_over_budget(sandbox):
    swallowing = "def f():\n    while True:\n        try:\n            while True:\n                pass\n" \
                 "        except Exception:\n            pass\n"
    payload = {"program": swallowing, "expressions": ["f()"], "seconds": 5.0, "clock": "cpu", "steps": 1000}
    task = {"kind": "evaluate_each", "payload": payload, "limits": {"wall_seconds": 20, "cpu_seconds": 20}}
    run = sandbox.run([task])[0]["result"]["results"][0]
    assert run["outcome"] == "over_budget" and run["steps"] == 1001


def test_a_script_run_is_counted_and_stopped_past_its_budget(sandbox):
    script = "n = int(input())\nfor i in range(n):\n    pass\nprint(n)\n"

    def run(steps: int | None) -> dict:
        payload = {"source": script, "stdins": ["50\n"], "seconds": 5.0, "steps": steps, "every": True,
                   "run_wall_seconds": 60}
        return sandbox.run([{"kind": "run_scripts", "payload": payload, "limits": {"wall_seconds": 60, "nproc": 64}}])[0][
            "result"]["results"][0]

    counted = run(None)
    assert counted["outcome"] == "exit:0" and counted["stdout"] == "50\n"
    assert run(counted["steps"])["outcome"] == "exit:0"
    assert run(counted["steps"] - 1)["outcome"] == "over_budget"


def _call_problem(arguments: str) -> Problem:
    return Problem(LOOP, CallTests("f", [arguments]), [arguments], read=lambda values: [repr(v[0]) for v in values],
                   same=lambda a, b: a == b, baseline=[None])


def test_new_outputs_refuse_an_edited_call_on_its_steps_not_its_time(sandbox):
    """f(1000) runs about 2000 lines: refused under a budget of 1000 whatever the time limit, taken under 5000."""
    problem = _call_problem("1000")
    for seconds in (0.05, 2.0):
        assert _run(sandbox, [(problem, LOOP)], OutputRules(call_steps=1000, call_seconds=seconds)) == [FAILS]
        [(answers, _)] = _run(sandbox, [(problem, LOOP)], OutputRules(call_steps=5000, call_seconds=seconds))
        assert answers == [repr(sum(range(1000)))]


def test_a_translation_problem_budgets_its_edits_by_the_unedited_programs_steps(seeded_sandboxes):
    """A script's edits may run _SLOWER times the unedited program's steps on its slowest test, plus a slack."""
    from mutators.output_choice import _SLOWER, _find_baselines
    from mutators.output_choice import _Search as OutputSearch

    script = "n = int(input())\ntotal = 0\nfor i in range(n):\n    total += i\nprint(total)\n"
    tests = StdinTests(["10\n", "300\n"], [str(sum(range(10))), str(sum(range(300)))])
    problem = Problem(script, tests, list(tests.inputs), read=lambda values: list(values),
                      same=lambda a, b: a.strip() == b.strip(), published=list(tests.expected), seconds=2.0)
    search = OutputSearch(problem, [])
    rules = OutputRules(script_steps=7)
    _find_baselines([search], seeded_sandboxes[0], rules)
    slowest = 2 + 2 * 300 + 2  # its two first lines, the loop's header and body 300 times, its last check, print
    assert problem.steps == _SLOWER * slowest + 7


def test_a_translation_problem_leaves_unscored_the_inputs_its_unedited_program_runs_too_long_on(seeded_sandboxes):
    """Under ``unedited_script_steps`` of 200, the test on which the unedited script runs 604 lines is not scored
    (one of three); where that is most of its tests, the problem gets no new answers, and says why."""
    from mutators.output_choice import _SLOWER, _find_baselines
    from mutators.output_choice import _Search as OutputSearch

    script = "n = int(input())\ntotal = 0\nfor i in range(n):\n    total += i\nprint(total)\n"

    def search_on(sizes: list[int]) -> OutputSearch:
        tests = StdinTests([f"{n}\n" for n in sizes], [str(sum(range(n))) for n in sizes])
        problem = Problem(script, tests, list(tests.inputs), read=lambda values: list(values),
                          same=lambda a, b: a.strip() == b.strip(), published=list(tests.expected), seconds=2.0,
                          translation=True)
        search = OutputSearch(problem, [])
        _find_baselines([search], seeded_sandboxes[0], OutputRules(script_steps=7, unedited_script_steps=200))
        return search

    light = search_on([10, 20, 300])
    assert light.problem.scored == [True, True, False] and light.problem.inputs == ["10\n", "20\n"]
    assert light.problem.baseline == ["45\n", "190\n"] and light.problem.steps == _SLOWER * (2 + 2 * 20 + 2) + 7
    heavy = search_on([10, 300, 400])
    assert heavy.problem.baseline is None and not heavy.candidates
    assert list(heavy.broken) == ["the unedited program: it runs more than 200 lines on a scored input"]


def test_derived_inputs_and_calls_are_held_to_the_unedited_budget_too(seeded_sandboxes):
    """A derived stdin input on which the unedited script runs past ``unedited_script_steps`` is not kept; a
    call translation problem (TransCoder's: it says its ``seconds``) is narrowed on ``unedited_call_steps``."""
    from mutators.output_choice import _find_baselines, keep_derived
    from mutators.output_choice import _Search as OutputSearch

    script = "n = int(input())\ntotal = 0\nfor i in range(n):\n    total += i\nprint(total)\n"
    tests = StdinTests(["10\n"], ["45"])
    problem = Problem(script, tests, ["10\n", "20\n", "300\n"], read=lambda values: list(values),
                      same=lambda a, b: a.strip() == b.strip(), published=["45", None, None], seconds=2.0,
                      translation=True, derived=2)
    keep_derived([problem], seeded_sandboxes, OutputRules(unedited_script_steps=200))
    assert problem.derived_inputs() == ["20\n"] and problem.derived_answers == ["190\n"]
    calls = Problem(LOOP, CallTests("f", ["10", "20", "300"]), ["10", "20", "300"],
                    read=lambda values: [repr(v[0]) for v in values], same=lambda a, b: a == b,
                    published=[repr(sum(range(n))) for n in (10, 20, 300)], seconds=2.0, translation=True)
    search = OutputSearch(calls, [])
    _find_baselines([search], seeded_sandboxes[0], OutputRules(unedited_call_steps=200))
    assert calls.scored == [True, True, False] and calls.baseline == ["45", "190"], search.broken


def test_new_inputs_refuse_a_candidate_on_its_steps_not_its_time(sandbox):
    search = _Search(LOOP, CallTests("f", ["3"]), 3, "3", ["10", "100000"])
    for seconds in (0.05, 1.0):
        [outcomes] = _each(sandbox, [(search, search.candidates)], InputRules(steps=10_000, seconds=seconds))
        assert decode(outcomes[0]["result"]["values"][0])[0] == 45
        assert _value(outcomes[1]) == INPUT_FAILS and outcomes[1]["result"]["outcome"] == "over_budget"


def test_extra_inputs_past_their_step_budget_are_dropped_the_same_whatever_the_timer(sandbox):
    """f(n) runs 3n + 3 lines: under a budget of 20, the extra inputs above 5 (perturbed from the given 5: 6, 7,
    9, 10, 11 and 12) are dropped, however long the extra calls may take."""
    code = "def f(n):\n    total = 0\n    while n > 0:\n        n -= 1\n        total += n\n    return total\n"
    tests = CallTests("f", ["5"], extra_inputs=12)
    checked = []
    for extra_seconds in (0.01, 0.2):
        result = mutate(code, "V1", 0, kind=ProgramKind.FUNCTION, entry_point="f")
        check_equivalence([(code, result, tests)], sandbox, CheckSettings(extra_steps=20, extra_seconds=extra_seconds))
        assert result.status == MUTATED
        checked.append(result.checked_inputs)
    roomy = mutate(code, "V1", 0, kind=ProgramKind.FUNCTION, entry_point="f")
    check_equivalence([(code, roomy, tests)], sandbox, CheckSettings(extra_steps=10**6))
    assert checked == [7, 7] and roomy.checked_inputs == 13


@pytest.mark.slow
def test_documents_are_the_same_idle_and_under_cpu_load(tmp_path):
    """A leaderboard rebuilds documents to verify a run made elsewhere: a slice of a translation task and of a
    CRUXEval answer-changing task, built idle, with eight spinning processes per core, and on a quarter of one
    core, have the same documents_sha256."""
    script = Path(__file__).resolve().parents[1] / "scripts" / "digests_under_load.py"
    done = subprocess.run([sys.executable, str(script), "--tasks", "cruxeval_fuvio,transcoder_fuvo", "--seeds", "0",
                           "--first", "6"], capture_output=True, text=True, check=True, timeout=3000)
    report = json.loads(done.stdout)
    digests = {kind: report[kind]["digests"] for kind in ("idle", "busy", "quarter")}
    assert all(len(digest) == 64 for seeds in digests["idle"].values() for digest in seeds.values())
    assert digests["busy"] == digests["idle"] and digests["quarter"] == digests["idle"], report
    assert report["same"]


def test_the_digest_script_writes_the_documents_it_digests(tmp_path):
    """Two builds whose digests differ are compared document by document: ``--documents`` writes the documents
    the printed digest is of, in order (the task's own digest of the written ones is the printed one)."""
    script = Path(__file__).resolve().parents[1] / "scripts" / "documents_digests.py"
    done = subprocess.run([sys.executable, str(script), "--tasks", "cruxeval_orig", "--seeds", "0", "--documents",
                           str(tmp_path / "docs")], capture_output=True, text=True, check=True, timeout=600)
    printed = json.loads(done.stdout)["cruxeval_orig"]["0"]
    written = [json.loads(line) for line in (tmp_path / "docs" / "cruxeval_orig.seed0.jsonl").read_text().splitlines()]
    task = task_manager({"seed": 0}).load(["cruxeval_orig"])["tasks"]["cruxeval_orig"]
    assert len(written) == len(list(task.test_docs())) == 800
    assert task.documents_digest(written) == printed
    assert task.documents_digest(written[::-1]) != printed
