"""What the ``stale`` check adds to judging a translation task with new answers: the same replies judged
with statuses only and with ``stale`` too, in one process, on the first ``--problems`` programs of
``<benchmark>_newoutput`` (seed 0, 5 samples each). Every reply is the benchmark's own published Java
(CodeNet: its published outputs printed), which fails every edited document: the check's worst case,
where each failing reply is compared with the published program's answers (TransCoder: its harness's
f_gold run once per edited harness, then kept on disk; the first round is timed with nothing kept).

    python scripts/bench_translation_stale.py --benchmark transcoder --problems 100 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--benchmark", default="transcoder", choices=("avatar", "codenet", "transcoder"))
    parser.add_argument("--problems", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    sys.path.insert(0, str(TESTS))
    from known_answers import memorised_answer
    from lm_eval.tasks import TaskManager

    from dynbench_tasks.benchmarks import BENCHMARKS, load_benchmark
    from dynbench_tasks.lmeval.discovery import task_directory
    from dynbench_tasks.runtime import shared_java_judge

    spec, task = BENCHMARKS[args.benchmark], f"{args.benchmark}_newoutput"
    records = [record for record in load_benchmark(args.benchmark) if spec.judgeable(record)][: args.problems]
    with tempfile.TemporaryDirectory(prefix="dynbench-stale-") as kept:
        # a data folder of those programs alone, so that only they are built
        Path(kept, spec.filename).write_text("".join(json.dumps(record) + "\n" for record in records))
        manager = TaskManager(include_path=task_directory(), include_defaults=False,
                              metadata={"seed": 0, "data_dir": kept})
        docs = list(manager.load([task])["tasks"][task].test_docs())
    items = [(memorised_answer(task, doc), doc) for doc in docs for _ in range(5)]
    with tempfile.TemporaryDirectory(prefix="dynbench-stale-") as kept:
        os.environ["XDG_CACHE_HOME"] = kept  # values kept by earlier runs are not read: the first round is cold
        judge = shared_java_judge()
        spec.judge_replies(items[:5], judge, 10_000)  # start the JVMs
        plain, checked = [], []
        for _ in range(args.rounds):
            start = time.perf_counter()
            spec.judge_replies(items, judge, 10_000)
            plain.append(time.perf_counter() - start)
            start = time.perf_counter()
            flags = spec.judge_with_stale(items, judge, 10_000)
            checked.append(time.perf_counter() - start)
    print(json.dumps({
        "task": task, "documents": len(docs), "samples": len(items),
        "stale": sum(flag.get("stale") is True for flag in flags), "keyed": sum("stale" in flag for flag in flags),
        "statuses_seconds": [round(s, 2) for s in plain], "with_stale_seconds": [round(s, 2) for s in checked],
        "first_with_stale_seconds": round(checked[0], 2),
        "median_ratio": round(statistics.median(checked) / statistics.median(plain), 3)}))


if __name__ == "__main__":
    main()
