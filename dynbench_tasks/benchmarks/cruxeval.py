"""CRUXEval output prediction: the programs, prompts, answer extraction and sandboxed scoring.

Documents carry the program and input as shown to the model in ``code`` and ``input`` (the
originals in ``original_code`` and ``original_input``). Four prompt styles: ``paper`` (default) is the
dynamic-benchmarking paper's appendix C prompt: the program, then ``assert f(<input>) ==`` for the
model to complete, stopping at ``# done``; 0-shot. ``harness`` is lm-eval's own ``cruxeval_output``
prompt (2-shot, ``[ANSWER]`` tags), taken verbatim from the installed lm-eval. ``chat`` asks a chat
model for the whole assertion in ``[ANSWER]`` tags (what a chat template gets unless a prompt is
named); ``cot`` is lm-eval's ``cruxeval_output_cot`` chain of thought (docs/chat.md).

Under judging rules 3 the answer is read wherever the reply states it (:mod:`.final_answer`); each
statement is read by :func:`read_answer`, as judging rules 2 read the whole reply.

Scoring differs from lm-eval's built-in on purpose: quotes are kept (the built-in strips them, so
every string answer fails), an answer that calls ``f`` is rejected (the built-in accepts an answer
that merely echoes the call), an answer that asserts something about another expression than the
shown call ``f(<input>)`` is ``wrong_call``, and the check ``<answer> == <reference>`` runs in the
sandbox with one forked child per check. An empty or unparseable answer is a failed sample, never a
dropped one.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from functools import lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from dynbench_tasks.benchmarks.base import Benchmark, Program
from dynbench_tasks.benchmarks.execution import Check, score_checks
from dynbench_tasks.benchmarks.final_answer import AMBIGUOUS, EMPTY, UNPARSEABLE, Reading, final_answer
from dynbench_tasks.benchmarks.new_answers import literal_problem
from dynbench_tasks.scoring import FINAL_ANSWER_RULES, JUDGING_RULES, recitation_metric_list
from dynbench_tasks.settings import CHAT_PROMPT, COT_PROMPT, HARNESS_PROMPT, PAPER_PROMPT
from mutators import thread_safe_ast
from mutators.programs import CallTests, ProgramKind

if TYPE_CHECKING:
    from dynbench_tasks.settings import TaskSettings
    from mutators.engine import MutationResult

PAPER_INSTRUCTION = (
    "Based on the given Python code, which may contain errors, complete the assert statement with the output "
    "when executing the code on the given test case. Do NOT output any extra information, even if the function "
    'is incorrect or incomplete. Output "# done" after the assertion.'
)
MAX_ANSWER_CHARS = 20_000
WRONG_CALL = "wrong_call"
SAMPLE_STATUSES = ("passed", "wrong", EMPTY, UNPARSEABLE, AMBIGUOUS, WRONG_CALL, "calls_f", "not_a_value", "error",
                   "timeout")


# Stated after each chat prompt's instruction: the form of the reply, with no value a model might copy.
ANSWER_FORM = "[ANSWER]\n{assertion}\n[/ANSWER]"
CHAT_INSTRUCTION = (
    "Based on the given Python code, which may contain errors, complete the assertion with the output when "
    "executing the code on the given input, even if the function is incorrect or incomplete. The output must be a "
    "literal (no unsimplified expressions, no function calls). Provide the full assertion with the correct output "
    "in [ANSWER] and [/ANSWER] tags, like this:\n" + ANSWER_FORM.format(assertion="assert f(...) == <output>")
)
# Tokens a reply may take: room for a chat model's sentences around its answer, and for a reasoning
# model's thinking under the chain-of-thought prompt (lm-eval's own cot tasks allow 1024).
PROMPT_MAX_GEN_TOKS = {CHAT_PROMPT: 1024, COT_PROMPT: 4096}


def paper_prompt(doc: dict) -> str:
    return f"{PAPER_INSTRUCTION}\n\n{doc['code']}\nassert f({doc['input']}) =="


def chat_prompt(doc: dict) -> str:
    return f"{CHAT_INSTRUCTION}\n\n[PYTHON]\n{doc['code']}\nassert f({doc['input']}) == ??\n[/PYTHON]"


@lru_cache(maxsize=4)
def builtin_task(name: str) -> dict:
    """One of lm-eval's own cruxeval task configs, as the installed lm-eval ships it."""
    import lm_eval
    from lm_eval.tasks._yaml_loader import load_yaml

    return load_yaml(Path(lm_eval.__file__).parent / "tasks" / "cruxeval" / f"{name}.yaml")


def prompt_config(settings: TaskSettings, score_function, paper_prompt_function, chat_prompt_function,
                  builtin: str) -> dict[str, Any]:
    """The prompt-dependent part of a CRUXEval task's lm-eval config: the paper's prompt (0-shot,
    stop at ``# done``), lm-eval's own ``builtin`` task's (``prompt: harness``), the chat prompt
    (the answer asked for in ``[ANSWER]`` tags) or lm-eval's ``<builtin>_cot`` chain of thought
    (``prompt: cot``, 0-shot: its example is in its description). The chat and cot prompts stop at
    no text of their own: a reasoning model's thinking may quote any tag (a chat model ends its turn)."""
    scoring = [{"name": "sandbox",
                "filter": [{"function": "custom", "filter_fn": partial(score_function, settings=settings)}]}]
    if settings.prompt == HARNESS_PROMPT:
        config = builtin_task(builtin)
        prompt_keys = ("description", "doc_to_text", "doc_to_target", "num_fewshot", "fewshot_config")
        return {**{key: config[key] for key in prompt_keys}, "filter_list": scoring,
                "stop": list(config["generation_kwargs"]["until"])}
    if settings.prompt == COT_PROMPT:
        config = builtin_task(f"{builtin}_cot")
        return {**{key: config[key] for key in ("description", "doc_to_text", "doc_to_target")}, "num_fewshot": 0,
                "filter_list": scoring, "stop": [], "max_gen_toks": PROMPT_MAX_GEN_TOKS[COT_PROMPT]}
    if settings.prompt == CHAT_PROMPT:
        return {"description": "", "doc_to_text": chat_prompt_function, "doc_to_target": "output", "num_fewshot": 0,
                "filter_list": scoring, "stop": [], "max_gen_toks": PROMPT_MAX_GEN_TOKS[CHAT_PROMPT]}
    return {"description": "", "doc_to_text": paper_prompt_function, "doc_to_target": "output", "num_fewshot": 0,
            "filter_list": scoring, "stop": ["# done"]}


# ---------------------------------------------------------------------------------- answers
_CALL = "__dynbench_call__"  # stands for ``f(<input>)`` when an answer is read as the assertion's right side
PARSE_FAILURES = (SyntaxError, ValueError, RecursionError, MemoryError)
_LINES_TRIED = 20
_MAX_LINKS = 32  # comparisons chained in one answer
# From the end of a comparison's left side to its right side: the left side's closing parentheses,
# spaces, line continuations and comments (all Python allows there), the ``==``, and spaces again.
_TO_RIGHT_SIDE = re.compile(r"(?:\s|\)|\\\n|#[^\n]*\n)*==(?:\s|\\\n|#[^\n]*\n)*")
# What a stated value may call: built-ins that build or describe values, and methods of values.
_VALUE_CALLS = frozenset({
    "abs", "all", "any", "bin", "bool", "bytearray", "bytes", "chr", "complex", "dict", "divmod", "enumerate",
    "float", "frozenset", "hex", "int", "len", "list", "max", "min", "oct", "ord", "pow", "range", "repr",
    "reversed", "round", "set", "sorted", "str", "sum", "tuple", "zip",
})
_VALUE_NODES = (ast.Expression, ast.Constant, ast.List, ast.Tuple, ast.Set, ast.Dict, ast.UnaryOp, ast.BinOp,
                ast.BoolOp, ast.Compare, ast.IfExp, ast.Subscript, ast.Slice, ast.Starred, ast.JoinedStr,
                ast.FormattedValue, ast.Call, ast.Attribute, ast.keyword, ast.Name, ast.expr_context, ast.operator,
                ast.unaryop, ast.boolop, ast.cmpop)


def calls_f(node: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "f" for n in ast.walk(node)
    )


def states_a_value(node: ast.AST, names: frozenset[str] = frozenset()) -> bool:
    """Whether an answer writes its value out rather than computes it with code of its own: literals,
    containers, arithmetic, comparisons, the built-ins of ``_VALUE_CALLS``, methods of values and the
    ``names`` given (as values, never called); no comprehensions, lambdas or assignments, nothing
    spelled with an underscore first."""
    if not isinstance(node, _VALUE_NODES):
        return False
    if isinstance(node, ast.Name) and node.id not in ("True", "False", "None", *_VALUE_CALLS, *names):
        return False
    if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
        return False
    if isinstance(node, ast.Call) and not (
            isinstance(node.func, ast.Attribute) or (isinstance(node.func, ast.Name) and node.func.id in _VALUE_CALLS)):
        return False  # only value-building built-ins and methods of values are called, never code of its own
    return all(states_a_value(child, names) for child in ast.iter_child_nodes(node))


@lru_cache(maxsize=4096)
def shown_call(shown_input: str) -> str | None:
    """``f(<shown input>)`` as a parsed tree without positions (so spaces and redundant parentheses
    do not count); None when the input does not parse."""
    try:
        return ast.dump(thread_safe_ast.parse(f"f({shown_input})", mode="eval").body)
    except PARSE_FAILURES:
        return None


def _span(first: ast.AST, last: ast.AST) -> ast.AST:
    """A node covering the source from the end of ``first`` to the end of ``last``."""
    span = ast.Constant(None)
    span.lineno, span.col_offset = first.end_lineno, first.end_col_offset
    span.end_lineno, span.end_col_offset = last.end_lineno, last.end_col_offset
    return span


def first_statement(candidate: str) -> tuple[ast.Module, ast.expr | None] | None:
    """The parsed candidate and what its first statement states (an assert's test or a bare
    expression; None for any other statement); None when it is not Python or is empty."""
    try:
        tree = thread_safe_ast.parse(candidate)
    except PARSE_FAILURES:
        return None
    if not tree.body:
        return None
    first = tree.body[0]
    return tree, first.test if isinstance(first, ast.Assert) else first.value if isinstance(first, ast.Expr) else None


def _right_side(candidate: str, shown_input: str) -> str | Check | None:
    """What the answer says ``f(<shown input>)`` equals: the text after ``<left side> ==`` of a
    stated comparison, or the whole candidate when it is an expression of its own. A stated
    comparison is any ``assert`` and a bare ``<left> == …`` whose left side calls ``f``; its left side
    must be the shown call, else the answer is ``wrong_call`` (returned as a Check). None when the
    candidate is neither."""
    parsed = first_statement(candidate)
    if parsed is None:
        return None
    tree, test = parsed
    first = tree.body[0]
    compared = isinstance(test, ast.Compare) and isinstance(test.ops[0], ast.Eq)
    if isinstance(first, ast.Assert) or (compared and calls_f(test.left)):
        if not compared or ast.dump(test.left) != shown_call(shown_input):
            return Check((ast.get_source_segment(candidate, first) or candidate).strip(), WRONG_CALL)
        tail = ast.get_source_segment(candidate, _span(test.left, test)) or ""
        equals = _TO_RIGHT_SIDE.match(tail)
        return tail[equals.end():].strip() if equals else None
    if len(tree.body) == 1 and isinstance(first, ast.Expr):
        return candidate.strip()
    if isinstance(first, ast.Expr):  # the first statement only: the model went on after its answer
        return (ast.get_source_segment(candidate, first) or "").strip()
    return None


def _operands(answer: str) -> tuple[list[str], list[str]] | str | None:
    """Read ``answer`` as Python reads ``assert f(<input>) == <answer>``: a comparison chain extends
    the assertion (``0 == 1`` never holds); anything else is one value (``1 or 2`` is the value 1,
    not an ``or`` that would pass any assertion). (expressions, links); a status when the answer
    cannot count (it calls ``f``, or computes instead of stating a value); None if it is no expression."""
    try:
        whole = thread_safe_ast.parse(f"({answer})", mode="eval")
    except PARSE_FAILURES:
        return None
    if calls_f(whole):
        return "calls_f"
    if not states_a_value(whole):
        return "not_a_value"
    source = f"{_CALL} == {answer}"
    try:
        chain = thread_safe_ast.parse(source, mode="eval").body
    except PARSE_FAILURES:
        chain = None
    if isinstance(chain, ast.Compare) and isinstance(chain.left, ast.Name) and chain.left.id == _CALL:
        if len(chain.ops) > _MAX_LINKS:
            return None
        operands = [f"({ast.get_source_segment(source, node)})" for node in chain.comparators]
        return operands, [_LINK_SPELLING[type(op)] for op in chain.ops[1:]]
    return [f"({answer})"], []


_LINK_SPELLING = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
                  ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}


def _strip_fences(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if not line.strip().startswith("```"))


def answer_text(generation: str, prompt: str) -> str:
    """The part of a generation that answers: inside ``[ANSWER]`` tags for the harness prompt, before
    ``# done``, without Markdown fences, with the line ends Python knows made one."""
    text = generation.replace("\r\n", "\n").replace("\r", "\n")
    if prompt == HARNESS_PROMPT:
        text = text.split("[ANSWER]", 1)[-1].split("[/ANSWER]", 1)[0]
    return _strip_fences(text.split("# done", 1)[0]).strip()


def candidates(text: str) -> list[str]:
    """The whole text, else its longest runs of first lines: the model may go on talking."""
    lines = text.split("\n")
    return [text, *("\n".join(lines[:count]) for count in range(min(len(lines) - 1, _LINES_TRIED), 0, -1))]


def read_answer(text: str, shown_input: str) -> Check:
    """What ``text`` answers about ``f(<shown input>)`` read as a whole, else its first lines (judging
    rules 2 read the whole reply so; rules 3 each statement :mod:`.final_answer` finds)."""
    if not text.strip():
        return Check("", EMPTY)
    for candidate in candidates(text):
        answer = _right_side(candidate.strip().removesuffix(",").strip(), shown_input)
        if isinstance(answer, Check):
            return answer
        if not answer:
            continue
        answer = answer.removesuffix(",").strip()
        read = _operands(answer)
        if read is None:
            continue
        if isinstance(read, str):
            return Check(answer, read)
        expressions, links = read
        return Check(answer, expressions=expressions, links=links)
    return Check(text, UNPARSEABLE)


def _stated_value(expression: str) -> Any:
    """An answer's expression as a value where it is a literal, else as a parsed tree: what two
    statements of one answer share whatever their spelling."""
    try:
        return ("value", thread_safe_ast.literal_eval(expression))
    except (*PARSE_FAILURES, TypeError):
        pass
    try:
        return ("tree", ast.dump(thread_safe_ast.parse(expression, mode="eval")))
    except PARSE_FAILURES:
        return ("text", expression)


def same_answer(first: Check, second: Check) -> bool:
    """Whether two statements of one reply give the same answer: the same value (``3``, ``(3)`` and
    ``3.0`` are one), or the same refusal of the same text."""
    if first.status or second.status:
        return first.status == second.status and first.answer.strip() == second.answer.strip()
    try:
        return first.links == second.links and len(first.expressions) == len(second.expressions) and all(
            _stated_value(a) == _stated_value(b) for a, b in zip(first.expressions, second.expressions, strict=True))
    except (RecursionError, MemoryError, TypeError, ValueError):
        return False


def _returned_value(shown_input: str, call: str, value: str) -> str | None:
    """The value of a sentence ``f(…) returns X`` when ``f(…)`` is the shown call; None for a sentence
    about another call (working through a recursion, say)."""
    try:
        said = ast.dump(thread_safe_ast.parse(call, mode="eval").body)
    except PARSE_FAILURES:
        return None
    return value if said == shown_call(shown_input) else None


def output_reading(shown_input: str) -> Reading:
    return Reading(read=partial(read_answer, shown_input=shown_input), named=str,
                   returned=partial(_returned_value, shown_input), same=same_answer, kind="output",
                   unstated=(WRONG_CALL,), arguments=_argument_keys(shown_input))


def _argument_keys(shown_input: str) -> frozenset[str] | None:
    """The shown call's arguments as ``ast.dump`` gives them (spacing aside); None when it does not parse."""
    try:
        call = thread_safe_ast.parse(f"f({shown_input})", mode="eval").body
    except PARSE_FAILURES:
        return None
    if not isinstance(call, ast.Call):
        return None
    return frozenset(ast.dump(node) for node in [*call.args, *(keyword.value for keyword in call.keywords)])


def parse_answer(generation: str, prompt: str, shown_input: str, rules: int = JUDGING_RULES) -> Check:
    """What one generation answers about ``f(<shown input>)`` (the document's ``input``, as the prompt
    shows it), and what must run to check it, under judging rules ``rules``: from 3 the one answer
    the reply states wherever it states it (:mod:`.final_answer`), under 2 the text
    :func:`answer_text` gives. Never raises."""
    if rules >= FINAL_ANSWER_RULES:
        return final_answer(generation, output_reading(shown_input), MAX_ANSWER_CHARS)
    text = answer_text(generation, prompt)
    if not text:
        return Check("", EMPTY)
    if len(text) > MAX_ANSWER_CHARS:
        return Check(text[:200], UNPARSEABLE)
    return read_answer(text, shown_input)


# ---------------------------------------------------------------------------------- scoring
def score_generations(generations: list[list[str]], outputs: list[str], inputs: list[str], prompt: str,
                      timeout: float, label: str, others: list[dict[str, str]] | None = None,
                      rules: int = JUDGING_RULES) -> list[list[str]]:
    """Every generation of every problem (its expected output and its shown input given as the
    documents spell them), checked in the sandbox and judged here under judging rules ``rules``: one
    JSON object (answer, status, detail) per sample. ``others``: per problem, outputs that are not the
    answer by name, as literals (:func:`recited_answers`)."""
    checks = []
    for samples, shown_input in zip(generations, inputs, strict=True):
        row = []
        for generation in samples:
            try:
                row.append(parse_answer(generation if isinstance(generation, str) else "", prompt, shown_input, rules))
            except Exception:  # noqa: BLE001 - an answer no reader foresaw is a failed sample, not a crash
                row.append(Check("", UNPARSEABLE))
        checks.append(row)
    read = None
    if others:
        read = [{name: thread_safe_ast.literal_eval(text) for name, text in row.items()} for row in others]
    return score_checks(checks, [thread_safe_ast.literal_eval(output) for output in outputs], timeout, label, read)


def recited_answers(doc: dict) -> dict[str, str]:
    """The outputs a sample of ``doc`` is checked against besides its answer: the published output
    where the answer changed (``stale``: written by a model that recites it), and where the input
    changed, the output on another small change of the shown input (``decoy``: the control an honest
    model hits as often)."""
    from mutators.input_choice import same_literal

    others = {}
    if doc["original_output"] != doc["output"] and not same_literal(doc["original_output"], doc["output"]):
        others["stale"] = doc["original_output"]
        decoy = doc.get("decoy_output")
        if decoy and not any(same_literal(decoy, known) for known in (doc["output"], doc["original_output"])):
            others["decoy"] = decoy
    return others


def score(resps: list[list[str]], docs: list[dict], settings: TaskSettings) -> list[list[str]]:
    """lm-eval filter: every sample of every document checked in the sandbox, judged here."""
    return score_generations(resps, [doc["output"] for doc in docs], [doc["input"] for doc in docs],
                             settings.prompt, settings.timeout, f"cruxeval_{settings.variant}",
                             [recited_answers(doc) for doc in docs], settings.judging_rules)


class CruxEval(Benchmark):
    name = "cruxeval"
    filename = "cruxeval.jsonl"
    code_field = "code"
    required = ("id", "code", "input", "output")
    hub = ("cruxeval-org/cruxeval", "test")  # the copy lm-eval's own cruxeval_* tasks use
    prompts = (PAPER_PROMPT, HARNESS_PROMPT, CHAT_PROMPT, COT_PROMPT)
    default_timeout = 3.0
    max_gen_toks = 256
    sample_statuses = SAMPLE_STATUSES
    answered_statuses = ("passed", "wrong")
    unread_statuses = (EMPTY, UNPARSEABLE, AMBIGUOUS)
    takes_new_inputs = True
    paper_programs = 800
    paper_changed: ClassVar[Mapping[str, int]] = {
        "varnorm1": 785, "varnorm2": 785, "constunfold": 455, "for2while": 306, "condaug": 374}
    paper_bleu: ClassVar[Mapping[str, float]] = {
        "varnorm1": 43.35, "varnorm2": 40.70, "constunfold": 70.41, "for2while": 44.45, "condaug": 55.64}

    def program(self, record: dict) -> Program:
        return Program(record["code"], ProgramKind.FUNCTION, "f", record["input"], CallTests("f", [record["input"]]),
                       record["output"], partial(literal_problem, record["input"], record["output"]))

    def document_columns(self, records: list[dict], results: list[MutationResult]) -> dict[str, list]:
        """Input and output as shown (renamed keywords follow renamed parameters; NewInput gives new
        ones) and as published."""
        pairs = list(zip(results, records, strict=True))
        return {
            "input": [r.call_arguments or record["input"] for r, record in pairs],
            "original_input": [record["input"] for record in records],
            "output": [r.expected_output or record["output"] for r, record in pairs],
            "original_output": [record["output"] for record in records],
            "decoy_output": [r.decoy_output for r in results],
        }

    def reference_answer(self, doc: dict) -> str | None:
        return doc["output"]

    def scored_against(self, doc: dict) -> Any:
        return doc["output"]

    def score(self, resps: list[list[str]], docs: list[dict], settings: TaskSettings) -> list[list[str]]:
        return score(resps, docs, settings)

    def task_config(self, settings: TaskSettings) -> dict[str, Any]:
        config = prompt_config(settings, score, paper_prompt, chat_prompt, "cruxeval_output")
        if settings.changes_answers:
            config["metric_list"] = recitation_metric_list()
        return config


CRUXEVAL = CruxEval()
