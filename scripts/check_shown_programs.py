"""Does every CRUXEval task show a program and input that, run together, give the reference output?

    python scripts/check_shown_programs.py [--chains V1,V2,U,F,A,FUV,AUV,AFU] [--seeds 0,1,2] [--no-verify]

For each chain and seed it mutates all 800 programs as a task does (with the equivalence check unless
--no-verify), takes what the model would be shown (the mutant and its renamed input where the program
was mutated, else the original), runs the program and ``f(<shown input>)`` in the sandbox, and compares
the value with the published output. Prints one JSON line per chain and seed with the mismatches.
"""

from __future__ import annotations

import argparse
import ast
import json
import time

from dynbench_tasks.benchmarks import BENCHMARKS, load_benchmark
from dynbench_tasks.benchmarks.execution import Check, sandbox_task, verdict
from mutators import MUTATED, mutate
from mutators.equivalence import CheckSettings, check_equivalence
from mutators.execution import Sandbox


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chains", default="V1,V2,U,F,A,FUV,AUV,AFU")
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--no-verify", action="store_true")
    args = parser.parse_args()
    benchmark = BENCHMARKS["cruxeval"]
    records = load_benchmark("cruxeval")
    programs = [benchmark.program(record) for record in records]
    with Sandbox() as sandbox:
        for chain in args.chains.split(","):
            for seed in map(int, args.seeds.split(",")):
                started = time.perf_counter()
                results = [mutate(p.code, chain, seed, kind=p.kind, entry_point=p.entry_point,
                                  call_arguments=p.call_arguments) for p in programs]
                if not args.no_verify:
                    check_equivalence([(p.code, r, p.tests) for p, r in zip(programs, results, strict=True)],
                                      sandbox, CheckSettings(seed=seed))
                shown = [(r.code, r.call_arguments or rec["input"]) if r.status == MUTATED
                         else (rec["code"], rec["input"]) for r, rec in zip(results, records, strict=True)]
                checks = [Check("", program=code, expressions=[f"f({arguments})"]) for code, arguments in shown]
                outcomes = sandbox.run([sandbox_task(check, 3.0) for check in checks])
                mismatches = [rec["id"] for check, outcome, rec in zip(checks, outcomes, records, strict=True)
                              if verdict(check, outcome, ast.literal_eval(rec["output"]))[0] != "passed"]
                print(json.dumps({"chain": chain, "seed": seed, "mutated": sum(r.status == MUTATED for r in results),
                                  "mismatches": len(mismatches), "ids": mismatches[:10],
                                  "seconds": round(time.perf_counter() - started, 1)}), flush=True)


if __name__ == "__main__":
    main()
