"""Apply a chain to one program under one seed and say what happened."""

from __future__ import annotations

import ast
import functools
import hashlib
import random
import warnings
from dataclasses import asdict, dataclass, field

import libcst as cst

from mutators import thread_safe_ast
from mutators.base import StepContext
from mutators.chain import ANSWER_CHANGING, Chain, parse_chain
from mutators.programs import MUTATED, REJECTED, UNCHANGED, UNPARSEABLE, ProgramKind
from mutators.scopes import ExternalCall, Interface, identifier
from mutators.version import ENGINE_VERSION


@dataclass
class StepRecord:
    operator: str
    changed: bool
    sites: int


@dataclass
class MutationResult:
    code: str
    status: str
    reason: str
    chain: str
    seed: int
    steps: list[StepRecord] = field(default_factory=list)
    engine_version: str = ENGINE_VERSION
    call_arguments: str | None = None  # the call's arguments as shown, when not the benchmark's own text
    expected_output: str | None = None  # the output for a new input (NewInput), when the input is new
    new_input: str | None = None  # that new input, spelled for the original program
    keyword_renames: dict[str, str] = field(default_factory=dict)  # entry point's parameters: old -> new
    checked_inputs: int = 0  # inputs on which the equivalence check compared original and mutant
    verified_inputs: int = 0  # of those, the ones on which the original itself ran cleanly (and right)
    edit: str | None = None  # NewOutput's edit of the program, e.g. "line 3: 5 -> 6"
    new_answers: list | None = None  # NewOutput: the edited program's answer on each scored input
    derived_inputs: list[str] = field(default_factory=list)  # NewOutput: stdin inputs derived from the
    # published ones (mutators.derived_inputs), whose answers end ``new_answers``
    changed_answers: list[str] = field(default_factory=list)  # "output", "input": whose answer is not the published
    decoy_output: str | None = None  # NewInput: the stale answer's control (docs/detect.md)

    def record(self) -> dict:
        """The ``mutation`` entry written beside each program."""
        record = asdict(self)
        for written_elsewhere in ("code", "call_arguments", "expected_output", "new_input", "keyword_renames",
                                  "new_answers", "derived_inputs", "decoy_output"):
            del record[written_elsewhere]
        return record


class _InputError(ValueError):
    pass


def step_rng(seed: int, index: int, operator: str, code: str) -> random.Random:
    """The random stream of one step: a pure function of seed, position, operator and program."""
    digest = hashlib.sha256(f"{seed}\x00{index}\x00{operator}\x00{code}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _interface(kind: ProgramKind, entry_point: str | None, call: ast.Call | None) -> Interface:
    if kind == ProgramKind.MODULE:
        return Interface(module_names_public=True, unknown_callers=True)
    if kind == ProgramKind.SCRIPT or entry_point is None:
        return Interface()
    keywords = tuple(k.arg for k in call.keywords if k.arg is not None) if call else ()
    double_star = any(k.arg is None for k in call.keywords) if call else False
    read = frozenset(n.id for n in ast.walk(call) if isinstance(n, ast.Name) and n is not call.func) if call else ()
    return Interface(external_calls=(ExternalCall(entry_point, keywords, double_star),),
                     read_from_outside=frozenset(read))


def _parse_call(entry_point: str, arguments: str) -> ast.Call:
    try:
        call = thread_safe_ast.parse(f"{entry_point}({arguments})", mode="eval").body
    except SyntaxError as error:
        raise _InputError(f"benchmark input does not parse as call arguments: {error.msg}") from None
    if not isinstance(call, ast.Call):
        raise _InputError("benchmark input is not a plain argument list")
    return call


def rename_keywords(entry_point: str, arguments: str, renames: dict[str, str]) -> str:
    """The argument text with renamed keywords, every other byte as it was."""
    if not renames:
        return arguments
    call = cst.parse_expression(f"{entry_point}({arguments})")
    args = [
        arg.with_changes(keyword=arg.keyword.with_changes(value=renames[identifier(arg.keyword.value)]))
        if arg.keyword is not None and identifier(arg.keyword.value) in renames
        else arg
        for arg in call.args
    ]
    text = cst.Module([]).code_for_node(call.with_changes(args=args))
    return text[len(entry_point) + 1 : -1]


@functools.lru_cache(maxsize=4096)
def _parse_module(code: str) -> cst.Module:
    """Parsed once per process: libcst trees are immutable, and every chain of a group starts from
    the same programs."""
    return cst.parse_module(code)


def compile_error(code: str, filename: str) -> Exception | None:
    """Why CPython cannot compile ``code``, or None. A program too deep for CPython (a long chain of
    ``+``, deep nesting) is a RecursionError or MemoryError here: its parser and compiler guard their stacks."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        try:
            compile(code, filename, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
            return error
    return None


def forget_parsed_programs() -> None:
    """Empty the parse and rewrite caches: a process that mutates large programs once each would only
    grow them."""
    _parse_module.cache_clear()
    _rewritten.cache_clear()


def _first_line(error: Exception) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


@dataclass(frozen=True)
class _Rewrite:
    """What a chain's text operators made of one program (see :func:`_rewritten`)."""

    code: str
    status: str
    reason: str
    steps: tuple[tuple[int, StepRecord], ...]  # by position in the chain
    failed_at: int | None = None  # the position of the operator that gave up
    keyword_renames: tuple[tuple[str, str], ...] = ()
    call_arguments: str | None = None


@functools.lru_cache(maxsize=8192)
def _rewritten(code: str, operators: tuple[tuple[int, type], ...], options: tuple, seed: int, kind: ProgramKind,
               entry_point: str | None, call_arguments: str | None) -> _Rewrite:
    """The text operators of a chain (each at its position, which seeds its random stream) applied to
    one program. Kept per process: the chains of a run that share their text operators (FUV, FUVI,
    FUVO, FUVIO) rewrite each program once."""
    try:
        module = _parse_module(code)
        call = _parse_call(entry_point, call_arguments) if call_arguments is not None and entry_point else None
    except (cst.ParserSyntaxError, _InputError) as error:
        return _Rewrite(code, UNPARSEABLE, f"{type(error).__name__}: {_first_line(error)}", ())
    interface = _interface(kind, entry_point, call)
    keyword_renames: dict[str, dict[str, str]] = {}
    chain = Chain(tuple(operator for _, operator in operators), options)
    steps = []
    for index, operator in operators:
        context = StepContext(
            rng=step_rng(seed, index, operator.name, code),
            interface=interface,
            options=chain.options_for(operator),
            keyword_renames=keyword_renames,
        )
        try:
            module, sites = operator().apply(module, context)
        except (RecursionError, ValueError) as error:
            return _Rewrite(code, REJECTED, f"{operator.title} failed: {_first_line(error)}", tuple(steps), index)
        steps.append((index, StepRecord(operator.name, sites > 0, sites)))
    mutated = module.code if any(step.changed for _, step in steps) else code
    # Compiling the mutant also vets the original: libcst parses some programs CPython rejects.
    error = compile_error(mutated, "<mutant>")
    if error is not None:
        original_error = compile_error(code, "<program>") if mutated != code else error
        if original_error is not None:
            return _Rewrite(code, UNPARSEABLE, f"{type(original_error).__name__}: {_first_line(original_error)}",
                            tuple(steps))
        return _Rewrite(code, REJECTED, f"mutant does not compile: {_first_line(error)}", tuple(steps))
    if mutated == code:
        return _Rewrite(code, UNCHANGED, "", tuple(steps))
    renames = keyword_renames.get(entry_point, {}) if entry_point else {}
    shown = rename_keywords(entry_point, call_arguments, renames) if renames else None
    return _Rewrite(mutated, MUTATED, "", tuple(steps), None, tuple(renames.items()), shown)


def mutate(
    code: str,
    chain: str | Chain,
    seed: int,
    *,
    kind: ProgramKind | str = ProgramKind.MODULE,
    entry_point: str | None = None,
    call_arguments: str | None = None,
) -> MutationResult:
    """Mutate one program. ``kind`` says who may call it (a :class:`ProgramKind`); for ``function``
    programs ``entry_point`` names the function and ``call_arguments`` is the text between the
    parentheses of the benchmark's call, whose keywords follow renamed parameters. The operators that
    give a problem a new answer (NewInput, NewOutput) leave the text here: choosing their change runs
    programs (:mod:`mutators.input_choice`, :mod:`mutators.output_choice`)."""
    try:
        kind = ProgramKind(kind)
    except ValueError:
        known = ", ".join(k.value for k in ProgramKind)
        raise ValueError(f"unknown program kind {kind!r}; use one of {known}") from None
    chain = parse_chain(chain) if isinstance(chain, str) else chain
    text_operators = tuple((i, op) for i, op in enumerate(chain.operators) if op not in ANSWER_CHANGING)
    done = _rewritten(code, text_operators, chain.options, seed, kind, entry_point, call_arguments)
    recorded = dict(done.steps)
    steps = [recorded[i] if i in recorded else StepRecord(op.name, False, 0)
             for i, op in enumerate(chain.operators)
             if i in recorded or (op in ANSWER_CHANGING and (done.failed_at is None or i < done.failed_at))]
    return MutationResult(code=done.code, status=done.status, reason=done.reason, chain=chain.spec, seed=seed,
                          steps=[StepRecord(s.operator, s.changed, s.sites) for s in steps],
                          call_arguments=done.call_arguments, keyword_renames=dict(done.keyword_renames))
