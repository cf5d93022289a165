"""``dynbench leaderboard RUN_DIR... --out DIR``: rank models by dynamic pass@1, verified, offline."""

from __future__ import annotations

import argparse
from pathlib import Path

from dynbench_tasks.cli.arguments import add_data_dir


def add_parsers(commands) -> None:
    leaderboard = commands.add_parser(
        "leaderboard", help="a static site ranking models by dynamic pass@1, runs of several seeds pooled, verified",
        description="Reads lm-eval output folders (any number of models and seeds), verifies every run as dynbench "
        "verify does, and writes index.html (sortable, self-contained, offline), leaderboard.json, .csv, .md and "
        "a views/ page per model to --out.",
    )
    leaderboard.add_argument("run_dirs", nargs="+", metavar="RUN_DIR")
    leaderboard.add_argument("--out", required=True, metavar="DIR")
    leaderboard.add_argument("--names", help="comma-separated display names, one per RUN_DIR")
    add_data_dir(leaderboard)
    leaderboard.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dynbench_tasks.analysis.leaderboard import write_leaderboard
    from dynbench_tasks.analysis.runs import BUILTIN, load_runs
    from dynbench_tasks.analysis.verify import verify_task
    from dynbench_tasks.errors import DataError

    names = [n.strip() for n in args.names.split(",")] if args.names else None
    if names is not None and len(names) != len(args.run_dirs):
        raise DataError(f"--names gives {len(names)} names for {len(args.run_dirs)} run folders")
    runs = load_runs(args.run_dirs, names)
    if not runs:
        raise DataError("no dynbench task results in " + ", ".join(args.run_dirs))
    verdicts = {id(r): verify_task(r, args.data_dir) for r in runs if r.variant != BUILTIN}
    for verdict in verdicts.values():
        print(verdict.line())
    for path in write_leaderboard(runs, verdicts, Path(args.out)):
        print(path)
    return 0
