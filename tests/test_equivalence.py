"""The equivalence check: original and mutant called side by side in the sandbox on the benchmark's
inputs and on perturbed extra ones."""

from textwrap import dedent

from mutators import MUTATED, REJECTED, ProgramKind, mutate
from mutators.equivalence import CheckSettings, check_equivalence
from mutators.programs import CallTests, StdinTests

# Loops for ever on most perturbed inputs, returns at once on the benchmark's own.
SLOW_ON_EXTRAS = dedent("""\
    def f(n):
        total = 0
        while n != 3:
            total += 1
        return total + n
    """)


def _mutant(code: str, arguments: str, chain: str = "V1"):
    return mutate(code, chain, 0, kind=ProgramKind.FUNCTION, entry_point="f", call_arguments=arguments)


def test_a_mutant_that_differs_is_rejected_with_the_input_that_shows_it(sandbox):
    code = "def f(x):\n    return x + 1\n"
    result = _mutant(code, "2")
    result.code = "def f(x):\n    return x + 2\n"
    check_equivalence([(code, result, CallTests("f", ["2"]))], sandbox)
    assert result.status == REJECTED
    assert result.reason == "differs on input (2): original returned 3; mutant returned 4"


def test_extra_inputs_the_original_cannot_finish_are_dropped(sandbox):
    tests = CallTests("f", ["3"], extra_inputs=8)
    result = _mutant(SLOW_ON_EXTRAS, "3")
    check_equivalence([(SLOW_ON_EXTRAS, result, tests)], sandbox, CheckSettings(seed=4))
    assert result.status == MUTATED, result.reason
    assert 1 <= result.checked_inputs < 9  # the given input and the extras that finished


def test_mutants_of_one_program_are_checked_together_each_on_its_own(sandbox):
    code = "def f(x, y=1):\n    total = x\n    for i in range(y):\n        total += i\n    return total\n"
    tests = CallTests("f", ["4, y=3"], extra_inputs=4)
    results = [_mutant(code, "4, y=3", chain) for chain in ("V1", "V2", "F", "FUV")]
    wrong = _mutant(code, "4, y=3", "U")
    wrong.code = code.replace("total = x", "total = x + 1")
    crashing = _mutant(code, "4, y=3", "F")
    crashing.code = "import os\n" + code.replace("return total", "os._exit(1)")
    items = [(code, r, tests) for r in [*results, wrong, crashing]]
    check_equivalence(items, sandbox)
    assert [r.status for r in results] == [MUTATED] * 4
    assert all(r.checked_inputs >= 1 for r in results)
    assert wrong.status == REJECTED and wrong.reason.startswith("differs on input (4, y=3)")
    assert crashing.status == REJECTED and "could not finish" in crashing.reason


def test_the_benchmark_inputs_keep_the_full_budget(sandbox):
    code = "import time\ndef f(x):\n    time.sleep(0.5)\n    return x\n"
    result = _mutant(code, "1")
    check_equivalence([(code, result, CallTests("f", ["1"], extra_inputs=0))], sandbox, CheckSettings(seconds=2.0))
    assert result.status == MUTATED and result.checked_inputs == result.verified_inputs == 1


def test_a_sequence_that_begins_another_takes_the_original_run_of_the_longer(tmp_path, monkeypatch):
    """The fork server's compare task, called here directly: the original's module body runs once for
    a chain without NewInput (the inputs) and one with it (the same inputs, then the new one)."""
    from mutators.execution.sandbox import EXECUTION_FOLDER

    monkeypatch.syspath_prepend(str(EXECUTION_FOLDER))
    monkeypatch.chdir(tmp_path)
    import worker

    original = "open('defined.txt', 'a').write('x')\ndef f(x):\n    return x + 1\n"
    mutant = "def f(y):\n    return 1 + y\n"
    inputs = [["1", 2.0, None], ["2", 0.25, 200_000]]
    payload = {"preamble": "", "original": original, "function": "f", "seconds": 2.0,
               "sequences": [inputs, [*inputs, ["7", 2.0, None]]],
               "mutants": [{"source": mutant, "sequence": 0, "inputs": ["1", "2"]},
                           {"source": mutant, "sequence": 1, "inputs": ["1", "2", "7"]},
                           {"source": mutant.replace("1 + y", "2 + y"), "sequence": 1, "inputs": ["1", "2", "7"]}]}
    first, second, wrong = worker.task_compare_calls(payload)["mutants"]
    assert [entry["agree"] for entry in first["inputs"]] == [True, True]
    assert [entry["agree"] for entry in second["inputs"]] == [True, True, True]
    assert [entry["agree"] for entry in wrong["inputs"]] == [False, False, False]
    assert (tmp_path / "defined.txt").read_text() == "x"


def test_a_script_is_checked_on_the_tests_its_original_runs_within_budget_and_its_mutant_counted_there(sandbox):
    """With ``script_steps`` 100, the test on which the original runs about 600 lines is not checked; a
    mutant that runs more than ten times the original's lines on a checked test is refused on its count."""
    code = "n = int(input())\ntotal = 0\nfor i in range(n):\n    total += i\nprint(total)\n"
    tests = StdinTests(["3\n", "300\n"], ["3", str(sum(range(300)))])
    settings = CheckSettings(script_steps=100)
    faithful = mutate(code, "F", 0, kind=ProgramKind.SCRIPT)
    slow = mutate(code, "V1", 0, kind=ProgramKind.SCRIPT)
    slow.code = code.replace("print(total)", "for j in range(100):\n    pass\nprint(total)")
    check_equivalence([(code, faithful, tests), (code, slow, tests)], sandbox, settings)
    assert faithful.status == MUTATED and faithful.checked_inputs == faithful.verified_inputs == 1
    assert slow.status == REJECTED and "original exit:0" in slow.reason and "mutant over_budget" in slow.reason
    roomy = mutate(code, "F", 0, kind=ProgramKind.SCRIPT)
    slow.status = MUTATED
    check_equivalence([(code, roomy, tests), (code, slow, tests)], sandbox, CheckSettings(script_steps=10_000))
    assert roomy.status == MUTATED and roomy.checked_inputs == 2
    # on "3" the original runs 10 lines: the mutant's 211 are past ten times that (and 100), on "300" they are not
    assert slow.status == REJECTED and slow.reason.startswith("differs on stdin '3\\n'"), slow.reason


def test_a_script_whose_original_dies_on_a_test_is_checked_against_its_own_budget_there(sandbox):
    """An original that dies reports no count: its mutant then gets ten times the original's budget, and
    agrees by dying too."""
    code = "import os\nn = int(input())\nif n == 0:\n    os.kill(os.getpid(), 9)\nprint(n)\n"
    tests = StdinTests(["0\n", "5\n"], ["", "5"])
    result = mutate(code, "V1", 0, kind=ProgramKind.SCRIPT)
    check_equivalence([(code, result, tests)], sandbox, CheckSettings(script_steps=100))
    assert result.status == MUTATED and result.checked_inputs == 2, result.reason


def test_a_script_mutant_that_dies_where_its_original_prints_is_rejected_so(sandbox):
    """Each test of a script runs in a process of its own: one that ends without a word is told apart from one
    that ran out of time, as a task of its own would tell them."""
    code = "n = int(input())\nprint(n)\n"
    tests = StdinTests(["0\n", "5\n"], ["0", "5"])
    result = mutate(code, "V1", 0, kind=ProgramKind.SCRIPT)
    name = result.code.split(" = ")[0]
    result.code = "import os\n" + result.code.replace("print(", f"if {name} == 5:\n    os._exit(3)\nprint(")
    check_equivalence([(code, result, tests)], sandbox, CheckSettings(script_steps=100))
    assert result.status == REJECTED and result.reason.startswith("differs on stdin '5\\n'"), result.reason
    assert "original exit:0" in result.reason and "mutant died" in result.reason
