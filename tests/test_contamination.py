"""The fine-tuning experiment and the memorisation probe, on the tiny model and on a model built to
have a known answer."""

import itertools
import json
import subprocess
import sys

import torch
from lm_eval.api.model import LM
from transformers import AutoModelForCausalLM, AutoTokenizer

from dynbench_tasks.analysis.runs import load_runs
from dynbench_tasks.contamination.finetune import training_examples, training_text
from dynbench_tasks.contamination.probe import documents, probe, separation


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
        [sys.executable, "-m", "dynbench_tasks.cli", "probe", "--model", "hf", "--model_args",
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
