"""CRUXEval output prediction: the programs, prompts, answer extraction and sandboxed scoring.

Documents carry the program and input as shown to the model in ``code`` and ``input`` (the
originals in ``original_code`` and ``original_input``). Two prompt styles: ``paper`` (default) is the
dynamic-benchmarking paper's appendix C prompt: the program, then ``assert f(<input>) ==`` for the
model to complete, stopping at ``# done``; 0-shot. ``harness`` is lm-eval's own ``cruxeval_output``
prompt (2-shot, ``[ANSWER]`` tags), taken verbatim from the installed lm-eval.

Scoring differs from lm-eval's built-in on purpose: quotes are kept (the built-in strips them, so
every string answer fails), an answer that calls ``f`` is rejected (the built-in accepts an answer
that merely echoes the call), and the check ``<answer> == <reference>`` runs in the sandbox with one
forked child per check. An empty or unparseable answer is a failed sample, never a dropped one.
"""

from __future__ import annotations

import ast
import json
import sys
from collections.abc import Mapping
from functools import lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from dynbench_tasks.benchmarks.base import Benchmark, Program
from mutators.programs import CallTests, ProgramKind

if TYPE_CHECKING:
    from dynbench_tasks.lmeval.settings import TaskSettings
    from mutators.engine import MutationResult

PAPER_INSTRUCTION = (
    "Based on the given Python code, which may contain errors, complete the assert statement with the output "
    "when executing the code on the given test case. Do NOT output any extra information, even if the function "
    'is incorrect or incomplete. Output "# done" after the assertion.'
)
MAX_ANSWER_CHARS = 20_000
SAMPLE_STATUSES = ("passed", "wrong", "empty", "unparseable", "calls_f", "error", "timeout")


def paper_prompt(doc: dict) -> str:
    return f"{PAPER_INSTRUCTION}\n\n{doc['code']}\nassert f({doc['input']}) =="


@lru_cache(maxsize=1)
def _builtin_output_task() -> dict:
    """lm-eval's own cruxeval_output task config, as the installed lm-eval ships it."""
    import lm_eval
    from lm_eval.tasks._yaml_loader import load_yaml

    return load_yaml(Path(lm_eval.__file__).parent / "tasks" / "cruxeval" / "cruxeval_output.yaml")


def _task_config(settings: TaskSettings) -> dict[str, Any]:
    """The prompt-dependent part of a CRUXEval task's lm-eval config."""
    scoring = [{"name": "sandbox", "filter": [{"function": "custom", "filter_fn": partial(score, settings=settings)}]}]
    if settings.prompt == "harness":
        builtin = _builtin_output_task()
        prompt_keys = ("description", "doc_to_text", "doc_to_target", "num_fewshot", "fewshot_config")
        return {
            **{key: builtin[key] for key in prompt_keys},
            "filter_list": scoring,
            "stop": list(builtin["generation_kwargs"]["until"]),
        }
    return {
        "description": "",
        "doc_to_text": paper_prompt,
        "doc_to_target": "output",
        "num_fewshot": 0,
        "filter_list": scoring,
        "stop": ["# done"],
    }


# ---------------------------------------------------------------------------------- extraction
def _calls_f(node: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "f" for n in ast.walk(node)
    )


def _answer_of_statement(text: str) -> ast.expr | None:
    """The answer in ``assert f(x) == Y`` (or ``f(x) == Y``, or a bare ``Y``) as its first statement."""
    try:
        body = ast.parse(text).body
    except (SyntaxError, ValueError):
        return None
    if not body:
        return None
    first = body[0]
    test = first.test if isinstance(first, ast.Assert) else first.value if isinstance(first, ast.Expr) else None
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Eq)
        and _calls_f(test.left)
    ):
        return test.comparators[0]
    return test if isinstance(first, ast.Expr) else None


def _strip_fences(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.strip().startswith("```"))


def extract_answer(generation: str, prompt: str) -> tuple[str, str]:
    """(answer expression, status); status is "" when there is an answer to check."""
    text = generation
    if prompt == "harness":
        text = text.split("[ANSWER]", 1)[-1].split("[/ANSWER]", 1)[0]
    text = _strip_fences(text.split("# done", 1)[0]).strip()
    if not text:
        return "", "empty"
    if len(text) > MAX_ANSWER_CHARS:
        return text[:200], "unparseable"
    for candidate in (text, text.splitlines()[0].strip()):
        candidate = candidate.removesuffix(",").strip()
        try:
            node: ast.expr | None = ast.parse(candidate, mode="eval").body
            if isinstance(node, ast.Compare) and _calls_f(node.left) and isinstance(node.ops[0], ast.Eq):
                node = node.comparators[0]
        except (SyntaxError, ValueError):
            node = _answer_of_statement(candidate)
        if node is not None:
            answer = ast.get_source_segment(candidate, node) or ast.unparse(node)
            return answer, "calls_f" if _calls_f(node) else ""
    return text, "unparseable"


# ---------------------------------------------------------------------------------- scoring
def score(resps: list[list[str]], docs: list[dict], settings: TaskSettings) -> list[list[str]]:
    """lm-eval filter: every sample of every document, checked in the sandbox in one batch. Each
    sample becomes a JSON object (answer, status), which lm-eval keeps in the logged samples."""
    from tqdm import tqdm

    from dynbench_tasks.lmeval.runtime import shared_sandbox

    scored: list[list[dict]] = []
    tasks, where = [], []
    for doc_index, (samples, doc) in enumerate(zip(resps, docs, strict=True)):
        row = []
        for sample_index, generation in enumerate(samples):
            answer, status = extract_answer(generation or "", settings.prompt)
            row.append({"answer": answer, "status": status})
            if not status:
                where.append((doc_index, sample_index))
                tasks.append({
                    "kind": "compare_value",
                    "payload": {"answer": answer, "reference": doc["output"], "seconds": settings.timeout},
                    "limits": {"wall_seconds": settings.timeout + 5, "cpu_seconds": int(settings.timeout) + 1,
                               "memory_mb": 1024},
                })
        scored.append(row)
    label = f"cruxeval_{settings.variant}"
    with tqdm(total=len(tasks), desc=f"{label}: scoring", unit="check", disable=None, file=sys.stderr) as bar:
        outcomes = shared_sandbox().run(tasks, progress=bar.update) if tasks else []
    for (doc_index, sample_index), outcome in zip(where, outcomes, strict=True):
        sample = scored[doc_index][sample_index]
        if outcome.get("status") == "ok":
            result = outcome["result"]
            sample["status"] = result["outcome"] if result["outcome"] in SAMPLE_STATUSES else "error"
            if "detail" in result:
                sample["detail"] = result["detail"]
        else:
            sample["status"] = "timeout" if outcome.get("status") == "timeout" else "error"
    return [[json.dumps(sample, ensure_ascii=False) for sample in row] for row in scored]


class CruxEval(Benchmark):
    name = "cruxeval"
    filename = "cruxeval.jsonl"
    code_field = "code"
    required = ("id", "code", "input", "output")
    hub = ("cruxeval-org/cruxeval", "test")  # the copy lm-eval's own cruxeval_* tasks use
    prompts = ("paper", "harness")
    default_timeout = 3.0
    max_gen_toks = 256
    sample_statuses = SAMPLE_STATUSES
    paper_programs = 800
    paper_changed: ClassVar[Mapping[str, int]] = {
        "varnorm1": 785, "varnorm2": 785, "constunfold": 455, "for2while": 306, "condaug": 374}
    paper_bleu: ClassVar[Mapping[str, float]] = {
        "varnorm1": 43.35, "varnorm2": 40.70, "constunfold": 70.41, "for2while": 44.45, "condaug": 55.64}

    def program(self, record: dict) -> Program:
        return Program(record["code"], ProgramKind.FUNCTION, "f", record["input"], CallTests("f", [record["input"]]))

    def document_columns(self, records: list[dict], results: list[MutationResult]) -> dict[str, list]:
        """The input as shown (renamed keywords follow renamed parameters) and as published."""
        return {
            "input": [r.call_arguments or record["input"] for r, record in zip(results, records, strict=True)],
            "original_input": [record["input"] for record in records],
        }

    def task_config(self, settings: TaskSettings) -> dict[str, Any]:
        return _task_config(settings)


CRUXEVAL = CruxEval()
