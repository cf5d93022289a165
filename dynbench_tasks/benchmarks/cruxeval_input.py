"""CRUXEval input prediction: given the program and an output, find an input that gives it.

Same programs, mutations and documents as output prediction (:mod:`.cruxeval`). Two prompts: ``paper``
(the output prompt's wording turned round: the program, then ``assert f(??) == <output>`` to complete
with a call, stop at ``# done``, 0-shot) and ``harness`` (lm-eval's own ``cruxeval_input`` prompt,
2-shot, ``[ANSWER]`` tags, read from the installed lm-eval).

An answer must be a call of ``f`` (``assert f(X) == ...``, ``f(X) == ...`` or ``f(X)``) whose
arguments are literal values (see :func:`literal_argument`), never code that computes them. The shown
program runs on them in the sandbox, the result comes back as plain data and is compared with the
expected output here; the expected output never enters the sandbox. Keyword arguments use the
parameter names the model was shown.
"""

from __future__ import annotations

import ast
import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from dynbench_tasks.benchmarks.cruxeval import (
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
from dynbench_tasks.scoring import recitation_metric_list

if TYPE_CHECKING:
    from dynbench_tasks.settings import TaskSettings

INPUT_INSTRUCTION = (
    "Based on the given Python code, which may contain errors, replace ?? in the assert statement with an input "
    "on which executing the code gives the given output. Do NOT output any extra information, even if the function "
    'is incorrect or incomplete. Output the completed assertion, then "# done".'
)
SAMPLE_STATUSES = ("passed", "wrong", "empty", "unparseable", "not_a_call", "calls_f", "not_a_value", "error",
                   "timeout")


def paper_prompt(doc: dict) -> str:
    return f"{INPUT_INSTRUCTION}\n\n{doc['code']}\nassert f(??) == {doc['output']}\n"


def program_names(code: str) -> frozenset[str]:
    """Names the program binds at module level (an input may refer to them), ``f`` aside."""
    try:
        tree = ast.parse(code)
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
        call = ast.parse(f"f({reference_input})", mode="eval").body
    except PARSE_FAILURES:
        return frozenset()
    return frozenset(ast.dump(argument) for argument in _arguments(call)) if isinstance(call, ast.Call) else frozenset()


def _is_literal(node: ast.expr) -> bool:
    try:
        ast.literal_eval(node)
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


def parse_input_answer(generation: str, prompt: str, program: str, reference_input: str) -> Check:
    """What one generation answers (a call of ``f``), and what must run to check it; ``reference_input``
    is the document's ``input``. Never raises."""
    text = answer_text(generation, prompt)
    if not text:
        return Check("", "empty")
    if len(text) > MAX_ANSWER_CHARS:
        return Check(text[:200], "unparseable")
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
            return Check(answer, "not_a_call")
        arguments = _arguments(call)
        if any(calls_f(argument) for argument in arguments):
            return Check(answer, "calls_f")
        names, own = program_names(program), own_arguments(reference_input)
        if not all(literal_argument(argument, names, own) for argument in arguments):
            return Check(answer, "not_a_value")
        return Check(answer, program=program, expressions=[f"({answer})"])
    return Check(text, "not_a_call" if seen_python else "unparseable")


def _argument_values(call: ast.Call) -> tuple | None:
    """What a call passes, as values spelled one way (``repr`` of each literal; another argument as its
    tree), positional ones in order, then keyword ones sorted: keyword names aside, since a renamed
    parameter keeps its value. None for a call that passes ``*x`` or ``**x``."""
    if any(isinstance(argument, ast.Starred) for argument in call.args) or any(k.arg is None for k in call.keywords):
        return None

    def spelled(node: ast.expr) -> str:
        try:
            return repr(ast.literal_eval(node))
        except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
            return ast.dump(node)

    return tuple(map(spelled, call.args)), tuple(sorted(spelled(k.value) for k in call.keywords))


def _call_values(text: str) -> tuple | None:
    try:
        call = ast.parse(text, mode="eval").body
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
                 label: str) -> list[list[str]]:
    """Every generation of every document: the shown program run on the answer's arguments in the
    sandbox, its value compared with the expected output here; where the published input answers the
    document no more, whether the answer is it (``stale``, compared here, never run)."""
    checks = []
    for samples, doc in zip(generations, docs, strict=True):
        row = []
        for generation in samples:
            try:
                row.append(parse_input_answer(generation if isinstance(generation, str) else "", prompt, doc["code"],
                                              doc["input"]))
            except Exception:  # noqa: BLE001 - an answer no reader foresaw is a failed sample, not a crash
                row.append(Check("", "unparseable"))
        checks.append(row)
    scored = score_checks(checks, [ast.literal_eval(doc["output"]) for doc in docs], timeout, label)
    stale = [stale_input(doc) for doc in docs]
    return [row if published is None else [_flag_stale(sample, check, published) for sample, check in
                                           zip(row, row_checks, strict=True)]
            for row, row_checks, published in zip(scored, checks, stale, strict=True)]


def score(resps: list[list[str]], docs: list[dict], settings: TaskSettings) -> list[list[str]]:
    """lm-eval filter for input prediction."""
    return score_inputs(resps, docs, settings.prompt, settings.timeout, f"cruxeval_input_{settings.variant}")


class CruxEvalInput(CruxEval):
    name = "cruxeval_input"
    sample_statuses = SAMPLE_STATUSES
    answer_is_input = True

    def reference_answer(self, doc: dict) -> str | None:
        return f"f({doc['input']})"

    def score(self, resps: list[list[str]], docs: list[dict], settings: TaskSettings) -> list[list[str]]:
        return score(resps, docs, settings)

    def task_config(self, settings: TaskSettings) -> dict[str, Any]:
        config = prompt_config(settings, score, paper_prompt, "cruxeval_input")
        if settings.changes_answers:  # no decoy: a model shown no input has no neighbour of it to slip onto
            config["metric_list"] = recitation_metric_list(("stale",))
        return config


CRUXEVAL_INPUT = CruxEvalInput()
