"""How many of a stdin translation benchmark's NewOutput documents carry a derived test
(:mod:`mutators.derived_inputs`), and why the others carry none; and whether a lookup table of the
published inputs (Java that prints, for a published input, what the shown Python prints on it, and for
any other input the first published test's output) passes a document that has one. One JSON line per task:

    python scripts/derived_coverage.py --tasks codenet_fuvo avatar_fuvo [--seed 0] [--limit 40]

``--limit N`` builds the documents of the benchmark's first N records only (copied to a scratch data folder,
so they are built afresh: the datasets cache keys documents on the engine version, not on this checkout).

``without_derived``: documents scored on the published tests alone, split by why: ``reads_no_input`` (the
program never reads stdin: no input makes it print anything else, so no derived test can tell it from a
lookup table), ``nothing_to_vary`` (no published input has a line derived_inputs rearranges or a value it
lowers: no derived input exists) or ``none_kept`` (derived inputs existed, none kept: the unedited program
failed, was slow or unsteady on them, or the benchmark's own Java disagreed, or every edit answered alike on
them and the edit was sought on the published tests alone). ``lookup_table_passes``: documents with a
derived test whose every derived test expects an output the lookup table prints (their derived outputs are
the fallback's).
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
from pathlib import Path

# how a Python script reads its stdin: input(), sys.stdin, open(0) (a program with none of these reads nothing)
_READS_STDIN = re.compile(r"\binput\b|\bstdin\b|\bopen\s*\(\s*0\b|\bfileinput\b")


def _first_records(benchmark: str, limit: int, folder: Path) -> str:
    """A data folder holding the benchmark's first ``limit`` records."""
    from dynbench_tasks.benchmarks import BENCHMARKS, load_benchmark

    records = load_benchmark(benchmark)[:limit]
    (folder / BENCHMARKS[benchmark].filename).write_text(
        "".join(json.dumps(record) + "\n" for record in records))
    return str(folder)


def coverage(task_name: str, seed: int, limit: int | None = None) -> dict:
    from dynbench_tasks.lmeval import task_manager
    from mutators.derived_inputs import derived_stdins

    start = time.perf_counter()
    metadata = {"seed": seed}
    with tempfile.TemporaryDirectory() as scratch:
        if limit is not None:
            metadata["data_dir"] = _first_records(task_name.split("_")[0], limit, Path(scratch))
        task = task_manager(metadata).load([task_name])["tasks"][task_name]
        docs = list(task.eval_docs)
    with_derived, reads_nothing, nothing, none_kept, table_passes = 0, [], [], [], []
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
        elif not _READS_STDIN.search(doc["original_python"]):
            reads_nothing.append(str(doc["id"]))
        elif derived_stdins([test["input"] for test in doc["original_tests"]], seed):
            none_kept.append(str(doc["id"]))
        else:
            nothing.append(str(doc["id"]))
    return {"task": task_name, "seed": seed, "documents": len(docs), "with_derived": with_derived,
            "without_derived": len(reads_nothing) + len(nothing) + len(none_kept),
            "reads_no_input": len(reads_nothing), "reads_no_input_ids": reads_nothing,
            "nothing_to_vary": len(nothing), "nothing_to_vary_ids": nothing, "none_kept": len(none_kept),
            "none_kept_ids": none_kept, "lookup_table_passes": len(table_passes),
            "lookup_table_passes_ids": table_passes, "seconds": round(time.perf_counter() - start)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", nargs="+", default=["codenet_fuvo", "avatar_fuvo"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, help="only the benchmark's first LIMIT records, built afresh")
    args = parser.parse_args()
    for task_name in args.tasks:
        print(json.dumps(coverage(task_name, args.seed, args.limit)), flush=True)


if __name__ == "__main__":
    main()
