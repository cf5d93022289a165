"""``dynbench contaminate``: the paper's RQ3 as a command. Fine-tune a causal LM on original problems
(CRUXEval: the tasks' own prompt → answer, or the data file's raw text; a translation benchmark: the
tasks' prompt → the benchmark's reference Java), then score the base and the fine-tuned model through
lm-eval on the static task and on dynamic variants, on the same problems, seeds and documents, and
report the gain each variant shows. A contaminated static benchmark shows a large gain; a benchmark
that still measures the model shows a small one."""

from __future__ import annotations

import json
import logging
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from dynbench_tasks.benchmarks import BENCHMARKS, load_benchmark
from dynbench_tasks.benchmarks.cruxeval import paper_prompt
from dynbench_tasks.benchmarks.translation import TranslationBenchmark
from dynbench_tasks.benchmarks.translation import prompt as translation_prompt
from dynbench_tasks.contamination import TRAIN_FORMATS
from dynbench_tasks.errors import SettingsError
from dynbench_tasks.lmeval.cost import PROGRESS_EVERY_SECONDS, clock
from dynbench_tasks.lmeval.settings import check_ids

logger = logging.getLogger("lm_eval.dynbench")
PROMPT, RAW = TRAIN_FORMATS
CRUXEVAL = "cruxeval"


@dataclass
class TrainingSettings:
    learning_rate: float = 1e-4  # the paper's
    batch_size: int = 2
    epochs: float = 20
    max_steps: int = -1
    seed: int = 0
    max_length: int = 768
    train_format: str = PROMPT


@dataclass(frozen=True)
class Choice:
    """Which problems to train on: ``ids``, else ``limit`` drawn with ``seed``; all without either."""

    limit: int | None = None
    ids: tuple[str, ...] = ()
    seed: int = 0


def is_translation(benchmark: str) -> bool:
    return isinstance(BENCHMARKS[benchmark], TranslationBenchmark)


def check_benchmark(benchmark: str, train_format: str) -> None:
    """A benchmark and format there is something to fine-tune on, checked before anything loads."""
    spec = BENCHMARKS[benchmark]
    if not is_translation(benchmark):
        return
    if spec.reference_field is None:
        raise SettingsError(f"{benchmark} cannot be fine-tuned on: {spec.no_reference_reason}; "
                            "use --benchmark transcoder")
    if train_format == RAW:
        raise SettingsError(f"--train-format raw is CRUXEval's (the program and its assertion as its data file "
                            f"holds them); {benchmark} trains on the tasks' prompt -> the reference Java only")


def choose_problems(records: list[dict], benchmark: str, choice: Choice,
                    candidates: set[str] | None = None) -> list[dict]:
    """The problems to train on, in the data file's order: the given ids, else ``limit`` of the
    ``candidates`` (default: every record) drawn with ``seed``."""
    if choice.ids:
        check_ids(benchmark, choice.ids, [r["id"] for r in records])
        wanted = set(choice.ids)
        return [r for r in records if str(r["id"]) in wanted]
    pool = records if candidates is None else [r for r in records if str(r["id"]) in candidates]
    if choice.limit is None or choice.limit >= len(pool):
        return pool
    drawn = {str(r["id"]) for r in random.Random(choice.seed).sample(pool, choice.limit)}
    return [r for r in pool if str(r["id"]) in drawn]


def scored_ids(benchmark: str, variants: list[str], metadata: dict) -> dict[str, set[str]]:
    """The problems each variant's task scores, built as the evaluation will build them (with the
    default scope an answer-changing variant scores only problems whose answer changed, a rewrite only
    programs it changed, and a translation task only problems its judge can run)."""
    from dynbench_tasks.lmeval import task_manager

    loaded = task_manager(metadata).load([f"{benchmark}_{variant}" for variant in variants])["tasks"]
    return {variant: {str(doc["id"]) for doc in loaded[f"{benchmark}_{variant}"].test_docs()} for variant in variants}


def reference_reply(record: dict, benchmark: str) -> str:
    """A translation benchmark's reference Java as a reply its judge reads: one fenced ``java`` block."""
    return f"```java\n{record[BENCHMARKS[benchmark].reference_field]}\n```"


def reply_fits(tokenizer, record: dict, benchmark: str, max_gen_toks: int) -> bool:
    """Whether the reference reply can be generated within ``max_gen_toks`` tokens."""
    return len(tokenizer(reference_reply(record, benchmark), add_special_tokens=False)["input_ids"]) <= max_gen_toks


def training_text(record: dict, train_format: str = PROMPT, benchmark: str = CRUXEVAL) -> tuple[str, str]:
    """(context, text to learn). ``prompt``: the tasks' own prompt of the original program, then the
    answer they expect (CRUXEval: the output; translation: the reference Java, as a reply the judge
    reads). ``raw`` (CRUXEval): the benchmark's public text as it sits in its data file, the program and
    its assertion, all of it learnt, as a crawler would have scraped it."""
    if is_translation(benchmark):
        return translation_prompt(record), reference_reply(record, benchmark)
    if train_format == RAW:
        return "", f"{record['code']}\nassert f({record['input']}) == {record['output']}\n"
    return paper_prompt(record), f" {record['output']} # done"


def training_examples(tokenizer, records: list[dict], max_length: int, train_format: str = PROMPT,
                      benchmark: str = CRUXEVAL) -> list[dict]:
    """Token ids of context + text, with labels only on the text (the context is masked out)."""
    examples = []
    for record in records:
        prompt, completion = training_text(record, train_format, benchmark)
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


def training_progress():
    """A trainer callback that reports the training as a line at the end of a step once
    ``PROGRESS_EVERY_SECONDS`` have passed since the last line, and at the last step: the steps done
    of all, the time taken and left, and the latest loss (where the output is not a terminal, in
    place of the progress bar and of a line per ``logging_steps``)."""
    from transformers import TrainerCallback

    every = PROGRESS_EVERY_SECONDS

    class TrainingProgress(TrainerCallback):
        loss: float | None = None

        def on_train_begin(self, args, state, control, **kwargs):
            self.started = self.printed = time.monotonic()

        def on_log(self, args, state, control, logs=None, **kwargs):
            self.loss = (logs or {}).get("loss", self.loss)

        def on_step_end(self, args, state, control, **kwargs):
            now, done, total = time.monotonic(), state.global_step, state.max_steps
            if not state.is_world_process_zero or (now - self.printed < every and done < total):
                return
            self.printed = now
            elapsed = now - self.started
            left = elapsed / done * (total - done)
            loss = f", loss {self.loss:.3f}" if isinstance(self.loss, float) else ""
            print(f"dynbench: fine-tuning: {done} of {total} steps in {clock(elapsed)}, about {clock(left)} "
                  f"left{loss}", file=sys.stderr, flush=True)

    return TrainingProgress()


def fine_tune(model: str, records: list[dict], benchmark: str, out: Path, settings: TrainingSettings) -> Path:
    """Train on prompt → answer with the loss on the answer tokens only; save a normal model folder."""
    import torch
    from transformers import Trainer, TrainingArguments
    from transformers.trainer_callback import ProgressCallback

    network, tokenizer = load_model(model)
    examples = training_examples(tokenizer, records, settings.max_length, settings.train_format, benchmark)

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
    trainer = Trainer(model=network, args=arguments, train_dataset=examples, data_collator=collate)
    if not sys.stderr.isatty():  # no progress bar (cli/terminal.py): lines now and then, not one per log
        trainer.remove_callback(ProgressCallback)
        trainer.add_callback(training_progress())
    trainer.train()
    folder = out / "model"
    network.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


@dataclass
class Evaluation:
    device: str = "cpu"
    batch_size: str = "8"
    max_gen_toks: int | None = None


@dataclass
class Scores:
    """One model on one variant."""

    pass_at_1: float  # %
    documents: int
    statuses: dict[str, int]  # how many samples got each scorer status (passed, wrong_output, no_code, …)


def evaluate(name: str, model_args: str, benchmark: str, variants: list[str], ids: list[str], metadata: dict,
             evaluation: Evaluation, folder: Path) -> dict[str, Scores]:
    """pass@1 per variant through lm-eval's own evaluator, restricted to ``ids``; results and samples
    are written to ``folder`` in lm-eval's layout, so ``dynbench report`` reads them."""
    import lm_eval
    from lm_eval.utils import handle_non_serializable

    from dynbench_tasks.lmeval import task_manager

    tasks = {variant: f"{benchmark}_{variant}" for variant in variants}
    manager = task_manager({**metadata, "ids": ids})
    generation = f"max_gen_toks={evaluation.max_gen_toks}" if evaluation.max_gen_toks else None
    results = lm_eval.simple_evaluate(model="hf", model_args=model_args, tasks=list(tasks.values()),
                                      device=evaluation.device, batch_size=evaluation.batch_size, task_manager=manager,
                                      gen_kwargs=generation, confirm_run_unsafe_code=True, log_samples=True)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y-%m-%dT%H-%M-%S.000000")
    samples = results.pop("samples")
    results["model_name"] = name
    (folder / f"results_{stamp}.json").write_text(json.dumps(results, indent=1, default=handle_non_serializable))
    for task in tasks.values():
        with (folder / f"samples_{task}_{stamp}.jsonl").open("w", encoding="utf-8") as handle:
            for sample in samples[task]:
                handle.write(json.dumps(sample, default=handle_non_serializable, ensure_ascii=False) + "\n")
    scores = {}
    for variant, task in tasks.items():
        metrics = results["results"][task]
        # pass@1 under the task's one filter (sandbox for CRUXEval, judge for translation)
        pass_at_1 = next(value for key, value in metrics.items() if key.startswith("pass@1,"))
        statuses = Counter(json.loads(scored)["status"] for sample in samples[task]
                           for scored in sample["filtered_resps"][0])
        scores[variant] = Scores(round(pass_at_1 * 100, 2), len(samples[task]), dict(statuses))
    return scores


def table(base: dict[str, Scores], tuned: dict[str, Scores]) -> str:
    lines = ["| variant | documents | base pass@1 | fine-tuned pass@1 | gain (points) |", "|---|---|---|---|---|"]
    for variant, before in base.items():
        after = tuned[variant].pass_at_1
        lines.append(f"| {variant} | {before.documents} | {before.pass_at_1:.2f} | {after:.2f} | "
                     f"{after - before.pass_at_1:+.2f} |")
    return "\n".join(lines)


def translation_candidates(records: list[dict], benchmark: str, scored: dict[str, set[str]], base_model: str,
                           max_gen_toks: int | None) -> set[str]:
    """Problems every variant scores and, with ``max_gen_toks``, whose reference reply fits in it (a
    reply cut short fails whatever the model learnt)."""
    candidates = set.intersection(*scored.values())
    if max_gen_toks:
        from transformers import AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained(base_model)
        candidates = {str(r["id"]) for r in records
                      if str(r["id"]) in candidates and reply_fits(tokenizer, r, benchmark, max_gen_toks)}
    logger.info("%s: %d problems every variant scores%s", benchmark, len(candidates),
                f" with a reference of at most {max_gen_toks} tokens" if max_gen_toks else "")
    if not candidates:
        raise SettingsError(f"no {benchmark} problem is scored by every one of the variants"
                            + (f" with a reference Java of at most {max_gen_toks} tokens" if max_gen_toks else ""))
    return candidates


def check_scored(chosen: list[dict], benchmark: str, scored: dict[str, set[str]]) -> None:
    """Every variant must score some of the chosen problems (lm-eval would stop after the fine-tuning)."""
    ids = {str(r["id"]) for r in chosen}
    for variant, scored_here in scored.items():
        if not ids & scored_here:
            raise SettingsError(f"{benchmark}_{variant} scores none of the chosen problems (a rewrite scores the "
                                "programs it changed, an answer-changing variant those whose answer changed)")


def run_contamination(model: str, out: Path, benchmark: str, variants: list[str], choice: Choice,
                      settings: TrainingSettings, metadata: dict, evaluation: Evaluation,
                      gguf_file: str | None = None) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    records = load_benchmark(benchmark, metadata.get("data_dir"))
    translation = is_translation(benchmark)
    # Given ids are checked before the slow steps; a translation draw needs the model's tokenizer (below).
    chosen = None if translation and not choice.ids else choose_problems(records, benchmark, choice)
    # Translation: only problems every variant scores are drawn, so each row of the table compares the same ones.
    scored = scored_ids(benchmark, variants, metadata) if translation else None
    base_model = plain_model(model, gguf_file, out / "base_model")
    drawn_from = None if choice.ids else len(records)  # how many problems the draw was made from
    if chosen is None:
        candidates = translation_candidates(records, benchmark, scored, base_model, evaluation.max_gen_toks)
        chosen, drawn_from = choose_problems(records, benchmark, choice, candidates), len(candidates)
    if scored is not None:
        check_scored(chosen, benchmark, scored)
    ids = [str(record["id"]) for record in chosen]
    prepared = time.perf_counter()
    tuned_folder = fine_tune(base_model, chosen, benchmark, out, settings)
    trained = time.perf_counter()
    base = evaluate("base", f"pretrained={base_model},dtype=float32", benchmark, variants, ids, metadata, evaluation,
                    out / "results" / "base")
    tuned = evaluate("fine-tuned", f"pretrained={tuned_folder},dtype=float32", benchmark, variants, ids, metadata,
                     evaluation, out / "results" / "fine-tuned")
    finished = time.perf_counter()
    summary = {
        "model": model, "gguf_file": gguf_file, "benchmark": benchmark, "problems": ids,
        "drawn_from": drawn_from,
        "training": settings.__dict__, "evaluation_metadata": metadata,
        "max_gen_toks": evaluation.max_gen_toks,
        "base": {v: s.pass_at_1 for v, s in base.items()},
        "fine_tuned": {v: s.pass_at_1 for v, s in tuned.items()},
        "gain": {v: round(tuned[v].pass_at_1 - base[v].pass_at_1, 2) for v in variants},
        "documents": {v: s.documents for v, s in base.items()},
        "statuses": {"base": {v: s.statuses for v, s in base.items()},
                     "fine_tuned": {v: s.statuses for v, s in tuned.items()}},
        "seconds": {"preparing": round(prepared - started, 1), "fine_tuning": round(trained - prepared, 1),
                    "evaluation": round(finished - trained, 1), "total": round(finished - started, 1)},
        "fine_tuned_model": str(tuned_folder),
    }
    (out / "contamination.json").write_text(json.dumps(summary, indent=1))
    (out / "contamination.md").write_text(table(base, tuned) + "\n")
    return summary
