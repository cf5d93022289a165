"""``dynbench mutate``: mutate a benchmark (or any JSONL of Python programs) into a new JSONL file."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

from dynbench_tasks.benchmarks import BENCHMARKS, Program, load_benchmark, read_jsonl
from dynbench_tasks.cli.arguments import add_data_dir, output_file, positive_int
from dynbench_tasks.errors import DataError, UsageError
from mutators.programs import MUTATED, STATUSES, ProgramKind


def add_parsers(commands) -> None:
    parser = commands.add_parser(
        "mutate",
        help="mutate every program of a benchmark with a chain of operators",
        description="Write OUT.jsonl: each input record plus mutated_code (and mutated_input where "
        "a renamed parameter is passed by keyword) and a mutation record. A one-line JSON summary "
        "goes to stderr.",
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--benchmark", choices=sorted(BENCHMARKS), help="one of the shipped benchmarks")
    source.add_argument("--input", metavar="FILE.jsonl", help="any JSONL file of Python programs")
    parser.add_argument("--code-field", metavar="NAME", help="with --input: the field holding the program")
    parser.add_argument("--chain", required=True, help="e.g. FUV, F+U+V2 or for2while,constunfold,varnorm2")
    parser.add_argument("--seed", type=int, required=True)
    add_data_dir(parser)
    parser.add_argument("--verify", action="store_true", help="run the equivalence check in the sandbox")
    parser.add_argument("--out", required=True, type=output_file, metavar="OUT.jsonl")
    parser.add_argument(
        "--option", action="append", default=[], metavar="OPERATOR.KEY=VALUE",
        help="operator option, e.g. varnorm2.length=5 or constunfold.max_offset=3 (repeatable)",
    )
    parser.add_argument("--limit", type=positive_int, help="only the first N programs")
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds per checked call or run (default 2)")
    parser.add_argument("--workers", type=int, help="sandbox processes (default: one per core)")
    parser.set_defaults(handler=run)


def _options(pairs: list[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, separator, value = pair.partition("=")
        if not separator:
            raise UsageError(f"--option {pair!r} is not OPERATOR.KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def _programs(args) -> tuple[list[dict], list[Program], str]:
    if args.input:
        if not args.code_field:
            raise DataError("--input needs --code-field NAME (the field that holds each program)")
        if args.verify:
            raise DataError("--verify runs a benchmark's own tests and inputs; --input files carry none")
        records = read_jsonl(Path(args.input))
        programs = []
        for number, record in enumerate(records, 1):
            code = record.get(args.code_field)
            if not isinstance(code, str):
                raise DataError(f"{args.input}: record {number} has no string field {args.code_field!r}")
            programs.append(Program(code, ProgramKind.MODULE))
        return records, programs, args.input
    records = load_benchmark(args.benchmark, args.data_dir)
    benchmark = BENCHMARKS[args.benchmark]
    return records, [benchmark.program(record) for record in records], args.benchmark


def run(args: argparse.Namespace) -> int:
    from dynbench_tasks.benchmarks.records import data_locations
    from dynbench_tasks.mutation import mutate_programs
    from mutators import parse_chain
    from mutators.execution import Sandbox
    from mutators.newinput import NewInput

    started = time.perf_counter()
    chain = parse_chain(args.chain, _options(args.option))
    records, programs, source = _programs(args)
    if NewInput in chain.operators and not (args.benchmark and BENCHMARKS[args.benchmark].takes_new_inputs):
        where = args.benchmark or "an --input file"
        raise UsageError(f"operator newinput (I) needs a benchmark whose problems show a call; {where} has none")
    if args.limit is not None:
        records, programs = records[: args.limit], programs[: args.limit]
    sandboxes: dict = {}

    def sandbox(hash_seed):
        if hash_seed not in sandboxes:
            sandboxes[hash_seed] = Sandbox(workers=args.workers, hidden=data_locations(), hash_seed=hash_seed)
        return sandboxes[hash_seed]

    try:
        [results] = mutate_programs(programs, [chain], args.seed, label=f"mutating ({chain.spec})",
                                    verify=args.verify, sandbox=sandbox, check_seconds=args.timeout)
    finally:
        for box in sandboxes.values():
            box.close()
    _write(args.out, records, results)
    print(json.dumps(_summary(source, chain.spec, args.seed, results, time.perf_counter() - started)), file=sys.stderr)
    return 0


def _write(path: Path, records: list[dict], results) -> None:
    temporary = path.with_name(path.name + ".partial")
    with temporary.open("w", encoding="utf-8") as handle:
        for record, result in zip(records, results, strict=True):
            line = dict(record)
            line["mutated_code"] = result.code
            if result.call_arguments is not None:
                line["mutated_input"] = result.call_arguments
            if result.expected_output is not None:
                line["mutated_output"] = result.expected_output
            line["mutation"] = result.record()
            handle.write(json.dumps(line, ensure_ascii=False) + "\n")
    os.replace(temporary, path)


def _summary(source: str, chain: str, seed: int, results, seconds: float) -> dict:
    counts = Counter(result.status for result in results)
    operators: dict[str, dict[str, int]] = {}
    for result in results:
        for step in result.steps:
            entry = operators.setdefault(step.operator, {"programs_changed": 0, "sites": 0})
            entry["programs_changed"] += step.changed
            entry["sites"] += step.sites
    return {
        "source": source,
        "chain": chain,
        "seed": seed,
        "programs": len(results),
        **{status: counts.get(status, 0) for status in STATUSES},
        "checked_inputs": sum(result.checked_inputs for result in results),
        "verified_inputs": sum(result.verified_inputs for result in results),
        # Mutated programs no input verified (an input on which the original fails verifies nothing).
        "unverified": sum(result.status == MUTATED and not result.verified_inputs for result in results),
        "operators": operators,
        "seconds": round(seconds, 2),
    }
