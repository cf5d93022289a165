"""The ``documents_sha256`` of every dynbench task (custom aside: it needs a chain) at each seed, built
from scratch in a fresh datasets cache, as JSON on stdout. Two source trees build the same benchmarks
when their outputs are equal, which is what lets runs made before a change still verify after it:

    python scripts/documents_digests.py --seeds 0 1 > after.json
    PYTHONPATH=/path/to/old/tree python scripts/documents_digests.py --seeds 0 1 > before.json
    cmp before.json after.json

With ``--documents DIR`` it also writes each task's documents at each seed (``DIR/TASK.seedN.jsonl``, one
document a line, in order), so that two builds whose digests differ can be compared document by document.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    parser.add_argument("--tasks", help="comma-separated task names (default: every task but the custom ones)")
    parser.add_argument("--documents", metavar="DIR", help="also write every task's documents at each seed here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dynbench-digests-") as cache:
        os.environ["HF_DATASETS_CACHE"] = cache  # before datasets is imported: nothing is served from a cache
        from lm_eval.tasks import TaskManager

        from dynbench_tasks.lmeval.discovery import task_directory  # a name every version has
        from dynbench_tasks.lmeval.task_names import dynbench_entries

        names = args.tasks.split(",") if args.tasks else sorted(
            entry.name for entry in dynbench_entries().values() if entry.variant not in (None, "custom"))
        digests: dict[str, dict[str, str]] = {name: {} for name in names}
        for seed in args.seeds:
            start = time.perf_counter()
            manager = TaskManager(include_path=task_directory(), include_defaults=False, metadata={"seed": seed})
            tasks = manager.load(names)["tasks"]
            for name in names:
                task = tasks[name]
                documents = task.test_docs()
                digests[name][str(seed)] = task.documents_digest(documents)
                if args.documents:
                    os.makedirs(args.documents, exist_ok=True)
                    with open(os.path.join(args.documents, f"{name}.seed{seed}.jsonl"), "w") as written:
                        written.writelines(json.dumps(doc, sort_keys=True, default=str) + "\n" for doc in documents)
            print(f"seed {seed}: {len(names)} tasks in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    json.dump(digests, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
