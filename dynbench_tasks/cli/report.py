"""``dynbench report``: tables, rankings, significance and plots from lm-eval output folders."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dynbench_tasks.cli.arguments import add_run_dirs, load_named_runs


def add_parsers(commands) -> None:
    report = commands.add_parser(
        "report", help="tables, rankings, significance and plots from lm-eval output folders",
        description="Reads results_*.json (and samples_*.jsonl when logged) under each RUN_DIR and writes "
        "report.md, report.csv, report.html and <benchmark>_scores.png to --out (created when missing). Each "
        "benchmark is summarised by its contamination-resistant score (the mean over the answer-changing "
        "variants run) beside static, robustness and the drop (static - dynamic; positive = lower on the "
        "dynamic benchmark). Where CRUXEval output tasks with new answers logged their samples, a section gives "
        "each model's recitation verdict (as dynbench detect) and recitation.png its stale and decoy rates.",
    )
    add_run_dirs(report)
    report.add_argument("--out", required=True, metavar="DIR", help="the folder to write (created when missing)")
    report.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dynbench_tasks.analysis.report import Report, write_report
    from dynbench_tasks.analysis.runs import shared_name_lines
    from dynbench_tasks.analysis.text import one_line
    from dynbench_tasks.contamination.report_section import recitation_section

    runs = load_named_runs(args)
    for line in shared_name_lines(runs):
        print(f"dynbench report: warning: {line}", file=sys.stderr)
    report = Report(runs)
    for line in [*report.left_out, *map(one_line, report.unread)]:
        print(f"dynbench report: warning: {line}", file=sys.stderr)
    folder = Path(args.out)
    folder.mkdir(parents=True, exist_ok=True)
    recitation = recitation_section(runs, folder)
    for path in write_report(report, folder, (recitation,) if recitation else ()):
        print(path)
    return 0
