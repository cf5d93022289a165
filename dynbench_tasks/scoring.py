"""From sample statuses to the metrics every dynbench task reports: pass@1 and pass@5 with the
unbiased estimator (Chen et al., 2021). Scorers leave one JSON object per sample, with its status,
in lm-eval's filtered responses; this turns a document's samples into its metrics."""

from __future__ import annotations

import json
from math import comb
from typing import Any

PASSED = "passed"
# The version of the rules that decide whether an answer passes (how outputs are compared, what a
# crash counts as), recorded in every result: runs judged under other rules are not comparable.
# 1: engine 0.4.2 and before (no record); 2: docs/judging.md (a Java run that throws or exits non-zero
# fails whatever it printed, Avatar's single numbers compared as decimals, TransCoder's tolerance keeps
# the sign, an exit by any route judged as an exit); 3: CRUXEval's answer read wherever a chat or
# reasoning model states it (reasoning blocks set aside, [ANSWER] tags under any prompt, fences, assert
# lines, a sentence that names it), two different answers in one reply failing as ``ambiguous``.
JUDGING_RULES = 3
FINAL_ANSWER_RULES = 3  # the first rules that read CRUXEval answers with dynbench_tasks.benchmarks.final_answer
# The rules a run may have been judged under and still be judged again as it was (dynbench verify).
REJUDGED_RULES = (2, 3)
# Per sample, on documents whose answer changed: it wrote the published answer (stale), or the output
# of the same program on another small change of the shown input (decoy, the control); docs/detect.md.
RECITATION_METRICS = ("stale", "decoy")


def recitation_metric_list(recitation: tuple[str, ...] = RECITATION_METRICS) -> list[dict[str, Any]]:
    """lm-eval's metric_list of a task with new answers: pass@1 and pass@5, then the share of samples
    that wrote the published answer and the decoy (``recitation``: those of them the task checks)."""
    return [*({"metric": name, "aggregation": "mean", "higher_is_better": True} for name in ("pass@1", "pass@5")),
            *({"metric": name, "aggregation": "mean", "higher_is_better": False} for name in recitation)]


def pass_at_k(n: int, c: int, k: int) -> float:
    """Probability that at least one of ``k`` samples drawn from ``n`` (``c`` correct) passes.

    With fewer than ``k`` samples the estimate is pass@n.
    """
    if n <= 0:
        return 0.0
    k = min(k, n)
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def process_results(doc: dict, results: list[list[str]]) -> dict[str, float]:
    """lm-eval's per-document hook: pass@1 and pass@5 from the scored samples; and where the samples
    were checked against the published answer (``stale``) and its control (``decoy``), the share of
    samples that wrote each (a document without them leaves those metrics out)."""
    samples = [json.loads(sample) for sample in results[0]]
    passed = sum(sample["status"] == PASSED for sample in samples)
    metrics = {"pass@1": pass_at_k(len(samples), passed, 1), "pass@5": pass_at_k(len(samples), passed, 5)}
    for name in RECITATION_METRICS:
        if samples and all(name in sample for sample in samples):
            metrics[name] = sum(sample[name] is True for sample in samples) / len(samples)
    return metrics
