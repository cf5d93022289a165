"""``dynbench leaderboard RUN_DIR... --out DIR``: rank models by dynamic pass@1, verified, offline."""

from __future__ import annotations

import argparse
from pathlib import Path

from dynbench_tasks.cli.arguments import add_data_dir, add_run_dirs, load_named_runs


def add_parsers(commands) -> None:
    leaderboard = commands.add_parser(
        "leaderboard", help="a static site ranking models by dynamic pass@1, runs of several seeds pooled, verified",
        description="Reads lm-eval output folders (any number of models and seeds), verifies every run as dynbench "
        "verify does, and writes index.html (sortable, self-contained, offline), leaderboard.json, .csv, .md and "
        "a views/ page per model to --out.",
    )
    add_run_dirs(leaderboard)
    leaderboard.add_argument("--out", required=True, metavar="DIR")
    add_data_dir(leaderboard)
    leaderboard.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dynbench_tasks.analysis.leaderboard import write_leaderboard
    from dynbench_tasks.analysis.runs import BUILTIN
    from dynbench_tasks.analysis.verify import verify_task

    runs = load_named_runs(args)
    verdicts = {id(r): verify_task(r, args.data_dir) for r in runs if r.variant != BUILTIN}
    for verdict in verdicts.values():
        print(verdict.line())
    for path in write_leaderboard(runs, verdicts, Path(args.out)):
        print(path)
    return 0
