"""``dynbench leaderboard RUN_DIR... --out DIR``: rank models by their contamination-resistant score,
verified, offline; ``--seed`` makes it a round's."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dynbench_tasks.cli.arguments import add_data_dir, add_run_dirs, load_named_runs


def add_parsers(commands) -> None:
    leaderboard = commands.add_parser(
        "leaderboard", help="a static site ranking models by their contamination-resistant score, verified",
        description="Reads lm-eval output folders (any number of models and seeds), verifies every run as dynbench "
        "verify does, and writes index.html (sortable, self-contained, offline), leaderboard.json, .csv, .md and "
        "a views/ page per row to --out. Models are ranked by the mean pass@1 over the answer-changing variants "
        "their runs hold (on translation not newoutput, whose one changed literal a model copies into the Java it "
        "memorised), beside static (orig), robustness and drop = static - headline.",
    )
    add_run_dirs(leaderboard)
    leaderboard.add_argument("--out", required=True, metavar="DIR")
    leaderboard.add_argument("--seed", type=int, metavar="S", help="a round's seed: rank only runs made with it "
                             "and list the others apart")
    leaderboard.add_argument("--require-greedy", action="store_true", help="rank only runs generated at "
                             "temperature 0, whose answers a spot check (dynbench verify --reproduce) can compare")
    add_data_dir(leaderboard)
    leaderboard.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dynbench_tasks.analysis.leaderboard import warnings, write_leaderboard
    from dynbench_tasks.analysis.runs import BUILTIN
    from dynbench_tasks.analysis.text import one_line
    from dynbench_tasks.analysis.verify import verify_task

    runs = load_named_runs(args)
    verdicts = {id(r): verify_task(r, args.data_dir) for r in runs if r.variant != BUILTIN}
    for verdict in verdicts.values():
        print(one_line(verdict.line()))  # it names the model, and a submitted name may hold anything
    rows, written = write_leaderboard(runs, verdicts, Path(args.out), args.seed, args.require_greedy)
    for line in warnings(rows, args.seed):
        print(f"dynbench leaderboard: warning: {line}", file=sys.stderr)
    for path in written:
        print(path)
    return 0
