"""CRUXEval dynamic tasks end to end through lm-eval's own evaluator, with real backends.

The API backends talk to a scripted OpenAI-compatible server whose answers are right, wrong, empty,
echoing, unparseable, hanging or hostile in a fixed pattern, so the expected pass@1 of every variant
is known exactly.
"""

import json
import math
from pathlib import Path

import lm_eval
import pytest
import yaml
from lm_eval.tasks import TaskManager
from scripted_server import ScriptedServer

from dynbench_tasks.benchmarks.cruxeval import CHAT_INSTRUCTION
from dynbench_tasks.lmeval.environment import task_directory

pytestmark = pytest.mark.slow  # the fast subset (README) leaves this module out

VARIANTS = ["orig", "varnorm1", "varnorm2", "constunfold", "for2while", "condaug", "fuv", "auv", "afu"]
LIMIT = 4
METRIC = "pass@1,sandbox"


def manager(data, **metadata) -> TaskManager:
    return TaskManager(include_path=task_directory(), include_defaults=False, metadata={"data_dir": data, **metadata})


def scripted_samples(doc: dict) -> tuple[list[str], list[str]]:
    """Five answers for a document and the status each must get; the pattern follows the original id."""
    ref, call = doc["output"], f"f({doc['input']})"
    pattern = int(doc["id"].split("_")[1]) % 4
    if pattern == 0:
        return [ref] * 5, ["passed"] * 5
    if pattern == 1:
        return ([ref, "'__not the output__'", "", call, "[1, 2"],
                ["passed", "wrong", "empty", "calls_f", "unparseable"])
    if pattern == 2:
        return (["sum(iter(int, 1))", "__import__('os').kill(__import__('os').getppid(), 9)", "'x' * (10 ** 10)", ref,
                 "__import__('os').fork()"],
                ["not_a_value", "not_a_value", "error", "passed", "not_a_value"])  # code, not values: never run
    return ([f"{ref} # done", f"{ref}\nThe call returns that.", f"assert {call} == {ref}",
             f"```python\nassert {call} == {ref}\n```", "None if False else '__nope__'"],
            ["passed", "passed", "passed", "passed", "wrong"])


def prepared(tm: TaskManager, tasks: list[str]) -> dict[str, list[dict]]:
    loaded = tm.load(tasks)["tasks"]
    return {name: list(loaded[name].test_docs())[:LIMIT] for name in tasks}


def script_for(docs_by_task: dict[str, list[dict]]):
    by_prompt = {}
    for docs in docs_by_task.values():
        for doc in docs:
            by_prompt[f"{doc['code']}\nassert f({doc['input']}) =="] = doc

    def answer(prompt: str, sample: int) -> str:
        doc = next(d for key, d in by_prompt.items() if key in prompt)
        return scripted_samples(doc)[0][sample % 5]

    return answer


def scripted_run(tm: TaskManager, docs: dict[str, list[dict]], tasks: list[str], limit: int = LIMIT,
                 chat: bool = False, **options) -> tuple[dict, ScriptedServer]:
    """lm-eval against the scripted server, through local-completions or local-chat-completions."""
    endpoint, model = ("chat/completions", "local-chat-completions") if chat else ("completions", "local-completions")
    with ScriptedServer(script_for(docs)) as server:
        results = lm_eval.simple_evaluate(
            model=model,
            model_args=f"model=scripted,base_url={server.url}/{endpoint},tokenizer_backend=none,"
            "tokenized_requests=False,max_retries=1",
            tasks=tasks, limit=limit, task_manager=tm, confirm_run_unsafe_code=True, apply_chat_template=chat,
            **options,
        )
    return results, server


def expected_pass_at_1(docs: list[dict]) -> float:
    return sum(scripted_samples(doc)[1].count("passed") / 5 for doc in docs) / len(docs)


@pytest.mark.slow
def test_every_variant_scores_exactly_through_local_completions(small_data):
    tm = manager(small_data, timeout=0.5)
    tasks = [f"cruxeval_{v}" for v in VARIANTS]
    docs = prepared(tm, tasks)
    results, server = scripted_run(tm, docs, tasks, log_samples=True)
    assert {request["seed"] for request in server.requests} == {None}
    for task in tasks:
        assert math.isclose(results["results"][task][METRIC], expected_pass_at_1(docs[task])), task
        for sample in results["samples"][task]:
            statuses = [json.loads(s)["status"] for s in sample["filtered_resps"][0]]
            assert statuses == scripted_samples(sample["doc"])[1], (task, sample["doc"]["id"])
            assert sample["doc"]["mutation"]["engine_version"]
        metadata = results["configs"][task]["metadata"]["dynbench"]
        assert metadata["counts"]["scored"] >= LIMIT and metadata["seed"] == 0
    assert results["configs"]["cruxeval_fuv"]["metadata"]["dynbench"]["chain"] == "F+U+V2"
    assert all(s["doc"]["mutation"]["status"] == "mutated" for s in results["samples"]["cruxeval_fuv"])


def test_chat_backend_scores_exactly(small_data):
    tm = manager(small_data, timeout=0.5)
    tasks = ["cruxeval_orig", "cruxeval_auv"]
    docs = prepared(tm, tasks)
    results, server = scripted_run(tm, docs, tasks, chat=True)
    # A chat template gets the chat prompt: the answer asked for in tags, no half line to complete.
    assert all(CHAT_INSTRUCTION in r["messages"][-1]["content"] for r in server.requests)
    assert results["configs"]["cruxeval_orig"]["metadata"]["dynbench"]["prompt"] == "chat"
    for task in tasks:
        assert math.isclose(results["results"][task][METRIC], expected_pass_at_1(docs[task])), task


def test_a_fixed_request_seed_collapses_the_samples(small_data):
    """The control for seed: null. With lm-eval's fixed API seed a seed-honouring server returns
    five identical samples, and the score is no longer the five-sample estimate."""
    tm = manager(small_data, timeout=0.5)
    docs = prepared(tm, ["cruxeval_orig"])
    results, _ = scripted_run(tm, docs, ["cruxeval_orig"], gen_kwargs="seed=1234")
    collapsed = sum(scripted_samples(doc)[1][0] == "passed" for doc in docs["cruxeval_orig"]) / LIMIT
    assert math.isclose(results["results"]["cruxeval_orig"][METRIC], collapsed)
    assert not math.isclose(collapsed, expected_pass_at_1(docs["cruxeval_orig"]))


def test_same_seed_same_prompts_other_seed_other_prompts(small_data):
    prompts = []
    for seed in (5, 5, 6):
        tm = manager(small_data, seed=seed)
        task = tm.load(["cruxeval_fuv"])["tasks"]["cruxeval_fuv"]
        prompts.append([task.doc_to_text(doc) for doc in task.test_docs()])
    assert prompts[0] == prompts[1] and prompts[0] != prompts[2]


def test_tiny_hf_model_runs_through_the_python_api(small_data, tiny_model):
    results = lm_eval.simple_evaluate(
        model="hf", model_args=f"pretrained={tiny_model}", device="cpu", tasks=["cruxeval_orig", "cruxeval_fuv"],
        limit=2, task_manager=manager(small_data), confirm_run_unsafe_code=True, log_samples=True,
        gen_kwargs="max_gen_toks=6",
    )
    for task in ("cruxeval_orig", "cruxeval_fuv"):
        assert 0.0 <= results["results"][task][METRIC] <= 1.0
        for sample in results["samples"][task]:
            assert len(sample["filtered_resps"][0]) == 5  # every repeat is scored, none dropped
    json.dumps(results["results"])


def test_unknown_settings_and_missing_data_fail_with_clear_messages(small_data, tmp_path):
    from dynbench_tasks.errors import DataError, SettingsError
    from dynbench_tasks.lmeval.settings import settings_from_metadata

    with pytest.raises(SettingsError, match="needs a chain"):
        manager(small_data).load(["cruxeval_custom"])
    with pytest.raises(SettingsError, match="unknown mutation 'Q'"):
        manager(small_data, chain="F+Q").load(["cruxeval_custom"])
    with pytest.raises(SettingsError, match="scope must be"):
        manager(small_data, scope="some").load(["cruxeval_orig"])
    with pytest.raises(DataError, match=r"cruxeval\.jsonl"):
        manager(str(tmp_path)).load(["cruxeval_orig"])
    with pytest.raises(SettingsError, match="metadata seed must be an integer or \"fresh\", got 'abc'"):
        manager(small_data, seed="abc").load(["cruxeval_orig"])
    with pytest.raises(SettingsError, match="avatar tasks have the paper prompt only; 'harness' is for cruxeval"):
        settings_from_metadata({"benchmark": "avatar", "variant": "orig", "prompt": "harness"})
    with pytest.raises(SettingsError, match="ids not in cruxeval: nope"):
        manager(small_data, ids=["sample_0", "nope"]).load(["cruxeval_orig"])
    # No program among the first 40 has a countable while loop: nothing is left to score.
    with pytest.raises(SettingsError, match=r"no documents left to score \(chain W changes none"):
        manager(small_data, chain="W").load(["cruxeval_custom"])


def test_custom_chain_scope_all_and_options(small_data):
    tm = manager(small_data, chain="A+F+V1", seed=7, scope="all", options={"varnorm1.prefix": "v"})
    task = tm.load(["cruxeval_custom"])["tasks"]["cruxeval_custom"]
    docs = list(task.test_docs())
    counts = task.config.metadata["dynbench"]["counts"]
    assert len(docs) == 40 == counts["scored"] and counts["mutated"] + counts.get("unchanged", 0) == 40
    mutated = [d for d in docs if d["mutation"]["status"] == "mutated"]
    assert mutated and all(d["mutation"]["chain"] == "A+F+V1" and d["mutation"]["seed"] == 7 for d in mutated)
    assert all(d["code"] == d["original_code"] for d in docs if d["mutation"]["status"] != "mutated")
    assert any("v1" in d["code"] for d in mutated)


def test_request_cache_is_refused_for_dynamic_tasks(small_data, caplog):
    tm = manager(small_data)
    task = tm.load(["cruxeval_fuv"])["tasks"]["cruxeval_fuv"]
    with caplog.at_level("WARNING"):
        task.build_all_requests(limit=1, cache_requests=True)
    assert "ignores --metadata" in caplog.text
    assert len(task.instances) == 1


@pytest.mark.slow
def test_group_aggregates_its_variants(small_data):
    tm = manager(small_data, timeout=0.5)
    group = yaml.safe_load((Path(task_directory()) / "cruxeval" / "cruxeval_dynamic.yaml").read_text())
    members = group["task"]
    assert {"cruxeval_newinput", "cruxeval_fuvi"} <= set(members)
    docs = prepared(tm, members)
    results, _ = scripted_run(tm, docs, ["cruxeval_dynamic"], limit=2)
    scores = [results["results"][task][METRIC] for task in members]
    assert math.isclose(results["results"]["cruxeval_dynamic"][METRIC], sum(scores) / len(scores))
