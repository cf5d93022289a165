"""How each benchmark's answers read when NewOutput recomputes them by running an edited program
(:mod:`mutators.output_choice`): a CRUXEval output as a literal, a stdin test's output as the text
the script prints, a TransCoder call's value as the Java harness would report it (``dynbench.Record``'s
text: ``i:5``, ``d:0.5``, ``b:true``, ``c:97``, ``s:text``, ``a:[…]``), typed by the harness's
``f_gold`` signature. Nothing heavy is imported until a problem is made.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from mutators import thread_safe_ast
from mutators.programs import CallTests, StdinTests

if TYPE_CHECKING:
    from collections.abc import Callable

    from mutators.engine import MutationResult
    from mutators.output_choice import Problem

TOO_LARGE, NOT_A_LITERAL, NOT_JAVA = "its answers are too large", "its answer is no literal", \
    "its answers do not fit the Java harness's types"
_SCRIPT_SECONDS = 5.0  # per test run: some published programs need seconds of CPU on theirs


# ---------------------------------------------------------------------------------- CRUXEval
def literal_answers(values: list, limit: int) -> list[str] | str:
    from mutators.input_choice import reads_back

    answers = []
    for pair in values:
        if type(pair) is not tuple or len(pair) != 2 or type(pair[1]) is not str or not reads_back(*pair):
            return NOT_A_LITERAL
        if len(pair[1]) > limit:
            return TOO_LARGE
        answers.append(pair[1])
    return answers


def _guessable(arguments: str, published: str, answers: list[str]) -> float | None:
    from mutators.input_choice import guess_likeness

    try:
        value = thread_safe_ast.literal_eval(answers[0])
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        value = object()  # equal to no argument
    return guess_likeness(arguments, value, answers[0], published)


def literal_problem(published_input: str, published_output: str, result: MutationResult) -> Problem:
    """The shown call, answered by a literal no longer than the published output allows (twice its
    length plus 20, as NewInput's), best not one that can be guessed (NewInput's rule). With a new input, the
    published input is run too: input prediction counts the answer changed only if it no longer gives
    the shown output."""
    from mutators.engine import rename_keywords
    from mutators.input_choice import same_literal
    from mutators.output_choice import Problem

    shown = result.call_arguments or published_input
    also = rename_keywords("f", published_input, result.keyword_renames) if result.new_input else None
    return Problem(result.code, CallTests("f", [shown]), [shown],
                   partial(literal_answers, limit=2 * len(published_output) + 20), same_literal,
                   baseline=[result.expected_output or published_output], published=[published_output], also=also,
                   guessable=partial(_guessable, shown, published_output))


# ---------------------------------------------------------------------------------- stdin programs
def printed_answers(values: list[str], limit: int) -> list[str] | str:
    return TOO_LARGE if any(len(text) > limit for text in values) else list(values)


def script_problem(tests: StdinTests, result: MutationResult, derived: int = 0, reference: str | None = None,
                   agreeing: Callable[[list[Problem]], None] | None = None) -> Problem | None:
    """Every stdin test, and up to ``derived`` inputs derived from them (:mod:`mutators.derived_inputs`,
    drawn by the result's seed; where the benchmark's own program is given as ``reference``, only those
    that ``agreeing`` keeps: those on which it prints what the Python does). The answer is what the script
    prints (no more than twice the longest published output and 1,000 characters), compared as Code
    Lingua compared them (``translation.same_output``, looser than the judge, so an answer it counts as
    changed is changed for the judge too)."""
    from mutators.derived_inputs import derived_stdins
    from mutators.output_choice import Problem

    if not tests.inputs or tests.expected is None:
        return None
    limit = 2 * max(map(len, tests.expected)) + 1000
    extra = derived_stdins(list(tests.inputs), result.seed, derived) if derived else []
    return Problem(result.code, tests, [*tests.inputs, *extra], partial(printed_answers, limit=limit),
                   tests.matches, published=[*tests.expected, *[None] * len(extra)], seconds=_SCRIPT_SECONDS,
                   translation=True, derived=len(extra), reference=reference if extra else None,
                   prepare=agreeing if extra and reference else None)


# ---------------------------------------------------------------------------------- TransCoder
_INTEGER_BITS = {"byte": 8, "short": 16, "int": 32, "Integer": 32, "long": 64, "Long": 64}
_FLOATING = {"double", "float", "Double", "Float"}
_HARNESS_CALL_SECONDS = 2.0  # as the equivalence check gives a harness call: some are recursive searches
_OVERFLOWS = "its answers overflow the Java type where the published program's do not"


@dataclass(frozen=True)
class JavaType:
    name: str  # int, long, double, boolean, char, String, void, …
    dimensions: int = 0


_SIGNATURE = re.compile(r"static\s+([\w<>\[\]\s]+?)\s+f_gold\s*\(([^)]*)\)")


def _parse_type(text: str) -> JavaType | None:
    """``int a [ ]``, ``int [ ] a``, ``char [ ] [ ]``, ``String`` … → its type."""
    words = re.findall(r"[\w]+|\[\s*\]", text)
    names = [w for w in words if not w.startswith("[")]
    if not names:
        return None
    return JavaType(names[0], sum(w.startswith("[") for w in words))


def harness_signature(java_harness: str) -> tuple[JavaType, list[JavaType]] | None:
    """The return type and parameter types of a Java harness's ``f_gold``."""
    found = _SIGNATURE.search(java_harness or "")
    if found is None:
        return None
    returned = _parse_type(found.group(1))
    parameters = [_parse_type(p) for p in found.group(2).split(",") if p.strip()]
    if returned is None or any(p is None for p in parameters):
        return None
    return returned, parameters


class _Overflow(ValueError):
    pass


def java_record(value: Any, kind: JavaType, wrap: bool = False) -> str | None:
    """``value`` as the Java harness reports a value of ``kind`` (see dynbench.Record), or None if no
    Java value of that type would be it. Python's answer to a Java program is read as Java holds it:
    a whole float or a bool as an int, 0 or 1 as a boolean, a code point as a char, and, with
    ``wrap``, an integer beyond the type's range as Java's arithmetic wraps it (else _Overflow)."""
    if kind.dimensions:
        if type(value) not in (list, tuple):
            return None
        inner = JavaType(kind.name, kind.dimensions - 1)
        items = [java_record(item, inner, wrap) for item in value]
        return None if any(i is None for i in items) else "a:[" + ",".join(items) + "]"
    if kind.name in _INTEGER_BITS:
        return _integer_record(value, _INTEGER_BITS[kind.name], wrap)
    if kind.name in _FLOATING:
        number = float(value) if type(value) in (int, float, bool) else None
        return f"d:{number!r}" if number is not None and math.isfinite(number) else None
    if kind.name in ("boolean", "Boolean"):
        return f"b:{str(bool(value)).lower()}" if type(value) is bool or (type(value) is int and value in (0, 1)) \
            else None
    if kind.name in ("char", "Character"):
        code = ord(value) if type(value) is str and len(value) == 1 else value if type(value) is int else None
        return f"c:{code}" if code is not None and 0 <= code <= 0xFFFF else None
    if kind.name == "String":
        return f"s:{value}" if type(value) is str else None
    return None


def _integer_record(value: Any, bits: int, wrap: bool) -> str | None:
    if type(value) is float and value.is_integer():
        value = int(value)
    if type(value) not in (int, bool):
        return None
    value, bound = int(value), 1 << (bits - 1)
    if not -bound <= value < bound:
        if not wrap:
            raise _Overflow
        value = (value + bound) % (1 << bits) - bound
    return f"i:{value}"


@dataclass
class _HarnessReading:
    """How one harness reads a Python function's results. Java's wrap-around is applied only where the
    published program needs it to give the harness's own values; an edit that makes a program
    overflow where the published one does not is refused (wrap-around is exact for ``+ - *``, not
    for what a program may do after it)."""

    java_harness: str
    returned: JavaType
    parameters: list[JavaType]
    in_place: bool
    wraps: bool = True  # until the published program's answers show whether they need it
    reference: list[list[str]] | None = None  # the harness's own values, call by call

    def read(self, values: list) -> list[list[str]] | str:
        answers = []
        for pair in values:
            if type(pair) is not tuple or len(pair) != 2:
                return NOT_JAVA
            result, arguments = pair
            try:
                if self.in_place:
                    if type(arguments) is not tuple or len(arguments) != len(self.parameters):
                        return NOT_JAVA
                    reported = [java_record(a, kind, self.wraps) for a, kind in
                                zip(arguments, self.parameters, strict=True)]
                else:
                    reported = [java_record(result, self.returned, self.wraps)]
            except _Overflow:
                return _OVERFLOWS
            if any(r is None for r in reported):
                return NOT_JAVA
            answers.append(reported)
        return answers

    def check(self, values: list, answers: list) -> str | None:
        """The published program must give the harness's own values (read as Java would hold them)."""
        if self.reference is None:  # _fetch_references sets it only where it has a value for every call
            return "the harness's own f_gold gave no values"
        self.wraps = False
        self.wraps = isinstance(self.read(values), str)  # it needed the wrap-around to match
        return None


def _fetch_references(problems: list[Problem]) -> None:
    """The harnesses' own values (their f_gold run in the Java judge), fetched for all at once."""
    from dynbench_tasks.benchmarks.transcoder_harness import fetch_reference_values, reference_values
    from dynbench_tasks.runtime import shared_java_judge

    readings = [p.check.__self__ for p in problems]  # harness_problem's checks are _HarnessReading.check
    fetch_reference_values([r.java_harness for r in readings], shared_java_judge(), 10_000)
    for problem, reading in zip(problems, readings, strict=True):
        flat = reference_values(reading.java_harness)
        size = len(reading.parameters) if reading.in_place else 1
        if flat is not None and len(flat) == size * len(problem.inputs):
            reading.reference = [flat[i : i + size] for i in range(0, len(flat), size)]
            problem.published = reading.reference


def _same_records(first: list[str], second: list[str], comparison: str, threshold: float) -> bool:
    from dynbench_tasks.benchmarks.transcoder_harness import same_record

    try:
        return len(first) == len(second) and all(same_record(a, e, comparison, threshold)
                                                  for a, e in zip(first, second, strict=True))
    except (ValueError, OverflowError, ZeroDivisionError):
        return False


def harness_problem(entry: str | None, java_harness: str, preamble: str, result: MutationResult) -> Problem | None:
    """Every call the Java harness makes (its own parameter lists, as Python values), answered by
    what the harness would report for it, compared as the harness compares (exactly, or within its
    relative tolerance). The published program must give the harness's own values first."""
    from dynbench_tasks.benchmarks.transcoder_harness import IN_PLACE, HarnessError, judged_harness, judged_parameters
    from mutators.output_choice import Problem

    signature, arguments = harness_signature(java_harness), judged_parameters(java_harness)
    if entry is None or signature is None or not arguments:
        return None
    try:
        judged = judged_harness(java_harness)
    except (HarnessError, StopIteration):
        return None
    reading = _HarnessReading(java_harness, *signature, in_place=judged.comparison == IN_PLACE)
    return Problem(result.code, CallTests(entry, arguments, preamble=preamble), arguments, reading.read,
                   partial(_same_records, comparison=judged.comparison, threshold=judged.threshold),
                   keep_arguments=True, seconds=_HARNESS_CALL_SECONDS, prepare=_fetch_references,
                   check=reading.check, translation=True)
