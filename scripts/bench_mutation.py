"""Mutation speed: a chain over every CRUXEval program against parsing and re-printing them with libcst.

    python scripts/bench_mutation.py [--chain FUV] [--benchmark cruxeval] [--repeat 5]

Both are timed in the same process, alternately, and the median of the repeats is reported.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import warnings

import libcst as cst

from dynbench_tasks.benchmarks import BENCHMARKS, load_benchmark
from mutators import mutate, parse_chain


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--benchmark", default="cruxeval", choices=sorted(BENCHMARKS))
    parser.add_argument("--chain", default="FUV")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--data-dir")
    args = parser.parse_args()
    warnings.simplefilter("ignore", SyntaxWarning)
    benchmark = BENCHMARKS[args.benchmark]
    programs = [benchmark.program(record) for record in load_benchmark(args.benchmark, args.data_dir)]
    chain = parse_chain(args.chain)

    def floor() -> None:
        for program in programs:
            _ = cst.parse_module(program.code).code

    def chained() -> None:
        for program in programs:
            mutate(program.code, chain, args.seed, kind=program.kind, entry_point=program.entry_point,
                   call_arguments=program.call_arguments)

    floors, chains = [], []
    for _ in range(args.repeat):
        for timings, work in ((floors, floor), (chains, chained)):
            start = time.perf_counter()
            work()
            timings.append(time.perf_counter() - start)
    floor_s, chain_s = statistics.median(floors), statistics.median(chains)
    print(json.dumps({
        "benchmark": args.benchmark, "programs": len(programs), "chain": chain.spec,
        "parse_and_print_seconds": round(floor_s, 3), "chain_seconds": round(chain_s, 3),
        "ratio": round(chain_s / floor_s, 2), "programs_per_second": round(len(programs) / chain_s, 1),
    }))


if __name__ == "__main__":
    main()
