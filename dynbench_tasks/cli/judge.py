"""``dynbench judge --benchmark B --references``: the benchmark's own Java through the same
extraction and judge the translation tasks use, with per-status counts and throughput."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter

from dynbench_tasks.benchmarks import BENCHMARKS, load_benchmark
from dynbench_tasks.benchmarks.translation import TranslationBenchmark
from dynbench_tasks.cli.arguments import add_data_dir, output_file

JUDGED = [name for name, benchmark in BENCHMARKS.items() if isinstance(benchmark, TranslationBenchmark)]


def add_parsers(commands) -> None:
    parser = commands.add_parser("judge", help="judge a benchmark's reference Java translations")
    parser.add_argument("--benchmark", required=True, choices=JUDGED, help="the translation benchmark to judge")
    parser.add_argument("--references", action="store_true", required=True,
                        help="judge the benchmark's own reference Java (the only source for now)")
    add_data_dir(parser)
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per test run (default 10)")
    parser.add_argument("--workers", type=int, help="judge JVMs (default: one per core, plus one)")
    parser.add_argument("--out", type=output_file, metavar="FILE.jsonl",
                        help="also write one line per problem with its status")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from dynbench_tasks.judge.pool import JavaJudge
    from dynbench_tasks.locations import data_locations

    benchmark = BENCHMARKS[args.benchmark]
    records = load_benchmark(args.benchmark, args.data_dir)
    items = benchmark.reference_items(records)
    start = time.perf_counter()
    with (JavaJudge(workers=args.workers, hidden=data_locations()) as judge,
          tqdm(total=len(items), desc="judging", disable=None, file=sys.stderr) as bar):
        statuses = benchmark.judge_replies(items, judge, int(args.timeout * 1000), progress=bar.update)
    seconds = time.perf_counter() - start
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            for (_, record), status in zip(items, statuses, strict=True):
                handle.write(json.dumps({"id": record["id"], "status": status}) + "\n")
    counts = Counter(statuses)
    print(json.dumps({
        "benchmark": args.benchmark, "problems": len(records), "judged": len(items),
        "not_judgeable": len(records) - len(items),
        **{status: counts.get(status, 0) for status in benchmark.sample_statuses},
        "seconds": round(seconds, 2), "judgements_per_second": round(len(items) / seconds, 1),
    }))
    return 0
