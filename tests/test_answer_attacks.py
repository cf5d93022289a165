"""CRUXEval answers are read exactly, through plain lm-eval with a scripted server.

Output prediction: an answer that states an assertion must assert about the shown call
``f(<shown input>)`` (up to spaces and redundant parentheses); a wrapped call, a sum of calls,
another input, an ``or True``, keyword arguments (the original parameter names after a rename, or
the shown ones) and an assertion without the call are ``wrong_call``. Input prediction: arguments
are literal values (or the problem's own input as CRUXEval spells it), never computed ones. Each
document's samples are its attacks, each with the status it must get, and right answers as
controls that pass.
"""

import ast
import json

import lm_eval
import pytest
from scripted_server import ScriptedServer

from dynbench_tasks.lmeval import task_manager

REPEATS = 16
IDS = ("sample_3", "sample_152", "sample_258")


@pytest.fixture(scope="module")
def attack_data(tmp_path_factory, data_dir) -> str:
    """The three CRUXEval problems these tests attack, so that every task builds in seconds."""
    folder = tmp_path_factory.mktemp("cruxeval3")
    lines = (data_dir / "cruxeval.jsonl").read_text(encoding="utf-8").splitlines()
    (folder / "cruxeval.jsonl").write_text("\n".join(line for line in lines if json.loads(line)["id"] in IDS) + "\n",
                                           encoding="utf-8")
    return str(folder)


def _keyword_call(code: str, arguments: str) -> str:
    """``f(<arguments>)`` with its positional arguments passed by keyword, under the names ``code`` gives."""
    function = next(n for n in ast.parse(code).body if isinstance(n, ast.FunctionDef) and n.name == "f")
    values = ast.parse(f"f({arguments})", mode="eval").body.args
    return "f(" + ", ".join(f"{p.arg}={ast.unparse(v)}" for p, v in zip(function.args.args, values, strict=True)) + ")"


def output_attacks(doc: dict) -> list[tuple[str, str]]:
    """(answer, status) for output prediction on one document."""
    call, right = f"f({doc['input']})", doc["output"]
    return [
        (f"assert [{call}] == {right}", "wrong_call"),
        (f"assert {call} + f(0) == {right}", "wrong_call"),
        (f"assert f(0) == {right}", "wrong_call"),
        (f"assert {call} == {right} or True", "wrong_call"),
        (f"assert {right} == {right}", "wrong_call"),
        (f"assert {_keyword_call(doc['original_code'], doc['input'])} == {right}", "wrong_call"),
        (f"assert {_keyword_call(doc['code'], doc['input'])} == {right}", "wrong_call"),
        (f"{right} == {call}", "calls_f"),  # no left side: a value, and it calls f
        (f"{call} == {right} == {right}", "passed"),  # as Python reads it: holds exactly when f(x) == right
        (f"{call} == {right} == 'not it'", "wrong"),
        (f"assert ({call}) == {right}", "passed"),
        (f"( f( {doc['input']} ) ) == {right}", "passed"),
        (f"assert {call} == ({right})", "passed"),
        (f"assert (({call}) == ({right}))", "passed"),
        (f"assert {call} == {right}", "passed"),
        (f" {right}", "passed"),
    ]


def input_attacks(doc: dict) -> list[tuple[str, str]]:
    """(answer, status) for input prediction on the documents the run holds (sample_3, sample_152, sample_258)."""
    right = f"assert f({doc['input']}) == {doc['output']}"
    renamed = doc["code"] != doc["original_code"]
    attacks = {
        "sample_3": [  # f(text, value) on 'bcksrut', 'q'
            ("f(''.join(['bck', 'srut']), 'q')", "not_a_value"),
            ("f('BCKSRUT'.lower(), 'q')", "not_a_value"),
            ("f('bck' + 'srut', 'q')", "not_a_value"),
            ("f(str('bcksrut'), 'q')", "not_a_value"),
            ("f(*['bcksrut', 'q'][:])", "not_a_value"),
            ("f(*(lambda: ['bcksrut', 'q'])())", "not_a_value"),
            (_keyword_call(doc["original_code"], doc["input"]), "error" if renamed else "passed"),
            (_keyword_call(doc["code"], doc["input"]), "passed"),
            ("f(*('bcksrut', 'q'))", "passed"),
            ("f('bcksrut', 'q')", "passed"),
        ],
        "sample_152": [  # CRUXEval's own input is ''.join(['A'] * 20): that spelling, and no other computed one
            ("f(''.join(['A'] * 20))", "passed"),
            ("f(( ''.join( ['A']*20 ) ))", "passed"),
            ("f('A' * 20)", "not_a_value"),
            ("f(''.join(['A'] * 10) + 'A' * 10)", "not_a_value"),
            ("f(''.join(['A'] * 21))", "not_a_value"),
            ("f('AAAAAAAAAAAAAAAAAAAA')", "passed"),
        ],
        "sample_258": [  # its own input passes thigh_o_two[:], a list the program binds
            ("f(thigh_o_two[:], 3, 3, 2)", "passed"),
            ("f(thigh_o_two, 3, 3, 2)", "passed"),
            ("f([1, 2, 7, 9], 3, 3, 2)", "passed"),
            ("f(thigh_o_two.copy(), 3, 3, 2)", "not_a_value"),
            ("f(thigh_o_one.clear() or thigh_o_two, 3, 3, 2)", "not_a_value"),
            ("f(thigh_o_one[:2] + [7, 9], 3, 3, 2)", "not_a_value"),
        ],
    }[doc["id"]]
    return [(f"assert {answer} == {doc['output']}", status) for answer, status in attacks] + [(right, "passed")]


def padded(attacks: list[tuple[str, str]]) -> list[tuple[str, str]]:
    assert len(attacks) <= REPEATS
    return attacks + [attacks[-1]] * (REPEATS - len(attacks))  # the last one is the control


def _run(manager, tasks: list[str], attacks_of, marker: str) -> dict:
    docs = [doc for loaded in manager.load(tasks)["tasks"].values() for doc in loaded.test_docs()]

    def answer(prompt: str, sample: int) -> str:
        doc = next(d for d in docs if f"{d['code']}\n{marker(d)}" in prompt)
        return padded(attacks_of(doc))[sample][0]

    with ScriptedServer(answer) as server:
        results = lm_eval.simple_evaluate(
            model="local-completions",
            model_args=f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,"
            "tokenized_requests=False,max_retries=1",
            tasks=tasks, task_manager=manager, confirm_run_unsafe_code=True, log_samples=True)
    return results


def _statuses(results: dict, task: str) -> dict[str, list[dict]]:
    return {s["doc"]["id"]: [json.loads(x) for x in s["filtered_resps"][0]] for s in results["samples"][task]}


@pytest.fixture(scope="module")
def output_run(attack_data):
    manager = task_manager({"data_dir": attack_data, "repeats": REPEATS, "timeout": 1.0, "ids": ["sample_3"]})
    return _run(manager, ["cruxeval_orig", "cruxeval_varnorm1"], output_attacks,
                lambda doc: f"assert f({doc['input']}) ==")


@pytest.mark.parametrize("task", ["cruxeval_orig", "cruxeval_varnorm1"])
def test_output_answers_assert_about_the_shown_call(output_run, task):
    samples = output_run["samples"][task]
    assert [s["doc"]["id"] for s in samples] == ["sample_3"]
    doc = samples[0]["doc"]
    for (answer, expected), got in zip(padded(output_attacks(doc)), _statuses(output_run, task)["sample_3"],
                                       strict=True):
        assert got["status"] == expected, (task, answer, got)
    if task == "cruxeval_varnorm1":  # the rename is real: the original keyword names are not the shown ones
        assert doc["code"] != doc["original_code"]


@pytest.fixture(scope="module")
def input_run(attack_data):
    manager = task_manager({"data_dir": attack_data, "repeats": REPEATS, "timeout": 1.0})
    return _run(manager, ["cruxeval_input_orig", "cruxeval_input_varnorm1"], input_attacks,
                lambda doc: f"assert f(??) == {doc['output']}")


@pytest.mark.parametrize("task", ["cruxeval_input_orig", "cruxeval_input_varnorm1"])
def test_input_arguments_are_literal_values(input_run, task):
    by_id = {s["doc"]["id"]: s["doc"] for s in input_run["samples"][task]}
    assert set(by_id) == set(IDS)
    for identifier, statuses in _statuses(input_run, task).items():
        for (answer, expected), got in zip(padded(input_attacks(by_id[identifier])), statuses, strict=True):
            assert got["status"] == expected, (task, identifier, answer, got)
