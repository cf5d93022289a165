"""``dynbench report``, ``dynbench stats`` and ``dynbench view``: reading what the tasks produced."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from dynbench_tasks.arguments import names_from, output_file
from dynbench_tasks.benchmarks import BENCHMARKS


def add_parsers(commands) -> None:
    report = commands.add_parser(
        "report", help="tables, rankings, significance and plots from lm-eval output folders",
        description="Reads results_*.json (and samples_*.jsonl when logged) under each RUN_DIR and writes "
        "report.md, report.csv, report.html and <benchmark>_boxplot.png to --out.",
    )
    report.add_argument("run_dirs", nargs="+", metavar="RUN_DIR")
    report.add_argument("--out", required=True, metavar="DIR")
    report.add_argument("--names", help="comma-separated display names, one per RUN_DIR")
    report.set_defaults(handler=run_report)

    stats = commands.add_parser(
        "stats", help="the paper's Table 4 (programs changed) and Table 3 (BLEU) for this engine",
        description="Mutates every benchmark with each single operator and prints how many programs change, "
        "the BLEU of mutants against originals and the token edit distance, beside the paper's numbers.",
    )
    stats.add_argument("--data-dir", metavar="DIR")
    stats.add_argument("--seed", type=int, default=0)
    stats.add_argument("--benchmarks", type=names_from(BENCHMARKS), default=",".join(BENCHMARKS),
                       help="comma-separated (default: all four)")
    stats.add_argument("--out", type=output_file, metavar="FILE.json", help="also write the per-program edit distances")
    stats.set_defaults(handler=run_stats)

    view = commands.add_parser(
        "view", help="a static HTML page of logged samples: original vs mutated program, answers, outcome flips",
    )
    view.add_argument("run_dir", metavar="RUN_DIR")
    view.add_argument("--variant", required=True, help="e.g. cruxeval_fuv (compared with the same benchmark's orig)")
    view.add_argument("--out", required=True, type=output_file, metavar="FILE.html")
    view.set_defaults(handler=run_view)


def run_report(args: argparse.Namespace) -> int:
    from dynbench_tasks.benchmarks import DataError
    from dynbench_tasks.report import Report, write_report
    from dynbench_tasks.runs import load_runs

    names = [n.strip() for n in args.names.split(",")] if args.names else None
    if names is not None and len(names) != len(args.run_dirs):
        raise DataError(f"--names gives {len(names)} names for {len(args.run_dirs)} run folders")
    runs = load_runs(args.run_dirs, names)
    if not runs:
        raise DataError("no dynbench task results in " + ", ".join(args.run_dirs))
    for path in write_report(Report(runs), Path(args.out)):
        print(path)
    return 0


def run_stats(args: argparse.Namespace) -> int:
    from dynbench_tasks.stats import benchmark_stats, render

    rows, distances = [], {}
    for benchmark in args.benchmarks:
        row, per_program = benchmark_stats(benchmark, args.data_dir, args.seed)
        rows.append(row)
        distances[benchmark] = per_program
    print(render(rows))
    if args.out:
        args.out.write_text(json.dumps({"tables": rows, "edit_distances": distances}, indent=1))
    return 0


def run_view(args: argparse.Namespace) -> int:
    from dynbench_tasks.viewer import write_viewer

    flips = write_viewer(args.run_dir, args.variant, args.out)
    print(f"{args.out}: {flips} outcome flips (passed on orig, failed on {args.variant})", file=sys.stderr)
    return 0
