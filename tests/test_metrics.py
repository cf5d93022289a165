"""The ``evaluate`` metrics load offline from the installed package and give the tasks' own statuses
on the same answers (recorded from real lm-eval runs against a scripted server)."""

import json

import evaluate
import lm_eval
import pytest
from scripted_server import ScriptedServer
from test_lm_eval_cruxeval import manager, prepared, script_for

from dynbench_tasks.lmeval import task_manager
from dynbench_tasks.metrics import metric_path


def _run(tm, task: str, answer, limit: int) -> list[dict]:
    with ScriptedServer(answer) as server:
        results = lm_eval.simple_evaluate(
            model="local-completions",
            model_args=f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,"
            "tokenized_requests=False,max_retries=1",
            tasks=[task], limit=limit, task_manager=tm, confirm_run_unsafe_code=True, log_samples=True)
    return results["samples"][task]


def test_cruxeval_metric_agrees_with_the_task(small_data, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    tm = manager(small_data, timeout=0.5)
    docs = prepared(tm, ["cruxeval_orig"])
    samples = _run(tm, "cruxeval_orig", script_for(docs), limit=4)
    metric = evaluate.load(metric_path("cruxeval_execution"))
    got = metric.compute(predictions=[s["resps"][0] for s in samples],  # the five samples of each document
                         references=[s["doc"]["output"] for s in samples],
                         inputs=[s["doc"]["input"] for s in samples], timeout=0.5)
    expected = [[json.loads(x)["status"] for x in s["filtered_resps"][0]] for s in samples]
    assert got["statuses"] == expected
    assert abs(got["pass@1"] - sum(s["pass@1"] for s in samples) / len(samples)) < 1e-9


def test_cruxeval_metric_checks_the_left_side_against_the_inputs():
    metric = evaluate.load(metric_path("cruxeval_execution"))
    answers = [["assert f([2, 1]) == [1, 2]", "assert [f([2, 1])] == [1, 2]", "assert f([1, 2]) == [1, 2]", "[1, 2]"]]
    got = metric.compute(predictions=answers, references=["[1, 2]"], inputs=["[2, 1]"], timeout=1.0)
    assert got["statuses"] == [["passed", "wrong_call", "wrong_call", "passed"]]
    with pytest.raises(ValueError, match="inputs"):  # without the shown inputs no left side can be checked
        metric.compute(predictions=answers, references=["[1, 2]"])


@pytest.mark.slow
def test_java_metric_agrees_with_the_task(data_dir, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    tm = task_manager({"data_dir": str(data_dir), "timeout": 3})
    docs = {d["id"]: d for d in list(tm.load(["transcoder_orig"])["tasks"]["transcoder_orig"].test_docs())[:3]}

    def answer(prompt: str, sample: int) -> str:
        doc = next(d for d in docs.values() if d["python"] in prompt)
        return [f"```java\n{doc['java']}\n```", doc["java"].replace("return", "return 1 +", 1), "no code",
                "static int x( {", "Sure!\n" + doc["java"]][sample % 5]

    samples = _run(tm, "transcoder_orig", answer, limit=3)
    metric = evaluate.load(metric_path("java_translation"))
    replies = [s["resps"][0] for s in samples]
    got = metric.compute(predictions=replies, references=[s["doc"]["id"] for s in samples], benchmark="transcoder",
                         data_dir=str(data_dir), timeout=3)
    assert got["statuses"] == [[json.loads(x)["status"] for x in s["filtered_resps"][0]] for s in samples]
    assert got["statuses"][0][0] == "passed" and "no_code" in got["statuses"][0]
