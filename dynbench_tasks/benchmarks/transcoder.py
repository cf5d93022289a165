"""TransCoder (GeeksforGeeks, cleaned, Python → Java): one function per problem, judged in the
benchmark's Java harness. The method named like the Python entry point (else the single static
method) becomes ``f_filled`` and goes, with its helper methods and imports, into the harness at
``//TOFILL``; the harness must end printing ``#Results: n, n``."""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from dynbench_tasks.benchmarks.base import Program
from dynbench_tasks.benchmarks.translation import TranslationBenchmark
from mutators.programs import CallTests, ProgramKind

if TYPE_CHECKING:
    from dynbench_tasks.judge import java_source as js
    from dynbench_tasks.judge.pool import JavaJob, JobResult
    from mutators.engine import MutationResult

_RESULTS = re.compile(r"#Results:\s*(\d+)\s*,\s*(\d+)")


def entry_point(code: str) -> str | None:
    """The function a TransCoder program defines last: the one its harness calls."""
    try:
        names = [node.name for node in ast.parse(code).body if isinstance(node, ast.FunctionDef)]
    except SyntaxError:
        return None
    return names[-1] if names else None


def harness_parameters(python_harness: str | None) -> list[str]:
    """Argument texts of every call the TransCoder Python harness makes (its ``param`` list)."""
    from mutators.perturb import render_arguments

    if not python_harness:
        return []
    try:
        module = ast.parse(python_harness)
    except SyntaxError:
        return []
    for node in ast.walk(module):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "param" for t in node.targets):
            try:
                sets = ast.literal_eval(node.value)
            except ValueError:
                return []
            return [render_arguments(list(params), {}) for params in sets]
    return []


def _candidate_methods(code: str, tokens: list[js.Token]) -> list[js.Declaration]:
    from dynbench_tasks.judge import java_source as js

    types = js.type_declarations(code, tokens)
    if not types:
        return js.methods(code, 0, len(tokens) - 1, tokens)
    found = []
    for declaration in types:
        first, last = js.body_range(declaration, tokens)
        found += js.methods(code, first, last, tokens)
    return found


def function_job(reply: str, key: str, entry: str, harness: str, time_limit_ms: int) -> JavaJob | None:
    """A TransCoder function: renamed f_filled and put into the harness with its helpers."""
    from dynbench_tasks.judge import java_source as js
    from dynbench_tasks.judge.jobs import job_package
    from dynbench_tasks.judge.pool import JavaJob

    code = js.code_in_reply(reply)
    if code is None:
        return None
    tokens = js.tokenize(code)
    methods = [m for m in _candidate_methods(code, tokens) if m.name not in ("main", "f_gold")]
    target = next((m for m in methods if m.name == entry), None)
    if target is None:
        static = [m for m in methods if "static" in code[m.start:m.end].split("(")[0].split()]
        target = static[0] if len(static) == 1 else methods[0] if len(methods) == 1 else None
    if target is None:
        return None
    members = []
    for method in methods:
        text = code[method.start:method.end]
        header = text.split("(")[0].split()
        members.append(text if "static" in header else "static " + text)
    block = "\n\n".join(members)
    block_tokens = js.tokenize(block)
    renames = js.call_renames(block_tokens, target.name, "f_filled")
    block = js.rewrite(block, renames + js.exit_redirections(block_tokens))
    imports, _ = js.imports_and_package(code, tokens)
    package = job_package(key)
    source = f"package {package};\n" + "\n".join(imports) + "\n" + harness.replace("//TOFILL", block, 1)
    harness_tokens = js.tokenize(harness)
    main = next(t for t in js.type_declarations(harness, harness_tokens) if js.has_main(harness, t, harness_tokens))
    path = f"{package.replace('.', '/')}/{main.name}.java"
    return JavaJob(package, f"{package}.{main.name}", {path: source}, [b""], time_limit_ms)


def harness_verdict(result: JobResult) -> str:
    from dynbench_tasks.judge.pool import COMPILE_ERROR, THREW, TIMED_OUT

    if result.status == COMPILE_ERROR:
        return "compile_error"
    run = result.runs[0] if result.runs else None
    if run is None or run.outcome == TIMED_OUT:
        return "timeout"
    reported = _RESULTS.findall(run.stdout.decode("utf-8", "replace"))
    if reported and reported[-1][0] == reported[-1][1]:
        return "passed"
    return "runtime_error" if run.outcome == THREW or not reported else "wrong_output"


class TransCoder(TranslationBenchmark):
    name = "transcoder"
    filename = "transcoder_py2java.jsonl"
    required = ("id", "python", "java", "java_harness", "python_harness")
    paper_programs = 568
    paper_changed: ClassVar[Mapping[str, int]] = {
        "varnorm1": 568, "varnorm2": 568, "constunfold": 546, "for2while": 349, "condaug": 396}
    paper_bleu: ClassVar[Mapping[str, float]] = {
        "varnorm1": 37.53, "varnorm2": 37.50, "constunfold": 61.03, "for2while": 52.21, "condaug": 64.93}

    def program(self, record: dict) -> Program:
        entry = entry_point(record["python"])
        tests = CallTests(entry, harness_parameters(record.get("python_harness"))) if entry else None
        return Program(record["python"], ProgramKind.FUNCTION, entry, None, tests)

    def judgeable(self, record: dict) -> bool:
        return bool(record["java_harness"])  # 86 problems have no Java harness anywhere

    def document_columns(self, records: list[dict], results: list[MutationResult]) -> dict[str, list]:
        return {"entry_point": [entry_point(record["python"]) for record in records]}

    def reference_document(self, record: dict) -> dict:
        return dict(record, entry_point=entry_point(record["python"]))

    def build_job(self, reply: str, doc: dict, key: str, time_limit_ms: int) -> JavaJob | None:
        return function_job(reply, key, doc["entry_point"], doc["java_harness"], time_limit_ms)

    def verdict(self, result: JobResult, doc: dict) -> str:
        return harness_verdict(result)


TRANSCODER = TransCoder()
