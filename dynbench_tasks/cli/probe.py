"""``dynbench probe``: rank problems by how much likelier their answer is after the original program."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from dynbench_tasks.cli.arguments import add_data_dir, input_file, output_file
from dynbench_tasks.variants import NAMED_DYNAMIC


def add_parsers(commands) -> None:
    probe = commands.add_parser(
        "probe", help="rank problems by how much likelier their answer is after the original program",
    )
    probe.add_argument("--model", default="hf", help="lm-eval model type (any backend with loglikelihood)")
    probe.add_argument("--model-args", required=True, metavar="ARGS",
                       help="lm-eval's --model_args for the model, e.g. pretrained=DIR,dtype=float32")
    probe.add_argument("--variant", choices=NAMED_DYNAMIC, default="fuv",
                       help="the mutated side of each comparison (default: %(default)s)")
    probe.add_argument("--ids", help="only these problems (comma-separated)")
    probe.add_argument("--trained-on", type=input_file, metavar="FILE",
                       help="contamination.json (or a file of ids, one per line): "
                       "report how well the probe separates those problems from the rest")
    probe.add_argument("--held-out", type=int, metavar="N",
                       help="with --trained-on: probe those problems and N others drawn with --seed")
    add_data_dir(probe)
    probe.add_argument("--seed", type=int, default=0, help="mutation seed, and the draw of --held-out (default 0)")
    probe.add_argument("--device", default="cpu", help="lm-eval's --device (default: cpu)")
    probe.add_argument("--batch-size", default="8", help="lm-eval's --batch_size (default 8)")
    probe.add_argument("--out", required=True, type=output_file, metavar="FILE.jsonl",
                       help="one line per problem, ranked by how much likelier its answer is after the original")
    probe.set_defaults(handler=run)


def _trained_on(path: Path) -> set[str]:
    text = path.read_text()
    try:
        return set(json.loads(text)["problems"])
    except (ValueError, KeyError, TypeError):
        return {line.strip() for line in text.splitlines() if line.strip()}


def run(args: argparse.Namespace) -> int:
    import lm_eval.api.registry

    from dynbench_tasks.contamination.probe import documents, probe, separation, write

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
