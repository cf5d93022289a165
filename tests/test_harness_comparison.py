"""Our cruxeval_orig in lm-eval's own prompt style against lm-eval's built-in cruxeval_output, on the
same recorded answers: the scores agree on every document except where dynbench's fixes apply
(quoted string answers, which the built-in always fails because it strips quotes, and answers that
merely echo the call, which the built-in passes)."""

from pathlib import Path

import lm_eval
import pytest
from lm_eval.tasks import TaskManager
from lm_eval.tasks._yaml_loader import load_yaml
from scripted_server import ScriptedServer

from dynbench_tasks.lmeval.environment import task_directory

LIMIT = 24


def kind_of(doc: dict) -> str:
    if doc["output"][:1] in "'\"":
        return "string"
    kind = ("echo", "right", "wrong")[int(doc["id"].split("_")[1]) % 3]
    # The built-in also cuts answers at '#', even inside string literals; keep such inputs out of
    # the echo case so each document shows exactly one difference.
    return "wrong" if kind == "echo" and "#" in doc["input"] else kind


def recorded_answer(doc: dict) -> str:
    answer = {"string": doc["output"], "right": doc["output"], "echo": f"f({doc['input']})",
              "wrong": "'__not the output__'"}[kind_of(doc)]
    return f"\nassert f({doc['input']}) == {answer}\n"


@pytest.mark.slow
def test_scores_agree_except_where_the_fixes_apply(small_data):
    builtin_folder = Path(lm_eval.__file__).parent / "tasks" / "cruxeval"
    builtin = load_yaml(builtin_folder / "cruxeval_output.yaml")
    builtin.update(dataset_path="json", dataset_kwargs={"data_files": {"test": f"{small_data}/cruxeval.jsonl"}})
    tm = TaskManager(include_path=task_directory(), include_defaults=False,
                     metadata={"data_dir": small_data, "prompt": "harness"})
    ours = tm.load(["cruxeval_orig"])["tasks"]["cruxeval_orig"]
    docs = {doc["id"]: doc for doc in ours.test_docs()}

    def answer(prompt: str, sample: int) -> str:
        doc = next(d for d in docs.values() if f"[PYTHON]\n{d['code']}\nassert f({d['input']}) == ??" in prompt)
        return recorded_answer(doc)

    with ScriptedServer(answer) as server:
        results = lm_eval.simple_evaluate(
            model="local-completions",
            model_args=f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,"
            "tokenized_requests=False,max_retries=1",
            tasks=[builtin, "cruxeval_orig"], limit=LIMIT, task_manager=tm, confirm_run_unsafe_code=True,
            log_samples=True,
        )
    prompts = {}
    for request in server.requests:
        prompts.setdefault(request["prompt"].split("[PYTHON]")[-1], []).append(request["prompt"])
    assert all(len(set(same)) == 1 for same in prompts.values()), "both tasks must send the identical prompt"

    builtin_scores = {s["doc"]["id"]: s["pass@1"] for s in results["samples"]["cruxeval_output"]}
    our_scores = {s["doc"]["id"]: s["pass@1"] for s in results["samples"]["cruxeval_orig"]}
    assert builtin_scores.keys() == our_scores.keys() and len(our_scores) == LIMIT
    kinds = {identifier: kind_of(docs[identifier]) for identifier in our_scores}
    assert {"string", "echo", "right", "wrong"} <= set(kinds.values())
    for identifier, kind in kinds.items():
        expected = {"string": (0.0, 1.0), "echo": (1.0, 0.0), "right": (1.0, 1.0), "wrong": (0.0, 0.0)}[kind]
        assert (builtin_scores[identifier], our_scores[identifier]) == expected, (identifier, kind)
