"""``dynbench contaminate`` and ``dynbench probe``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from dynbench_tasks.arguments import input_file, names_from, output_file, positive_int
from dynbench_tasks.settings import VARIANTS, SettingsError, TaskSettings

PROBED_VARIANTS = [v for v in VARIANTS if v not in ("orig", "custom")]  # custom's chain cannot be given here


def add_parsers(commands) -> None:
    contaminate = commands.add_parser(
        "contaminate", help="fine-tune on the original CRUXEval problems, then compare static and dynamic gains",
        description="The paper's RQ3: fine-tune a causal LM (transformers Trainer) on original CRUXEval problems "
        "in the tasks' prompt -> answer format, evaluate base and fine-tuned model through lm-eval on the "
        "chosen variants (same problems, seeds, documents) and write a table of the gains to --out.",
    )
    model = contaminate.add_mutually_exclusive_group(required=True)
    model.add_argument("--model", metavar="DIR", help="a local Hugging Face model folder")
    model.add_argument("--demo", action="store_true", help="the embedded SmolLM2-135M-Instruct")
    contaminate.add_argument("--gguf-file", help="with --model: a GGUF file inside DIR")
    contaminate.add_argument("--out", required=True, metavar="DIR")
    chosen = contaminate.add_mutually_exclusive_group()
    chosen.add_argument("--limit", type=positive_int, help="train on this many problems, drawn with --seed")
    chosen.add_argument("--ids", help="train on these problems (comma-separated ids)")
    contaminate.add_argument("--variants", type=names_from(VARIANTS), default="orig,fuv,auv,afu")
    contaminate.add_argument("--epochs", type=float, default=20)
    contaminate.add_argument("--lr", type=float, default=1e-4)
    contaminate.add_argument("--batch-size", type=int, default=2)
    contaminate.add_argument("--max-steps", type=int, default=-1, help="stop after this many steps (overrides epochs)")
    contaminate.add_argument("--seed", type=int, default=0)
    contaminate.add_argument("--data-dir", metavar="DIR")
    contaminate.add_argument("--eval-metadata", default="{}",
                             help="JSON merged into the tasks' metadata, e.g. '{\"repeats\": 1, \"temperature\": 0}'")
    contaminate.add_argument("--device", default="cpu")
    contaminate.add_argument("--eval-batch-size", default="8")
    contaminate.add_argument("--max-gen-toks", type=int, help="cap on generated tokens per answer when evaluating")
    contaminate.set_defaults(handler=run_contaminate)

    probe = commands.add_parser(
        "probe", help="rank problems by how much likelier their answer is after the original program",
    )
    probe.add_argument("--model", default="hf", help="lm-eval model type (any backend with loglikelihood)")
    probe.add_argument("--model_args", required=True)
    probe.add_argument("--variant", choices=PROBED_VARIANTS, default="fuv")
    probe.add_argument("--ids", help="only these problems (comma-separated)")
    probe.add_argument("--trained-on", type=input_file, metavar="FILE",
                       help="contamination.json (or a file of ids, one per line): "
                       "report how well the probe separates those problems from the rest")
    probe.add_argument("--held-out", type=int, metavar="N",
                       help="with --trained-on: probe those problems and N others drawn with --seed")
    probe.add_argument("--data-dir", metavar="DIR")
    probe.add_argument("--seed", type=int, default=0)
    probe.add_argument("--device", default="cpu")
    probe.add_argument("--batch-size", default="8")
    probe.add_argument("--out", required=True, type=output_file, metavar="FILE.jsonl")
    probe.set_defaults(handler=run_probe)


def run_contaminate(args: argparse.Namespace) -> int:
    from dynbench_tasks.contamination import Evaluation, TrainingSettings, choose_problems, run_contamination

    model, gguf_file = args.model, args.gguf_file
    if args.demo:
        from dynbench_tasks.eval_command import demo_model_file

        path = demo_model_file()
        model, gguf_file = str(path.parent), path.name
    metadata = {"seed": args.seed, **_eval_metadata(args.eval_metadata)}
    if args.data_dir:
        metadata["data_dir"] = args.data_dir
    for variant in args.variants:  # a bad setting should stop us before the fine-tuning, not after it
        TaskSettings.from_metadata({"benchmark": "cruxeval", "variant": variant, **metadata})
    ids = [i.strip() for i in args.ids.split(",")] if args.ids else None
    records = choose_problems(args.data_dir, args.limit, ids, args.seed)
    settings = TrainingSettings(args.lr, args.batch_size, args.epochs, args.max_steps, args.seed)
    evaluation = Evaluation(args.device, args.eval_batch_size, args.max_gen_toks)
    summary = run_contamination(model, Path(args.out), args.variants, records, settings, metadata, evaluation,
                                gguf_file)
    print((Path(args.out) / "contamination.md").read_text())
    print(json.dumps({k: summary[k] for k in ("gain", "seconds")}), file=sys.stderr)
    return 0


def _eval_metadata(text: str) -> dict:
    try:
        metadata = json.loads(text)
    except ValueError as error:
        raise SettingsError(f"--eval-metadata is not JSON ({error})") from None
    if not isinstance(metadata, dict):
        raise SettingsError("--eval-metadata must be a JSON object, e.g. '{\"repeats\": 1}'")
    return metadata


def _trained_on(path: Path) -> set[str]:
    text = path.read_text()
    try:
        return set(json.loads(text)["problems"])
    except (ValueError, KeyError, TypeError):
        return {line.strip() for line in text.splitlines() if line.strip()}


def run_probe(args: argparse.Namespace) -> int:
    import lm_eval.api.registry

    from dynbench_tasks.probe import documents, probe, separation, write

    metadata = {"seed": args.seed}
    if args.data_dir:
        metadata["data_dir"] = args.data_dir
    trained = _trained_on(args.trained_on) if args.trained_on else set()
    if args.ids:
        metadata["ids"] = args.ids
    elif trained and args.held_out:
        import random

        from dynbench_tasks.benchmarks import load_benchmark

        others = sorted(r["id"] for r in load_benchmark("cruxeval", args.data_dir) if r["id"] not in trained)
        metadata["ids"] = sorted(trained) + random.Random(args.seed).sample(others, min(args.held_out, len(others)))
    originals, mutated = documents(args.variant, metadata)
    lm = lm_eval.api.registry.get_model(args.model).create_from_arg_string(
        args.model_args, {"batch_size": args.batch_size, "device": args.device})
    rows = probe(lm, originals, mutated)
    write(rows, Path(args.out))
    summary = {"problems": len(rows), "variant": args.variant, "top": [r.id for r in rows[:5]]}
    if trained:
        summary.update(separation(rows, trained))
    print(json.dumps(summary))
    return 0
