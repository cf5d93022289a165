"""Scoring throughput: CRUXEval's reference answers checked by dynbench's sandbox and by lm-eval's
built-in cruxeval executor (one multiprocessing.Process per check), in one run.

    python scripts/bench_scoring.py [--repeats 5] [--builtin-checks 400]

Each check asks whether an answer equals the reference output; the reference answers (800 times --repeats)
all pass. The built-in executor runs ``code + assert f(input)==answer`` the way cruxeval_output does;
it is timed on the first --builtin-checks of the same checks (it manages ~20 per second here).
"""

from __future__ import annotations

import argparse
import json
import os
import time

from dynbench_tasks.benchmarks import load_benchmark
from mutators.execution import Sandbox


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--builtin-checks", type=int, default=400)
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--data-dir")
    args = parser.parse_args()
    records = load_benchmark("cruxeval", args.data_dir) * args.repeats
    tasks = [
        {"kind": "compare_value", "payload": {"answer": r["output"], "reference": r["output"], "seconds": 3.0},
         "limits": {"wall_seconds": 8, "cpu_seconds": 4, "memory_mb": 1024}}
        for r in records
    ]
    with Sandbox(workers=args.workers) as sandbox:
        sandbox.run(tasks[:50])  # warm the workers
        start = time.perf_counter()
        outcomes = sandbox.run(tasks)
        ours = time.perf_counter() - start
    passed = sum(o.get("status") == "ok" and o["result"]["outcome"] == "passed" for o in outcomes)

    from lm_eval.tasks.cruxeval.utils import check_correctness

    subset = records[: args.builtin_checks]
    start = time.perf_counter()
    builtin_passed = sum(check_correctness(f"{r['code']}\nassert f({r['input']})=={r['output']}") for r in subset)
    builtin = time.perf_counter() - start
    ours_rate, builtin_rate = len(tasks) / ours, len(subset) / builtin
    print(json.dumps({
        "checks": len(tasks), "passed": passed, "seconds": round(ours, 2), "checks_per_second": round(ours_rate, 1),
        "builtin_checks": len(subset), "builtin_passed": builtin_passed, "builtin_seconds": round(builtin, 2),
        "builtin_checks_per_second": round(builtin_rate, 1), "speedup": round(ours_rate / builtin_rate, 1),
        "workers": args.workers,
    }))


if __name__ == "__main__":
    main()
