"""``dynbench verify RUN_DIR``: rebuild a run's documents, re-score its logged answers, compare."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

from dynbench_tasks.cli.arguments import add_data_dir


def add_parsers(commands) -> None:
    verify = commands.add_parser(
        "verify", help="check a run without its model: provenance, prompts, every answer's status and every score",
        description="For every dynbench task under each RUN_DIR (the folder given to lm_eval --output_path, or the "
        "model folder in it): the engine and data must be the recorded ones, the documents are rebuilt from the "
        "recorded seed and settings, every logged prompt must match, every logged answer is scored again and every "
        "claimed score recomputed. Exit status 0 only if everything the run holds matches.",
    )
    verify.add_argument("run_dirs", nargs="+", metavar="RUN_DIR")
    add_data_dir(verify)
    verify.add_argument("--require-complete", action="store_true",
                        help="a run that holds only some documents (lm_eval --limit) fails")
    verify.add_argument("--json", action="store_true", help="one JSON object per task instead of a line")
    verify.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dynbench_tasks.analysis.verify import PARTIAL, VERIFIED, verify_runs

    verdicts = verify_runs(args.run_dirs, args.data_dir)
    for verdict in verdicts:
        print(json.dumps(asdict(verdict)) if args.json else verdict.line())
    accepted = {VERIFIED} if args.require_complete else {VERIFIED, PARTIAL}
    return 0 if all(v.outcome in accepted for v in verdicts) else 1
