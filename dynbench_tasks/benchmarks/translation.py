"""Python→Java translation benchmarks: the shared prompt, batched judging and the stdin/stdout kind.

Every sample gets one status from :data:`SAMPLE_STATUSES`, under the rules of ``docs/judging.md``
(their version is :data:`dynbench_tasks.scoring.JUDGING_RULES`). Stdin programs (Avatar, CodeNet):
the class with ``main`` is compiled as its own file and run on every stdin test; a test passes when
the run ends normally (returns, or exits with status 0, its shutdown hooks run) and its stdout, trimmed
of ASCII whitespace, equals the expected output (Avatar: or both are one decimal number of the same
value). TransCoder fills a harness instead (:mod:`dynbench_tasks.benchmarks.transcoder`).
"""

from __future__ import annotations

import json
import re
import sys
from decimal import Decimal, InvalidOperation
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from dynbench_tasks.benchmarks.base import Benchmark, Program
from dynbench_tasks.scoring import recitation_metric_list
from mutators.programs import ProgramKind, StdinTests

if TYPE_CHECKING:
    from dynbench_tasks.judge.pool import JavaJob, JobResult
    from dynbench_tasks.settings import TaskSettings
    from mutators.engine import MutationResult
    from mutators.output_choice import Problem

PAPER_INSTRUCTION = (
    "You are a code translation expert. Translate the Python code below to Java. Do NOT output any extra information."
)
# "error": the judge itself could not judge the sample (a reference that did not run).
SAMPLE_STATUSES = ("passed", "wrong_output", "runtime_error", "compile_error", "timeout", "no_code", "error")


def has_stale_answer(doc: dict) -> bool:
    """Whether NewOutput changed the document's answers, so that the published program's are stale."""
    return "output" in ((doc.get("mutation") or {}).get("changed_answers") or [])


def prompt(doc: dict) -> str:
    return f"{PAPER_INSTRUCTION}\n\nPython:\n```python\n{doc['python']}\n```\n\nJava:\n"


class TranslationBenchmark(Benchmark):
    """Translate the Python program to Java; the Java is compiled and run by the judge."""

    code_field = "python"
    default_timeout = 10.0
    max_gen_toks = 1024
    needs_jdk = True
    answer_is_program = True
    sample_statuses = SAMPLE_STATUSES
    answered_statuses = ("passed", "wrong_output")
    unread_statuses = ("no_code",)
    reference_field: ClassVar[str | None] = "java"  # the benchmark's own Java, for `dynbench judge --references`
    no_reference_reason: ClassVar[str] = ""

    def build_job(self, reply: str, doc: dict, key: str, time_limit_ms: int) -> JavaJob | None:
        """What the judge runs for one reply; None when the reply holds no usable Java."""
        raise NotImplementedError

    def reference_answer(self, doc: dict) -> str | None:
        if has_stale_answer(doc):
            return None  # the benchmark's Java computes the published answers, not the edited program's
        return doc.get(self.reference_field) if self.reference_field else None

    def reference_items(self, records: list[dict]) -> list[tuple[str, dict]]:
        """(the benchmark's own Java, its document) for every judgeable problem."""
        from dynbench_tasks.errors import DataError

        if self.reference_field is None:
            raise DataError(self.no_reference_reason)
        return [(record[self.reference_field], self.reference_document(record))
                for record in records if self.judgeable(record)]

    def reference_document(self, record: dict) -> dict:
        """A record as the judge needs it when its Java is judged without a task around it."""
        return record

    def verdict(self, result: JobResult, doc: dict) -> str:
        raise NotImplementedError

    def prepare(self, items: list[tuple[str, dict]], judge, time_limit_ms: int) -> None:
        """Whatever judging these documents needs computed first, in trusted runs (once per process)."""

    def judged(self, items: list[tuple[str, dict]], judge, time_limit_ms: int, progress=None
               ) -> list[tuple[str, JobResult | None]]:
        """A status for every (reply, document), with the judge's record of its runs (None: no Java to
        run): extraction, one batched judge run, verdicts."""
        self.prepare(items, judge, time_limit_ms)
        judged: list[tuple[str, JobResult | None]] = []
        jobs, where = [], []
        for index, (reply, doc) in enumerate(items):
            job = self.build_job(reply or "", doc, str(index), time_limit_ms)
            judged.append(("no_code", None))
            if job is not None:
                jobs.append(job)
                where.append(index)
        for index, result in zip(where, judge.run(jobs, progress=progress), strict=True):
            judged[index] = (self.verdict(result, items[index][1]), result)
        return judged

    def judge_replies(self, items: list[tuple[str, dict]], judge, time_limit_ms: int, progress=None) -> list[str]:
        """A status for every (reply, document)."""
        return [status for status, _ in self.judged(items, judge, time_limit_ms, progress)]

    def judge_with_stale(self, items: list[tuple[str, dict]], judge, time_limit_ms: int, progress=None
                         ) -> list[dict[str, Any]]:
        """Every (reply, document)'s status and, where NewOutput changed the document's answers,
        ``stale``: whether the reply fails them and passes the *published* program's tests (or harness
        values) instead, as a memorised translation does (docs/detect.md)."""
        judged = self.judged(items, judge, time_limit_ms, progress)
        failed = [(result, doc) for (_, doc), (status, result) in zip(items, judged, strict=True)
                  if status == "wrong_output" and has_stale_answer(doc)]
        self.prepare_published([doc for _, doc in failed], judge, time_limit_ms)
        flags = []
        for (_, doc), (status, result) in zip(items, judged, strict=True):
            flag: dict[str, Any] = {"status": status}
            if has_stale_answer(doc):
                flag["stale"] = status == "wrong_output" and self.gives_published_answers(result, doc)
            flags.append(flag)
        return flags

    def prepare_published(self, docs: list[dict], judge, time_limit_ms: int) -> None:
        """Whatever :meth:`gives_published_answers` needs computed first for these documents."""

    def gives_published_answers(self, result: JobResult, doc: dict) -> bool:
        """Whether the judged runs give the published program's answers on every published test."""
        raise NotImplementedError

    def score(self, resps: list[list[str]], docs: list[dict], settings: TaskSettings) -> list[list[str]]:
        """lm-eval filter: every sample of every document judged in one batch; JSON (status, and
        ``stale`` where the answers changed) per sample."""
        from tqdm import tqdm

        from dynbench_tasks.runtime import shared_java_judge

        items = [(reply, doc) for samples, doc in zip(resps, docs, strict=True) for reply in samples]
        label = f"{self.name}_{settings.variant}"
        with tqdm(total=len(items), desc=f"{label}: judging", unit="sample", disable=None, file=sys.stderr) as bar:
            flags = self.judge_with_stale(items, shared_java_judge(), int(settings.timeout * 1000),
                                          progress=bar.update)
        scored, position = [], 0
        for samples in resps:
            scored.append([json.dumps(flag) for flag in flags[position:position + len(samples)]])
            position += len(samples)
        return scored

    def task_config(self, settings: TaskSettings) -> dict[str, Any]:
        scoring = [{"name": "judge",
                    "filter": [{"function": "custom", "filter_fn": partial(self.score, settings=settings)}]}]
        config = {"description": "", "doc_to_text": prompt, "doc_to_target": "", "num_fewshot": 0,
                  "filter_list": scoring, "stop": ["\nPython:"]}
        if settings.changes_answers:  # no decoy: only a reference model's runs tell recitation from a slip
            config["metric_list"] = recitation_metric_list(("stale",))
        return config


# ---------------------------------------------------------------------------------- stdin programs
def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def same_output(actual: str, expected: str, numeric: bool) -> bool:
    """Code Lingua's comparison, which the mutation engine keeps so that documents stay as built:
    trimmed equality; with ``numeric``, a single number's integral values compared as ints, others
    rounded to the fewer decimals of the two. Too loose to judge translations (:func:`judged_output`)."""
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


# A decimal number as Python and Java print one; not what float() or Decimal() also read (1_0, inf, nan,
# spaces, digits of other scripts such as fullwidth or Arabic-Indic ones).
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]{1,9})?")
# What a translation's output is trimmed of: str.strip() would also drop Unicode spaces, separators and
# control characters (U+3000, U+2028, U+0085, U+00A0, U+001C-U+001F) that a program printed.
ASCII_WHITESPACE = " \t\n\r\f\v"


def same_number(actual: str, expected: str) -> bool:
    """Both texts one decimal number, of exactly the same value however it is spelled (``42`` and
    ``42.0``, ``1.380000000038E8`` and ``138000000.0038``): compared as decimals, never as doubles."""
    if not (_DECIMAL.fullmatch(actual) and _DECIMAL.fullmatch(expected)):
        return False
    try:
        return Decimal(actual) == Decimal(expected)
    except InvalidOperation:
        return False


def judged_output(actual: str, expected: str, numeric: bool) -> bool:
    """A translation's stdout against the expected output: equality once trimmed of ASCII whitespace;
    with ``numeric`` (Avatar), also :func:`same_number` of the trimmed texts."""
    actual, expected = actual.strip(ASCII_WHITESPACE), expected.strip(ASCII_WHITESPACE)
    return actual == expected or (numeric and same_number(actual, expected))


# fractions.gcd, as Python 3.8 had it (removed in 3.9): some Avatar programs were written for it.
_FRACTIONS_GCD = ('exec("def gcd(a, b):\\n    while b:\\n        a, b = b, a % b\\n    return a", '
                  '__import__("fractions").__dict__)')


def removed_apis(code: str) -> str:
    """What a script needs, before it, to run as the Python it was written for ran it."""
    return _FRACTIONS_GCD if "fractions" in code and "gcd" in code else ""


_REFERENCE_MS = 10_000  # per derived input, as `dynbench judge --references` gives a test


def agreeing_with_reference(problems: list[Problem]) -> None:
    """Each problem's derived inputs, kept only where the benchmark's own Java prints (as the judge
    compares, numbers however spelled) what the Python printed: a faithful translation can pass them. Each
    input is decided on its own: one that a time limit or a failing machine decided, or that a timeout before
    it left unrun (:func:`~dynbench_tasks.judge.pool.undecided_tests`), runs once more in a job of its own; one
    still undecided is dropped, and the build says so in one line (:mod:`mutators.runaway`), as another machine
    may keep it."""
    from dynbench_tasks.judge.jobs import program_job
    from dynbench_tasks.judge.pool import EXITED, RETURNED, undecided_tests
    from dynbench_tasks.runtime import shared_java_judge
    from mutators import runaway

    checked = [problem for problem in problems if problem.derived]
    stdins = [[stdin.encode() for stdin in problem.derived_inputs()] for problem in checked]
    jobs = [program_job(problem.reference, str(number), tests, _REFERENCE_MS)
            for number, (problem, tests) in enumerate(zip(checked, stdins, strict=True))]
    judge = shared_java_judge()
    results = iter(judge.run([job for job in jobs if job is not None]))
    runs, again = [], []
    for number, tests in enumerate(stdins):
        result = next(results) if jobs[number] is not None else None
        runs.append([result.runs[test] if result is not None and test < len(result.runs) else None
                     for test in range(len(tests))])
        again += [(number, test) for test in (undecided_tests(result, len(tests)) if result is not None else [])]
    alone = judge.run([program_job(checked[number].reference, f"{number}_{test}", [stdins[number][test]],
                                   _REFERENCE_MS) for number, test in again])
    for (number, test), result in zip(again, alone, strict=True):
        runs[number][test] = None if undecided_tests(result, 1) else result.runs[0]
    runaway.add(sum(runs[number][test] is None for number, test in again))
    for problem, each in zip(checked, runs, strict=True):
        printed = [run.stdout.decode("utf-8", "replace") if run is not None and (run.outcome == RETURNED or
                   (run.outcome == EXITED and run.exit_status == 0)) else None for run in each]
        problem.keep_derived_where([java is not None and judged_output(java, python, numeric=True)
                                    for java, python in zip(printed, problem.derived_answers, strict=True)])


def _scored_tests(published: list[dict], result: MutationResult) -> list[dict]:
    if result.new_answers is None:
        return published
    answers = result.new_answers
    tests = [dict(test, output=new) for test, new in zip(published, answers[: len(published)], strict=True)]
    tests += [{"index": len(published) + offset, "input": stdin, "output": new, "derived": True}
              for offset, (stdin, new) in enumerate(zip(result.derived_inputs, answers[len(published) :], strict=True))]
    return [test for test in tests if test["output"] is not None]


class StdinTranslation(TranslationBenchmark):
    """Programs that read stdin and print: every test's trimmed stdout must match."""

    required = ("id", "python", "tests")
    numeric_outputs: ClassVar[bool] = False  # a single number may be spelled differently (judged_output)
    derived_tests: ClassVar[int] = 0  # stdin tests NewOutput derives beyond the published ones (derived_inputs)

    def program(self, record: dict) -> Program:
        from dynbench_tasks.benchmarks.new_answers import script_problem

        tests = StdinTests([t["input"] for t in record["tests"]], [t["output"] for t in record["tests"]],
                           partial(same_output, numeric=self.numeric_outputs), removed_apis(record["python"]))
        reference = record.get(self.reference_field) if self.reference_field else None
        return Program(record["python"], ProgramKind.SCRIPT, tests=tests,
                       answers=partial(script_problem, tests, derived=self.derived_tests, reference=reference,
                                       agreeing=agreeing_with_reference))

    def document_columns(self, records: list[dict], results: list[MutationResult]) -> dict[str, list]:
        """The tests as scored (NewOutput's edited program printed new outputs, on the tests it is
        scored on, the derived ones last) and as published."""
        return {"tests": [_scored_tests(record["tests"], r) for record, r in zip(records, results, strict=True)],
                "original_tests": [record["tests"] for record in records]}

    def scored_against(self, doc: dict) -> Any:
        return doc["tests"]

    def build_job(self, reply: str, doc: dict, key: str, time_limit_ms: int) -> JavaJob | None:
        from dynbench_tasks.judge.jobs import program_job

        return program_job(reply, key, [test["input"].encode("utf-8") for test in doc["tests"]], time_limit_ms)

    def gives_published_answers(self, result: JobResult, doc: dict) -> bool:
        """Every published test was run, ended normally and printed its published output."""
        from dynbench_tasks.judge.pool import EXITED, RETURNED

        runs = {test.get("index"): run for test, run in zip(doc["tests"], result.runs, strict=False)}
        for test in doc.get("original_tests") or []:
            run = runs.get(test.get("index"))
            if run is None or not (run.outcome == RETURNED or (run.outcome == EXITED and run.exit_status == 0)):
                return False
            if not judged_output(run.stdout.decode("utf-8", "replace"), test["output"], self.numeric_outputs):
                return False
        return bool(doc.get("original_tests"))

    def verdict(self, result: JobResult, doc: dict) -> str:
        """The first failing test decides; a run that throws or exits non-zero fails whatever it printed."""
        from dynbench_tasks.judge.pool import COMPILE_ERROR, EXITED, RETURNED, TIMED_OUT

        if result.status == COMPILE_ERROR:
            return "compile_error"
        expected = [test["output"] for test in doc["tests"]]
        for run, wanted in zip(result.runs, expected, strict=False):
            if run.outcome == TIMED_OUT:
                return "timeout"
            if not (run.outcome == RETURNED or (run.outcome == EXITED and run.exit_status == 0)):
                return "runtime_error"
            if not judged_output(run.stdout.decode("utf-8", "replace"), wanted, self.numeric_outputs):
                return "wrong_output"
        return "passed" if len(result.runs) == len(expected) else "timeout"
