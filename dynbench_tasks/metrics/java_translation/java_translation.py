"""Python→Java translations judged by compiling and running them, as dynbench's tasks judge them.

``predictions``: for each problem, the model's replies (Java, fenced or bare). ``references``: each
problem's id in ``benchmark`` (``avatar``, ``codenet`` or ``transcoder``), whose tests come from
dynbench's data (``data_dir``, else ``$DYNBENCH_DATA_DIR``, else the bundled copy). Returns pass@k
(unbiased, for each ``k``) and ``statuses``: each reply's status (passed, wrong_output,
runtime_error, compile_error, timeout, no_code, error). Needs a JDK.
"""

import datasets
import evaluate

from dynbench_tasks.benchmarks import BENCHMARKS, load_benchmark
from dynbench_tasks.errors import DataError
from dynbench_tasks.scoring import PASSED, pass_at_k


class JavaTranslation(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=__doc__,
            citation="Code Lingua (Pan et al., 2024); TransCoder (Roziere et al., 2020); arXiv:2503.06643",
            inputs_description="predictions: list of lists of replies; references: list of problem ids",
            features=datasets.Features({"predictions": datasets.Sequence(datasets.Value("string")),
                                        "references": datasets.Value("string")}),
        )

    def _compute(self, predictions, references, benchmark="transcoder", data_dir=None, timeout=10.0, k=(1, 5)):
        from dynbench_tasks.runtime import shared_java_judge

        spec = BENCHMARKS.get(benchmark)
        if spec is None or not spec.needs_jdk:
            raise DataError(f"benchmark must be one of avatar, codenet, transcoder, got {benchmark!r}")
        records = {str(r["id"]): r for r in load_benchmark(benchmark, data_dir)}
        unknown = [i for i in references if i not in records]
        if unknown:
            raise DataError(f"ids not in {benchmark}: {', '.join(unknown[:5])}")
        documents = [spec.reference_document(records[i]) for i in references]
        items = [(reply, doc) for replies, doc in zip(predictions, documents, strict=True) for reply in replies]
        flat = spec.judge_replies(items, shared_java_judge(), int(timeout * 1000))
        statuses, position = [], 0
        for replies in predictions:
            statuses.append(flat[position:position + len(replies)])
            position += len(replies)
        result = {f"pass@{size}": sum(pass_at_k(len(row), row.count(PASSED), size) for row in statuses)
                  / max(1, len(statuses)) for size in k}
        result["statuses"] = statuses
        return result
