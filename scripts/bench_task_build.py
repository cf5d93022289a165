"""Task build time: cold (empty datasets cache) and warm (cache filled by the cold run) for each task,
each build in a fresh process, as lm-eval would do it.

    python scripts/bench_task_build.py [--tasks cruxeval_orig,cruxeval_fuv]

A build is what lm-eval does before the first request: load the task, prepare its documents. The
equivalence check (on by default) is part of the cold build of a mutated variant.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

_BUILD = """
import sys
from lm_eval.tasks import TaskManager
from dynbench_tasks.lmeval.environment import task_directory
task = TaskManager(include_path=task_directory(), include_defaults=False).load([sys.argv[1]])["tasks"][sys.argv[1]]
print(len(task.test_docs()))
"""


def build(task: str, cache: str) -> tuple[float, int]:
    env = dict(os.environ, HF_DATASETS_CACHE=cache)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _BUILD, task], env=env, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, int(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", default="cruxeval_orig,cruxeval_fuv")
    args = parser.parse_args()
    rows = []
    for task in args.tasks.split(","):
        with tempfile.TemporaryDirectory() as cache:
            cold, documents = build(task, cache)
            warm, _ = build(task, cache)
        rows.append({"task": task, "documents": documents,
                     "cold_seconds": round(cold, 2), "warm_seconds": round(warm, 2)})
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
