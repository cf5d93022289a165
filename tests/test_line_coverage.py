"""NewOutput's coverage rule: an edit may not leave more of the program's statements unexecuted on every
scored input than the unedited program does (a loop that stops running, a branch no input takes any
more); lines are traced in the sandbox and a run that could not be traced checks nothing."""

import sys
from textwrap import dedent

from dynbench_tasks.benchmarks.new_answers import literal_problem
from mutators import MUTATED, UNCHANGED, ProgramKind, mutate
from mutators.input_choice import choose_new_inputs
from mutators.line_coverage import calls_task, scripts_task, statements, unexecuted
from mutators.newoutput import edits
from mutators.output_choice import DEAD_CODE, choose_new_outputs
from mutators.programs import CallTests

LOOP = dedent("""\
    def f(n):
        total = 0
        for i in range(n):
            total += i
        return total
""")


def _unexecuted_calls(sandbox, code: str, calls: list[str], preamble: str = "import math") -> int | None:
    source = preamble + "\n" + code
    outcome = sandbox.run([calls_task(source, calls, 1.0, 100_000)])[0]
    return unexecuted(code, source, outcome["result"]["results"] if outcome["status"] == "ok" else None, "values")


def test_statements_are_counted_where_no_scored_call_reaches_them(seeded_sandboxes):
    sandbox = seeded_sandboxes[0]
    assert statements(LOOP) == {1, 2, 3, 4, 5}
    assert _unexecuted_calls(sandbox, LOOP, ["f(0)"]) == 1  # the loop's body
    assert _unexecuted_calls(sandbox, LOOP, ["f(3)"]) == 0
    assert _unexecuted_calls(sandbox, LOOP, ["f(0)", "f(2)"]) == 0  # reached by either call counts
    assert _unexecuted_calls(sandbox, LOOP, ["f(0)", "f(-1)"], preamble="") == 1


def test_a_call_that_fails_or_overruns_checks_nothing(seeded_sandboxes):
    sandbox = seeded_sandboxes[0]
    assert _unexecuted_calls(sandbox, LOOP, ["f(3)", "f('x')"]) is None
    assert _unexecuted_calls(sandbox, "def f(n):\n    while n:\n        n += 1\n", ["f(1)"]) is None


def test_a_script_is_traced_on_every_stdin_after_its_preamble(seeded_sandboxes):
    code = "n = int(input())\nif n > 2:\n    print(n)\nelse:\n    print(-n)\n"
    preamble = "import sys\nsys.setrecursionlimit(10000)"
    source = preamble + "\n" + code

    def count(stdins: list[str]) -> int | None:
        outcome = seeded_sandboxes[0].run([scripts_task(source, stdins, 2.0, None)])[0]
        return unexecuted(code, source, outcome["result"]["results"] if outcome["status"] == "ok" else None, "exit:0")

    assert count(["5\n"]) == 1 and count(["1\n"]) == 1  # one branch or the other
    assert count(["5\n", "1\n"]) == 0
    assert count(["5\n", "x\n"]) is None  # a run that fails checks nothing


def test_a_traced_script_stops_once_no_more_than_the_allowed_statements_are_unexecuted(seeded_sandboxes):
    """Later tests can only run more statements, so the runs stop where the count is already at most the
    allowed one; the count over the runs made is taken only there."""
    code = "n = int(input())\nif n > 2:\n    print(n)\nelse:\n    print(-n)\n"
    stdins = ["5\n", "6\n", "1\n", "7\n"]

    def runs(allowed: int) -> list[dict]:
        outcome = seeded_sandboxes[0].run([scripts_task(code, stdins, 2.0, None, code, allowed)])[0]
        return outcome["result"]["results"]

    assert len(runs(1)) == 1 and unexecuted(code, code, [*runs(1), None, None, None], "exit:0", 1) == 1
    assert len(runs(0)) == 3 and unexecuted(code, code, [*runs(0), None], "exit:0", 0) == 0  # the else needs "1"
    # Runs not made leave an upper bound, not a count: above the allowed one, or with none allowed, it checks nothing.
    first = runs(1)
    assert unexecuted(code, code, [*first, None, None, None], "exit:0", 0) is None
    assert unexecuted(code, code, [*first, None, None, None], "exit:0") is None


def _crux(code: str, arguments: str, output: str, sandboxes, seed: int):
    result = mutate(code, "O", seed, kind=ProgramKind.FUNCTION, entry_point="f", call_arguments=arguments)
    choose_new_inputs([(code, result, CallTests("f", [arguments]), output)], seed, sandboxes)
    choose_new_outputs([(result, literal_problem(arguments, output, result))], seed, sandboxes)
    return result


def _reached(code: str, call: str) -> set[int]:
    lines: set[int] = set()

    def trace(frame, event, arg):
        if frame.f_code.co_filename == "<edited>" and event == "line":
            lines.add(frame.f_lineno)
        return trace

    namespace: dict = {}
    sys.settrace(trace)
    try:
        exec(compile(code, "<edited>", "exec"), namespace)
        eval(call, namespace)
    finally:
        sys.settrace(None)
    return lines


def test_an_edit_that_leaves_a_branch_no_input_takes_is_not_taken(seeded_sandboxes):
    # "3 -> 5" (seed 0's first candidate) makes the condition false for 5: the doubling would never run.
    code = "def f(x):\n    if x > 3:\n        x = x * 2\n    return x\n"
    assert edits(code, 0, 24)[0].what == "line 2: 3 -> 5"
    for seed in range(4):
        result = _crux(code, "5", "10", seeded_sandboxes, seed)
        assert result.status == MUTATED and result.edit != "line 2: 3 -> 5", seed
        assert statements(result.code) <= _reached(result.code, "f(5)"), (seed, result.edit)


def test_a_program_whose_every_changing_edit_makes_code_dead_keeps_none(seeded_sandboxes):
    # Every edit of the condition that changes the answer leaves the append unexecuted.
    code = "def f(xs):\n    out = []\n    for x in xs:\n        if x == 4:\n            out.append(x)\n    return out\n"
    for seed in range(3):
        result = _crux(code, "[4, 4]", "[4, 4]", seeded_sandboxes, seed)
        assert result.status == UNCHANGED and result.reason == f"newoutput: no edit ({DEAD_CODE})", seed
