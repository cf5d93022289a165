"""Python→Java translation (Avatar, CodeNet, TransCoder): prompt, Java extraction, judging.

A reply is judged as the original projects judge it. Avatar and CodeNet: the class with ``main``
is compiled as its own file, run on every stdin test, and the trimmed stdout must equal the
expected output (Avatar also accepts Code Lingua's numeric normalisation). TransCoder: the method
named like the Python entry point (else the single static method) becomes ``f_filled``, goes into
the benchmark's Java harness at ``//TOFILL`` with its helpers and imports, and the harness must end
printing ``#Results: n, n``. Every sample gets one status from :data:`SAMPLE_STATUSES`.
"""

from __future__ import annotations

import json
import re
import sys
from functools import partial
from typing import Any

from tqdm import tqdm

from dynbench_tasks import java_source as js
from dynbench_tasks.java_judge import COMPILE_ERROR, EXITED, THREW, TIMED_OUT, JavaJob, JobResult
from dynbench_tasks.passk import pass_at_k
from dynbench_tasks.settings import TaskSettings

PAPER_INSTRUCTION = (
    "You are a code translation expert. Translate the Python code below to Java. Do NOT output any extra information."
)
SAMPLE_STATUSES = ("passed", "wrong_output", "runtime_error", "compile_error", "timeout", "no_code")
_RESULTS = re.compile(r"#Results:\s*(\d+)\s*,\s*(\d+)")


def prompt(doc: dict) -> str:
    return f"{PAPER_INSTRUCTION}\n\nPython:\n```python\n{doc['python']}\n```\n\nJava:\n"


# ---------------------------------------------------------------------------------- building jobs
def _package(key: str) -> str:
    return f"dynbench.j{key}"


def program_job(reply: str, key: str, tests: list[bytes], time_limit_ms: int) -> JavaJob | None:
    """A stdin/stdout program: the class with ``main`` becomes the file's class."""
    code = js.code_in_reply(reply)
    if code is None:
        return None
    tokens = js.tokenize(code)
    types = js.type_declarations(code, tokens)
    if not types:
        if not any(m.name == "main" for m in js.methods(code, 0, len(tokens) - 1, tokens)):
            return None
        code = f"public class Main {{\n{code}\n}}\n"  # a reply of bare methods around a main
        tokens = js.tokenize(code)
        types = js.type_declarations(code, tokens)
    main = next((t for t in types if js.has_main(code, t, tokens)), types[0])
    _, package_span = js.imports_and_package(code, tokens)
    replacements = js.exit_redirections(tokens)
    if package_span:
        replacements.append((*package_span, ""))
    for declaration in types:  # only the file's own class may stay public
        first, _ = declaration.tokens
        keyword = next(i for i in range(first, declaration.tokens[1]) if tokens[i].text in ("class", "interface",
                                                                                              "enum", "record"))
        replacements += [(tokens[i].start, tokens[i].end, "") for i in range(first, keyword)
                         if tokens[i].text == "public" and declaration is not main]
    package = _package(key)
    source = f"package {package};\n" + js.rewrite(code, replacements)
    path = f"{package.replace('.', '/')}/{main.name}.java"
    return JavaJob(package, f"{package}.{main.name}", {path: source}, tests, time_limit_ms)


def _candidate_methods(code: str, tokens: list[js.Token]) -> list[js.Declaration]:
    types = js.type_declarations(code, tokens)
    if not types:
        return js.methods(code, 0, len(tokens) - 1, tokens)
    found = []
    for declaration in types:
        first, last = js.body_range(declaration, tokens)
        found += js.methods(code, first, last, tokens)
    return found


def function_job(reply: str, key: str, entry_point: str, harness: str, time_limit_ms: int) -> JavaJob | None:
    """A TransCoder function: renamed f_filled and put into the harness with its helpers."""
    code = js.code_in_reply(reply)
    if code is None:
        return None
    tokens = js.tokenize(code)
    methods = [m for m in _candidate_methods(code, tokens) if m.name not in ("main", "f_gold")]
    target = next((m for m in methods if m.name == entry_point), None)
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
    package = _package(key)
    source = f"package {package};\n" + "\n".join(imports) + "\n" + harness.replace("//TOFILL", block, 1)
    harness_tokens = js.tokenize(harness)
    main = next(t for t in js.type_declarations(harness, harness_tokens) if js.has_main(harness, t, harness_tokens))
    path = f"{package.replace('.', '/')}/{main.name}.java"
    return JavaJob(package, f"{package}.{main.name}", {path: source}, [b""], time_limit_ms)


# ---------------------------------------------------------------------------------- verdicts
def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def same_output(actual: str, expected: str, numeric: bool) -> bool:
    """Trimmed equality; with ``numeric``, Code Lingua's normalisation of a single number: integral
    values compared as ints, others rounded to the fewer decimals of the two."""
    actual, expected = actual.strip(), expected.strip()
    if actual == expected:
        return True
    a, e = (_number(actual), _number(expected)) if numeric else (None, None)
    if a is None or e is None:
        return False
    if a.is_integer() and e.is_integer():
        return int(a) == int(e)
    decimals = min(len(s.split(".")[1]) if "." in s else 0 for s in (actual, expected))
    return round(a, decimals) == round(e, decimals)


def stdin_verdict(result: JobResult, expected: list[str], numeric: bool) -> str:
    if result.status == COMPILE_ERROR:
        return "compile_error"
    for run, wanted in zip(result.runs, expected, strict=False):
        if run.outcome == TIMED_OUT:
            return "timeout"
        if same_output(run.stdout.decode("utf-8", "replace"), wanted, numeric):
            continue
        if run.outcome == THREW or (run.outcome == EXITED and run.exit_status != 0):
            return "runtime_error"
        return "wrong_output"
    return "passed" if len(result.runs) == len(expected) else "timeout"


def harness_verdict(result: JobResult) -> str:
    if result.status == COMPILE_ERROR:
        return "compile_error"
    run = result.runs[0] if result.runs else None
    if run is None or run.outcome == TIMED_OUT:
        return "timeout"
    reported = _RESULTS.findall(run.stdout.decode("utf-8", "replace"))
    if reported and reported[-1][0] == reported[-1][1]:
        return "passed"
    return "runtime_error" if run.outcome == THREW or not reported else "wrong_output"


# ---------------------------------------------------------------------------------- lm-eval glue
def build_job(benchmark: str, reply: str, doc: dict, key: str, time_limit_ms: int) -> JavaJob | None:
    if benchmark == "transcoder":
        return function_job(reply, key, doc["entry_point"], doc["java_harness"], time_limit_ms)
    tests = [test["input"].encode("utf-8") for test in doc["tests"]]
    return program_job(reply, key, tests, time_limit_ms)


def verdict(benchmark: str, result: JobResult, doc: dict) -> str:
    if benchmark == "transcoder":
        return harness_verdict(result)
    return stdin_verdict(result, [test["output"] for test in doc["tests"]], numeric=benchmark == "avatar")


def judge_replies(benchmark: str, items: list[tuple[str, dict]], judge, time_limit_ms: int,
                  progress=None) -> list[str]:
    """A status for every (reply, document): extraction, one batched judge run, verdicts."""
    statuses: list[str | None] = []
    jobs, where = [], []
    for index, (reply, doc) in enumerate(items):
        job = build_job(benchmark, reply or "", doc, str(index), time_limit_ms)
        statuses.append(None if job is not None else "no_code")
        if job is not None:
            jobs.append(job)
            where.append(index)
    for index, result in zip(where, judge.run(jobs, progress=progress), strict=True):
        statuses[index] = verdict(benchmark, result, items[index][1])
    return statuses


def score(resps: list[list[str]], docs: list[dict], settings: TaskSettings) -> list[list[str]]:
    """lm-eval filter: every sample of every document judged in one batch; JSON (status) per sample."""
    from dynbench_tasks.runtime import shared_java_judge

    items = [(reply, doc) for samples, doc in zip(resps, docs, strict=True) for reply in samples]
    label = f"{settings.benchmark}_{settings.variant}"
    with tqdm(total=len(items), desc=f"{label}: judging", unit="sample", disable=None, file=sys.stderr) as bar:
        statuses = judge_replies(settings.benchmark, items, shared_java_judge(), int(settings.timeout * 1000),
                                 progress=bar.update)
    scored, position = [], 0
    for samples in resps:
        scored.append([json.dumps({"status": s}) for s in statuses[position:position + len(samples)]])
        position += len(samples)
    return scored


def process_results(doc: dict, results: list[list[str]]) -> dict[str, float]:
    samples = [json.loads(sample) for sample in results[0]]
    passed = sum(sample["status"] == "passed" for sample in samples)
    return {"pass@1": pass_at_k(len(samples), passed, 1), "pass@5": pass_at_k(len(samples), passed, 5)}


def task_config(settings: TaskSettings) -> dict[str, Any]:
    scoring = [{"name": "judge", "filter": [{"function": "custom", "filter_fn": partial(score, settings=settings)}]}]
    return {"description": "", "doc_to_text": prompt, "doc_to_target": "", "num_fewshot": 0,
            "filter_list": scoring, "stop": ["\nPython:"]}
