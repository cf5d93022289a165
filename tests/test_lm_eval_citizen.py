"""dynbench's tasks behave as lm-eval users expect of a task, through lm-eval itself: greedy runs carry
no sampling keys, ``--predict_only`` runs no answer, ``--metadata`` keys meant for other tasks pass
with a warning, an unconfirmed run stops in one line before any document is built, an unsupported
lm-eval stops in one line that names the supported ones, the prompts are byte for byte what they were,
and the cost of a CPU run is said from the run's own first batch, with advice that keeps answers right."""

import json
import logging
import re
import subprocess
import sys
import time
from configparser import ConfigParser

import lm_eval
import pytest

from conftest import REPO
from dynbench_tasks import runtime
from dynbench_tasks.benchmarks.cruxeval import paper_prompt as output_prompt
from dynbench_tasks.benchmarks.cruxeval_input import paper_prompt as input_prompt
from dynbench_tasks.benchmarks.translation import prompt as translation_prompt
from dynbench_tasks.errors import SettingsError
from dynbench_tasks.lmeval import build_progress, documents, task_manager
from dynbench_tasks.lmeval.cost import Plan
from dynbench_tasks.lmeval.environment import SUPPORTED_LM_EVAL
from mutators.execution.limits import CHECK_HASH_SEED

pytestmark = pytest.mark.slow  # the fast subset (README) leaves this module out

TRANSFORMERS_COMPLAINT = "generation flags are not valid"


def _evaluate(tiny_model, tasks, metadata: dict, **kwargs):
    """lm-eval's Python API with the tiny model, on dynbench's tasks only (indexing lm-eval's own takes a minute)."""
    kwargs.setdefault("limit", 2)
    kwargs.setdefault("gen_kwargs", "max_gen_toks=2")
    kwargs.setdefault("confirm_run_unsafe_code", True)
    return lm_eval.simple_evaluate(model="hf", model_args=f"pretrained={tiny_model},dtype=float32", device="cpu",
                                   tasks=tasks, task_manager=task_manager(metadata), bootstrap_iters=0, **kwargs)


def _lm_eval(*arguments, python_first: str = "") -> subprocess.CompletedProcess:
    """lm-eval's command line in a fresh process (from "/", outside any checkout), after ``python_first``."""
    program = f"{python_first}\nimport sys\nfrom lm_eval.__main__ import cli_evaluate\nsys.argv = ['lm_eval', " \
              f"*{list(map(str, arguments))!r}]\ncli_evaluate()"
    return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd="/", timeout=600)


@pytest.mark.parametrize("greedy", [{"metadata": {"temperature": 0}}, {"gen_kwargs": "temperature=0,max_gen_toks=2"}],
                         ids=["metadata", "gen_kwargs"])
def test_greedy_generation_carries_no_sampling_keys(tiny_model, small_data, greedy, capfd):
    metadata = {"data_dir": small_data, "repeats": 1, **greedy.get("metadata", {})}
    results = _evaluate(tiny_model, ["cruxeval_orig"], metadata=metadata, log_samples=True,
                        **{k: v for k, v in greedy.items() if k != "metadata"})
    used = results["configs"]["cruxeval_orig"]["generation_kwargs"]
    assert used["do_sample"] is False or float(used["temperature"]) == 0
    assert "top_p" not in used
    assert all("top_p" not in sample["arguments"][0][1] for sample in results["samples"]["cruxeval_orig"])
    assert TRANSFORMERS_COMPLAINT not in capfd.readouterr().err


def test_sampling_keeps_its_sampling_keys(small_data):
    task = task_manager({"data_dir": small_data}).load(["cruxeval_orig"])["tasks"]["cruxeval_orig"]
    assert task.config.generation_kwargs["top_p"] == 0.95 and task.config.generation_kwargs["do_sample"] is True


def _refused(where: str):
    def start(*args, **kwargs):
        raise AssertionError(f"--predict_only asked for the {where} to run answers in")

    return start


def test_predict_only_runs_no_answer(tiny_model, data_dir, monkeypatch):
    monkeypatch.setattr(runtime, "shared_sandbox", _refused("sandbox"))
    monkeypatch.setattr(runtime, "shared_java_judge", _refused("Java judge"))
    tasks = ["cruxeval_orig", "avatar_orig"]
    results = _evaluate(tiny_model, tasks, predict_only=True, metadata={"data_dir": str(data_dir), "repeats": 2})
    for task in tasks:
        for sample in results["samples"][task]:
            assert sample["filtered_resps"] == sample["resps"]  # the answers as generated, none judged
            assert len(sample["resps"][0]) == 2 and not any('"status"' in answer for answer in sample["resps"][0])


def test_metadata_keys_of_other_tasks_warn_and_near_misses_of_ours_stop(tiny_model, small_data, caplog):
    with caplog.at_level(logging.WARNING, logger="lm_eval.dynbench"):
        results = _evaluate(tiny_model, ["cruxeval_orig"], limit=1,
                            metadata={"data_dir": small_data, "repeats": 1, "max_seq_lengths": [4096]})
    assert "pass@1,sandbox" in results["results"]["cruxeval_orig"]
    warned = [r.getMessage() for r in caplog.records if "max_seq_lengths" in r.getMessage()]
    assert len(warned) == 1 and "is not a dynbench setting: dynbench tasks ignore it" in warned[0]
    with pytest.raises(SettingsError, match=r"^unknown setting 'datadir' in --metadata: did you mean 'data_dir'\?"):
        _evaluate(tiny_model, ["cruxeval_orig"], metadata={"datadir": small_data})


def test_an_unconfirmed_run_stops_in_one_line_before_any_document_is_built(tiny_model, small_data):
    done = _lm_eval("--model", "hf", "--model_args", f"pretrained={tiny_model}", "--device", "cpu",
                    "--tasks", "hellaswag,cruxeval_fuv", "--metadata", json.dumps({"data_dir": small_data}))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == (
        "lm_eval: error: cruxeval_fuv runs the model's answers (in a sandbox) to score them: add "
        "--confirm_run_unsafe_code (confirm_run_unsafe_code=True in Python) to allow it")
    assert "Traceback" not in done.stderr and "building documents" not in done.stderr


def test_an_unconfirmed_python_run_stops_before_any_document_is_built(tiny_model, small_data, monkeypatch):
    from dynbench_tasks.lmeval import documents

    monkeypatch.setattr(documents, "prepare_documents", lambda *args: pytest.fail("documents were built"))
    with pytest.raises(SettingsError, match="cruxeval_fuv runs the model's answers"):
        _evaluate(tiny_model, ["cruxeval_fuv"], confirm_run_unsafe_code=False, metadata={"data_dir": small_data})


FAKE_VERSION = """
import importlib.metadata as metadata
real_version = metadata.version
metadata.version = lambda name: "{version}" if name.replace("_", "-") == "lm-eval" else real_version(name)
"""


def test_an_unsupported_lm_eval_stops_in_one_line_naming_the_supported_versions(tiny_model, small_data):
    done = _lm_eval("--model", "hf", "--model_args", f"pretrained={tiny_model}", "--device", "cpu",
                    "--tasks", "cruxeval_orig", "--limit", "1", "--confirm_run_unsafe_code",
                    "--metadata", json.dumps({"data_dir": small_data, "repeats": 1}),
                    python_first=FAKE_VERSION.format(version="0.4.99"))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == (
        f"lm_eval: error: dynbench supports lm-eval {SUPPORTED_LM_EVAL} (it patches lm-eval's internals), but "
        f"lm-eval 0.4.99 is installed: pip install 'lm-eval{SUPPORTED_LM_EVAL}'")


def test_setup_cfg_requires_the_supported_lm_eval():
    config = ConfigParser()
    config.read(REPO / "setup.cfg")
    requirements = [line.strip() for line in config["options"]["install_requires"].splitlines() if line.strip()]
    assert f"lm-eval{SUPPORTED_LM_EVAL}" in requirements


def _prompts(task, limit: int = 3) -> tuple[list[dict], list[str]]:
    task.build_all_requests(limit=limit, rank=0, world_size=1)
    instances = sorted(task.instances, key=lambda instance: instance.doc_id)
    return [instance.doc for instance in instances], [instance.args[0] for instance in instances]


@pytest.fixture(scope="module")
def few_problems(tmp_path_factory, data_dir) -> str:
    """The first 20 problems of every data file."""
    folder = tmp_path_factory.mktemp("few-problems")
    for path in data_dir.iterdir():
        (folder / path.name).write_text("".join(path.read_text().splitlines(keepends=True)[:20]))
    return str(folder)


@pytest.mark.parametrize("name, render", [("cruxeval_fuv", output_prompt), ("cruxeval_input_fuv", input_prompt),
                                          ("avatar_fuv", translation_prompt), ("transcoder_fuv", translation_prompt)])
def test_zero_shot_prompts_are_the_benchmarks_own_byte_for_byte(few_problems, name, render):
    task = task_manager({"data_dir": few_problems, "repeats": 1}).load([name])["tasks"][name]
    docs, prompts = _prompts(task)
    assert prompts == [render(doc) for doc in docs]


@pytest.mark.parametrize("name", ["cruxeval_orig", "cruxeval_input_orig"])
def test_few_shot_prompts_keep_a_space_between_question_and_answer(small_data, name):
    """lm-eval's own CRUXEval prompt (2-shot): each shot is its question, a space, its answer, a blank
    line, as lm-eval renders it for its own task."""
    task = task_manager({"data_dir": small_data, "repeats": 1, "prompt": "harness"}).load([name])["tasks"][name]
    shots = list(task.fewshot_docs())[:2]
    examples = "".join(f"{task.doc_to_text(shot)} {task.doc_to_target(shot)}\n\n" for shot in shots)
    docs, prompts = _prompts(task)
    assert prompts == [f"{task.config.description}{examples}{task.doc_to_text(doc)}" for doc in docs]


def test_few_shot_from_the_command_line_keeps_a_space_between_question_and_answer(small_data, monkeypatch):
    """``--num_fewshot 1`` on the paper's prompt: the shot, a space, its answer, a blank line, the question."""
    name = "cruxeval_input_orig"
    task = task_manager({"data_dir": small_data, "repeats": 1}).load([name])["tasks"][name]
    task.set_config(key="num_fewshot", value=1)
    shot = list(task.test_docs())[-1]
    monkeypatch.setattr(task.sampler, "sample", lambda n, eval_doc=None: [shot])
    docs, prompts = _prompts(task, limit=2)
    assert prompts == [f"{input_prompt(shot)} {task.doc_to_target(shot)}\n\n{input_prompt(doc)}" for doc in docs]


def test_a_document_build_says_how_far_it_is_every_so_often(small_data, monkeypatch, capfd, tmp_path):
    monkeypatch.setattr(build_progress, "PROGRESS_EVERY_SECONDS", 0.2)  # 30 seconds in a run
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # no build of these tasks before: no estimate yet
    rewrite = documents.mutate

    def slow_rewrite(*args, **kwargs):  # 20 ms a program or more: several lines on a machine of any speed
        time.sleep(0.02)
        return rewrite(*args, **kwargs)

    monkeypatch.setattr(documents, "mutate", slow_rewrite)
    tm = task_manager({"data_dir": small_data, "seed": 7919})
    assert len(list(tm.load(["cruxeval_fuv"])["tasks"]["cruxeval_fuv"].test_docs())) > 0
    lines = [line for line in capfd.readouterr().err.splitlines() if line.startswith("dynbench: cruxeval_fuv:")]
    assert lines and all(re.fullmatch(r"dynbench: cruxeval_fuv: building documents for 0:\d\d: \d+ of 40 programs "
                                      r"rewritten; (no sandbox runs asked for yet|sandbox runs done of those asked "
                                      r"for so far: \d+ of \d+ checking mutants)", line) for line in lines), lines


def test_the_build_line_counts_the_runs_of_each_stage_apart():
    """The equivalence check's runs (its sandbox's hash seed) and the new answers' searches (theirs) are
    counted apart, so a translation build's line says which stage it is in."""

    class Finishing:
        def run(self, tasks, progress=None):
            progress(len(tasks) - 1)  # one run still going
            return []

    progress = build_progress.BuildProgress("avatar_fuvo", 100)
    assert progress.line().endswith("0 of 100 programs rewritten; no sandbox runs asked for yet")
    sandbox = progress.sandboxes(lambda hash_seed: Finishing())
    sandbox(CHECK_HASH_SEED).run([{}] * 4)
    assert progress.line().endswith("sandbox runs done of those asked for so far: 3 of 4 checking mutants")
    sandbox(1).run([{}] * 3)
    sandbox(2).run([{}] * 2)
    assert progress.line().endswith("sandbox runs done of those asked for so far: 3 of 4 checking mutants, "
                                    "3 of 5 choosing new inputs and outputs")


def test_a_build_s_estimate_is_the_time_the_same_build_took_on_this_machine_before(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    kind = "avatar|0.10.0|250|F+U+V2+O|O"
    first = build_progress.BuildProgress("avatar_fuvo and 1 more", 500, kind=kind)
    assert first.line().endswith("no sandbox runs asked for yet")  # no build before: no estimate
    with first:
        pass
    assert kind in json.loads((tmp_path / "dynbench" / "build_seconds.json").read_text())
    (tmp_path / "dynbench" / "build_seconds.json").write_text(json.dumps({kind: 98.0, "codenet|0.10.0|200|O": 60}))
    again = build_progress.BuildProgress("avatar_fuvo and 1 more", 500, kind=kind)
    assert re.search(r"; about 1:3\d left \(these tasks took 1:38 to build on this machine before\)$", again.line())
    assert build_progress.BuildProgress("x", 1, kind="cruxeval|0.10.0|800|O").line().endswith("asked for yet")
    with pytest.raises(KeyboardInterrupt), build_progress.BuildProgress("avatar_fuvo", 250, kind="stopped"):
        raise KeyboardInterrupt  # a build that did not finish says nothing of how long one takes
    assert "stopped" not in json.loads((tmp_path / "dynbench" / "build_seconds.json").read_text())


def test_the_cost_of_a_cpu_run_comes_from_its_first_batch_and_the_advice_keeps_answers_right():
    translation = Plan(answers=1250, problems=250, max_gen_toks=1024, batch=1).message(first_batch_seconds=30)
    assert translation.startswith("generating 1250 answers (250 problems, 5 samples each) of up to 1024 tokens on "
                                  "the CPU takes up to about 10.4 hours (measured on this run's first batch: 30.0 s "
                                  "for 1 answer, the longest prompts); for a quicker run use --metadata")
    assert "max_gen_toks" not in translation.split("; ", 1)[1]
    assert "pass@k for k > 1 is not computed" in translation and "--limit N (the first N problems only" in translation
    greedy = Plan(answers=300, problems=300, max_gen_toks=48, batch=8).message(first_batch_seconds=40)
    assert "--metadata" not in greedy and greedy.endswith("for a quicker run use --limit N (the first N problems only: "
                                                          "a wider interval around each score)")
    assert "quicker" not in Plan(answers=8, problems=8, max_gen_toks=48, batch=8).message(first_batch_seconds=5)
