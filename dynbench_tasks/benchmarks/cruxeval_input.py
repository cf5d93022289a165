"""CRUXEval input prediction: given the program and an output, find an input that gives it.

Same programs, mutations and documents as output prediction (:mod:`.cruxeval`). Four prompts: ``paper``
(the output prompt's wording turned round: the program, then ``assert f(??) == <output>`` to complete
with a call, stop at ``# done``, 0-shot), ``harness`` (lm-eval's own ``cruxeval_input`` prompt,
2-shot, ``[ANSWER]`` tags, read from the installed lm-eval), ``chat`` and ``cot`` (lm-eval's
``cruxeval_input_cot``), as for output prediction. The reply is read as there (:mod:`.final_answer`);
a sentence "The input is X" names the call ``f(X)``.

An answer must be a call of ``f`` (``assert f(X) == ...``, ``f(X) == ...`` or ``f(X)``) whose
arguments are literal values (see :func:`literal_argument`), never code that computes them. The shown
program runs on them in the sandbox, the result comes back as plain data and is compared with the
expected output here; the expected output never enters the sandbox. Keyword arguments use the
parameter names the model was shown.
"""

from __future__ import annotations

import ast
import json
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

from dynbench_tasks.benchmarks.cruxeval import (
    ANSWER_FORM,
    MAX_ANSWER_CHARS,
    PARSE_FAILURES,
    CruxEval,
    answer_text,
    calls_f,
    candidates,
    first_statement,
    prompt_config,
    states_a_value,
)
from dynbench_tasks.benchmarks.execution import Check, score_checks
from dynbench_tasks.benchmarks.final_answer import AMBIGUOUS, EMPTY, UNPARSEABLE, Reading, final_answer
from dynbench_tasks.scoring import FINAL_ANSWER_RULES, JUDGING_RULES, recitation_metric_list
from mutators import thread_safe_ast

if TYPE_CHECKING:
    from dynbench_tasks.settings import TaskSettings

INPUT_INSTRUCTION = (
    "Based on the given Python code, which may contain errors, replace ?? in the assert statement with an input "
    "on which executing the code gives the given output. Do NOT output any extra information, even if the function "
    'is incorrect or incomplete. Output the completed assertion, then "# done".'
)
NOT_A_CALL = "not_a_call"
SAMPLE_STATUSES = ("passed", "wrong", EMPTY, UNPARSEABLE, AMBIGUOUS, NOT_A_CALL, "calls_f", "not_a_value", "error",
                   "timeout")


CHAT_INSTRUCTION = (
    "Based on the given Python code, which may contain errors, replace ?? in the assertion with an input on which "
    "executing the code gives the given output, even if the function is incorrect or incomplete. The input must be "
    "literal values (no unsimplified expressions, no function calls). Provide the full assertion with the input in "
    "[ANSWER] and [/ANSWER] tags, like this:\n" + ANSWER_FORM.format(assertion="assert f(<input>) == <output>")
)


def paper_prompt(doc: dict) -> str:
    return f"{INPUT_INSTRUCTION}\n\n{doc['code']}\nassert f(??) == {doc['output']}\n"


def chat_prompt(doc: dict) -> str:
    return f"{CHAT_INSTRUCTION}\n\n[PYTHON]\n{doc['code']}\nassert f(??) == {doc['output']}\n[/PYTHON]"


def program_names(code: str) -> frozenset[str]:
    """Names the program binds at module level (an input may refer to them), ``f`` aside."""
    try:
        tree = thread_safe_ast.parse(code)
    except PARSE_FAILURES:
        return frozenset()
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return frozenset(names - {"f"})


def _call_of(candidate: str) -> ast.Call | str | None:
    """The call the candidate answers with; "not_a_call" when it is Python but answers with no call."""
    parsed = first_statement(candidate)
    if parsed is None:
        return None
    test = parsed[1]
    if isinstance(test, ast.Compare):
        test = test.left
    return test if isinstance(test, ast.Call) else "not_a_call"


def _arguments(call: ast.Call) -> list[ast.expr]:
    """The expressions a call passes: positional ones (``*x`` as ``x``) and keyword ones (``**x`` as ``x``)."""
    return [*(a.value if isinstance(a, ast.Starred) else a for a in call.args), *(k.value for k in call.keywords)]


@lru_cache(maxsize=4096)
def own_arguments(reference_input: str) -> frozenset[str]:
    """The arguments of ``f(<reference input>)`` as the benchmark spells them, as parsed trees without
    positions."""
    try:
        call = thread_safe_ast.parse(f"f({reference_input})", mode="eval").body
    except PARSE_FAILURES:
        return frozenset()
    return frozenset(ast.dump(argument) for argument in _arguments(call)) if isinstance(call, ast.Call) else frozenset()


def _is_literal(node: ast.expr) -> bool:
    try:
        thread_safe_ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return False
    return True


def literal_argument(node: ast.expr, names: frozenset[str], own: frozenset[str]) -> bool:
    """Whether an answer's argument states its value rather than computes it: a literal (what
    ``ast.literal_eval`` reads: constants, containers of them, ``set()``, signed and complex numbers),
    a name the program binds, or a lambda over its own parameters made of values (two of CRUXEval's
    inputs are lambdas). ``own`` holds the arguments of the problem's own input as the benchmark
    spells them, which are accepted too: ten of CRUXEval's 800 inputs compute an argument
    (``''.join(['A'] * 20)``, ``'$78'.upper()``, ``dict(e=1, d=2, c=3)``, ``range(100, 120)``,
    ``thigh_o_two[:]``, ...), and no general rule that accepts those refuses other computed arguments."""
    if ast.dump(node) in own:
        return True
    if isinstance(node, ast.Name):
        return node.id in names
    if isinstance(node, ast.Lambda):
        arguments = node.args
        parameters = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
        parameters |= {a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None}
        defaults = [*arguments.defaults, *(d for d in arguments.kw_defaults if d is not None)]
        return all(map(_is_literal, defaults)) and states_a_value(node.body, frozenset(parameters))
    return _is_literal(node)


def read_call(text: str, program: str, reference_input: str) -> Check:
    """The call of ``f`` that ``text`` answers with, read as a whole, else its first lines (judging rules 2
    read the whole reply so; rules 3 each statement :mod:`.final_answer` finds)."""
    if not text.strip():
        return Check("", EMPTY)
    seen_python = False
    for candidate in candidates(text):
        candidate = candidate.strip()
        call = _call_of(candidate)
        if call is None:
            continue
        if isinstance(call, str):
            seen_python = True
            continue
        answer = ast.get_source_segment(candidate, call) or ""
        if not (isinstance(call.func, ast.Name) and call.func.id == "f"):
            return Check(answer, NOT_A_CALL)
        arguments = _arguments(call)
        if any(calls_f(argument) for argument in arguments):
            return Check(answer, "calls_f")
        names, own = program_names(program), own_arguments(reference_input)
        if not all(literal_argument(argument, names, own) for argument in arguments):
            return Check(answer, "not_a_value")
        return Check(answer, program=program, expressions=[f"({answer})"])
    return Check(text, NOT_A_CALL if seen_python else UNPARSEABLE)


def _named_call(value: str) -> str:
    """The call a sentence "The input is X" names: X itself when it is a call of ``f`` or an assertion,
    else ``f(X)``."""
    if value.lstrip().startswith("assert"):
        return value
    try:
        node = thread_safe_ast.parse(value.strip(), mode="eval").body
    except PARSE_FAILURES:
        return f"f({value})"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "f":
        return value
    return f"f({value})"


def _returned_call(shown_output: str | None, call: str, value: str) -> str | None:
    """The call of a sentence ``f(X) returns Y`` when ``Y`` is the shown output as written (up to
    spaces and parentheses); None for a sentence about another value (trying inputs out, say)."""
    if shown_output is None:
        return None
    try:
        said, shown = (ast.dump(thread_safe_ast.parse(text.strip(), mode="eval").body)
                       for text in (value, shown_output))
    except PARSE_FAILURES:
        return None
    return call if said == shown else None


def _call_key(answer: str) -> Any:
    """A call's arguments as values where they are literals, else as parsed trees, keywords by name."""
    def stated(node: ast.expr) -> Any:
        try:
            return ("value", thread_safe_ast.literal_eval(node))
        except (*PARSE_FAILURES, TypeError):
            return ("tree", ast.dump(node))

    call = thread_safe_ast.parse(answer, mode="eval").body
    return ([stated(a) for a in call.args],
            sorted(((k.arg or "**"), stated(k.value)) for k in call.keywords))


def same_call(first: Check, second: Check) -> bool:
    """Whether two statements of one reply give the same input: the same arguments (``f(1)`` and
    ``f( 1 )`` are one), or the same refusal of the same text."""
    if first.status or second.status:
        return first.status == second.status and first.answer.strip() == second.answer.strip()
    try:
        return _call_key(first.answer) == _call_key(second.answer)
    except (*PARSE_FAILURES, TypeError, AttributeError):
        return False


def input_reading(program: str, reference_input: str, shown_output: str | None) -> Reading:
    return Reading(read=partial(read_call, program=program, reference_input=reference_input), named=_named_call,
                   returned=partial(_returned_call, shown_output), same=same_call, kind="input",
                   unstated=(NOT_A_CALL,), arguments=frozenset())


def parse_input_answer(generation: str, prompt: str, program: str, reference_input: str,
                       rules: int = JUDGING_RULES, shown_output: str | None = None) -> Check:
    """What one generation answers (a call of ``f``), and what must run to check it; ``reference_input``
    is the document's ``input``, ``shown_output`` its ``output`` as the prompt shows it (a sentence
    ``f(X) returns <it>`` states ``X``). Under judging rules 3 the one answer the reply states
    (:mod:`.final_answer`), under 2 the text :func:`answer_text` gives. Never raises."""
    if rules >= FINAL_ANSWER_RULES:
        return final_answer(generation, input_reading(program, reference_input, shown_output), MAX_ANSWER_CHARS)
    text = answer_text(generation, prompt)
    if not text:
        return Check("", EMPTY)
    if len(text) > MAX_ANSWER_CHARS:
        return Check(text[:200], UNPARSEABLE)
    return read_call(text, program, reference_input)


def _argument_values(call: ast.Call) -> tuple | None:
    """What a call passes, as values spelled one way (``repr`` of each literal; another argument as its
    tree), positional ones in order, then keyword ones sorted: keyword names aside, since a renamed
    parameter keeps its value. None for a call that passes ``*x`` or ``**x``."""
    if any(isinstance(argument, ast.Starred) for argument in call.args) or any(k.arg is None for k in call.keywords):
        return None

    def spelled(node: ast.expr) -> str:
        try:
            return repr(thread_safe_ast.literal_eval(node))
        except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
            return ast.dump(node)

    return tuple(map(spelled, call.args)), tuple(sorted(spelled(k.value) for k in call.keywords))


def _call_values(text: str) -> tuple | None:
    try:
        call = thread_safe_ast.parse(text, mode="eval").body
    except PARSE_FAILURES:
        return None
    return _argument_values(call) if isinstance(call, ast.Call) else None


def stale_input(doc: dict) -> tuple | None:
    """The published input's values (:func:`_argument_values`) where it answers the document no more
    (its output under the shown program is not the shown one): written by a model that recites it."""
    changed = (doc.get("mutation") or {}).get("changed_answers") or []
    return _call_values(f"f({doc['original_input']})") if "input" in changed else None


def _flag_stale(sample: str, check: Check, published: tuple) -> str:
    """A scored sample with ``stale``: whether its answer is the published input (by its values)."""
    flagged = json.loads(sample)
    flagged["stale"] = len(check.answer) <= MAX_ANSWER_CHARS and _call_values(check.answer) == published
    return json.dumps(flagged, ensure_ascii=False)


def score_inputs(generations: list[list[str]], docs: list[dict], prompt: str, timeout: float,
                 label: str, rules: int = JUDGING_RULES) -> list[list[str]]:
    """Every generation of every document, read under judging rules ``rules``: the shown program run on
    the answer's arguments in the sandbox, its value compared with the expected output here; where the
    published input answers the document no more, whether the answer is it (``stale``, compared here,
    never run)."""
    checks = []
    for samples, doc in zip(generations, docs, strict=True):
        row = []
        for generation in samples:
            try:
                row.append(parse_input_answer(generation if isinstance(generation, str) else "", prompt, doc["code"],
                                              doc["input"], rules, doc["output"]))
            except Exception:  # noqa: BLE001 - an answer no reader foresaw is a failed sample, not a crash
                row.append(Check("", UNPARSEABLE))
        checks.append(row)
    scored = score_checks(checks, [thread_safe_ast.literal_eval(doc["output"]) for doc in docs], timeout, label)
    stale = [stale_input(doc) for doc in docs]
    return [row if published is None else [_flag_stale(sample, check, published) for sample, check in
                                           zip(row, row_checks, strict=True)]
            for row, row_checks, published in zip(scored, checks, stale, strict=True)]


def score(resps: list[list[str]], docs: list[dict], settings: TaskSettings) -> list[list[str]]:
    """lm-eval filter for input prediction."""
    return score_inputs(resps, docs, settings.prompt, settings.timeout, f"cruxeval_input_{settings.variant}",
                        settings.judging_rules)


class CruxEvalInput(CruxEval):
    name = "cruxeval_input"
    sample_statuses = SAMPLE_STATUSES
    answer_is_input = True

    def reference_answer(self, doc: dict) -> str | None:
        return f"f({doc['input']})"

    def score(self, resps: list[list[str]], docs: list[dict], settings: TaskSettings) -> list[list[str]]:
        return score(resps, docs, settings)

    def task_config(self, settings: TaskSettings) -> dict[str, Any]:
        config = prompt_config(settings, score, paper_prompt, chat_prompt, "cruxeval_input")
        if settings.changes_answers:  # no decoy: a model shown no input has no neighbour of it to slip onto
            config["metric_list"] = recitation_metric_list(("stale",))
        return config


CRUXEVAL_INPUT = CruxEvalInput()
