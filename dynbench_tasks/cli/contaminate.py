"""``dynbench contaminate``: fine-tune on original problems (CRUXEval, or a translation benchmark with
its reference Java), then compare static and dynamic gains."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from dynbench_tasks.cli.arguments import add_data_dir, names_from, positive_int
from dynbench_tasks.contamination import CONTAMINABLE, DEFAULT_VARIANTS, TRAIN_FORMATS
from dynbench_tasks.errors import SettingsError
from dynbench_tasks.variants import VARIANTS


def add_parsers(commands) -> None:
    contaminate = commands.add_parser(
        "contaminate", help="fine-tune on original problems, then compare static and dynamic gains",
        description="The paper's RQ3: fine-tune a causal LM (transformers Trainer) on original problems in the "
        "tasks' prompt -> answer format (CRUXEval: the output; a translation benchmark: its reference Java), "
        "evaluate base and fine-tuned model through lm-eval on the chosen variants (same problems, seeds, "
        "documents) and write a table of the gains to --out.",
    )
    model = contaminate.add_mutually_exclusive_group(required=True)
    model.add_argument("--model", metavar="DIR", help="a local Hugging Face model folder")
    model.add_argument("--demo", action="store_true", help="the embedded SmolLM2-135M-Instruct")
    contaminate.add_argument("--gguf-file", help="with --model: a GGUF file inside DIR")
    contaminate.add_argument("--out", required=True, metavar="DIR",
                             help="folder for the fine-tuned model, contamination.md, .json and lm-eval's results")
    contaminate.add_argument("--benchmark", choices=CONTAMINABLE, default=CONTAMINABLE[0],
                             help="cruxeval (output prediction, default) or a translation benchmark with reference "
                             "Java (transcoder, avatar); translation draws problems every variant scores")
    chosen = contaminate.add_mutually_exclusive_group()
    chosen.add_argument("--limit", type=positive_int, help="train on this many problems, drawn with --seed")
    chosen.add_argument("--ids", help="train on these problems (comma-separated ids)")
    contaminate.add_argument("--variants", type=names_from(VARIANTS),
                             help=f"default: {DEFAULT_VARIANTS['cruxeval']} (CRUXEval), "
                             f"{DEFAULT_VARIANTS['translation']} (translation)")
    contaminate.add_argument("--train-format", choices=TRAIN_FORMATS, default=TRAIN_FORMATS[0],
                             help="prompt: the tasks' prompt -> answer (default); raw (CRUXEval only): the data "
                             "file's own text, program then assertion, all of it learnt")
    contaminate.add_argument("--epochs", type=float, default=20, help="training epochs (default 20, the paper's)")
    contaminate.add_argument("--lr", type=float, default=1e-4, help="learning rate (default 1e-4, the paper's)")
    contaminate.add_argument("--batch-size", type=int, default=2, help="training batch size (default 2, the paper's)")
    contaminate.add_argument("--max-steps", type=int, default=-1, help="stop after this many steps (overrides epochs)")
    contaminate.add_argument("--seed", type=int, default=0,
                             help="draws the --limit problems, seeds training and the mutations (default 0)")
    add_data_dir(contaminate)
    contaminate.add_argument("--eval-metadata", default="{}",
                             help="JSON merged into the tasks' metadata, e.g. '{\"repeats\": 1, \"temperature\": 0}'")
    contaminate.add_argument("--device", default="cpu", help="where to train and evaluate (default: cpu)")
    contaminate.add_argument("--eval-batch-size", default="8",
                             help="lm-eval's --batch_size when evaluating (default 8)")
    contaminate.add_argument("--max-gen-toks", type=positive_int,
                             help="cap on generated tokens per answer when evaluating; on translation only problems "
                             "whose reference Java fits in it are drawn")
    contaminate.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dynbench_tasks.benchmarks import BENCHMARKS
    from dynbench_tasks.contamination.finetune import (
        Choice,
        Evaluation,
        TrainingSettings,
        check_benchmark,
        is_translation,
        run_contamination,
    )
    from dynbench_tasks.lmeval.settings import settings_from_metadata

    benchmark = args.benchmark
    check_benchmark(benchmark, args.train_format)
    variants = args.variants or names_from(VARIANTS)(
        DEFAULT_VARIANTS["translation" if is_translation(benchmark) else "cruxeval"])
    metadata = {"seed": args.seed, **_eval_metadata(args.eval_metadata)}
    if args.data_dir:
        metadata["data_dir"] = args.data_dir
    for variant in variants:  # a bad setting should stop us before the fine-tuning, not after it
        settings_from_metadata({"benchmark": benchmark, "variant": variant, **metadata})
    if BENCHMARKS[benchmark].needs_jdk:
        from dynbench_tasks.judge.jdk import find_jdk

        find_jdk()
    model, gguf_file = args.model, args.gguf_file
    if args.demo:
        from dynbench_tasks.lmeval.demo_model import model_file

        path = model_file()
        model, gguf_file = str(path.parent), path.name
    ids = tuple(i.strip() for i in args.ids.split(",")) if args.ids else ()
    settings = TrainingSettings(args.lr, args.batch_size, args.epochs, args.max_steps, args.seed,
                                train_format=args.train_format)
    evaluation = Evaluation(args.device, args.eval_batch_size, args.max_gen_toks)
    summary = run_contamination(model, Path(args.out), benchmark, variants, Choice(args.limit, ids, args.seed),
                                settings, metadata, evaluation, gguf_file)
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
