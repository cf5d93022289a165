"""``dynbench stats``: the paper's Table 4 (programs changed) and Table 3 (BLEU) for this engine."""

from __future__ import annotations

import argparse
import json

from dynbench_tasks.benchmarks import BENCHMARKS, WITH_OWN_PROGRAMS
from dynbench_tasks.cli.arguments import add_data_dir, names_from, output_file


def add_parsers(commands) -> None:
    stats = commands.add_parser(
        "stats", help="the paper's Table 4 (programs changed) and Table 3 (BLEU) for this engine",
        description="Mutates every benchmark with each single operator and prints how many programs change, "
        "the BLEU of mutants against originals and the token edit distance, beside the paper's numbers.",
    )
    add_data_dir(stats)
    stats.add_argument("--seed", type=int, default=0, help="the mutation seed (default %(default)s)")
    stats.add_argument("--benchmarks", type=names_from(BENCHMARKS), default=",".join(WITH_OWN_PROGRAMS),
                       help=f"comma-separated (default: each set of programs once: {', '.join(WITH_OWN_PROGRAMS)})")
    stats.add_argument("--out", type=output_file, metavar="FILE.json", help="also write the per-program edit distances")
    stats.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dynbench_tasks.analysis.stats import benchmark_stats, render

    rows, distances = [], {}
    for benchmark in args.benchmarks:
        row, per_program = benchmark_stats(benchmark, args.data_dir, args.seed)
        rows.append(row)
        distances[benchmark] = per_program
    print(render(rows))
    if args.out:
        args.out.write_text(json.dumps({"tables": rows, "edit_distances": distances}, indent=1))
    return 0
