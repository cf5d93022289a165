"""Scoring throughput: CRUXEval's reference answers checked the way the tasks check them (parsed,
evaluated in the sandbox, the value handed back as plain data and compared here) and by lm-eval's
built-in cruxeval executor (one multiprocessing.Process per check), in one run.

    python scripts/bench_scoring.py [--prediction output|input] [--repeats 5] [--builtin-checks 400]

The reference answers (800 times --repeats, each a whole assertion, so that output prediction reads
and checks its left side too) all pass. Input prediction runs the program on each answer's arguments
as well. The built-in executor runs
``code + assert f(input)==answer`` the way cruxeval_output does; it is timed on the first
--builtin-checks of the same checks (it manages ~20 per second here).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import time

from dynbench_tasks.benchmarks import load_benchmark
from dynbench_tasks.benchmarks.cruxeval import parse_answer
from dynbench_tasks.benchmarks.cruxeval_input import parse_input_answer
from dynbench_tasks.benchmarks.execution import sandbox_task, verdict
from mutators.execution import Sandbox


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--prediction", choices=("output", "input"), default="output")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--builtin-checks", type=int, default=400)
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--data-dir")
    args = parser.parse_args()
    records = load_benchmark("cruxeval", args.data_dir) * args.repeats

    def parse(record: dict):
        if args.prediction == "input":
            return parse_input_answer(f"f({record['input']})", "paper", record["code"], record["input"])
        return parse_answer(f"assert f({record['input']}) == {record['output']}", "paper", record["input"])

    with Sandbox(workers=args.workers) as sandbox:
        sandbox.run([sandbox_task(parse(r), 3.0) for r in records[:50]])  # warm up
        start = time.perf_counter()
        checks = [parse(r) for r in records]
        outcomes = sandbox.run([sandbox_task(check, 3.0) for check in checks])
        statuses = [verdict(check, outcome, ast.literal_eval(r["output"]))[0]
                    for check, outcome, r in zip(checks, outcomes, records, strict=True)]
        ours = time.perf_counter() - start
        isolation = sandbox.isolation.describe()
    passed = statuses.count("passed")
    tasks = checks

    from lm_eval.tasks.cruxeval.utils import check_correctness

    subset = records[: args.builtin_checks]
    start = time.perf_counter()
    programs = [f"{r['code']}\nassert f({r['input']})=={r['output']}" for r in subset]  # the same for both kinds
    builtin_passed = sum(check_correctness(program) for program in programs)
    builtin = time.perf_counter() - start
    ours_rate, builtin_rate = len(tasks) / ours, len(subset) / builtin
    print(json.dumps({
        "prediction": args.prediction, "checks": len(tasks), "passed": passed, "seconds": round(ours, 2),
        "checks_per_second": round(ours_rate, 1),
        "builtin_checks": len(subset), "builtin_passed": builtin_passed, "builtin_seconds": round(builtin, 2),
        "builtin_checks_per_second": round(builtin_rate, 1), "speedup": round(ours_rate / builtin_rate, 1),
        "workers": args.workers, "isolation": isolation,
    }))


if __name__ == "__main__":
    main()
