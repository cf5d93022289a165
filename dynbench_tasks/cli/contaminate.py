"""``dynbench contaminate``: fine-tune on original CRUXEval problems, then compare static and dynamic gains."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from dynbench_tasks.cli.arguments import add_data_dir, names_from, positive_int
from dynbench_tasks.contamination import TRAIN_FORMATS
from dynbench_tasks.errors import SettingsError
from dynbench_tasks.variants import VARIANTS


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
    contaminate.add_argument("--train-format", choices=TRAIN_FORMATS, default=TRAIN_FORMATS[0],
                             help="prompt: the tasks' prompt -> answer (default); raw: the data file's own text, "
                             "program then assertion, all of it learnt")
    contaminate.add_argument("--epochs", type=float, default=20)
    contaminate.add_argument("--lr", type=float, default=1e-4)
    contaminate.add_argument("--batch-size", type=int, default=2)
    contaminate.add_argument("--max-steps", type=int, default=-1, help="stop after this many steps (overrides epochs)")
    contaminate.add_argument("--seed", type=int, default=0)
    add_data_dir(contaminate)
    contaminate.add_argument("--eval-metadata", default="{}",
                             help="JSON merged into the tasks' metadata, e.g. '{\"repeats\": 1, \"temperature\": 0}'")
    contaminate.add_argument("--device", default="cpu")
    contaminate.add_argument("--eval-batch-size", default="8")
    contaminate.add_argument("--max-gen-toks", type=int, help="cap on generated tokens per answer when evaluating")
    contaminate.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dynbench_tasks.contamination.finetune import Evaluation, TrainingSettings, choose_problems, run_contamination
    from dynbench_tasks.lmeval.settings import TaskSettings

    model, gguf_file = args.model, args.gguf_file
    if args.demo:
        from dynbench_tasks.cli.evaluate import demo_model_file

        path = demo_model_file()
        model, gguf_file = str(path.parent), path.name
    metadata = {"seed": args.seed, **_eval_metadata(args.eval_metadata)}
    if args.data_dir:
        metadata["data_dir"] = args.data_dir
    for variant in args.variants:  # a bad setting should stop us before the fine-tuning, not after it
        TaskSettings.from_metadata({"benchmark": "cruxeval", "variant": variant, **metadata})
    ids = [i.strip() for i in args.ids.split(",")] if args.ids else None
    records = choose_problems(args.data_dir, args.limit, ids, args.seed)
    settings = TrainingSettings(args.lr, args.batch_size, args.epochs, args.max_steps, args.seed,
                                train_format=args.train_format)
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
