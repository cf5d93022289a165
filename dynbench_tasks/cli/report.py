"""``dynbench report``: tables, rankings, significance and plots from lm-eval output folders."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_parsers(commands) -> None:
    report = commands.add_parser(
        "report", help="tables, rankings, significance and plots from lm-eval output folders",
        description="Reads results_*.json (and samples_*.jsonl when logged) under each RUN_DIR and writes "
        "report.md, report.csv, report.html and <benchmark>_boxplot.png to --out.",
    )
    report.add_argument("run_dirs", nargs="+", metavar="RUN_DIR")
    report.add_argument("--out", required=True, metavar="DIR")
    report.add_argument("--names", help="comma-separated display names, one per RUN_DIR")
    report.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dynbench_tasks.analysis.report import Report, write_report
    from dynbench_tasks.analysis.runs import load_runs
    from dynbench_tasks.errors import DataError

    names = [n.strip() for n in args.names.split(",")] if args.names else None
    if names is not None and len(names) != len(args.run_dirs):
        raise DataError(f"--names gives {len(names)} names for {len(args.run_dirs)} run folders")
    runs = load_runs(args.run_dirs, names)
    if not runs:
        raise DataError("no dynbench task results in " + ", ".join(args.run_dirs))
    for path in write_report(Report(runs), Path(args.out)):
        print(path)
    return 0
