"""CRUXEval input prediction end to end through lm-eval: every variant against a scripted server
whose answers are the problem's own input (its renamed keywords as shown), a wrong input, nothing, no
call, and a call that computes its argument with f; and our cruxeval_input_orig against lm-eval's
built-in cruxeval_input on the same recorded answers."""

import json
import math
from pathlib import Path

import lm_eval
import pytest
from lm_eval.tasks._yaml_loader import load_yaml
from scripted_server import ScriptedServer

from dynbench_tasks.benchmarks.cruxeval_input import INPUT_INSTRUCTION, parse_input_answer
from dynbench_tasks.lmeval import task_manager
from dynbench_tasks.variants import CUSTOM, variants_of

LIMIT = 4
METRIC = "pass@1,sandbox"
TASKS = [f"cruxeval_input_{variant}" for variant in variants_of(takes_new_inputs=True, answer_is_input=True)
         if variant != CUSTOM]


def scripted_samples(doc: dict) -> tuple[list[str], list[str]]:
    right = f"assert f({doc['input']}) == {doc['output']} # done"
    return ([right, "assert f(None, None, None, None) == 0", "The input is easy to find.", "assert 3 == 3",
             f"f(f({doc['input']}))"],
            ["passed", "wrong|error", "unparseable", "not_a_call", "calls_f"])


def _matches(status: str, expected: str) -> bool:
    return status in expected.split("|")


def _run(tm, tasks, answer, limit=LIMIT):
    with ScriptedServer(answer) as server:
        results = lm_eval.simple_evaluate(
            model="local-completions",
            model_args=f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,"
            "tokenized_requests=False,max_retries=1",
            tasks=tasks, limit=limit, task_manager=tm, confirm_run_unsafe_code=True, log_samples=True)
    return results, server


@pytest.mark.slow
def test_every_variant_scores_exactly(small_data):
    tm = task_manager({"data_dir": small_data, "timeout": 1.0})
    loaded = tm.load(TASKS)["tasks"]
    docs = [doc for task in TASKS for doc in list(loaded[task].test_docs())[:LIMIT]]

    def answer(prompt: str, sample: int) -> str:
        doc = next(d for d in docs if f"{d['code']}\nassert f(??) == {d['output']}" in prompt)
        return scripted_samples(doc)[0][sample % 5]

    results, server = _run(tm, TASKS, answer)
    assert all(INPUT_INSTRUCTION in request["prompt"] for request in server.requests)
    for task in TASKS:
        assert math.isclose(results["results"][task][METRIC], 0.2), task  # the right input, once in five
        for sample in results["samples"][task]:
            statuses = [json.loads(s)["status"] for s in sample["filtered_resps"][0]]
            expected = scripted_samples(sample["doc"])[1]
            assert all(_matches(s, e) for s, e in zip(statuses, expected, strict=True)), (task, statuses)


def _by_keyword(code: str, arguments: str) -> str:
    """The call's positional arguments passed by keyword, under the parameter names ``code`` gives f."""
    import ast

    function = next(n for n in ast.parse(code).body if isinstance(n, ast.FunctionDef) and n.name == "f")
    values = ast.parse(f"f({arguments})", mode="eval").body.args
    return ", ".join(f"{p.arg}={ast.unparse(v)}" for p, v in zip(function.args.args, values, strict=False))


def test_keywords_use_the_names_the_model_was_shown(small_data):
    """Under VarNorm the parameters are renamed: an answer passing the right values by keyword passes
    with the shown names and fails with the original ones."""
    tm = task_manager({"data_dir": small_data, "timeout": 1.0, "ids": ["sample_3", "sample_5", "sample_9"]})
    docs = list(tm.load(["cruxeval_input_varnorm1"])["tasks"]["cruxeval_input_varnorm1"].test_docs())

    def answer(prompt: str, sample: int) -> str:
        doc = next(d for d in docs if d["code"] in prompt)
        code = (doc["code"], doc["original_code"])[sample % 2]
        return f"assert f({_by_keyword(code, doc['input'])}) == {doc['output']}"

    results, _ = _run(tm, ["cruxeval_input_varnorm1"], answer, limit=None)
    assert len(results["samples"]["cruxeval_input_varnorm1"]) == 3
    for sample in results["samples"]["cruxeval_input_varnorm1"]:
        statuses = [json.loads(s)["status"] for s in sample["filtered_resps"][0]]
        assert statuses == ["passed", "error", "passed", "error", "passed"], (sample["doc"]["id"], statuses)


def kind_of(doc: dict) -> str:
    return ("right", "wrong", "computed", "spread")[int(doc["id"].split("_")[1]) % 4]


def recorded_answer(doc: dict) -> str:
    # spread: the same input unpacked from a tuple written over three lines; the built-in keeps the first, "*("
    arguments = {"right": doc["input"], "wrong": "None, None, None, None",
                 "computed": f"*(lambda: [{doc['input']}])()", "spread": f"*(\n{doc['input']},\n)"}[kind_of(doc)]
    return f"\nassert f({arguments}) == {doc['output']}\n"


@pytest.mark.slow
def test_against_lm_evals_own_cruxeval_input(small_data):
    """Same prompt, same answers: the scores agree except where the readers differ on purpose (an
    argument computed by code of its own is refused here; a call spread over lines is read whole
    here)."""
    builtin = load_yaml(Path(lm_eval.__file__).parent / "tasks" / "cruxeval" / "cruxeval_input.yaml")
    builtin.update(dataset_path="json", dataset_kwargs={"data_files": {"test": f"{small_data}/cruxeval.jsonl"}},
                   repeats=5)
    tm = task_manager({"data_dir": small_data, "prompt": "harness"})
    ours = tm.load(["cruxeval_input_orig"])["tasks"]["cruxeval_input_orig"]
    docs = {doc["id"]: doc for doc in ours.test_docs()}

    def answer(prompt: str, sample: int) -> str:
        doc = next(d for d in docs.values() if f"[PYTHON]\n{d['code']}\nassert f(??) == {d['output']}\n" in prompt)
        return recorded_answer(doc)

    results, server = _run(tm, [builtin, "cruxeval_input_orig"], answer, limit=16)
    prompts = {}
    for request in server.requests:
        prompts.setdefault(request["prompt"].split("[PYTHON]")[-1], set()).add(request["prompt"])
    assert all(len(same) == 1 for same in prompts.values()), "both tasks must send the identical prompt"
    builtin_scores = {s["doc"]["id"]: s["pass_at_k"] if "pass_at_k" in s else s.get("pass@1")
                      for s in results["samples"]["cruxeval_input"]}
    our_scores = {s["doc"]["id"]: s["pass@1"] for s in results["samples"]["cruxeval_input_orig"]}
    assert builtin_scores.keys() == our_scores.keys()
    for identifier, ours_score in our_scores.items():
        kind = kind_of(docs[identifier])
        expected = {"right": (1.0, 1.0), "wrong": (0.0, 0.0), "computed": (1.0, 0.0), "spread": (0.0, 1.0)}[kind]
        assert (float(builtin_scores[identifier]), ours_score) == expected, (identifier, kind)


def test_hostile_arguments_never_pass():
    code = "def f(x):\n    return x\n"
    for answer, status in [
        ("f(type('A', (), {'__eq__': lambda s, o: True})())", "not_a_value"),
        ("f(__import__('os').getcwd())", "not_a_value"),
        ("f(*[f(1)])", "calls_f"),
        ("f(exec('import os'))", "not_a_value"),
        ("g(1)", "not_a_call"),
        ("f(" * 300 + ")" * 300, "unparseable"),
    ]:
        assert parse_input_answer(answer, "paper", code, "1").status == status, answer


def test_every_published_input_is_an_answer():
    """CRUXEval's own 800 inputs, answered as they are written, all count (ten of them compute an
    argument: the problem's own spelling is accepted), and no other problem accepts those spellings."""
    from dynbench_tasks.benchmarks import load_benchmark

    records = load_benchmark("cruxeval")
    assert len(records) == 800
    for record in records:
        check = parse_input_answer(f"assert f({record['input']}) == {record['output']}", "paper", record["code"],
                                   record["input"])
        assert not check.status, (record["id"], check)
    computed = {r["id"]: r for r in records if r["id"] in ("sample_152", "sample_522", "sample_694", "sample_770")}
    for record in computed.values():
        elsewhere = parse_input_answer(f"f({record['input']})", "paper", record["code"], "'AAAA'")
        assert elsewhere.status == "not_a_value", record["id"]
