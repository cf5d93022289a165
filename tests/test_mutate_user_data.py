"""``dynbench mutate --input`` on a user's own problems: names as Python reads them, per-record inputs
and expected answers, ``--verify`` and the answer-changing operators, and records that hold no problem."""

import json
import subprocess
import sys

import pytest
from test_cli_mutate import dynbench

from dynbench_tasks.cli import build_parser

pytestmark = pytest.mark.slow  # the fast subset (README) leaves this module out
FILE_LIGATURE, FULL_WIDTH_VAR1, FULL_WIDTH_NEXT = "\ufb01le", "\uff56\uff41\uff52\uff11", "\uff4e\uff45\uff58\uff54"

REVERSE = {"id": "reverse", "code": "def f(s, n):\n    out = s[::-1]\n    for i in range(n - 1):\n        out = out + s[::-1]\n    return out\n",
           "inputs": ["'abc', 2", "'xy', 3"], "outputs": ["'cbacba'", "'yxyxyx'"]}
COUNT = {"id": "count", "code": "def f(items, wanted):\n    seen = 0\n    for item in items:\n        if item == wanted:\n            seen += 1\n    return seen\n",
         "inputs": ["[1, 2, 1, 3], 1", "[], 5", "items=[4, 4], wanted=4"], "outputs": ["2", "0", "2"]}
SUM = {"id": "sum", "code": "n = int(input())\nvalues = list(map(int, input().split()))\ntotal = 0\nfor v in values[:n]:\n    total += v\nprint(total)\n",
       "inputs": ["3\n1 2 3\n", "2\n5 6 7\n"], "outputs": ["6", "11"]}


def _write(path, records):
    path.write_text("".join((json.dumps(r) if not isinstance(r, str) else r) + "\n" for r in records))
    return path


def _mutate(tmp_path, records, *args):
    """Lines written and the summary of one run over ``records``."""
    out = tmp_path / "out.jsonl"
    done = dynbench("mutate", "--input", str(_write(tmp_path / "in.jsonl", records)), *args, "--seed", "0",
                    "--out", str(out))
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in out.read_text().splitlines()], json.loads(done.stderr.strip().splitlines()[-1])


def _run(code, stdin=""):
    done = subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True, text=True, timeout=60)
    return done.stdout, done.stderr.strip().splitlines()[-1:]


def _answers(code, calls):
    """``repr`` of ``f(<arguments>)`` for each call, as a program of the test runs it."""
    printed = "\n".join(f"print(repr(f({arguments})))" for arguments in calls)
    stdout, error = _run(code + "\n" + printed)
    assert not error, error
    return stdout.splitlines()


def test_names_are_compared_as_python_reads_them(tmp_path):
    """Python NFKC-normalises identifiers: a ligature or full-width spelling is the same variable, so a
    renaming that tells them apart changes what the program does (before: a NameError, 2 for 101, a
    shadowed ``next`` that For2While's loop then calls, and a keyword argument left behind)."""
    programs = [
        f"def total(n):\n    {FILE_LIGATURE} = n * 2\n    return file + 1\n\nprint(total(3))\n",
        f"{FULL_WIDTH_VAR1} = 100\n\ndef shift(n):\n    x = n\n    return x + {FULL_WIDTH_VAR1}\n\nprint(shift(1))\n",
        f"def g(items):\n    {FULL_WIDTH_NEXT} = lambda it: 0\n    out = []\n    for x in items:\n"
        "        out.append(x + next(iter([1])))\n    return out\n\nprint(g([1, 2]))\n",
        f"def outer():\n    def g({FILE_LIGATURE}):\n        return {FILE_LIGATURE} * 2\n    return g(file=4)\n\nprint(outer())\n",
    ]
    lines, summary = _mutate(tmp_path, [{"code": code} for code in programs], "--code-field", "code", "--chain", "F+V1")
    assert summary["mutated"] == 4
    changed_meaning = [line["mutated_code"] for line in lines if _run(line["mutated_code"]) != _run(line["code"])]
    assert not changed_meaning



def test_a_program_that_reads_variable_names_from_frames_keeps_them(tmp_path):
    """A frame or code object hands out the names of a function's variables (its callers' too, through
    ``f_back``), however it is reached: such a program keeps every name, so no rewrite changes what it
    prints (before: renamed, and printing the new names)."""
    programs = [
        "import sys\n\ndef f(a):\n    count = a + 1\n    return sorted(sys._getframe().f_locals)\n\nprint(f(1))\n",
        "def f(a):\n    total = a * 2\n    return total\n\nprint(f.__code__.co_varnames)\n",
        "import inspect\n\ndef g():\n    return sorted(inspect.currentframe().f_back.f_locals)\n\n"
        "def f(a):\n    seen = a\n    return g()\n\nprint(f(2))\n",
        "import sys\n\ndef f(a):\n    total = a\n    frame = getattr(sys, '_getframe')()\n"
        "    return list(frame.f_locals)\n\nprint(f(3))\n",
    ]
    lines, _ = _mutate(tmp_path, [{"code": code} for code in programs], "--chain", "F+V1")
    changed_meaning = [line["mutated_code"] for line in lines
                       if line.get("mutated_code") and _run(line["mutated_code"]) != _run(line["code"])]
    assert not changed_meaning

def test_code_field_defaults_to_code(tmp_path):
    lines, summary = _mutate(tmp_path, [{"code": "def area(w, h):\n    s = w * h\n    return s\n"}], "--chain", "V1")
    assert summary["mutated"] == 1 and "var1 = w * h" in lines[0]["mutated_code"]


def test_verify_runs_each_function_on_the_inputs_of_its_record(tmp_path):
    failing = {"id": "fails", "code": "def f(x):\n    y = x\n    return y.missing\n", "inputs": ["0"]}
    lines, summary = _mutate(tmp_path, [REVERSE, COUNT, failing], "--input-field", "inputs", "--entry-point", "f",
                             "--chain", "FUV", "--verify")
    by_id = {line["id"]: line["mutation"] for line in lines}
    assert [by_id[name]["status"] for name in ("reverse", "count", "fails")] == ["mutated"] * 3
    # Each record's own inputs, and the perturbed ones the check adds to them, ran on original and mutant.
    assert by_id["reverse"]["verified_inputs"] >= 2 and by_id["count"]["verified_inputs"] >= 3
    assert by_id["fails"]["checked_inputs"] >= 1 and by_id["fails"]["verified_inputs"] == 0
    assert summary["unverified"] == 1 and summary["rejected"] == 0
    # A parameter passed by keyword in an input keeps its name (the input is not rewritten).
    assert _answers(lines[1]["mutated_code"], COUNT["inputs"]) == COUNT["outputs"]


def test_verify_runs_each_script_on_its_stdin_inputs_and_counts_only_the_expected_outputs(tmp_path):
    wrong = dict(SUM, id="wrong", outputs=["6", "12"])  # the second expected output is not what it prints
    lines, summary = _mutate(tmp_path, [SUM, wrong], "--input-field", "inputs", "--output-field", "outputs",
                             "--chain", "FUV", "--verify")
    assert [line["mutation"]["status"] for line in lines] == ["mutated", "mutated"]
    assert [line["mutation"]["verified_inputs"] for line in lines] == [2, 1]
    assert summary["checked_inputs"] == 4 and summary["verified_inputs"] == 3
    for stdin, expected in zip(SUM["inputs"], SUM["outputs"], strict=True):
        assert _run(lines[0]["mutated_code"], stdin)[0].strip() == expected


def test_new_inputs_and_new_outputs_for_functions(tmp_path):
    no_inputs = {"id": "none", "code": "def f(x):\n    y = x\n    return y\n", "inputs": [], "outputs": []}
    lines, summary = _mutate(tmp_path, [REVERSE, COUNT, no_inputs], "--input-field", "inputs", "--entry-point", "f",
                             "--output-field", "outputs", "--chain", "FUVIO", "--verify")
    assert summary["new_answer"] == 2 and summary["rejected"] == 0
    assert lines[2]["mutation"]["reason"] == ("newinput: no new input (the problem shows no call with its output); "
                                              "newoutput: no edit (the problem has no inputs to compute new answers on)")
    for line, record in zip(lines[:2], (REVERSE, COUNT), strict=True):
        assert line["mutation"]["status"] == "mutated" and line["mutation"]["changed_answers"][0] == "output"
        calls = [line.get("mutated_input", record["inputs"][0]), *record["inputs"][1:]]
        # The answers are what the edited program gives on the inputs as shown, and some differ from the
        # unedited program's.
        assert _answers(line["mutated_code"], calls) == line["mutated_answers"]
        assert _answers(record["code"], calls) != line["mutated_answers"]
    assert lines[0]["mutated_input"] != REVERSE["inputs"][0]  # NewInput chose a new first call


def test_new_outputs_for_scripts_without_expected_outputs(tmp_path):
    record = {key: value for key, value in SUM.items() if key != "outputs"}
    lines, summary = _mutate(tmp_path, [record], "--input-field", "inputs", "--chain", "FUVO")
    [line] = lines
    assert line["mutation"]["status"] == "mutated" and summary["new_answer"] == 1
    printed = [_run(line["mutated_code"], stdin)[0] for stdin in SUM["inputs"]]
    assert printed == line["mutated_answers"]
    assert printed != [_run(SUM["code"], stdin)[0] for stdin in SUM["inputs"]]


def test_records_without_a_usable_problem_are_counted_skips(tmp_path):
    records = [
        ["not", "an", "object"],
        {"id": "no inputs", "code": "def f(x):\n    return x\n"},
        {"id": "number", "code": "def f(x):\n    return x\n", "inputs": 3},
        {"id": "mixed", "code": "def f(x):\n    return x\n", "inputs": ["1", 2]},
        {"id": "escapes", "code": "def f(x):\n    return x\n", "inputs": ["1), (2"], "outputs": ["1"]},
        {"id": "answers", "code": "def f(x):\n    return x\n", "inputs": ["1", "2"], "outputs": ["1"]},
        {"id": "no literal", "code": "def f(x):\n    return x\n", "inputs": ["1"], "outputs": ["x +"]},
        {"id": "code", "code": None, "inputs": ["1"]},
        {"id": "broken", "code": "def f(x)\n    return x\n", "inputs": ["1"], "outputs": ["1"]},
        {"id": "good", "code": "def f(x):\n    y = x\n    return y\n", "inputs": ["1"], "outputs": ["1"]},
    ]
    lines, summary = _mutate(tmp_path, records, "--input-field", "inputs", "--entry-point", "f", "--output-field",
                             "outputs", "--chain", "V1", "--verify")
    assert [line["mutation"]["status"] for line in lines] == ["no_program"] * 8 + ["unparseable", "mutated"]
    assert lines[0]["record"] == ["not", "an", "object"] and lines[1]["mutated_code"] is None
    reasons = [line["mutation"]["reason"] for line in lines[:8]]
    assert reasons == [
        "the record is a JSON array, not an object",
        "the record has no field 'inputs'",
        "field 'inputs' is a JSON number, not a list of strings",
        "item 2 of field 'inputs' is a JSON number, not a string",
        "input 1 of field 'inputs' is not the arguments of a call f(...)",
        "field 'outputs' holds 1 answers for 2 inputs",
        "answer 1 of field 'outputs' is not a Python literal",
        "field 'code' is a JSON null, not a string",
    ]
    assert summary["no_program"] == 8 and sum(summary["skipped"].values()) == 8
    assert summary["skipped"]["the record has no field 'inputs'"] == 1
    assert lines[-1]["mutation"]["verified_inputs"] >= 1


def test_every_option_of_mutate_says_what_it_does(tmp_path):
    commands = next(a for a in build_parser()._actions if a.dest == "command")
    options = [action for action in commands.choices["mutate"]._actions if action.option_strings]
    assert all(action.help for action in options), [a.option_strings for a in options if not a.help]
    assert all(option.startswith("-h") or "_" not in option for action in options for option in action.option_strings)
    shown = dynbench("mutate", "--help")
    assert shown.returncode == 0 and "--input-field NAME" in shown.stdout and '"inputs": ["\'abc\', 2"]' in shown.stdout
