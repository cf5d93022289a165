"""Python→Java tasks end to end through lm-eval: a scripted OpenAI-compatible server answers with the
benchmark's reference Java for some samples and with broken Java, chatter, an infinite loop or a
System.exit for others, so the expected pass@1 of every task is exact."""

import json
import math

import lm_eval
import pytest
from lm_eval.tasks import TaskManager
from scripted_server import ScriptedServer

from dynbench_tasks.benchmarks.translation import PAPER_INSTRUCTION
from dynbench_tasks.lmeval.environment import task_directory

pytestmark = pytest.mark.slow

LIMIT = 3
TASKS = ["avatar_orig", "avatar_fuv", "codenet_orig", "codenet_afu", "transcoder_orig", "transcoder_auv"]
FAST_AVATAR = ["codeforces_23_B", "atcoder_ABC150_C", "atcoder_ABC114_C", "codeforces_624_B"]


@pytest.fixture(scope="module")
def translation_data(tmp_path_factory, data_dir) -> str:
    """A few problems of each translation benchmark (Avatar ones whose reference runs fast)."""
    folder = tmp_path_factory.mktemp("translation")
    avatar = [json.loads(line) for line in (data_dir / "avatar_py2java.jsonl").read_text().splitlines()]
    untestable = [r for r in avatar if not r["tests"]][:3]
    chosen = {"avatar_py2java.jsonl": [r for r in avatar if r["id"] in FAST_AVATAR] + untestable}
    for name in ("codenet_py2java.jsonl", "transcoder_py2java.jsonl"):
        chosen[name] = [json.loads(line) for line in (data_dir / name).read_text().splitlines()[:12]]
    for name, records in chosen.items():
        (folder / name).write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(folder)


def correct_java(doc: dict) -> str:
    if doc["java"]:
        return f"Here is the translation:\n```java\n{doc['java']}\n```\n"
    # CodeNet has no reference Java: a program printing the expected output passes its one test.
    return ("```java\npublic class Main {\n    public static void main(String[] args) {\n"
            f"        System.out.print({json.dumps(doc['tests'][0]['output'])});\n    }}\n}}\n```")


def bad_java(kind: str, transcoder: bool) -> str:
    if kind == "broken":
        body = "static int f(int x) { return x + ; }" if transcoder else \
            "public class Main { public static void main(String[] a) { int x = ; } }"
        return f"```java\n{body}\n```"
    if kind == "chatter":
        return "I would translate this by first reading the input, then looping over it."
    if kind == "loop":
        body = "static int f(int x) { while (true) { x++; } }" if transcoder else \
            "public class Main { public static void main(String[] a) { while (true) { } } }"
        return f"```java\n{body}\n```"
    body = "static int f(int x) { System.exit(0); return x; }" if transcoder else \
        "public class Main { public static void main(String[] a) { System.exit(0); } }"
    return f"```java\n{body}\n```"


def samples_for(doc: dict, position: int, benchmark: str) -> tuple[list[str], int]:
    """Five replies for a document and how many of them pass."""
    good, transcoder = correct_java(doc), benchmark == "transcoder"
    if position % 2 == 0:
        return [good, good, bad_java("broken", transcoder), bad_java("chatter", transcoder),
                bad_java("exit", transcoder)], 2
    return [good, bad_java("loop", transcoder), good, good, bad_java("broken", transcoder)], 3


def test_translation_tasks_score_exactly(translation_data):
    tm = TaskManager(include_path=task_directory(), include_defaults=False,
                     metadata={"data_dir": translation_data, "timeout": 2})
    loaded = tm.load(TASKS)["tasks"]
    docs = {task: list(loaded[task].test_docs())[:LIMIT] for task in TASKS}
    by_prompt = {}
    for task, task_docs in docs.items():
        for position, doc in enumerate(task_docs):
            by_prompt[doc["python"]] = (doc, position, task.split("_")[0])

    def answer(prompt: str, sample: int) -> str:
        found = next(v for code, v in by_prompt.items() if f"```python\n{code}\n```" in prompt)
        return samples_for(*found)[0][sample % 5]

    with ScriptedServer(answer) as server:
        results = lm_eval.simple_evaluate(
            model="local-completions",
            model_args=f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,"
            "tokenized_requests=False,max_retries=1",
            tasks=TASKS, limit=LIMIT, task_manager=tm, confirm_run_unsafe_code=True, log_samples=True,
        )
    assert all(PAPER_INSTRUCTION in request["prompt"] for request in server.requests)
    for task in TASKS:
        benchmark = task.split("_")[0]
        expected = sum(samples_for(doc, i, benchmark)[1] / 5 for i, doc in enumerate(docs[task])) / LIMIT
        obtained = results["results"][task]["pass@1,judge"]
        assert math.isclose(obtained, expected), (task, obtained, expected)
        for sample in results["samples"][task]:
            statuses = {json.loads(s)["status"] for s in sample["filtered_resps"][0]}
            assert statuses <= {"passed", "compile_error", "no_code", "timeout", "runtime_error", "wrong_output"}
            assert "passed" in statuses and "compile_error" in statuses
    counts = results["configs"]["avatar_orig"]["metadata"]["dynbench"]["counts"]
    assert counts["not_judgeable"] == 3 and counts["scored"] == 4


def test_missing_jdk_stops_before_the_model_loads(tiny_model, translation_data):
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    env["PATH"] = "/nonexistent"
    done = subprocess.run(
        [sys.executable, "-m", "dynbench_tasks.cli", "eval", "--model", "hf", "--model_args",
         f"pretrained={tiny_model}", "--device", "cpu", "--tasks", "transcoder_fuv", "--confirm_run_unsafe_code",
         "--metadata", json.dumps({"data_dir": translation_data})],
        capture_output=True, text=True, env=env,
    )
    assert done.returncode == 2
    assert "default-jdk-headless" in done.stderr and "Initializing hf model" not in done.stderr
