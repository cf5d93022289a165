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
    from tqdm import tqdm

    from mutators import mutate, parse_chain

    started = time.perf_counter()
    chain = parse_chain(args.chain, _options(args.option))
    records, programs, source = _programs(args)
    if args.limit is not None:
        records, programs = records[: args.limit], programs[: args.limit]
    results = []
    for program in tqdm(programs, desc=f"mutating ({chain.spec})", unit="program", disable=None, file=sys.stderr):
        results.append(
            mutate(
                program.code, chain, args.seed, kind=program.kind,
                entry_point=program.entry_point, call_arguments=program.call_arguments,
            )
        )
    if args.verify:
        _verify(args, programs, results)
    _write(args.out, records, results)
    print(json.dumps(_summary(source, chain.spec, args.seed, results, time.perf_counter() - started)), file=sys.stderr)
    return 0


def _verify(args, programs: list[Program], results) -> None:
    from tqdm import tqdm

    from dynbench_tasks.benchmarks.records import data_locations
    from mutators.equivalence import CheckSettings, check_equivalence
    from mutators.execution import Sandbox

    items = [(p.code, r, p.tests) for p, r in zip(programs, results, strict=True) if p.tests is not None]
    with Sandbox(workers=args.workers, hidden=data_locations()) as sandbox, tqdm(
        desc="checking equivalence", unit="task", disable=None, file=sys.stderr
    ) as bar:
        check_equivalence(items, sandbox, CheckSettings(seconds=args.timeout, seed=args.seed), progress=bar.update)


def _write(path: Path, records: list[dict], results) -> None:
    temporary = path.with_name(path.name + ".partial")
    with temporary.open("w", encoding="utf-8") as handle:
        for record, result in zip(records, results, strict=True):
            line = dict(record)
            line["mutated_code"] = result.code
            if result.call_arguments is not None:
                line["mutated_input"] = result.call_arguments
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
