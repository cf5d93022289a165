"""CRUXEval output prediction scored by execution, as dynbench's tasks score it.

``predictions``: for each problem, the model's generations (completions of ``assert f(<input>) ==``,
or replies with ``[ANSWER]`` tags with ``prompt="harness"``). ``references``: each problem's expected
output as the benchmark spells it (a Python literal). ``inputs``: each problem's input as the prompt
showed it (what follows ``f(``; a document's ``input``): an answer that states a whole assertion must
assert about that call, ``f(<input>)``. Returns pass@k (unbiased, for each ``k``, as a fraction) and
``statuses``: each sample's status (passed, wrong, empty, unparseable, wrong_call, calls_f,
not_a_value, error, timeout). Answers run in dynbench's sandbox and their values are compared outside it.
"""

import json

import datasets
import evaluate

from dynbench_tasks.benchmarks.cruxeval import score_generations
from dynbench_tasks.scoring import PASSED, pass_at_k


class CruxevalExecution(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=__doc__,
            citation="CRUXEval (Gu et al., 2024); dynamic benchmarking (arXiv:2503.06643)",
            inputs_description="predictions: list of lists of generations; references: list of expected outputs; "
                               "inputs: list of the inputs the prompts showed",
            features=datasets.Features({"predictions": datasets.Sequence(datasets.Value("string")),
                                        "references": datasets.Value("string"),
                                        "inputs": datasets.Value("string")}),
        )

    def _compute(self, predictions, references, inputs, prompt="paper", timeout=3.0, k=(1, 5)):
        scored = score_generations(predictions, references, inputs, prompt, timeout, "cruxeval_execution")
        statuses = [[json.loads(sample)["status"] for sample in row] for row in scored]
        result = {f"pass@{size}": sum(pass_at_k(len(row), row.count(PASSED), size) for row in statuses)
                  / max(1, len(statuses)) for size in k}
        result["statuses"] = statuses
        return result
