"""The answer-changing variants end to end through lm-eval: a model that memorised every published
answer (it recognises each problem however it is rewritten, and never reads the program) scores 0,
while a model that answers what the shown program computes scores 1, on CRUXEval output and input
prediction and on the translation benchmarks."""

import json
import math

import lm_eval
import pytest
from known_answers import memorised_answer, prompt_key, right_answer
from lm_eval.tasks import TaskManager
from scripted_server import ScriptedServer

from dynbench_tasks.benchmarks.transcoder_harness import judged_parameters
from dynbench_tasks.lmeval.environment import task_directory

pytestmark = pytest.mark.slow

LIMIT = 6


def _run(tm, tasks, answer, limit=LIMIT):
    with ScriptedServer(answer) as server:
        return lm_eval.simple_evaluate(
            model="local-completions",
            model_args=f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,"
            "tokenized_requests=False,max_retries=1",
            tasks=tasks, limit=limit, task_manager=tm, confirm_run_unsafe_code=True, log_samples=True)


def _manager(data_dir: str, **settings) -> TaskManager:
    return TaskManager(include_path=task_directory(), include_defaults=False,
                       metadata={"data_dir": data_dir, "repeats": 1, "timeout": 3, **settings})


def test_cruxeval_memorised_answers_score_zero_computed_ones_one(small_data):
    outputs, inputs = ["cruxeval_newoutput", "cruxeval_fuvio"], ["cruxeval_input_fuvio", "cruxeval_input_newinput"]
    tm = _manager(small_data)
    loaded = tm.load(outputs + inputs)["tasks"]
    docs = {task: list(loaded[task].test_docs())[:LIMIT] for task in outputs + inputs}
    for task in outputs:
        assert all(d["output"] != d["original_output"] for d in docs[task])
    for task in inputs:
        assert all("input" in d["mutation"]["changed_answers"] for d in docs[task])

    def found(prompt: str) -> tuple[str, dict]:
        return next((task, d) for task in docs for d in docs[task] if prompt_key(task, d) in prompt)

    def memorised(prompt: str, sample: int) -> str:
        return memorised_answer(*found(prompt))

    def computed(prompt: str, sample: int) -> str:
        return right_answer(*found(prompt))

    for answer, expected in ((memorised, 0.0), (computed, 1.0)):
        results = _run(tm, outputs + inputs, answer)
        for task in outputs + inputs:
            assert math.isclose(results["results"][task]["pass@1,sandbox"], expected), (task, answer.__name__)
            counts = results["configs"][task]["metadata"]["dynbench"]["counts"]
            assert counts["new_answer"] == counts["scored"]


FAST_AVATAR = ["codeforces_23_B", "atcoder_ABC150_C", "atcoder_ABC114_C", "codeforces_624_B"]
GCD_AVATAR = "atcoder_AGC013_A"  # written for fractions.gcd, gone since Python 3.9
# Its published Python disagrees with its Java on half the harness's calls: scored on the other half.
NARROWED_TRANSCODER = "CHECK_LARGE_NUMBER_DIVISIBLE_4_NOT"


@pytest.fixture(scope="module")
def translation_data(tmp_path_factory, data_dir) -> str:
    folder = tmp_path_factory.mktemp("answer-changing-translation")
    avatar = [json.loads(line) for line in (data_dir / "avatar_py2java.jsonl").read_text().splitlines()]
    chosen = {"avatar_py2java.jsonl": [r for r in avatar if r["id"] in (*FAST_AVATAR, GCD_AVATAR)]}
    for name in ("codenet_py2java.jsonl", "transcoder_py2java.jsonl"):
        records = [json.loads(line) for line in (data_dir / name).read_text().splitlines()]
        chosen[name] = records[:16] + [r for r in records[16:] if r["id"] == NARROWED_TRANSCODER]
    for name, records in chosen.items():
        (folder / name).write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(folder)


def test_translation_memorised_java_scores_zero_and_the_new_answers_are_reachable(translation_data):
    tasks = ["codenet_newoutput", "avatar_newoutput", "transcoder_fuvo"]
    tm = _manager(translation_data, timeout=5)
    loaded = tm.load(tasks)["tasks"]
    docs = {task: list(loaded[task].test_docs()) for task in tasks}
    docs["transcoder_fuvo"] = [d for d in docs["transcoder_fuvo"] if right_answer("transcoder_fuvo", d)
                               and d["id"] != NARROWED_TRANSCODER][:2] + \
        [d for d in docs["transcoder_fuvo"] if d["id"] == NARROWED_TRANSCODER]
    docs["codenet_newoutput"] = docs["codenet_newoutput"][:3]
    for task in tasks:
        assert docs[task] and all("output" in d["mutation"]["changed_answers"] for d in docs[task]), task
    assert GCD_AVATAR in {d["id"] for d in docs["avatar_newoutput"]}
    narrowed = docs["transcoder_fuvo"][-1]
    assert narrowed["id"] == NARROWED_TRANSCODER and "scored on 5 of 10" in narrowed["mutation"]["reason"]
    assert len(judged_parameters(narrowed["java_harness"])) == len(narrowed["expected_records"]) == 5
    def found(prompt: str) -> tuple[str, dict]:
        return next((task, d) for task in tasks for d in docs[task] if prompt_key(task, d) in prompt)

    def memorised(prompt: str, sample: int) -> str:
        return memorised_answer(*found(prompt))  # the benchmark's own Java, or its published outputs printed

    def right(prompt: str, sample: int) -> str:
        return right_answer(*found(prompt))  # Java that gives the recomputed answers

    ids = {task: [d["id"] for d in docs[task]] for task in tasks}
    for answer, expected in ((memorised, 0.0), (right, 1.0)):
        for task in tasks:
            tm = _manager(translation_data, timeout=5, ids=ids[task])
            results = _run(tm, [task], answer, limit=None)
            assert math.isclose(results["results"][task]["pass@1,judge"], expected), (task, answer.__name__)
