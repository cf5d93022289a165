"""How many of a stdin translation benchmark's NewOutput documents carry a derived test
(:mod:`mutators.derived_inputs`), and why the others carry none; and whether a lookup table of the
published inputs (Java that prints, for a published input, what the shown Python prints on it, and for
any other input the first published test's output) passes a document that has one. One JSON line per task:

    python scripts/derived_coverage.py --tasks codenet_fuvo avatar_fuvo [--seed 0]

``without_derived``: documents scored on the published tests alone, split by why: ``nothing_to_rearrange``
(no line of any published input is one derived_inputs rearranges: no derived input exists) or
``none_kept`` (derived inputs existed, none kept: the unedited program failed, was slow or unsteady on them,
or the benchmark's own Java disagreed). ``lookup_table_passes``: documents with a derived test whose every
derived test expects an output the lookup table prints (their derived outputs are the fallback's).
"""

from __future__ import annotations

import argparse
import json
import time


def coverage(task_name: str, seed: int) -> dict:
    from dynbench_tasks.lmeval import task_manager
    from mutators.derived_inputs import derived_stdins

    start = time.perf_counter()
    task = task_manager({"seed": seed}).load([task_name])["tasks"][task_name]
    docs = list(task.eval_docs)
    with_derived, nothing, none_kept, table_passes = 0, [], [], []
    for doc in docs:
        derived = [test for test in doc["tests"] if test.get("derived")]
        published = [test for test in doc["tests"] if not test.get("derived")]
        if derived:
            with_derived += 1
            # the lookup table: a published input's output as scored; any other input, the first one's
            fallback = published[0]["output"] if published else ""
            table = {test["input"]: test["output"] for test in published}
            if all(table.get(test["input"], fallback).strip() == test["output"].strip() for test in derived):
                table_passes.append(str(doc["id"]))
        elif derived_stdins([test["input"] for test in doc["original_tests"]], seed):
            none_kept.append(str(doc["id"]))
        else:
            nothing.append(str(doc["id"]))
    return {"task": task_name, "seed": seed, "documents": len(docs), "with_derived": with_derived,
            "without_derived": len(nothing) + len(none_kept), "nothing_to_rearrange": len(nothing),
            "none_kept": len(none_kept), "none_kept_ids": none_kept[:20], "lookup_table_passes": len(table_passes),
            "lookup_table_passes_ids": table_passes[:20], "seconds": round(time.perf_counter() - start)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", nargs="+", default=["codenet_fuvo", "avatar_fuvo"])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for task_name in args.tasks:
        print(json.dumps(coverage(task_name, args.seed)), flush=True)


if __name__ == "__main__":
    main()
