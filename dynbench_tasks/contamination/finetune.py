"""``dynbench contaminate``: the paper's RQ3 as a command. Fine-tune a causal LM on the original
CRUXEval problems (the tasks' own prompt → answer, or the data file's raw text), then score the base and the fine-tuned
model through lm-eval on the static task and on dynamic variants, on the same problems, seeds and
documents, and report the gain each variant shows. A contaminated static benchmark shows a large
gain; a benchmark that still measures the model shows a small one."""

from __future__ import annotations

import json
import logging
import random
import time
from dataclasses import dataclass
from pathlib import Path

from dynbench_tasks.benchmarks import load_benchmark
from dynbench_tasks.benchmarks.cruxeval import paper_prompt
from dynbench_tasks.contamination import TRAIN_FORMATS
from dynbench_tasks.lmeval.settings import check_ids

logger = logging.getLogger("lm_eval.dynbench")
PROMPT, RAW = TRAIN_FORMATS


@dataclass
class TrainingSettings:
    learning_rate: float = 1e-4  # the paper's
    batch_size: int = 2
    epochs: float = 20
    max_steps: int = -1
    seed: int = 0
    max_length: int = 768
    train_format: str = PROMPT


def choose_problems(data_dir: str | None, limit: int | None, ids: list[str] | None, seed: int) -> list[dict]:
    """The problems to train on: the given ids, else ``limit`` problems drawn with ``seed``."""
    records = load_benchmark("cruxeval", data_dir)
    if ids:
        check_ids("cruxeval", tuple(ids), [r["id"] for r in records])
        wanted = set(ids)
        return [r for r in records if r["id"] in wanted]
    if limit is None or limit >= len(records):
        return records
    return sorted(random.Random(seed).sample(records, limit), key=lambda r: int(r["id"].split("_")[1]))




def training_text(record: dict, train_format: str = PROMPT) -> tuple[str, str]:
    """(context, text to learn). ``prompt``: the tasks' own prompt of the original program, then the
    answer they expect. ``raw``: the benchmark's public text as it sits in its data file, the program
    and its assertion, all of it learnt, as a crawler would have scraped it."""
    if train_format == RAW:
        return "", f"{record['code']}\nassert f({record['input']}) == {record['output']}\n"
    return paper_prompt(record), f" {record['output']} # done"


def training_examples(tokenizer, records: list[dict], max_length: int, train_format: str = PROMPT) -> list[dict]:
    """Token ids of context + text, with labels only on the text (the context is masked out)."""
    examples = []
    for record in records:
        prompt, completion = training_text(record, train_format)
        prompt_ids = tokenizer(prompt, add_special_tokens=False)["input_ids"]
        answer_ids = tokenizer(completion, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]
        examples.append({"input_ids": (prompt_ids + answer_ids)[-max_length:],
                         "labels": ([-100] * len(prompt_ids) + answer_ids)[-max_length:]})
    return examples


def load_model(model: str):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(model)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return AutoModelForCausalLM.from_pretrained(model, dtype=torch.float32), tokenizer


def plain_model(model: str, gguf_file: str | None, folder: Path) -> str:
    """A GGUF model dequantised once into an ordinary float32 model folder (transformers will not
    fine-tune a model loaded from GGUF, and the folder loads faster for the evaluations too)."""
    if not gguf_file:
        return model
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    AutoTokenizer.from_pretrained(model, gguf_file=gguf_file).save_pretrained(folder)
    loaded = AutoModelForCausalLM.from_pretrained(model, gguf_file=gguf_file, dtype=torch.float32)
    config = loaded.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config  # the weights are already float32
    plain = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    plain.load_state_dict(loaded.state_dict())
    plain.save_pretrained(folder)
    return str(folder)


def fine_tune(model: str, records: list[dict], out: Path, settings: TrainingSettings) -> Path:
    """Train on prompt → answer with the loss on the answer tokens only; save a normal model folder."""
    import torch
    from transformers import Trainer, TrainingArguments

    network, tokenizer = load_model(model)
    examples = training_examples(tokenizer, records, settings.max_length, settings.train_format)

    def collate(batch):
        width = max(len(e["input_ids"]) for e in batch)
        pad = tokenizer.pad_token_id
        return {
            "input_ids": torch.tensor([e["input_ids"] + [pad] * (width - len(e["input_ids"])) for e in batch]),
            "labels": torch.tensor([e["labels"] + [-100] * (width - len(e["labels"])) for e in batch]),
            "attention_mask": torch.tensor([[1] * len(e["input_ids"]) + [0] * (width - len(e["input_ids"]))
                                            for e in batch]),
        }

    arguments = TrainingArguments(
        output_dir=str(out / "trainer"), learning_rate=settings.learning_rate,
        per_device_train_batch_size=settings.batch_size, num_train_epochs=settings.epochs,
        max_steps=settings.max_steps, seed=settings.seed, logging_steps=10, save_strategy="no", report_to=[],
        use_cpu=not torch.cuda.is_available(), disable_tqdm=False, remove_unused_columns=False,
    )
    Trainer(model=network, args=arguments, train_dataset=examples, data_collator=collate).train()
    folder = out / "model"
    network.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


@dataclass
class Evaluation:
    device: str = "cpu"
    batch_size: str = "8"
    max_gen_toks: int | None = None


def evaluate(name: str, model_args: str, variants: list[str], ids: list[str], metadata: dict,
             evaluation: Evaluation, folder: Path) -> dict[str, float]:
    """pass@1 (%) per variant through lm-eval's own evaluator, restricted to ``ids``; results and
    samples are written to ``folder`` in lm-eval's layout, so ``dynbench report`` reads them."""
    import lm_eval
    from lm_eval.utils import handle_non_serializable

    from dynbench_tasks.lmeval import task_manager

    tasks = [f"cruxeval_{variant}" for variant in variants]
    manager = task_manager({**metadata, "ids": ids})
    generation = f"max_gen_toks={evaluation.max_gen_toks}" if evaluation.max_gen_toks else None
    results = lm_eval.simple_evaluate(model="hf", model_args=model_args, tasks=tasks, device=evaluation.device,
                                      batch_size=evaluation.batch_size, task_manager=manager, gen_kwargs=generation,
                                      confirm_run_unsafe_code=True, log_samples=True)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y-%m-%dT%H-%M-%S.000000")
    samples = results.pop("samples")
    results["model_name"] = name
    (folder / f"results_{stamp}.json").write_text(json.dumps(results, indent=1, default=handle_non_serializable))
    for task in tasks:
        with (folder / f"samples_{task}_{stamp}.jsonl").open("w", encoding="utf-8") as handle:
            for sample in samples[task]:
                handle.write(json.dumps(sample, default=handle_non_serializable, ensure_ascii=False) + "\n")
    return {task.removeprefix("cruxeval_"): round(results["results"][task]["pass@1,sandbox"] * 100, 2)
            for task in tasks}


def table(base: dict[str, float], tuned: dict[str, float]) -> str:
    lines = ["| variant | base pass@1 | fine-tuned pass@1 | gain (points) |", "|---|---|---|---|"]
    for variant, score in base.items():
        lines.append(f"| {variant} | {score:.2f} | {tuned[variant]:.2f} | {tuned[variant] - score:+.2f} |")
    return "\n".join(lines)


def run_contamination(model: str, out: Path, variants: list[str], records: list[dict], settings: TrainingSettings,
                      metadata: dict, evaluation: Evaluation, gguf_file: str | None = None) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    ids = [record["id"] for record in records]
    started = time.perf_counter()
    base_model = plain_model(model, gguf_file, out / "base_model")
    tuned_folder = fine_tune(base_model, records, out, settings)
    trained = time.perf_counter()
    base = evaluate("base", f"pretrained={base_model},dtype=float32", variants, ids, metadata, evaluation,
                    out / "results" / "base")
    tuned = evaluate("fine-tuned", f"pretrained={tuned_folder},dtype=float32", variants, ids, metadata, evaluation,
                     out / "results" / "fine-tuned")
    summary = {
        "model": model, "gguf_file": gguf_file, "problems": ids, "training": settings.__dict__,
        "evaluation_metadata": metadata, "base": base, "fine_tuned": tuned,
        "gain": {v: round(tuned[v] - base[v], 2) for v in variants},
        "seconds": {"fine_tuning": round(trained - started, 1), "total": round(time.perf_counter() - started, 1)},
        "fine_tuned_model": str(tuned_folder),
    }
    (out / "contamination.json").write_text(json.dumps(summary, indent=1))
    (out / "contamination.md").write_text(table(base, tuned) + "\n")
    return summary
