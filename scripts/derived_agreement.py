"""Whether a faithful translation agrees with the Python on derived stdin tests (mutators.derived_inputs):
the benchmark's own reference Java, run on the inputs derived from its published ones that the Python
answers steadily, against what the Python prints. CodeNet publishes no Java, so this is measured on
Avatar, whose programs are of the same kind, one JSON line per seed:

    python scripts/derived_agreement.py --benchmark avatar --seeds 0

``reference_passes_published``: programs whose reference Java passes their published tests (only those
are counted further); ``derived_tests``: steady derived tests of those programs; ``java_agrees``: of
them, the ones on which the reference Java prints what the Python does (the judge's comparison);
``programs_with_a_disagreement`` lists the ids where it does not.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from types import SimpleNamespace


def _printed(spec, judge, records: list[dict], problems: list, time_limit_ms: int) -> list[list[str | None]]:
    """What each record's reference Java prints on each of its problem's inputs; None where it fails."""
    from dynbench_tasks.judge.pool import EXITED, RETURNED

    pairs = list(zip(records, problems, strict=True))
    jobs = [spec.build_job(record["java"], dict(record, tests=[{"index": i, "input": stdin, "output": ""}
                                                               for i, stdin in enumerate(problem.inputs)]),
                           str(number), time_limit_ms) for number, (record, problem) in enumerate(pairs)]
    ran = iter(judge.run([job for job in jobs if job is not None]))
    printed = []
    for job, problem in zip(jobs, problems, strict=True):
        runs = next(ran).runs if job is not None else []
        outputs = [run.stdout.decode("utf-8", "replace") if run.outcome == RETURNED or
                   (run.outcome == EXITED and run.exit_status == 0) else None for run in runs]
        printed.append(outputs + [None] * (len(problem.inputs) - len(outputs)))
    return printed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--benchmark", default="avatar", choices=["avatar"])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--time-limit-ms", type=int, default=10_000)
    args = parser.parse_args()

    from dynbench_tasks.benchmarks import BENCHMARKS, load_benchmark
    from dynbench_tasks.benchmarks.new_answers import script_problem
    from dynbench_tasks.benchmarks.translation import judged_output
    from dynbench_tasks.runtime import shared_java_judge
    from mutators.derived_inputs import DERIVED_TESTS
    from mutators.execution import Sandbox
    from mutators.output_choice import answers_of, keep_derived

    spec = BENCHMARKS[args.benchmark]
    records = [record for record in load_benchmark(args.benchmark) if spec.judgeable(record) and record.get("java")]
    for seed in args.seeds:
        start = time.perf_counter()
        problems = [script_problem(spec.program(record).tests, SimpleNamespace(code=record["python"], seed=seed),
                                   derived=DERIVED_TESTS) for record in records]
        passing = derived = agrees = 0
        disagreeing = []
        with Sandbox(hash_seed=1) as first, Sandbox(hash_seed=2) as second:
            keep_derived(problems, (first, second))
            pythons = [answers_of(problem, first) for problem in problems]  # what the Python prints
        print(f"seed {seed}: the Python ran; the reference Java runs", file=sys.stderr, flush=True)
        judge = shared_java_judge()  # once the sandboxes are closed: its JVMs started beside them stalled runs
        for record, problem, python, java in zip(records, problems, pythons,
                                                 _printed(spec, judge, records, problems, args.time_limit_ms),
                                                 strict=True):
            published = len(problem.inputs) - problem.derived
            expected = [test["output"] for test in record["tests"]]
            if isinstance(python, str) or not all(out is not None and judged_output(out, want, spec.numeric_outputs)
                                                  for out, want in zip(java[:published], expected, strict=True)):
                continue
            passing += 1
            same = [out is not None and judged_output(out, want, spec.numeric_outputs)
                    for out, want in zip(java[published:], python[published:], strict=True)]
            derived, agrees = derived + len(same), agrees + sum(same)
            if not all(same):
                disagreeing.append(record["id"])
        print(json.dumps({"benchmark": args.benchmark, "seed": seed, "programs": len(records),
                          "reference_passes_published": passing, "derived_tests": derived, "java_agrees": agrees,
                          "programs_with_a_disagreement": disagreeing,
                          "seconds": round(time.perf_counter() - start)}), flush=True)


if __name__ == "__main__":
    main()
