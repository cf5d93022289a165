"""``dynbench mutate``: mutate a benchmark (or any JSONL of Python programs) into a new JSONL file."""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import keyword
import math
import os
import sys
import time
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from dynbench_tasks.benchmarks import BENCHMARKS, Program, load_benchmark
from dynbench_tasks.cli.arguments import add_data_dir, output_file, positive_int
from dynbench_tasks.errors import DataError, UsageError
from mutators import thread_safe_ast
from mutators.guarded import DEFAULT_MAX_BYTES, DEFAULT_SECONDS
from mutators.programs import MUTATED, NO_PROGRAM, STATUSES, UNTRUSTED_STATUSES, CallTests, ProgramKind, StdinTests

if TYPE_CHECKING:
    from mutators.engine import MutationResult
    from mutators.output_choice import Problem

DEFAULT_CODE_FIELD = "code"
# NewOutput on a problem that publishes no answers: the longest new answer (characters) it may give.
UNPUBLISHED_ANSWER_CHARS = 1_000


RECORD_SHAPE = """\
An --input file holds one JSON object per line; every field it has is written back beside the result.
  code     the Python program (--code-field names another field)
  inputs   with --input-field inputs: what the program is checked on, a list of strings (one string is
           one input). With --entry-point NAME each is the text between the parentheses of a call
           NAME(...), e.g. "'abc', 3"; without it each is the stdin of one run of the program as a
           script, e.g. "3\\n1 2 3\\n".
  outputs  with --output-field outputs (optional): the expected answer to each input, in order: the
           call's value as a Python literal ("'cba'"), or what the script prints ("6\\n").
Example: {"id": "p1", "code": "def f(s, n):\\n    return s[::-1] * n\\n", "inputs": ["'abc', 2"],
          "outputs": ["'cbacba'"]}
--verify and the operators newinput (I) and newoutput (O) need --input-field; newinput also needs
--entry-point and --output-field (it replaces the first input, whose output the new one must change).
A function program keeps its top-level names and signatures (anything may import it); a script's
names are all its own. A record that is not an object, lacks a field or holds a value of the wrong
type is written with status no_program and the reason, and counted in the summary's "skipped"."""


def add_parsers(commands) -> None:
    parser = commands.add_parser(
        "mutate",
        help="mutate every program of a benchmark, or of a JSONL file, with a chain of operators",
        description="Write OUT.jsonl: each input record plus mutated_code (and mutated_input where a renamed\n"
        "parameter is passed by keyword or NewInput chose a new input, mutated_output or mutated_answers\n"
        "where the answers changed) and a mutation record. A one-line JSON summary goes to stderr.",
        epilog=RECORD_SHAPE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--benchmark", choices=sorted(BENCHMARKS), help="one of the shipped benchmarks")
    source.add_argument("--input", metavar="FILE.jsonl", help="a JSONL file of Python programs (shape below)")
    parser.add_argument("--code-field", metavar="NAME", default=DEFAULT_CODE_FIELD,
                        help=f"with --input: the field holding the program (default {DEFAULT_CODE_FIELD})")
    parser.add_argument("--input-field", metavar="NAME",
                        help="with --input: the field holding each program's inputs (a list of strings)")
    parser.add_argument("--entry-point", metavar="NAME", type=_identifier,
                        help="with --input-field: the inputs are arguments of calls NAME(...), not stdin texts")
    parser.add_argument("--output-field", metavar="NAME",
                        help="with --input-field: the field holding the expected answer to each input")
    parser.add_argument("--chain", required=True, help="e.g. FUV, F+U+V2 or for2while,constunfold,varnorm2")
    parser.add_argument("--seed", type=int, required=True, help="the seed every random choice follows")
    add_data_dir(parser)
    parser.add_argument("--verify", action="store_true",
                        help="run original and mutant on every input in the sandbox and compare them")
    parser.add_argument("--out", required=True, type=output_file, metavar="OUT.jsonl", help="the file to write")
    parser.add_argument(
        "--option", action="append", default=[], metavar="OPERATOR.KEY=VALUE",
        help="operator option, e.g. varnorm2.length=5 or constunfold.max_offset=3 (repeatable)",
    )
    parser.add_argument("--limit", type=positive_int, help="only the first N programs")
    parser.add_argument("--timeout", type=float, default=2.0,
                        help="CPU seconds per checked call (default 2; a stdin run, counted, ten times as long)")
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


def _identifier(text: str) -> str:
    if not text.isidentifier() or keyword.iskeyword(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a Python function name")
    return unicodedata.normalize("NFKC", text)  # as Python reads it: the parsed calls name it so


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


@dataclass(frozen=True)
class RecordShape:
    """Where an --input record keeps its program, inputs and expected answers (see RECORD_SHAPE)."""

    code_field: str = DEFAULT_CODE_FIELD
    input_field: str | None = None
    output_field: str | None = None
    entry_point: str | None = None  # None: the inputs are stdin texts of a script


class _Unusable(Exception):
    """Why a record holds no problem that can be mutated (it ends with status no_program)."""


def _record_shape(args) -> RecordShape:
    if args.input_field is None and (args.entry_point or args.output_field):
        raise UsageError("--entry-point and --output-field describe inputs: give --input-field NAME too")
    if args.verify and args.input_field is None:
        raise UsageError("--verify runs each program on its inputs: give --input-field NAME (the field holding "
                         "them; see dynbench mutate --help)")
    return RecordShape(args.code_field, args.input_field, args.output_field, args.entry_point)


def _programs(args) -> tuple[list, list[Program | str], str]:
    """The records to mutate (the first ``--limit``, taken before any program is built) and each one's
    program, or why it holds none (only a record of an ``--input`` file can hold none)."""
    if args.input:
        records, programs = _input_programs(Path(args.input), _record_shape(args), args.limit)
        return records, programs, args.input
    given = [flag for flag, value in (("--max-program-bytes", args.max_program_bytes),
                                      ("--program-timeout", args.program_timeout), ("--input-field", args.input_field),
                                      ("--entry-point", args.entry_point), ("--output-field", args.output_field))
             if value is not None]
    if given:
        raise UsageError(f"{', '.join(given)} describe the programs of an --input file; a benchmark's programs "
                         "come with their own inputs and are trusted")
    records = load_benchmark(args.benchmark, args.data_dir)[: args.limit]
    benchmark = BENCHMARKS[args.benchmark]
    return records, [benchmark.program(record) for record in records], args.benchmark


def _input_programs(path: Path, shape: RecordShape, limit: int | None) -> tuple[list, list[Program | str]]:
    """The first ``limit`` records of a JSONL file nobody vouches for, and each one's program or why it
    holds none. A record costs only itself: one that is not an object or holds no usable problem gets
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
            try:
                programs.append(_program_in(record, shape))
            except _Unusable as unusable:
                programs.append(str(unusable))
    for field, flag in ((shape.code_field, "--code-field"), (shape.input_field, "--input-field"),
                        (shape.output_field, "--output-field")):
        if field is not None and records and not any(isinstance(r, dict) and field in r for r in records):
            fields = sorted({key for record in records if isinstance(record, dict) for key in record})
            nearest = difflib.get_close_matches(field, fields, n=1)
            hint = f"; did you mean {nearest[0]!r}?" if nearest else f"; its fields: {', '.join(fields) or 'none'}"
            raise DataError(f"{path}: no record has a field {field!r} ({flag}){hint}")
    return records, programs


def _program_in(record, shape: RecordShape) -> Program:
    """The record's program with its tests, as a benchmark's would be; raises _Unusable."""
    if not isinstance(record, dict):
        raise _Unusable(f"the record is a JSON {_json_type(record)}, not an object")
    code = _field(record, shape.code_field)
    if not isinstance(code, str):
        raise _Unusable(f"field {shape.code_field!r} is a JSON {_json_type(code)}, not a string")
    if shape.input_field is None:
        return Program(code, ProgramKind.MODULE)
    inputs = _texts(record, shape.input_field)
    outputs = _texts(record, shape.output_field) if shape.output_field else None
    if outputs is not None and len(outputs) != len(inputs):
        raise _Unusable(f"field {shape.output_field!r} holds {len(outputs)} answers for {len(inputs)} inputs")
    if shape.entry_point is None:
        tests = StdinTests(inputs, outputs)
        return Program(code, ProgramKind.SCRIPT, tests=tests, answers=partial(_script_answers, tests))
    for number, text in enumerate(inputs, 1):
        if not _is_argument_list(shape.entry_point, text):
            raise _Unusable(f"input {number} of field {shape.input_field!r} is not the arguments of a call "
                            f"{shape.entry_point}(...)")
    for number, text in enumerate(outputs or [], 1):
        if not _is_literal(text):
            raise _Unusable(f"answer {number} of field {shape.output_field!r} is not a Python literal")
    # Top-level names and signatures stay (MODULE): the file does not say who else calls the program.
    return Program(code, ProgramKind.MODULE, shape.entry_point, tests=CallTests(shape.entry_point, inputs),
                   output=outputs[0] if outputs else None,
                   answers=partial(_call_answers, shape.entry_point, inputs, outputs))


def _field(record: dict, name: str):
    if name not in record:
        raise _Unusable(f"the record has no field {name!r}")
    return record[name]


def _texts(record: dict, name: str) -> list[str]:
    """A field holding a list of strings (one string: a list of one)."""
    value = _field(record, name)
    texts = [value] if isinstance(value, str) else value
    if not isinstance(texts, list):
        raise _Unusable(f"field {name!r} is a JSON {_json_type(value)}, not a list of strings")
    for number, text in enumerate(texts, 1):
        if not isinstance(text, str):
            raise _Unusable(f"item {number} of field {name!r} is a JSON {_json_type(text)}, not a string")
    return texts


_PARSE_FAILURES = (SyntaxError, ValueError, TypeError, RecursionError, MemoryError)


def _is_argument_list(function: str, text: str) -> bool:
    """Whether ``function(<text>)`` is one call of ``function`` (``1), (2`` would make it two things)."""
    try:
        call = thread_safe_ast.parse(f"{function}({text})", mode="eval").body
    except _PARSE_FAILURES:
        return False
    return isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == function


def _is_literal(text: str) -> bool:
    try:
        thread_safe_ast.literal_eval(text)
    except _PARSE_FAILURES:
        return False
    return True


def _call_answers(function: str, inputs: list[str], outputs: list[str] | None,
                  result: MutationResult) -> Problem | None:
    """NewOutput's problem for a function program of an --input file: every input, answered by the
    call's value as a literal (no longer than twice the longest expected answer plus 20, as NewInput's
    rule has it). The first input is NewInput's where it chose one, with the output it computed."""
    from dynbench_tasks.benchmarks.new_answers import literal_answers
    from mutators.input_choice import same_literal
    from mutators.output_choice import Problem

    if not inputs:
        return None
    shown = [result.call_arguments or inputs[0], *inputs[1:]]
    published = None if outputs is None else [result.expected_output or outputs[0], *outputs[1:]]
    limit = 2 * max(map(len, published)) + 20 if published else UNPUBLISHED_ANSWER_CHARS
    return Problem(result.code, CallTests(function, shown), shown, partial(literal_answers, limit=limit), same_literal,
                   published=published)


def _script_answers(tests: StdinTests, result: MutationResult) -> Problem | None:
    """NewOutput's problem for a script of an --input file: the benchmarks' own where the record gives
    expected outputs; else every input, answered by what the script prints."""
    from dynbench_tasks.benchmarks.new_answers import printed_answers, script_problem
    from mutators.output_choice import Problem

    if tests.expected is not None or not tests.inputs:
        return script_problem(tests, result)
    return Problem(result.code, tests, list(tests.inputs), partial(printed_answers, limit=UNPUBLISHED_ANSWER_CHARS),
                   tests.matches, translation=True)


def _json_type(value) -> str:
    if isinstance(value, bool):
        return "boolean"
    names = {dict: "object", list: "array", str: "string", int: "number", float: "number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def run(args: argparse.Namespace) -> int:
    from dynbench_tasks.locations import data_locations
    from dynbench_tasks.mutation import mutate_programs
    from mutators import MutationResult, parse_chain
    from mutators.execution import Sandbox
    from mutators.guarded import GuardedMutator

    started = time.perf_counter()
    chain = parse_chain(args.chain, _options(args.option))
    _check_chain_fits(chain, args)
    records, programs, source = _programs(args)
    sandboxes: dict = {}

    def sandbox(hash_seed):
        if hash_seed not in sandboxes:
            sandboxes[hash_seed] = Sandbox(workers=args.workers, hidden=data_locations(), hash_seed=hash_seed,
                                          rerun_stalled=True)
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


def _check_chain_fits(chain, args) -> None:
    """The operators that give a problem a new answer run it on its inputs: they need some."""
    from mutators.newinput import NewInput
    from mutators.newoutput import NewOutput

    new_input, new_output = NewInput in chain.operators, NewOutput in chain.operators
    if args.benchmark:
        if new_input and not BENCHMARKS[args.benchmark].takes_new_inputs:
            raise UsageError(f"operator newinput (I) needs a benchmark whose problems show a call; "
                             f"{args.benchmark} has none")
    elif (new_input or new_output) and args.input_field is None:
        raise UsageError("operators newinput (I) and newoutput (O) run each program on its inputs: give "
                         "--input-field NAME (the field holding them; see dynbench mutate --help)")
    elif new_input and (args.entry_point is None or args.output_field is None):
        raise UsageError("operator newinput (I) replaces the input of a call and needs its output: give "
                         "--entry-point NAME and --output-field NAME")


def _write(path: Path, records: list, results) -> None:
    temporary = path.with_name(path.name + ".partial")
    with temporary.open("w", encoding="utf-8") as handle:
        for record, result in zip(records, results, strict=True):
            line = dict(record) if isinstance(record, dict) else {"record": record}
            line["mutated_code"] = None if result.status == NO_PROGRAM else result.code
            if result.call_arguments is not None:
                line["mutated_input"] = result.call_arguments
            # NewOutput's answers to each input, test or harness call; a single call's is its output.
            if result.new_answers is not None and (result.expected_output is None or len(result.new_answers) > 1):
                line["mutated_answers"] = result.new_answers
            elif result.expected_output is not None:
                line["mutated_output"] = result.expected_output
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
        **_skipped(results),
        **_answer_counts(chain, results),
        "seconds": round(seconds, 2),
    }


def _skipped(results) -> dict:
    """Why records held no program to mutate, where any did not."""
    reasons = Counter(result.reason for result in results if result.status == NO_PROGRAM)
    return {"skipped": dict(reasons.most_common())} if reasons else {}


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
