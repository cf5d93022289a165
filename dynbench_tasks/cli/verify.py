"""``dynbench verify RUN_DIR``: rebuild a run's documents, re-score its logged answers, compare; with
``--reproduce K``, regenerate K drawn documents with the claimed model and compare the answers."""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import asdict

from dynbench_tasks.cli.arguments import positive_int


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {value}")
    return value


def _seconds(text: str) -> float:
    from dynbench_tasks.lmeval.settings import MAX_TIMEOUT

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (math.isfinite(value) and 0 < value <= MAX_TIMEOUT):
        raise argparse.ArgumentTypeError(f"must be above 0 and at most {MAX_TIMEOUT:g} seconds, got {text}")
    return value


def add_parsers(commands) -> None:
    from dynbench_tasks.analysis.reproduce import MIN_AGREEMENT

    verify = commands.add_parser(
        "verify", help="check a run without its model: provenance, prompts, every answer's status and every score",
        description="For every dynbench task under each RUN_DIR (the folder given to lm_eval --output_path, or the "
        "model folder in it): the engine and data must be the recorded ones, the documents are rebuilt from the "
        "recorded seed and settings, the run must hold all of them (or the first ones lm_eval --limit takes) with "
        "the task's number of answers each, every logged prompt and document must match, every logged answer is "
        "scored again and every claimed score and count recomputed. With --reproduce K, K documents of each task "
        "are drawn at random and generated again with the claimed model (greedy, through lm-eval), and the answers "
        "must be the logged ones. Exit status 0 only if everything matches. The documents are rebuilt from the "
        "benchmark data bundled with dynbench (or --data-dir), never from a data folder the run names.",
    )
    verify.add_argument("run_dirs", nargs="+", metavar="RUN_DIR",
                        help="an lm_eval --output_path folder (or the model folder inside it) to verify")
    verify.add_argument("--data-dir", metavar="DIR", help="the benchmark data to rebuild the documents from, chosen "
                        "by whoever verifies (default: $DYNBENCH_DATA_DIR, else the copy bundled with dynbench); a "
                        "run's own data folder is never read, and its recorded data digest must be this data's")
    verify.add_argument("--require-complete", action="store_true",
                        help="a run that holds only some documents (lm_eval --limit) fails")
    verify.add_argument("--max-timeout", type=_seconds, metavar="SECONDS",
                        help="the longest one answer may run when verify scores it (default: the benchmark's default "
                        "timeout); answers are scored under the run's recorded timeout or this, whichever is shorter, "
                        "and a run that records a longer timeout fails")
    verify.add_argument("--json", action="store_true",
                        help="one JSON object per task (and per spot check) instead of a line")
    spot = verify.add_argument_group("spot checks of generation (--reproduce)")
    spot.add_argument("--reproduce", type=positive_int, metavar="K",
                      help="regenerate K documents of each task, drawn at random, with the claimed model")
    spot.add_argument("--reproduce-seed", type=int, metavar="S",
                      help="the draw's seed (default: a fresh one from the OS, printed with the result)")
    spot.add_argument("--min-agreement", type=_share, default=MIN_AGREEMENT, metavar="SHARE",
                      help="share of the drawn documents whose answers must agree exactly (default %(default)s)")
    spot.add_argument("--model", help="lm-eval model type, as for lm_eval (e.g. hf, vllm)")
    spot.add_argument("--model-args", dest="model_args",
                      help="lm-eval model arguments, e.g. pretrained=MODEL,dtype=float32")
    spot.add_argument("--batch-size", dest="batch_size", default="1", help="lm-eval batch size (default %(default)s)")
    spot.add_argument("--device", help="lm-eval device, e.g. cpu or cuda:0")
    verify.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dynbench_tasks.analysis.runs import load_runs
    from dynbench_tasks.analysis.text import one_line
    from dynbench_tasks.analysis.verify import PARTIAL, VERIFIED, require_complete, verify_task
    from dynbench_tasks.errors import DataError, UsageError

    if args.reproduce and not (args.model and args.model_args):
        raise UsageError("--reproduce needs the claimed model: --model TYPE --model-args ARGUMENTS")
    if not args.reproduce and (args.model or args.model_args or args.reproduce_seed is not None):
        raise UsageError("--model, --model-args and --reproduce-seed go with --reproduce K")
    runs = load_runs(args.run_dirs, keep_all=True)  # every results file is verified, each on its own
    if not runs:
        raise DataError("no dynbench task results in " + ", ".join(map(one_line, args.run_dirs)))
    verdicts = []
    for task_run in runs:
        verdict = verify_task(task_run, args.data_dir, args.max_timeout)
        verdicts.append(require_complete(verdict) if args.require_complete else verdict)
        print(json.dumps(asdict(verdict)) if args.json else verdict.line(), flush=True)
    verified = [task_run for task_run, verdict in zip(runs, verdicts, strict=True)
                if verdict.outcome in (VERIFIED, PARTIAL)]
    passed = len(verified) == len(runs)
    if args.reproduce:
        passed = _spot_checks(args, verified) and passed
    return 0 if passed else 1


def _spot_checks(args: argparse.Namespace, runs) -> bool:
    """Spot checks of the runs that verified (a run that does not verify has failed already)."""
    from dynbench_tasks.analysis.reproduce import REPRODUCED, spot_check_runs

    checks = spot_check_runs(runs, args.reproduce, args.model, args.model_args, seed=args.reproduce_seed,
                             batch_size=args.batch_size, device=args.device, min_agreement=args.min_agreement,
                             data_dir=args.data_dir)
    for check in checks:
        print(json.dumps(check.record()) if args.json else check.line(), flush=True)
    return all(check.outcome == REPRODUCED for check in checks)
