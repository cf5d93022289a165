"""NewOutput: a seeded edit of the program, the answers recomputed by running it, and the rules that
keep an edit (it runs cleanly, gives the same answers under two hash seeds, changes an answer)."""

import ast
import subprocess
import sys
from textwrap import dedent

import pytest

from dynbench_tasks.benchmarks import BENCHMARKS, load_benchmark
from dynbench_tasks.benchmarks.new_answers import (
    JavaType,
    harness_signature,
    java_record,
    literal_problem,
    script_problem,
)
from dynbench_tasks.benchmarks.transcoder_harness import (
    harness_calling,
    harness_imports,
    harness_parameters,
    judged_harness,
    judged_parameters,
)
from dynbench_tasks.benchmarks.translation import removed_apis
from mutators import MUTATED, UNCHANGED, ProgramKind, mutate, parse_chain
from mutators.input_choice import choose_new_inputs, guessable
from mutators.newoutput import edits
from mutators.output_choice import FAILS, NO_HARDER, NO_SITES, NONDETERMINISTIC, SAME_ANSWERS, choose_new_outputs
from mutators.programs import CallTests, StdinTests


# ---------------------------------------------------------------------------------- the edits
def test_edits_are_one_token_each_literals_first_and_repeat_with_the_seed():
    code = dedent("""\
        def f(xs):
            \"\"\"Keep 3 of them.\"\"\"
            return [x + 1 for x in xs if x < 3][:2]
        """)
    found = edits(code, 0, 24)
    assert [e.what for e in found] == [e.what for e in edits(code, 0, 24)]
    assert {e.what for e in found} != {e.what for e in edits(code, 1, 24)} or \
        [e.what for e in found] != [e.what for e in edits(code, 1, 24)]
    assert found[0].what.startswith("line 3: ") and found[0].text.lstrip("-").isdigit()  # a literal comes first
    for edit in found:
        edited = edit.apply(code)
        assert edited != code and "Keep 3 of them." in edited  # the docstring is never edited
        differing = [(a, b) for a, b in zip(code.splitlines(), edited.splitlines(), strict=True) if a != b]
        assert len(differing) == 1
    kinds = {e.what.split(": ", 1)[1] for e in found}
    assert {"< -> <=", "+ -> -"} <= kinds and any(k.startswith("insert") for k in kinds)


def test_what_edits_do_to_literals_operators_and_calls():
    code = "def f(s):\n    return s.lower() if True else max(s, 'ab')\n"
    kinds = {e.what.split(": ", 1)[1] for e in edits(code, 0, 24)}
    assert {"True -> False", "lower -> upper", "max -> min"} <= kinds
    assert any(k.startswith("'ab' -> ") and k != "'ab' -> 'ab'" for k in kinds)
    assert edits("def f(x):\n    return f'{x + 1}'\n", 0, 24) == []  # f-strings stay as they are
    assert edits("def f(x):\n    return x\n", 0, 24) == []
    assert edits("def f(:\n", 0, 24) == []


# ---------------------------------------------------------------------------------- choosing (CRUXEval)
def _crux(code: str, arguments: str, output: str, sandboxes, chain: str = "O", seed: int = 0):
    code = dedent(code)
    result = mutate(code, chain, seed, kind=ProgramKind.FUNCTION, entry_point="f", call_arguments=arguments)
    tests = CallTests("f", [arguments])
    choose_new_inputs([(code, result, tests, output)], seed, sandboxes)
    choose_new_outputs([(result, literal_problem(arguments, output, result))], seed, sandboxes)
    return result


def test_the_edited_program_gives_the_new_output(seeded_sandboxes):
    result = _crux("def f(xs):\n    return [x * 2 for x in xs if x > 1]\n", "[1, 2, 3]", "[4, 6]", seeded_sandboxes)
    assert result.status == MUTATED and result.edit and result.code != "def f(xs):\n    return [x * 2 for x in xs if x > 1]\n"
    namespace: dict = {}
    exec(result.code, namespace)
    assert repr(namespace["f"]([1, 2, 3])) == result.expected_output == result.new_answers[0] != "[4, 6]"
    assert result.changed_answers == ["output"]  # the published input still gives the shown output
    assert result.steps[-1].operator == "newoutput" and result.steps[-1].changed
    again = _crux("def f(xs):\n    return [x * 2 for x in xs if x > 1]\n", "[1, 2, 3]", "[4, 6]", seeded_sandboxes)
    assert (again.code, again.expected_output) == (result.code, result.expected_output)


@pytest.mark.parametrize("code, arguments, output, why", [
    ("def f(x):\n    return x\n", "5", "5", NO_SITES),
    ("def f(x):\n    unused = 7\n    return x\n", "5", "5", SAME_ANSWERS),
    ("def f(x):\n    return [x][0]\n", "5", "5", FAILS),
    ("def f(x):\n    return repr({str(i) for i in range(30)})[:x]\n", "6", repr("?"), NONDETERMINISTIC),
])
def test_no_qualifying_edit_leaves_the_program_with_the_reason(code, arguments, output, why, seeded_sandboxes):
    result = _crux(code, arguments, output, seeded_sandboxes)
    assert result.status == UNCHANGED and result.expected_output is None and result.changed_answers == []
    assert result.reason == f"newoutput: no edit ({why})"


def test_an_edit_whose_output_can_be_guessed_is_the_last_choice(seeded_sandboxes):
    # "2 -> 1" in the condition makes f return s as it came: an answer copied from the call; "1 -> 2"
    # or "1 -> 0" make the published 'ABABAB' 'ABABABAB' or 'ABAB', patches of it; "+ -> -" ('AB') and
    # ".upper" -> ".lower" ('ababab') give answers that must be worked out.
    code = "def f(s, n):\n    if n > 2:\n        return s\n    return s.upper() * (n + 1)\n"
    for seed in range(6):
        result = _crux(code, "'ab', 2", "'ABABAB'", seeded_sandboxes, seed=seed)
        assert result.status == MUTATED and result.expected_output in ("'AB'", "'ababab'"), seed
        assert not guessable("'ab', 2", ast.literal_eval(result.expected_output), result.expected_output, "'ABABAB'")
    # Where every edit's answer can be guessed, the least alike the published one is taken: 'ab' (the
    # argument, copied), not 'abab' or 'abababab' (patches of 'ababab').
    for seed in range(6):
        result = _crux("def f(s, n):\n    if n > 2:\n        return s\n    return s * (n + 1)\n", "'ab', 2",
                       "'ababab'", seeded_sandboxes, seed=seed)
        assert result.status == MUTATED and result.expected_output == "'ab'", (seed, result.edit)
    # Where every edit's answer is an argument, one of them is still taken.
    result = _crux("def f(s, t):\n    if len(s) > 2:\n        return s\n    return t\n", "'ab', 'x'", "'x'",
                   seeded_sandboxes)
    assert result.status == MUTATED and result.expected_output == "'ab'"


def test_a_new_inputs_fresh_output_is_never_traded_for_a_guessable_one(seeded_sandboxes):
    # The new input's list comes back reversed; the edits that change that make f return the list as it
    # came (copied from the call) or fail, so NewOutput leaves the new input's answer as it is.
    code = "def f(nums):\n    for _ in range(len(nums) - 1):\n        nums.reverse()\n    return nums\n"
    published = "[1, -9, 7, 2, 6, -3, 3]"
    for seed in range(4):
        result = _crux(code, published, published, seeded_sandboxes, chain="FUVIO", seed=seed)
        value = ast.literal_eval(result.expected_output)
        assert result.status == MUTATED and result.new_input is not None, seed
        assert not guessable(result.call_arguments, value, result.expected_output, published), (seed, result.edit)
    assert f"newoutput: no edit ({NO_HARDER})" in result.reason and result.edit is None


def test_an_edit_that_kills_the_child_is_judged_alone(seeded_sandboxes):
    # The edits share a child; "1 -> 2" makes the call exit the process, which must not cost the others.
    code = "import os\ndef f(x):\n    if x + 1 == 7:\n        os._exit(3)\n    return x * 3\n"
    result = _crux(code, "5", "15", seeded_sandboxes)
    assert result.status == MUTATED and "os._exit" in result.code
    namespace: dict = {}
    exec(result.code.replace("os._exit(3)", "raise SystemExit"), namespace)
    assert repr(namespace["f"](5)) == result.expected_output != "15"


def test_with_a_new_input_the_published_input_is_checked_for_input_prediction(seeded_sandboxes):
    # f ignores its input: the published input gives the new output too, so only the output changed.
    constant = _crux("def f(x):\n    return 7\n", "5", "7", seeded_sandboxes, chain="FUVIO")
    assert "output" in constant.changed_answers and "input" not in constant.changed_answers
    varying = _crux("def f(x):\n    return x + 1\n", "5", "6", seeded_sandboxes, chain="FUVIO")
    assert varying.changed_answers == ["output", "input"] and varying.new_input is not None
    namespace: dict = {}
    exec(varying.code, namespace)
    shown = eval(f"f({varying.call_arguments})", namespace)
    assert repr(shown) == varying.expected_output and ast.literal_eval(varying.expected_output) != 6
    assert repr(eval("f(5)", namespace)) != varying.expected_output


# ---------------------------------------------------------------------------------- translation answers
def test_stdin_answers_are_what_the_edited_script_prints(seeded_sandboxes):
    code = "n = int(input())\nprint(n * 3 + 1)\n"
    tests = StdinTests(["1\n", "2\n"], ["4", "7"])
    result = mutate(code, "O", 0, kind=ProgramKind.SCRIPT)
    choose_new_outputs([(result, script_problem(tests, result))], 0, seeded_sandboxes)
    assert result.status == MUTATED and len(result.new_answers) == 2
    for stdin, printed in zip(tests.inputs, result.new_answers, strict=True):
        namespace: dict = {"input": lambda stdin=stdin: stdin.strip(), "print": lambda v: v}
        exec(result.code.replace("print(", "answer = ("), namespace)
        assert str(namespace["answer"]) == printed.strip()
    assert result.new_answers != ["4\n", "7\n"]


def _avatar(code: str, inputs: list[str], outputs: list[str], sandboxes):
    record = {"id": "x", "python": code, "tests": [{"input": i, "output": o} for i, o in zip(inputs, outputs, strict=True)]}
    spec = BENCHMARKS["avatar"]
    program = spec.program(record)
    result = mutate(code, "O", 0, kind=ProgramKind.SCRIPT)
    choose_new_outputs([(result, program.answers(result))], 0, sandboxes)
    return result, spec.document_columns([record], [result])["tests"][0]


def test_a_problem_is_scored_on_the_tests_its_published_program_passes_if_they_are_most(seeded_sandboxes):
    code = "n = int(input())\nprint(12 // n)\n"
    # 0 divides by zero; the published output of 4 is wrong: the benchmark is wrong there, not the edit.
    result, tests = _avatar(code, ["1\n", "2\n", "0\n", "4\n", "3\n"], ["12", "6", "0", "9", "4"],
                            seeded_sandboxes)
    assert result.status == MUTATED and "scored on 3 of 5 inputs" in result.reason
    assert [answer is None for answer in result.new_answers] == [False, False, True, True, False]
    assert [test["input"] for test in tests] == ["1\n", "2\n", "3\n"]
    assert [test["output"].strip() for test in tests] != ["12", "6", "4"]
    assert result.checked_inputs == result.verified_inputs == 3
    # Right on fewer than half its tests, the program is left alone.
    result, tests = _avatar(code, ["1\n", "0\n", "4\n"], ["12", "0", "9"], seeded_sandboxes)
    assert result.status == UNCHANGED and result.new_answers is None and len(tests) == 3
    assert "the unedited program" in result.reason


def test_a_script_runs_with_the_api_it_was_written_for(seeded_sandboxes):
    code = "from fractions import gcd\na, b = map(int, input().split())\nprint(gcd(a, b) + 1)\n"
    assert removed_apis(code) and not removed_apis("print(1)\n")
    result, tests = _avatar(code, ["12 8\n", "9 6\n"], ["5", "4"], seeded_sandboxes)
    assert result.status == MUTATED and result.reason == "" and [t["input"] for t in tests[:2]] == ["12 8\n", "9 6\n"]
    assert all(test.get("derived") for test in tests[2:])  # lowered values (a gcd's inputs have nothing to rearrange)
    for test in tests:  # what the edited script prints, run as the sandbox ran it
        run = subprocess.run([sys.executable, "-c", removed_apis(code) + "\n" + result.code], input=test["input"],
                             capture_output=True, text=True, check=True)
        assert run.stdout == test["output"]
    assert [test["output"].strip() for test in tests] != ["5", "4"]


@pytest.mark.parametrize("value, kind, record", [
    (5, JavaType("int"), "i:5"), (2 ** 31, JavaType("long"), f"i:{2 ** 31}"), (3.0, JavaType("int"), "i:3"),
    (3.5, JavaType("int"), None), (True, JavaType("int"), "i:1"), (True, JavaType("boolean"), "b:true"),
    (1, JavaType("boolean"), "b:true"), (2, JavaType("boolean"), None), (3, JavaType("double"), "d:3.0"),
    (float("nan"), JavaType("double"), None), ("a", JavaType("char"), "c:97"), (97, JavaType("char"), "c:97"),
    ("ab", JavaType("char"), None), ("ab", JavaType("String"), "s:ab"), ([1, 2], JavaType("int", 1), "a:[i:1,i:2]"),
    ([[1], []], JavaType("int", 2), "a:[a:[i:1],a:[]]"), ([1, "x"], JavaType("int", 1), None),
])
def test_python_values_become_what_the_java_harness_would_report(value, kind, record):
    assert java_record(value, kind) == record


def test_integers_beyond_the_java_type_wrap_only_where_asked():
    with pytest.raises(ValueError):
        java_record(2 ** 31, JavaType("int"))
    assert java_record(2 ** 31, JavaType("int"), wrap=True) == "i:-2147483648"
    assert java_record(-(2 ** 63) - 1, JavaType("long"), wrap=True) == f"i:{2 ** 63 - 1}"
    assert java_record([2 ** 32 + 5], JavaType("int", 1), wrap=True) == "a:[i:5]"


def test_every_transcoder_harness_signature_is_read():
    records = [r for r in load_benchmark("transcoder") if r["java_harness"]]
    signatures = [harness_signature(r["java_harness"]) for r in records]
    assert all(signatures)
    assert {s[0].name for s in signatures} >= {"int", "boolean", "String", "double", "long", "void"}
    assert harness_signature("static int f_gold ( int a [ ] , char [ ] s , int n )") == (
        JavaType("int"), [JavaType("int", 1), JavaType("char", 1), JavaType("int")])


def test_transcoder_answers_are_the_harness_values_of_the_edited_function(seeded_sandboxes):
    spec = BENCHMARKS["transcoder"]
    record = next(r for r in load_benchmark("transcoder") if r["java_harness"] and r["python_harness"]
                  and "static int f_gold" in r["java_harness"])
    program = spec.program(record)
    result = mutate(program.code, "O", 0, kind=ProgramKind.FUNCTION, entry_point=program.entry_point)
    problem = program.answers(result)
    choose_new_outputs([(result, problem)], 0, seeded_sandboxes)
    assert result.status == MUTATED, result.reason
    assert problem.published == problem.baseline  # the published program gives the harness's own values
    namespace: dict = {}
    exec(result.code, namespace)
    values = [eval(f"{program.entry_point}({arguments})", namespace) for arguments in problem.inputs]
    assert result.new_answers == [[f"i:{v}"] for v in values]
    [columns] = [spec.document_columns([record], [result])["expected_records"]]
    assert columns == [[f"i:{v}" for v in values]]


def test_a_transcoder_harness_keeps_the_calls_it_is_scored_on():
    record = next(r for r in load_benchmark("transcoder") if r["id"] == "CHECK_LARGE_NUMBER_DIVISIBLE_4_NOT")
    calls = judged_parameters(record["java_harness"])
    kept = [index % 3 != 1 for index in range(len(calls))]
    narrowed = harness_calling(record["java_harness"], kept)
    assert judged_parameters(narrowed) == [call for call, keep in zip(calls, kept, strict=True) if keep]
    assert len(calls) == 10 and judged_harness(narrowed).comparison == judged_harness(record["java_harness"]).comparison


def test_a_harness_is_read_once_and_each_caller_gets_a_list_of_its_own(monkeypatch):
    """Every task of a run asks for each TransCoder problem's program: its harness is parsed once per process."""
    from mutators import thread_safe_ast

    python_harness = "import math\nparam = [(1, 'a'), (3, [4])]\n# test_newoutput: read once\n"
    java_harness = 'param0.add(1);\nparam0.add(2);\nparam1.add("x");\nparam1.add("y"); // test_newoutput\n'
    parsed = []
    parse = thread_safe_ast.parse
    monkeypatch.setattr(thread_safe_ast, "parse", lambda text, *rest, **named: parsed.append(text) or parse(text, *rest, **named))
    for _ in range(3):
        arguments, judged = harness_parameters(python_harness), judged_parameters(java_harness)
        assert arguments == ["1, 'a'", "3, [4]"] and judged == ["1, 'x'", "2, 'y'"]
        arguments.append("a caller's own call")
        judged.clear()
        assert harness_imports(python_harness) == "import math"
    assert parsed.count(python_harness) == 2  # once for its calls, once for its imports


def test_the_operator_parses_in_chains_and_presets():
    assert parse_chain("FUVIO").spec == "F+U+V2+I+O" and parse_chain("fuvo").spec == "F+U+V2+O"
    assert parse_chain("newoutput").changes_answers and not parse_chain("FUV").changes_answers


def test_edits_of_programs_that_share_a_child_are_each_judged_as_alone(seeded_sandboxes):
    # The edits of several programs share children; an edit that makes a C loop run past the CPU limit
    # kills its child, and every other edit must be judged as in a child of its own.
    from mutators.output_choice import OutputRules, _outcomes, _run

    problems = [literal_problem("4", "6", mutate("def f(n):\n    return sum(range(n))\n", "O", 0,
                                                 kind=ProgramKind.FUNCTION, entry_point="f", call_arguments="4")),
                literal_problem("[3, 1]", "[1, 3]", mutate("def f(xs):\n    return sorted(xs)\n", "O", 0,
                                                           kind=ProgramKind.FUNCTION, entry_point="f",
                                                           call_arguments="[3, 1]"))]
    jobs = [(problems[0], "def f(n):\n    return sum(range(n ** 20))\n"),
            (problems[0], "def f(n):\n    return sum(range(n + 1))\n"),
            (problems[1], "def f(xs):\n    return sorted(xs, reverse=True)\n")]
    rules = OutputRules()
    assert _run(seeded_sandboxes[0], jobs, rules) == [FAILS, (["10"], None), (["[3, 1]"], None)]
    apart = _outcomes(seeded_sandboxes[0], jobs, rules, together=False)
    assert [outcome[0]["result"]["results"][0].get("outcome") for outcome in apart[1:]] == ["values", "values"]
