"""TransCoder (GeeksforGeeks, cleaned, Python → Java): one function per problem, judged on the
parameter sets of the benchmark's Java harness (:mod:`dynbench_tasks.benchmarks.transcoder_harness`)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, ClassVar

from dynbench_tasks.benchmarks.base import Program
from dynbench_tasks.benchmarks.new_answers import harness_problem
from dynbench_tasks.benchmarks.transcoder_harness import (
    entry_point,
    fetch_reference_values,
    function_job,
    harness_calling,
    harness_imports,
    harness_parameters,
    judged_harness,
    judged_parameters,
    judged_record,
    records_verdict,
    reference_values,
    usual_imports,
)
from dynbench_tasks.benchmarks.translation import TranslationBenchmark
from mutators.programs import CallTests, ProgramKind

if TYPE_CHECKING:
    from dynbench_tasks.judge.pool import JavaJob, JobResult
    from mutators.engine import MutationResult


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
        harness = record.get("python_harness")
        preamble = "\n".join(filter(None, (harness_imports(harness), usual_imports(record["python"]))))
        # The equivalence check calls the program as its Python harness does, else as its Java harness does.
        arguments = harness_parameters(harness) or judged_parameters(record["java_harness"])
        tests = CallTests(entry, arguments, preamble=preamble) if entry else None
        return Program(record["python"], ProgramKind.FUNCTION, entry, None, tests,
                       answers=partial(harness_problem, entry, record["java_harness"], preamble))

    def judgeable(self, record: dict) -> bool:
        return bool(record["java_harness"])  # 86 problems have no Java harness anywhere

    def document_columns(self, records: list[dict], results: list[MutationResult]) -> dict[str, list]:
        """The entry point, the values the harness must report where NewOutput's edited program
        computed new ones (empty: the harness's own f_gold gives them), and the harness, making only
        the calls those are for."""
        return {"entry_point": [entry_point(record["python"]) for record in records],
                "expected_records": [[value for call in r.new_answers if call is not None for value in call]
                                     if r.new_answers else [] for r in results],
                "java_harness": [harness_calling(record["java_harness"], [call is not None for call in r.new_answers])
                                 if r.new_answers else record["java_harness"] for record, r in
                                 zip(records, results, strict=True)]}

    def scored_against(self, doc: dict):
        return [doc["java_harness"], doc["expected_records"]] if doc.get("expected_records") else doc["java_harness"]

    def reference_document(self, record: dict) -> dict:
        return dict(record, entry_point=entry_point(record["python"]))

    def build_job(self, reply: str, doc: dict, key: str, time_limit_ms: int) -> JavaJob | None:
        return function_job(reply, key, doc["entry_point"], doc["java_harness"], time_limit_ms)

    def prepare(self, items: list[tuple[str, dict]], judge, time_limit_ms: int) -> None:
        """The reference values of every harness not seen yet: its own f_gold, run once (documents
        whose values NewOutput recomputed need none)."""
        fetch_reference_values([doc["java_harness"] for _, doc in items if not doc.get("expected_records")], judge,
                               time_limit_ms)

    def prepare_published(self, docs: list[dict], judge, time_limit_ms: int) -> None:
        """The values each edited document's harness reports from its own f_gold, the published Java: the
        published program's answers on the calls the document is scored on."""
        fetch_reference_values([doc["java_harness"] for doc in docs], judge, time_limit_ms)

    def gives_published_answers(self, result: JobResult, doc: dict) -> bool:
        """The harness ran to its end and reported the published Java's values, as the harness compares them."""
        from dynbench_tasks.judge.pool import RETURNED

        published, run = reference_values(doc["java_harness"]), result.runs[0] if result.runs else None
        if published is None or run is None or run.outcome != RETURNED or len(run.records) != len(published):
            return False
        harness = judged_harness(doc["java_harness"])
        try:
            return all(judged_record(actual, wanted, harness.comparison, harness.threshold)
                       for actual, wanted in zip(run.records, published, strict=True))
        except (ValueError, OverflowError, ZeroDivisionError):
            return False

    def verdict(self, result: JobResult, doc: dict) -> str:
        harness = doc["java_harness"]
        reference = doc.get("expected_records") or reference_values(harness)
        return records_verdict(result, reference, judged_harness(harness))


TRANSCODER = TransCoder()
