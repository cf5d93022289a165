"""``dynbench mutate``: mutate a benchmark (or any JSONL of Python programs) into a new JSONL file."""

from __future__ import annotations

import argparse
import difflib
import json
import math
import os
import sys
import time
from collections import Counter
from pathlib import Path

from dynbench_tasks.benchmarks import BENCHMARKS, Program, load_benchmark
from dynbench_tasks.cli.arguments import add_data_dir, output_file, positive_int
from dynbench_tasks.errors import DataError, UsageError
from mutators.guarded import DEFAULT_MAX_BYTES, DEFAULT_SECONDS
from mutators.programs import MUTATED, NO_PROGRAM, STATUSES, UNTRUSTED_STATUSES, ProgramKind


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
    parser.add_argument(
        "--max-program-bytes", type=positive_int, metavar="N",
        help=f"with --input: a longer program (in UTF-8) is not parsed; status too_large "
        f"(default {DEFAULT_MAX_BYTES})",
    )
    parser.add_argument(
        "--program-timeout", type=_seconds, metavar="SECONDS",
        help=f"with --input: seconds to mutate one program, after which its process is killed; status timeout "
        f"(default {DEFAULT_SECONDS:g})",
    )
    parser.set_defaults(handler=run)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be more than 0 and finite, got {text}")
    return value


def _options(pairs: list[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, separator, value = pair.partition("=")
        if not separator:
            raise UsageError(f"--option {pair!r} is not OPERATOR.KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def _programs(args) -> tuple[list, list[Program | str], str]:
    """The records to mutate (the first ``--limit``, taken before any program is built) and each one's
    program, or why it holds none (only a record of an ``--input`` file can hold none)."""
    if args.input:
        if not args.code_field:
            raise DataError("--input needs --code-field NAME (the field that holds each program)")
        if args.verify:
            raise DataError("--verify runs a benchmark's own tests and inputs; --input files carry none")
        records, programs = _input_programs(Path(args.input), args.code_field, args.limit)
        return records, programs, args.input
    if args.max_program_bytes is not None or args.program_timeout is not None:
        raise UsageError("--max-program-bytes and --program-timeout limit the programs of an --input file; "
                         "a benchmark's programs are trusted and mutated in this process")
    records = load_benchmark(args.benchmark, args.data_dir)[: args.limit]
    benchmark = BENCHMARKS[args.benchmark]
    return records, [benchmark.program(record) for record in records], args.benchmark


def _input_programs(path: Path, code_field: str, limit: int | None) -> tuple[list, list[Program | str]]:
    """The first ``limit`` records of a JSONL file nobody vouches for, and each one's program or why it
    holds none. A record costs only itself: one that is not an object or holds no string program gets
    status no_program; bytes that are not UTF-8 reach the program as lone surrogates (unparseable
    there). A line that is not JSON at all makes the file unreadable: that is the user's to fix."""
    if not path.is_file():
        raise DataError(f"{path}: file not found")
    records, programs = [], []
    with path.open("rb") as handle:
        for number, line in enumerate(handle, 1):
            if len(records) == limit:
                break
            if not line.strip():
                continue
            try:
                record = json.loads(line.decode("utf-8", "surrogateescape"))
            except (ValueError, RecursionError) as error:  # RecursionError: a line nested too deep to read
                why = getattr(error, "msg", None) or str(error).strip().splitlines()[0]
                raise DataError(f"{path}:{number}: not valid JSON ({why})") from None
            records.append(record)
            programs.append(_program_in(record, code_field))
    if records and not any(isinstance(record, dict) and code_field in record for record in records):
        fields = sorted({key for record in records if isinstance(record, dict) for key in record})
        nearest = difflib.get_close_matches(code_field, fields, n=1)
        hint = f"; did you mean {nearest[0]!r}?" if nearest else f"; its fields: {', '.join(fields) or 'none'}"
        raise DataError(f"{path}: no record has a field {code_field!r}{hint}")
    return records, programs


def _program_in(record, code_field: str) -> Program | str:
    if not isinstance(record, dict):
        return f"the record is a JSON {_json_type(record)}, not an object"
    if code_field not in record:
        return f"the record has no field {code_field!r}"
    code = record[code_field]
    if not isinstance(code, str):
        return f"field {code_field!r} is a JSON {_json_type(code)}, not a string"
    return Program(code, ProgramKind.MODULE)


def _json_type(value) -> str:
    if isinstance(value, bool):
        return "boolean"
    names = {dict: "object", list: "array", str: "string", int: "number", float: "number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def run(args: argparse.Namespace) -> int:
    from dynbench_tasks.benchmarks.records import data_locations
    from dynbench_tasks.mutation import mutate_programs
    from mutators import MutationResult, parse_chain
    from mutators.execution import Sandbox
    from mutators.guarded import GuardedMutator
    from mutators.newinput import NewInput

    started = time.perf_counter()
    chain = parse_chain(args.chain, _options(args.option))
    records, programs, source = _programs(args)
    if NewInput in chain.operators and not (args.benchmark and BENCHMARKS[args.benchmark].takes_new_inputs):
        where = args.benchmark or "an --input file"
        raise UsageError(f"operator newinput (I) needs a benchmark whose problems show a call; {where} has none")
    sandboxes: dict = {}

    def sandbox(hash_seed):
        if hash_seed not in sandboxes:
            sandboxes[hash_seed] = Sandbox(workers=args.workers, hidden=data_locations(), hash_seed=hash_seed)
        return sandboxes[hash_seed]

    # An --input file's programs are mutated each in a worker process with a size limit and a deadline;
    # a benchmark's are trusted, and mutated here, so that their results never depend on the machine's load.
    guard = GuardedMutator(max_bytes=args.max_program_bytes or DEFAULT_MAX_BYTES,
                           seconds=args.program_timeout or DEFAULT_SECONDS) if args.input else None
    try:
        [mutated] = mutate_programs([p for p in programs if isinstance(p, Program)], [chain], args.seed,
                                    label=f"mutating ({chain.spec})", verify=args.verify, sandbox=sandbox,
                                    check_seconds=args.timeout, mutate_one=guard)
    finally:
        if guard is not None:
            guard.close()
        for box in sandboxes.values():
            box.close()
    in_order = iter(mutated)
    results = [next(in_order) if isinstance(program, Program) else
               MutationResult(code="", status=NO_PROGRAM, reason=program, chain=chain.spec, seed=args.seed)
               for program in programs]
    _write(args.out, records, results)
    summary = _summary(source, chain.spec, args.seed, results, time.perf_counter() - started)
    if guard is not None:
        summary["limits"] = {"max_program_bytes": guard.max_bytes, "program_timeout": guard.seconds}
    print(json.dumps(summary), file=sys.stderr)
    return 0


def _write(path: Path, records: list, results) -> None:
    temporary = path.with_name(path.name + ".partial")
    with temporary.open("w", encoding="utf-8") as handle:
        for record, result in zip(records, results, strict=True):
            line = dict(record) if isinstance(record, dict) else {"record": record}
            line["mutated_code"] = None if result.status == NO_PROGRAM else result.code
            if result.call_arguments is not None:
                line["mutated_input"] = result.call_arguments
            if result.expected_output is not None:
                line["mutated_output"] = result.expected_output
            elif result.new_answers is not None:  # NewOutput's answers to each test or harness call
                line["mutated_answers"] = result.new_answers
            line["mutation"] = result.record()
            handle.write(_json_line(line) + "\n")
    os.replace(temporary, path)


def _json_line(line: dict) -> str:
    text = json.dumps(line, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (input bytes that were not UTF-8): escaped, the file stays UTF-8
        text = json.dumps(line)
    return text


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
        **{status: counts.get(status, 0) for status in (*STATUSES, *UNTRUSTED_STATUSES)},
        "checked_inputs": sum(result.checked_inputs for result in results),
        "verified_inputs": sum(result.verified_inputs for result in results),
        # Mutated programs no input verified (an input on which the original fails verifies nothing).
        "unverified": sum(result.status == MUTATED and not result.verified_inputs for result in results),
        "operators": operators,
        **_answer_counts(chain, results),
        "seconds": round(seconds, 2),
    }


def _answer_counts(chain: str, results) -> dict:
    """For a chain that changes answers: how many problems have a new answer (and, where the problem
    shows a call, how many a published input no longer answers), and why the others have none."""
    from mutators import parse_chain

    if not parse_chain(chain).changes_answers:
        return {}
    unchanged = Counter(result.reason or result.status for result in results if "output" not in result.changed_answers)
    return {"new_answer": sum("output" in result.changed_answers for result in results),
            "new_input_answer": sum("input" in result.changed_answers for result in results),
            "no_new_answer": dict(unchanged.most_common())}
