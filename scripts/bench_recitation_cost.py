"""What the recitation verdict costs a run: the decoy search's share of a cold ``cruxeval_dynamic``
build, and CRUXEval scoring with the stale and decoy checks against scoring without them.

    python scripts/bench_recitation_cost.py [--seed 8191] [--rounds 5]
    python scripts/bench_recitation_cost.py --detect [--seed 0] [--samples 1000]

Build: the cruxeval_dynamic group (13 tasks) loaded in this process as lm_eval loads it, with an empty
datasets cache and a seed no run has built, so every document is built from scratch; the decoy search
(``mutators.input_choice._find_decoys``, the only work the control adds to a build) is timed inside it.
Scoring: cruxeval_fuvio's documents, five answers each (the right output, the published output, the decoy
or another value, and an unparseable answer), scored as the task scores them, with the recited answers
and without (rounds alternate; the least of each is kept). The stale and decoy checks run no program:
they compare the value the answer already gave with two more values.

``--detect``: what checking logged documents against a rebuild adds to ``dynbench detect``. Logged samples
of cruxeval_fuvio and cruxeval_newinput (their documents as lm-eval logs them, five answers each, as above)
are checked as detect checks them (``verify.checked_documents``: the tasks rebuilt from their recorded
settings, served from the datasets cache that a first build warmed) and judged as detect judges them
(``detect.units_of``); the least of ``--rounds`` each.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time


def build(seed: int) -> tuple[float, float, list[dict]]:
    """Seconds of the cold build, of the decoy search within it, and cruxeval_fuvio's documents."""
    from dynbench_tasks.lmeval import task_manager
    from mutators import input_choice

    searching = [0.0]
    search = input_choice._find_decoys

    def timed(*args, **kwargs):
        start = time.perf_counter()
        try:
            return search(*args, **kwargs)
        finally:
            searching[0] += time.perf_counter() - start

    input_choice._find_decoys = timed
    start = time.perf_counter()
    tasks = task_manager({"seed": seed}).load(["cruxeval_dynamic"])["tasks"]
    docs = {name: list(task.test_docs()) for name, task in tasks.items() if hasattr(task, "test_docs")}
    return time.perf_counter() - start, searching[0], next(d for name, d in docs.items() if "fuvio" in str(name))


def answers(docs: list[dict]) -> list[list[str]]:
    return [[doc["output"], doc["original_output"], doc.get("decoy_output") or "'another value'", "42",
             "not an answer ("] for doc in docs]


def score_seconds(docs: list[dict], rounds: int) -> tuple[float, float]:
    from dynbench_tasks.benchmarks.cruxeval import recited_answers, score_generations

    generations = answers(docs)
    outputs, inputs = [doc["output"] for doc in docs], [doc["input"] for doc in docs]
    best = {True: float("inf"), False: float("inf")}
    for _ in range(rounds):
        for recited in (True, False):
            start = time.perf_counter()
            others = [recited_answers(doc) for doc in docs] if recited else None
            score_generations(generations, outputs, inputs, "paper", 3.0, "cruxeval_fuvio", others)
            best[recited] = min(best[recited], time.perf_counter() - start)
    return best[True], best[False]


def logged_runs(seed: int, samples: int) -> list:
    """Runs of cruxeval_fuvio, then cruxeval_newinput, holding ``samples`` logged samples in all, as
    lm-eval logs them (a warm datasets cache after this)."""
    from dynbench_tasks.analysis.runs import TaskRun
    from dynbench_tasks.analysis.verify import _plain
    from dynbench_tasks.lmeval import task_manager

    runs = []
    for name in ("cruxeval_fuvio", "cruxeval_newinput"):
        task = task_manager({"seed": seed}).load([name])["tasks"][name]
        docs = list(task.eval_docs)[: samples - sum(len(run.samples) for run in runs)]
        logged = [{"doc_id": index, "doc": _plain(doc), "resps": [generation]}
                  for index, (doc, generation) in enumerate(zip(docs, answers(docs), strict=True))]
        runs.append(TaskRun("bench", name, "cruxeval", name.removeprefix("cruxeval_"), None,
                            {"dynbench": _plain(task.config.metadata["dynbench"])}, samples=logged))
    return runs


def detect_seconds(runs: list, rounds: int) -> tuple[float, float]:
    """Seconds to check the runs' documents against a rebuild, and to judge their answers, as detect does."""
    from dynbench_tasks.analysis.verify import checked_documents
    from dynbench_tasks.contamination.detect import units_of

    best = {"check": float("inf"), "judge": float("inf")}
    for _ in range(rounds):
        start = time.perf_counter()
        checked = [checked_documents(run) for run in runs]
        best["check"] = min(best["check"], time.perf_counter() - start)
        assert all(not c.problems and not c.differing for c in checked), [c.problems or c.differing for c in checked]
        start = time.perf_counter()
        for run in runs:
            units_of(run)
        best["judge"] = min(best["judge"], time.perf_counter() - start)
    return best["check"], best["judge"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=8191, help="a benchmark seed no cached run has built")
    parser.add_argument("--rounds", type=int, default=5, help="scoring rounds of each kind")
    parser.add_argument("--detect", action="store_true", help="time detect's check of logged documents instead")
    parser.add_argument("--samples", type=int, default=1000, help="--detect: logged samples to check and judge")
    args = parser.parse_args()
    if args.detect:
        runs = logged_runs(args.seed, args.samples)
        check, judge = detect_seconds(runs, args.rounds)
        held = sum(len(run.samples) for run in runs)
        print(f"detect on {held} logged CRUXEval samples (seed {args.seed}, cache warm): checking their documents "
              f"against a rebuild {check:.1f} s, judging their answers {judge:.1f} s (the check adds "
              f"{100 * check / judge:+.0f}%; least of {args.rounds} rounds each)")
        return 0
    with tempfile.TemporaryDirectory(prefix="dynbench-recitation-cost-") as cache:
        os.environ["HF_DATASETS_CACHE"] = cache  # before datasets is imported
        whole, searching, docs = build(args.seed)
        print(f"cold cruxeval_dynamic build (seed {args.seed}): {whole:.1f} s, of which the decoy search "
              f"{searching:.1f} s ({100 * searching / whole:.1f}%)")
        with_recited, without = score_seconds(docs, args.rounds)
    samples = 5 * len(docs)
    print(f"scoring {samples} cruxeval_fuvio samples: {with_recited:.2f} s with the stale and decoy checks, "
          f"{without:.2f} s without ({100 * (with_recited / without - 1):+.1f}%; least of {args.rounds} rounds each)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
