"""Chat, instruct and reasoning models end to end through lm_eval: a scripted model that knows the
right answer to each document as shown (tests/known_answers.py) writes it in the forms such models
use (tests/reply_forms.py: a sentence then a fenced assert, reasoning then "The output is X",
[ANSWER] tags, a think block then the assert, the program restated, ...), through
``local-chat-completions`` with ``--apply_chat_template`` (which gets the chat prompt) and through
``local-completions`` (the paper prompt). Every form scores 1.0 on output and input prediction,
original and rewritten; the same forms with a wrong answer score 0, and so do replies that state two
different answers, the right one among them (``ambiguous``)."""

import json
import math

import lm_eval
import pytest
from reply_forms import AMBIGUOUS_FORMS, FORMS, scripted_replies
from scripted_server import ScriptedServer

from dynbench_tasks.benchmarks.cruxeval import CHAT_INSTRUCTION
from dynbench_tasks.benchmarks.cruxeval_input import CHAT_INSTRUCTION as INPUT_CHAT_INSTRUCTION
from dynbench_tasks.lmeval import task_manager

TASKS = ["cruxeval_orig", "cruxeval_fuv", "cruxeval_fuvio", "cruxeval_input_orig", "cruxeval_input_fuvi"]
METRIC = "pass@1,sandbox"
FEW = 3  # documents per task in the fast test: 15 samples, so every form of the 13 appears in each task
MANY = 100  # documents per task in the slow test


def forms_run(data: str, mode: str, chat: bool, limit: int, ids: list[str] | None = None) -> tuple[dict, dict, list]:
    """(results, {reply: form}, the server's requests) of one lm_eval run of TASKS answered in ``mode``."""
    metadata = {"data_dir": data, "timeout": 3.0, **({"ids": ids} if ids else {})}
    tm = task_manager(metadata)
    loaded = tm.load(TASKS)["tasks"]
    answer, form_of = scripted_replies({task: list(loaded[task].test_docs())[:limit] for task in TASKS}, mode)
    endpoint, model = ("chat/completions", "local-chat-completions") if chat else ("completions", "local-completions")
    with ScriptedServer(answer) as server:
        results = lm_eval.simple_evaluate(
            model=model, model_args=f"model=scripted,base_url={server.url}/{endpoint},tokenizer_backend=none,"
            "tokenized_requests=False,max_retries=1,num_concurrent=4",
            tasks=TASKS, limit=limit, task_manager=tm, confirm_run_unsafe_code=True, apply_chat_template=chat,
            log_samples=True)
    return results, form_of, server.requests


def statuses_by_form(results: dict, form_of: dict, task: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for sample in results["samples"][task]:
        for reply, scored in zip(sample["resps"][0], sample["filtered_resps"][0], strict=True):
            found.setdefault(form_of[reply], set()).add(json.loads(scored)["status"])
    return found


def check_run(results: dict, form_of: dict, mode: str) -> None:
    expected_forms = set(AMBIGUOUS_FORMS if mode == "ambiguous" else FORMS)
    for task in TASKS:
        score = results["results"][task][METRIC]
        assert math.isclose(score, 1.0 if mode == "right" else 0.0), (task, mode, score)
        found = statuses_by_form(results, form_of, task)
        assert set(found) == expected_forms, (task, expected_forms - set(found))
        for form, statuses in found.items():
            if mode == "right":
                assert statuses == {"passed"}, (task, form, statuses)
            elif mode == "ambiguous":
                assert statuses == {"ambiguous"}, (task, form, statuses)
            else:
                assert "passed" not in statuses and "ambiguous" not in statuses, (task, form, statuses)


@pytest.mark.parametrize("mode, chat", [("right", True), ("right", False), ("wrong", True), ("ambiguous", False)])
def test_every_reply_form_scores_what_its_answer_earns(small_data, mode, chat):
    results, form_of, requests = forms_run(small_data, mode, chat, FEW)
    check_run(results, form_of, mode)
    if chat:  # a chat template gets the chat prompt, which asks for the answer in tags
        contents = [request["messages"][-1]["content"] for request in requests]
        assert all(CHAT_INSTRUCTION in c or INPUT_CHAT_INSTRUCTION in c for c in contents)
        assert not any(c.rstrip().endswith("==") for c in contents)
    prompts = {results["configs"][task]["metadata"]["dynbench"]["prompt"] for task in TASKS}
    assert prompts == {"chat" if chat else "paper"}


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["right", "wrong", "ambiguous"])
@pytest.mark.parametrize("chat", [True, False])
def test_every_reply_form_on_a_hundred_problems(data_dir, mode, chat):
    ids = [json.loads(line)["id"] for line in (data_dir / "cruxeval.jsonl").read_text().splitlines()[:MANY + 20]]
    results, form_of, _ = forms_run(str(data_dir), mode, chat, MANY, ids)
    assert all(results["n-samples"][task]["effective"] == MANY for task in TASKS)
    check_run(results, form_of, mode)


def _loaded(data: str, **metadata):
    return task_manager({"data_dir": data, **metadata}).load(["cruxeval_orig"])["tasks"]["cruxeval_orig"]


def _build(task, chat: bool) -> list:
    def template(messages: list[dict], add_generation_prompt: bool = True) -> str:
        return json.dumps(messages)

    task.build_all_requests(limit=2, apply_chat_template=chat, chat_template=template if chat else None)
    return task.instances


def test_a_chat_template_gets_the_chat_prompt_unless_a_prompt_is_named(small_data):
    paper = _loaded(small_data)
    paper_digest = paper.config.metadata["dynbench"]["documents_sha256"]
    assert all(instance.arguments[0].endswith("==") for instance in _build(paper, chat=False))

    chat = _loaded(small_data)
    chat.set_config(key="generation_kwargs", value={"max_gen_toks": 77}, update=True)  # --gen_kwargs
    instances = _build(chat, chat=True)
    messages = [json.loads(instance.arguments[0]) for instance in instances]
    assert all(CHAT_INSTRUCTION in m[-1]["content"] and m[-1]["content"].endswith("[/PYTHON]") for m in messages)
    assert all(instance.arguments[1]["max_gen_toks"] == 77 and instance.arguments[1]["until"] == []
               for instance in instances)
    named = _loaded(small_data, prompt="chat")  # what verify rebuilds from the recorded prompt
    for key in ("prompt", "documents_sha256"):
        assert chat.config.metadata["dynbench"][key] == named.config.metadata["dynbench"][key]
    assert chat.config.metadata["dynbench"]["documents_sha256"] != paper_digest
    assert named.config.generation_kwargs["max_gen_toks"] == 1024

    kept = _loaded(small_data, prompt="paper")  # a prompt the run names is kept under a chat template
    contents = [json.loads(instance.arguments[0])[-1]["content"] for instance in _build(kept, chat=True)]
    assert all(content.endswith("==") for content in contents)
    assert kept.config.metadata["dynbench"]["prompt"] == "paper"


def test_the_chain_of_thought_prompt_is_lm_evals_own(small_data):
    from dynbench_tasks.benchmarks.cruxeval import builtin_task

    for task_name, builtin in (("cruxeval_orig", "cruxeval_output_cot"), ("cruxeval_input_orig", "cruxeval_input_cot")):
        task = task_manager({"data_dir": small_data, "prompt": "cot"}).load([task_name])["tasks"][task_name]
        doc = next(iter(task.test_docs()))
        assert task.config.description == builtin_task(builtin)["description"]
        assert task.doc_to_text(doc).startswith(f"[PYTHON]\n{doc['code']}\nassert f(")
        assert task.doc_to_text(doc).endswith("[/PYTHON]\n[THOUGHT]\n")
        assert task.config.generation_kwargs["max_gen_toks"] == 4096 and task.config.generation_kwargs["until"] == []
