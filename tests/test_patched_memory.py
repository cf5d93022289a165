"""A model that recalls the published Java and patches the shown program's token edits into it, through
real lm_eval on transcoder_newoutput: where NewOutput made a structural edit, it fails every document."""

import json

import lm_eval
import pytest
from known_answers import memorised_answer, patched_answer, prompt_key
from lm_eval.tasks import TaskManager
from scripted_server import ScriptedServer

from dynbench_tasks.lmeval.environment import task_directory
from mutators.structural import has_structural

pytestmark = pytest.mark.slow

TASK = "transcoder_newoutput"


@pytest.fixture(scope="module")
def transcoder_data(tmp_path_factory, data_dir) -> str:
    folder = tmp_path_factory.mktemp("patched-memory")
    records = (data_dir / "transcoder_py2java.jsonl").read_text().splitlines()[:24]
    (folder / "transcoder_py2java.jsonl").write_text("\n".join(records) + "\n")
    return str(folder)


def test_patching_the_recalled_java_does_not_pass_a_structural_edit(transcoder_data):
    manager = TaskManager(include_path=task_directory(), include_defaults=False,
                          metadata={"data_dir": transcoder_data, "repeats": 1, "timeout": 3})
    docs = list(manager.load([TASK])["tasks"][TASK].test_docs())
    structural = [doc for doc in docs if has_structural(doc["mutation"]["edit"])]
    assert len(structural) >= len(docs) // 2 > 0
    assert sum("; " in doc["mutation"]["edit"] for doc in docs) >= len(docs) // 2
    # The patcher does patch: where a token edit names a Java token, its Java is not the recalled one.
    assert sum(patched_answer(TASK, doc) != memorised_answer(TASK, doc) for doc in structural) >= len(structural) // 2

    def answer(prompt: str, sample: int) -> str:
        return patched_answer(TASK, next(doc for doc in structural if prompt_key(TASK, doc) in prompt))

    manager = TaskManager(include_path=task_directory(), include_defaults=False,
                          metadata={"data_dir": transcoder_data, "repeats": 1, "timeout": 3,
                                    "ids": [doc["id"] for doc in structural]})
    with ScriptedServer(answer) as server:
        results = lm_eval.simple_evaluate(
            model="local-completions",
            model_args=f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,"
            "tokenized_requests=False,max_retries=1",
            tasks=[TASK], task_manager=manager, confirm_run_unsafe_code=True, log_samples=True)
    statuses = [json.loads(item)["status"] for sample in results["samples"][TASK] for item in sample["filtered_resps"][0]]
    assert len(statuses) == len(structural) and "passed" not in statuses, statuses
    assert results["results"][TASK]["pass@1,judge"] == 0.0
