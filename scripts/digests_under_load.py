"""The ``documents_sha256`` of tasks built on the first problems of their benchmarks, idle and under CPU
load, to show that no clock decides what a document holds (a leaderboard rebuilding documents elsewhere
must get the same ones):

    python scripts/digests_under_load.py --tasks cruxeval_fuvo,transcoder_fuvo --seeds 0 1 2 --first 40

Each build runs in a fresh process with an empty datasets cache, under each ``--loads``: ``idle``;
``busy`` (``--busy`` processes spinning on every core); ``quarter`` (the build and everything it starts
pinned to one core that three spinning processes share with it: a quarter of one core). Prints one JSON
object: each load's digests (task -> seed -> sha256), its build seconds and the runs a time limit
stopped (mutators.runaway's log lines), and whether every load built the same documents.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_BUILD = """
import json, sys
from lm_eval.tasks import TaskManager
from dynbench_tasks.lmeval.discovery import task_directory
names, seeds, folder = sys.argv[1].split(","), [int(s) for s in sys.argv[2].split(",")], sys.argv[3]
digests = {name: {} for name in names}
for seed in seeds:
    manager = TaskManager(include_path=task_directory(), include_defaults=False,
                          metadata={"seed": seed, "data_dir": folder})
    tasks = manager.load(names)["tasks"]
    for name in names:
        digests[name][str(seed)] = tasks[name].documents_digest(tasks[name].test_docs())
print(json.dumps(digests))
"""
_SPIN = [sys.executable, "-c", "while True: pass"]
_STOPPED = re.compile(r"(\d+) runs? stopped by a time limit")


def data_folder(tasks: list[str], first: int, folder: Path) -> None:
    """The first ``first`` problems of each benchmark the tasks read, as a data folder."""
    from dynbench_tasks.cli.demo import _first_problems

    for benchmark in sorted({name.split("_")[0] for name in tasks}):
        _first_problems(benchmark, None, first, folder)


@contextlib.contextmanager
def load(kind: str, busy: int):
    """The command prefix that runs a build under ``kind`` of load, with the spinning processes running."""
    if kind == "idle":
        spinners, prefix = [], []
    elif kind == "busy":
        spinners, prefix = [subprocess.Popen(_SPIN) for _ in range(busy)], []
    elif kind == "quarter":
        spinners, prefix = [subprocess.Popen(["taskset", "-c", "0", *_SPIN]) for _ in range(3)], ["taskset", "-c", "0"]
    else:
        raise ValueError(f"unknown load {kind!r}: idle, busy or quarter")
    try:
        yield prefix
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


def build(tasks: list[str], seeds: list[int], folder: Path, prefix: list[str]) -> dict:
    with tempfile.TemporaryDirectory(prefix="dynbench-digests-") as cache:
        env = dict(os.environ, HF_DATASETS_CACHE=cache)
        start = time.perf_counter()
        done = subprocess.run([*prefix, sys.executable, "-c", _BUILD, ",".join(tasks), ",".join(map(str, seeds)),
                               str(folder)], env=env, capture_output=True, text=True, check=False)
        seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"the build failed:\n{done.stderr[-3000:]}")
    return {"digests": json.loads(done.stdout.splitlines()[-1]), "seconds": round(seconds, 1),
            "stopped_by_time": sum(int(count) for count in _STOPPED.findall(done.stderr))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", required=True, help="comma-separated task names")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--first", type=int, default=40, help="problems of each benchmark (default 40)")
    parser.add_argument("--loads", default="idle,busy,quarter")
    parser.add_argument("--busy", type=int, default=8 * (os.cpu_count() or 1), help="spinning processes under busy")
    args = parser.parse_args()
    tasks = args.tasks.split(",")
    report = {}
    with tempfile.TemporaryDirectory(prefix="dynbench-slice-") as folder:
        data_folder(tasks, args.first, Path(folder))
        for kind in args.loads.split(","):
            with load(kind, args.busy) as prefix:
                report[kind] = build(tasks, args.seeds, Path(folder), prefix)
            print(f"{kind}: {report[kind]['seconds']} s", file=sys.stderr)
    report["same"] = len({json.dumps(entry["digests"], sort_keys=True) for entry in report.values()}) == 1
    json.dump(report, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
