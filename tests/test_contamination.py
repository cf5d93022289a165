"""The fine-tuning experiment (CRUXEval, and translation with the reference Java) and the memorisation
probe, on the tiny model and on a model built to have a known answer."""

import itertools
import json
import subprocess
import sys

import pytest
import torch
from lm_eval.api.model import LM
from transformers import AutoModelForCausalLM, AutoTokenizer

from dynbench_tasks.analysis.runs import load_runs
from dynbench_tasks.benchmarks import BENCHMARKS, load_benchmark
from dynbench_tasks.benchmarks.transcoder_harness import entry_point, function_job
from dynbench_tasks.benchmarks.translation import prompt as translation_prompt
from dynbench_tasks.cli import main
from dynbench_tasks.contamination.finetune import reply_fits, training_examples, training_text
from dynbench_tasks.contamination.probe import documents, probe, separation
from dynbench_tasks.judge.java_source import code_in_reply
from dynbench_tasks.lmeval import task_manager

pytestmark = pytest.mark.slow  # the fast subset (README) leaves this module out


def test_training_examples_learn_only_the_answer(tiny_model):
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    record = {"code": "def f(x):\n    return x\n", "input": "3", "output": "3"}
    prompt, completion = training_text(record)
    assert prompt.endswith("assert f(3) ==") and completion == " 3 # done"
    example = training_examples(tokenizer, [record], 768)[0]
    answer = [label for label in example["labels"] if label != -100]
    assert answer == example["input_ids"][-len(answer):] and answer[-1] == tokenizer.eos_token_id
    assert example["labels"][: len(example["input_ids"]) - len(answer)] == [-100] * (len(example["input_ids"]) - len(answer))


def test_raw_training_learns_the_data_files_own_text(tiny_model):
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    record = {"code": "def f(x):\n    return x\n", "input": "3", "output": "3"}
    context, text = training_text(record, "raw")
    assert context == "" and text == "def f(x):\n    return x\n\nassert f(3) == 3\n"
    example = training_examples(tokenizer, [record], 768, "raw")[0]
    assert example["labels"] == example["input_ids"]  # every token is learnt, as in pretraining on a crawl


@pytest.mark.slow
def test_contaminate_runs_end_to_end(tiny_model, small_data, tmp_path):
    out = tmp_path / "contamination"
    done = subprocess.run(
        [sys.executable, "-m", "dynbench_tasks.cli", "contaminate", "--model", str(tiny_model), "--out", str(out),
         "--limit", "3", "--max-steps", "2", "--variants", "orig,fuv", "--data-dir", small_data,
         "--eval-metadata", json.dumps({"repeats": 1, "temperature": 0}), "--max-gen-toks", "3",
         "--eval-batch-size", "4"],
        capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads((out / "contamination.json").read_text())
    assert len(summary["problems"]) == 3 and set(summary["base"]) == set(summary["fine_tuned"]) == {"orig", "fuv"}
    assert "| fuv |" in done.stdout and summary["training"]["learning_rate"] == 1e-4
    before = AutoModelForCausalLM.from_pretrained(tiny_model)
    after = AutoModelForCausalLM.from_pretrained(out / "model")
    assert any(not torch.equal(a, b) for a, b in zip(before.parameters(), after.parameters(), strict=True))
    runs = load_runs([str(out / "results")])
    assert {(r.model, r.variant) for r in runs} == {("base", "orig"), ("base", "fuv"), ("fine-tuned", "orig"),
                                                    ("fine-tuned", "fuv")}
    assert all(set(r.per_document) <= set(summary["problems"]) for r in runs)


class RecallingLM(LM):
    """Knows the answers of some problems, but only when it sees their original text."""

    def __init__(self, remembered: dict[str, str]) -> None:
        super().__init__()
        self.remembered = remembered  # original code -> id

    def loglikelihood(self, requests):
        return [(0.0, True) if any(code in r.args[0] for code in self.remembered) else (-5.0, False)
                for r in requests]

    def loglikelihood_rolling(self, requests):
        raise NotImplementedError

    def generate_until(self, requests):
        raise NotImplementedError


def test_probe_ranks_remembered_problems_first(small_data):
    originals, mutated = documents("fuv", {"data_dir": small_data})
    remembered = {doc["code"]: doc["id"] for doc in originals[:6]}
    rows = probe(RecallingLM(remembered), originals, mutated)
    assert [row.id for row in rows[:6]] == sorted(remembered.values())
    assert all(row.gap == 5.0 for row in rows[:6]) and all(row.gap == 0.0 for row in rows[6:])
    assert separation(rows, set(remembered.values())) == {"auc": 1.0, "precision_at_k": 1.0, "k": 6}


def test_probe_command_with_a_real_backend(tiny_model, small_data, tmp_path):
    out = tmp_path / "probe.jsonl"
    ids_file = tmp_path / "trained.txt"
    ids_file.write_text("sample_0\nsample_1\n")
    done = subprocess.run(
        [sys.executable, "-m", "dynbench_tasks.cli", "probe", "--model", "hf", "--model-args",
         f"pretrained={tiny_model}", "--variant", "fuv", "--data-dir", small_data, "--trained-on", str(ids_file),
         "--out", str(out)],
        capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 40 and [r["rank"] for r in rows] == list(range(1, 41))
    assert all(a["gap"] >= b["gap"] for a, b in itertools.pairwise(rows))
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["k"] == 2 and 0.0 <= summary["auc"] <= 1.0


class AnswerRecallingLM(RecallingLM):
    """Knows each problem's published answer, whatever program and input it follows."""

    def loglikelihood(self, requests):
        return [(0.0, True) if r.args[1].strip() == self.remembered[r.doc["id"]] else (-5.0, False)
                for r in requests]


def test_probe_on_new_inputs_scores_each_side_on_its_own_answer(small_data):
    originals, mutated = documents("fuvi", {"data_dir": small_data})
    assert [doc["id"] for doc in originals] == [doc["id"] for doc in mutated]
    changed = [i for i, (a, b) in enumerate(zip(originals, mutated, strict=True)) if a["input"] != b["input"]]
    assert changed and all(originals[i]["output"] != mutated[i]["output"] for i in changed)
    rows = {row.id: row for row in probe(AnswerRecallingLM({doc["id"]: doc["output"] for doc in originals}),
                                         originals, mutated)}
    # A model that recalls the published answer gains on the original and, where the input is new, not on the
    # mutant, whose reference is the recomputed output.
    assert all(rows[originals[i]["id"]].gap == 5.0 for i in changed)
    assert all(rows[doc["id"]].gap == 0.0 for i, doc in enumerate(originals) if i not in changed)


# ---------------------------------------------------------------------------------- translation
@pytest.fixture(scope="module")
def transcoder_data(tmp_path_factory, data_dir) -> str:
    """The first 8 TransCoder problems, so that every variant builds in seconds."""
    folder = tmp_path_factory.mktemp("transcoder8")
    lines = (data_dir / "transcoder_py2java.jsonl").read_text().splitlines()[:8]
    (folder / "transcoder_py2java.jsonl").write_text("\n".join(lines) + "\n")
    return str(folder)


def test_translation_trains_on_the_prompt_then_the_reference_java_as_the_judge_reads_it(tiny_model):
    record = next(r for r in load_benchmark("transcoder") if r["java_harness"])
    context, reply = training_text(record, benchmark="transcoder")
    assert context == translation_prompt(record)  # what the task shows the model for the original program
    assert code_in_reply(reply) == record["java"].strip("\n")
    assert function_job(reply, "0", entry_point(record["python"]), record["java_harness"], 1000) is not None
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    example = training_examples(tokenizer, [record], 768, benchmark="transcoder")[0]
    learnt = [label for label in example["labels"] if label != -100]
    assert learnt == tokenizer(reply, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]
    assert len(example["input_ids"]) == len(tokenizer(context, add_special_tokens=False)["input_ids"]) + len(learnt)


def test_the_learnt_reply_passes_the_original_and_not_a_changed_answer(transcoder_data):
    from dynbench_tasks.judge.pool import JavaJudge
    from dynbench_tasks.locations import data_locations

    loaded = task_manager({"data_dir": transcoder_data}).load(["transcoder_orig", "transcoder_newoutput"])["tasks"]
    changed = list(loaded["transcoder_newoutput"].test_docs())[:2]
    originals = {doc["id"]: doc for doc in loaded["transcoder_orig"].test_docs()}
    replies = [training_text(originals[doc["id"]], benchmark="transcoder")[1] for doc in changed]
    items = [(reply, originals[doc["id"]]) for reply, doc in zip(replies, changed, strict=True)]
    items += list(zip(replies, changed, strict=True))
    with JavaJudge(workers=1, hidden=data_locations()) as judge:
        statuses = BENCHMARKS["transcoder"].judge_replies(items, judge, 5000)
    # Control: the reference Java, fenced as the model learns it, passes its original problem. Recalled
    # for a problem whose answer changed, it fails: memorising the training text earns nothing there.
    assert statuses == ["passed", "passed", "wrong_output", "wrong_output"]


@pytest.mark.parametrize(("arguments", "message"), [
    (["--benchmark", "codenet"], "codenet cannot be fine-tuned on: CodeNet has no Java reference"),
    (["--benchmark", "transcoder", "--train-format", "raw"], "--train-format raw is CRUXEval's"),
    (["--benchmark", "transcoder", "--variants", "orig,newinput"], "transcoder has no variant 'newinput'"),
    (["--variants", "orig,fuvo"], "cruxeval has no variant 'fuvo'"),
])
def test_contaminate_refuses_what_it_cannot_do_before_any_work(arguments, message, tmp_path, capsys):
    out = tmp_path / "never"
    assert main(["contaminate", "--model", str(tmp_path / "no-model"), "--out", str(out), *arguments]) == 2
    error = capsys.readouterr().err
    assert error.startswith("dynbench contaminate: error: ") and message in error and error.count("\n") == 1
    assert not out.exists()


@pytest.mark.slow
def test_contaminate_translation_runs_end_to_end(tiny_model, transcoder_data, tmp_path):
    out = tmp_path / "contamination"
    done = subprocess.run(
        [sys.executable, "-m", "dynbench_tasks.cli", "contaminate", "--benchmark", "transcoder", "--model",
         str(tiny_model), "--out", str(out), "--limit", "2", "--max-steps", "2", "--variants", "orig,fuv,newoutput",
         "--data-dir", transcoder_data, "--eval-metadata", json.dumps({"repeats": 1, "temperature": 0}),
         "--max-gen-toks", "40", "--eval-batch-size", "4"],
        capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads((out / "contamination.json").read_text())
    assert summary["benchmark"] == "transcoder" and len(summary["problems"]) == 2
    # Drawn from the problems every variant scores whose reference fits in 40 tokens: each row has them all.
    assert summary["documents"] == {"orig": 2, "fuv": 2, "newoutput": 2} and 2 <= summary["drawn_from"] < 8
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    records = {r["id"]: r for r in load_benchmark("transcoder", transcoder_data)}
    assert all(reply_fits(tokenizer, records[i], "transcoder", 40) for i in summary["problems"])
    assert "| newoutput | 2 |" in done.stdout
    for statuses in (*summary["statuses"]["base"].values(), *summary["statuses"]["fine_tuned"].values()):
        assert sum(statuses.values()) == 2 and set(statuses) <= set(BENCHMARKS["transcoder"].sample_statuses)
    before = AutoModelForCausalLM.from_pretrained(tiny_model)
    after = AutoModelForCausalLM.from_pretrained(out / "model")
    assert any(not torch.equal(a, b) for a, b in zip(before.parameters(), after.parameters(), strict=True))
    runs = load_runs([str(out / "results")])
    assert {(r.model, r.variant) for r in runs} == {(m, v) for m in ("base", "fine-tuned")
                                                    for v in ("orig", "fuv", "newoutput")}


@pytest.mark.parametrize(("every", "lines"), [(0, 4), (3600, 1)])
def test_fine_tuning_reports_its_progress_as_lines_now_and_then(tiny_model, tmp_path, capfd, monkeypatch, every,
                                                                 lines):
    """Where the output is not a terminal: a line with the steps done and the time left once the
    interval has passed, and at the last step; never the trainer's line per logging step."""
    from dynbench_tasks.contamination import finetune

    monkeypatch.setattr(finetune, "PROGRESS_EVERY_SECONDS", every)
    records = [{"code": "def f(x):\n    return x\n", "input": str(i), "output": str(i)} for i in range(4)]
    settings = finetune.TrainingSettings(max_steps=4, batch_size=1, max_length=64)
    finetune.fine_tune(str(tiny_model), records, "cruxeval", tmp_path, settings)
    err = capfd.readouterr().err
    progress = [line for line in err.splitlines() if line.startswith("dynbench: fine-tuning: ")]
    assert len(progress) == lines, err
    assert progress[-1].startswith("dynbench: fine-tuning: 4 of 4 steps in 0:") and "about 0:00 left" in progress[-1]
    assert "{'loss'" not in err and "/4 [" not in err  # no line per log, no progress bar of the 4 steps
