"""Java judging throughput: dynbench's judge (a warm compiler, then a fresh sandboxed JVM per program)
against the naive way (one javac process per translation, then the same fresh JVM), on the
benchmarks' own reference translations, in one run.

    python scripts/bench_judge.py [--benchmark transcoder] [--naive 20] [--skip ID,ID]

The naive way is timed on the first --naive translations only (about one judgement per second).
Reference values (TransCoder) are computed (or read where an earlier run kept them) before the timed
run, and reported on their own, as is the judge's start (on a fresh machine, or with a fresh $TMPDIR,
its first-use build).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
import time
from pathlib import Path

from dynbench_tasks.benchmarks import BENCHMARKS, load_benchmark
from dynbench_tasks.benchmarks.translation import TranslationBenchmark
from dynbench_tasks.judge.jdk import JAR, find_jdk, judge_classes
from dynbench_tasks.judge.pool import COMPILED, JavaJudge, JobResult
from dynbench_tasks.locations import data_locations


def naive(benchmark: TranslationBenchmark, items: list[tuple[str, dict]], seconds: float, judge) -> int:
    """Judge each translation with a fresh javac, then as the judge runs it; returns passes."""
    _, javac = find_jdk()
    worker = judge.workers[0]
    passed = 0
    for index, (reply, doc) in enumerate(items):
        job = benchmark.build_job(reply, doc, str(index), int(seconds * 1000))
        with tempfile.TemporaryDirectory() as folder:
            for path, text in job.sources.items():
                Path(folder, path).parent.mkdir(parents=True, exist_ok=True)
                Path(folder, path).write_text(text)
            sources = [str(Path(folder, path)) for path in job.sources]
            compiled = subprocess.run([javac, "-cp", str(judge_classes() / JAR), "-d", folder, *sources],
                                      capture_output=True)
            if compiled.returncode != 0:
                continue
            classes = {str(p.relative_to(folder).with_suffix("")).replace("/", "."): p.read_bytes()
                       for p in Path(folder).rglob("*.class")}
            runs, _ = worker.execute(job, classes)
            passed += benchmark.verdict(JobResult(COMPILED, "", runs), doc) == "passed"
    return passed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--benchmark", default="transcoder", choices=("transcoder", "avatar"))
    parser.add_argument("--naive", type=int, default=20, help="translations judged the naive way")
    parser.add_argument("--workers", type=int, help="judge JVMs (default: the judge's own)")
    parser.add_argument("--skip", default="", help="problem ids to leave out, comma-separated")
    parser.add_argument("--data-dir")
    args = parser.parse_args()
    skipped = set(filter(None, args.skip.split(",")))
    benchmark = BENCHMARKS[args.benchmark]
    items = [(java, doc) for java, doc in benchmark.reference_items(load_benchmark(args.benchmark, args.data_dir))
             if doc["id"] not in skipped]
    start = time.perf_counter()
    with JavaJudge(workers=args.workers, hidden=data_locations()) as judge:
        started = time.perf_counter() - start  # on first use, the judge's build (jar, linked runtime, archive)
        workers = len(judge.workers)
        start = time.perf_counter()
        benchmark.judge_replies(items[:4], judge, 10_000)  # start the JVMs
        benchmark.prepare(items, judge, 10_000)  # reference values, where the benchmark needs them
        prepared = time.perf_counter() - start
        start = time.perf_counter()
        statuses = benchmark.judge_replies(items, judge, 10_000)
        ours = time.perf_counter() - start
        start = time.perf_counter()
        naive_passed = naive(benchmark, items[: args.naive], 10.0, judge)
        slow = time.perf_counter() - start
    ours_rate = len(items) / ours
    naive_rate = args.naive / slow if args.naive else None
    print(json.dumps({
        "benchmark": args.benchmark, "judgements": len(items), "passed": statuses.count("passed"),
        "seconds": round(ours, 2), "judgements_per_second": round(ours_rate, 1),
        "naive_judgements": args.naive, "naive_passed": naive_passed, "naive_seconds": round(slow, 2),
        "naive_judgements_per_second": naive_rate and round(naive_rate, 2),
        "speedup": naive_rate and round(ours_rate / naive_rate, 1),
        "workers": workers, "skipped": sorted(skipped), "judge_start_seconds": round(started, 2),
        "preparation_seconds": round(prepared, 2),
    }))


if __name__ == "__main__":
    main()
