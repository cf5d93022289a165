"""NewInput: a new input of the same shape, its output recomputed by the original program, and the
tasks scoring against it: a model that remembers the published output scores 0, one that runs the
shown program scores 1."""

import ast
import json
import math
import subprocess
import sys
from textwrap import dedent

import lm_eval
import pytest
from scripted_server import ScriptedServer

from dynbench_tasks.errors import SettingsError
from dynbench_tasks.lmeval import task_manager
from mutators import MUTATED, UNCHANGED, ProgramKind, mutate, parse_chain
from mutators.execution.plain import decode
from mutators.input_choice import (
    FAILS,
    NONDETERMINISTIC,
    NOT_A_LITERAL_OUTPUT,
    NOT_LITERAL,
    SAME_OUTPUT,
    TOO_LARGE,
    InputRules,
    _each,
    _Search,
    _value,
    choose_new_inputs,
    guessable,
    likeness,
)
from mutators.programs import CallTests


def _choose(code: str, arguments: str, output: str, sandboxes, chain: str = "I", seed: int = 0):
    code = dedent(code)
    result = mutate(code, chain, seed, kind=ProgramKind.FUNCTION, entry_point="f", call_arguments=arguments)
    choose_new_inputs([(code, result, CallTests("f", [arguments]), output)], seed, sandboxes)
    return result


def test_the_new_input_has_a_new_output_recomputed_by_the_original(seeded_sandboxes):
    result = _choose("def f(xs):\n    return sorted(xs)[::-1]\n", "[3, 1, 2]", "[3, 2, 1]", seeded_sandboxes)
    assert result.status == MUTATED and result.code == "def f(xs):\n    return sorted(xs)[::-1]\n"
    value = ast.literal_eval(result.new_input)
    assert isinstance(value, list) and result.new_input != "[3, 1, 2]"
    assert ast.literal_eval(result.expected_output) == sorted(value)[::-1] != [3, 2, 1]
    assert result.steps[-1].operator == "newinput" and result.steps[-1].changed
    again = _choose("def f(xs):\n    return sorted(xs)[::-1]\n", "[3, 1, 2]", "[3, 2, 1]", seeded_sandboxes)
    other = _choose("def f(xs):\n    return sorted(xs)[::-1]\n", "[3, 1, 2]", "[3, 2, 1]", seeded_sandboxes, seed=5)
    assert again.new_input == result.new_input and other.new_input != result.new_input


@pytest.mark.parametrize("code, arguments, output, why", [
    ("def f(x):\n    return 0\n", "5", "0", SAME_OUTPUT),
    ("def f(x):\n    raise ValueError(x)\n", "5", "0", FAILS),
    ("def f(x):\n    return object()\n", "5", "0", NOT_A_LITERAL_OUTPUT),
    ("def f(x):\n    return 'x' * (abs(x) * 1000 + 1)\n", "0", "'x'", TOO_LARGE),
    ("def f(x):\n    return repr({str(i) for i in range(x, x + 30)})\n", "1", repr("?" * 300), NONDETERMINISTIC),
    ("def f(g):\n    return g()\n", "lambda: 3", "3", NOT_LITERAL),
])
def test_no_qualifying_input_leaves_the_program_unchanged_with_the_reason(code, arguments, output, why,
                                                                           seeded_sandboxes):
    result = _choose(code, arguments, output, seeded_sandboxes)
    assert result.status == UNCHANGED and result.new_input is None and result.expected_output is None
    assert result.reason == f"newinput: no new input ({why})"


@pytest.mark.parametrize("code, arguments, output", [
    # Most neighbours of 'abc' leave it as it is (the answer is the first argument, copied); an input
    # whose second argument is one of its characters makes the program work.
    ("def f(s, x):\n    return s if x not in s else s.replace(x, '')\n", "'abc', 'z'", "'abc'"),
    # A neighbour's output is the published one with the input's edit made to it: a patch.
    ("def f(s):\n    return s[1:].upper()\n", "'ndbtdabdahesyehu'", "'DBTDABDAHESYEHU'"),
])
def test_an_output_that_can_be_guessed_is_the_last_choice(code, arguments, output, seeded_sandboxes):
    for seed in range(4):
        result = _choose(code, arguments, output, seeded_sandboxes, seed=seed)
        value = ast.literal_eval(result.expected_output)
        assert result.status == MUTATED, seed
        assert not guessable(result.new_input, value, result.expected_output, output), (seed, result.new_input)
    assert guessable("'abc', 'z'", "abc", "'abc'", "'x'") and guessable("'ab1c'", "AB1C", "'AB1C'", "'ABC'")
    assert not guessable("'abc'", 3, "3", "4")


def test_where_every_output_can_be_guessed_the_least_alike_is_taken(seeded_sandboxes):
    # Every output of f is its argument, copied; the nearest neighbours ('flamino pink') are also
    # patches of the published output, which a memoriser makes. The reversed string is far from it.
    for seed in range(6):
        result = _choose("def f(s):\n    return s\n", "'flamingo pink'", "'flamingo pink'", seeded_sandboxes, seed=seed)
        value = ast.literal_eval(result.expected_output)
        assert result.status == MUTATED and guessable(result.new_input, value, result.expected_output, "'flamingo pink'")
        assert likeness(result.expected_output, "'flamingo pink'") < 0.5, (seed, result.new_input)


def test_a_computed_input_is_spelled_as_literals_first(seeded_sandboxes):
    result = _choose("seen = [1, 2]\ndef f(x):\n    return x[::-1]\n", "seen[:]", "[2, 1]", seeded_sandboxes)
    assert result.status == MUTATED and isinstance(ast.literal_eval(result.new_input), list)
    assert ast.literal_eval(result.expected_output) == ast.literal_eval(result.new_input)[::-1] != [2, 1]


def test_empty_and_unchangeable_inputs_grow_or_borrow(seeded_sandboxes):
    # No neighbour of {} exists; a grown dict gives another output.
    grown = _choose("def f(d):\n    return sorted(d)\n", "{}", "[]", seeded_sandboxes)
    assert grown.status == MUTATED and ast.literal_eval(grown.new_input) != {}
    # 'i' is not in the text, so the output is empty for every small change of the text: the second
    # argument becomes one of the text's characters.
    borrowed = _choose("def f(text, c):\n    return text[text.find(c):] if c in text else ''\n", "'hello', 'i'", "''",
                       seeded_sandboxes)
    assert borrowed.status == MUTATED and ast.literal_eval(borrowed.expected_output) != ""


def test_in_a_chain_only_the_call_changes_for_it(seeded_sandboxes):
    code = "def f(text):\n    out = ''\n    for c in text:\n        out += c.upper()\n    return out\n"
    result = _choose(code, "'ab'", "'AB'", seeded_sandboxes, chain="FUVI")
    assert result.status == MUTATED and "while" in result.code and result.new_input not in (None, "'ab'")
    assert [s.operator for s in result.steps] == ["for2while", "constunfold", "varnorm2", "newinput"]


def test_translation_benchmarks_cannot_take_a_new_input(tmp_path):
    from dynbench_tasks.lmeval.settings import settings_from_metadata

    with pytest.raises(SettingsError, match=r"operator newinput \(I\).*transcoder problems show no call"):
        settings_from_metadata({"benchmark": "transcoder", "variant": "custom", "chain": "F+I"})
    with pytest.raises(SettingsError, match="avatar has no variant 'newinput'"):
        settings_from_metadata({"benchmark": "avatar", "variant": "newinput"})
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "mutate", "--benchmark", "codenet", "--chain",
                           "I", "--seed", "0", "--out", str(tmp_path / "o.jsonl")], capture_output=True, text=True)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "operator newinput (I) needs a benchmark whose problems show a call; codenet has none" in done.stderr
    assert parse_chain("FUVI").spec == "F+U+V2+I"


def _run(tm, tasks, answer):
    with ScriptedServer(answer) as server:
        return lm_eval.simple_evaluate(
            model="local-completions",
            model_args=f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,"
            "tokenized_requests=False,max_retries=1",
            tasks=tasks, limit=6, task_manager=tm, confirm_run_unsafe_code=True, log_samples=True)


def test_remembering_the_published_output_scores_zero_running_the_program_one(small_data):
    tasks = ["cruxeval_newinput", "cruxeval_fuvi"]
    tm = task_manager({"data_dir": small_data, "repeats": 1, "timeout": 2})
    loaded = tm.load(tasks)["tasks"]
    docs = [doc for task in tasks for doc in list(loaded[task].test_docs())[:6]]
    for doc in docs:
        assert doc["input"] != doc["original_input"] and doc["output"] != doc["original_output"]

    def doc_of(prompt: str) -> dict:
        return next(d for d in docs if f"{d['code']}\nassert f({d['input']}) ==" in prompt)

    def executes(prompt: str, sample: int) -> str:
        doc = doc_of(prompt)  # the benchmark's own program, run here as a model that executes it would
        namespace: dict = {}
        exec(doc["code"], namespace)
        return repr(eval(f"f({doc['input']})", namespace))

    remembered = _run(tm, tasks, lambda prompt, sample: doc_of(prompt)["original_output"])
    executed = _run(tm, tasks, executes)
    for task in tasks:
        assert math.isclose(remembered["results"][task]["pass@1,sandbox"], 0.0), task
        assert math.isclose(executed["results"][task]["pass@1,sandbox"], 1.0), task
        for sample in executed["samples"][task]:
            assert json.loads(sample["filtered_resps"][0][0])["status"] == "passed"
            assert sample["doc"]["mutation"]["steps"][-1]["operator"] == "newinput"


def test_candidates_of_one_child_each_run_the_program_afresh(seeded_sandboxes):
    program = "seen = []\ndef f(x):\n    seen.append(x)\n    return (len(seen), x)\n"
    [outcome] = seeded_sandboxes[0].run([{"kind": "evaluate_each", "payload": {
        "program": program, "expressions": ["f(1)", "f(2)", "f(3)"], "seconds": 2}}])
    results = outcome["result"]["results"]
    assert [decode(r["values"][0]) for r in results] == [(1, 1), (1, 2), (1, 3)]  # no candidate sees another


def test_a_candidate_that_kills_its_child_is_judged_alone(seeded_sandboxes):
    code = "import os\ndef f(x):\n    if x == 2:\n        os._exit(3)\n    return x * 10\n"
    tests = CallTests("f", ["1"])
    search = _Search(code, tests, 10, "10", ["2", "4", "5"])
    [outcomes] = _each(seeded_sandboxes[0], [(search, search.candidates)], InputRules(seconds=0.2))
    assert [_value(outcome) if isinstance(_value(outcome), str) else _value(outcome)[0] for outcome in outcomes] == \
        [FAILS, 40, 50]


def test_programs_that_share_a_child_are_each_judged_as_alone(seeded_sandboxes):
    # sum(range(...)) runs in C, out of reach of the call's timer: the CPU limit kills the child that
    # several programs share, and the others must come out as they would alone.
    from mutators.input_choice import _each_apart

    searches = [
        _Search("seen = []\ndef f(x):\n    seen.append(x)\n    return len(seen) * 100 + x\n", CallTests("f", ["1"]),
                101, "101", ["2", "3"]),
        _Search("def f(n):\n    return sum(range(n))\n", CallTests("f", ["4"]), 6, "6", ["10 ** 14", "5"]),
        _Search("def f(x):\n    while True:\n        x += 1\n", CallTests("f", ["1"]), None, "None", ["2"]),
        _Search("def f(x):\n    return x.__class__.__name__\n", CallTests("f", ["1"]), "int", "'int'", ["'a'"]),
        _Search("def f(x):\n    return 1 // (x - 9)\n", CallTests("f", ["1"]), -1, "-1", ["9", "10"]),
    ]

    def values(outcomes_of_jobs):
        return [[_value(outcome) if isinstance(_value(outcome), str) else _value(outcome)[0] for outcome in outcomes]
                for outcomes in outcomes_of_jobs]

    jobs = [(search, search.candidates) for search in searches]
    rules = InputRules(seconds=0.05)
    shared = values(_each(seeded_sandboxes[0], jobs, rules))
    assert shared == [[102, 103], [FAILS, 10], [FAILS], ["str"], [FAILS, 1]]
    assert shared == values(_each_apart(seeded_sandboxes[0], jobs, rules))


def test_only_programs_that_cannot_reach_shared_state_share_a_child():
    from mutators.batched_calls import shareable

    assert shareable("def f(xs):\n    return sorted(xs)[::-1]\n")
    assert not shareable("import string\ndef f(s):\n    string.digits = s\n    return s\n")
    assert not shareable("def f(s):\n    __builtins__['len'] = max\n    return s\n")
