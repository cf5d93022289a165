"""``dynbench probe``: which problems does a model recall from their original text?

For each problem, the model's log-likelihood of the reference answer is taken twice through lm-eval
``loglikelihood`` requests (so any backend that supports them works): once after the original
program's prompt, once after the mutated program's. Problems are ranked by the gap; an answer the
model finds much likelier after the original text than after a behaviour-identical rewrite is one it
remembers rather than works out."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from dynbench_tasks.benchmarks.cruxeval import paper_prompt


@dataclass
class ProbeRow:
    id: str
    original: float  # log-likelihood of the answer after the original program
    mutated: float
    gap: float


def documents(variant: str, metadata: dict) -> tuple[list[dict], list[dict]]:
    """(original, mutated) CRUXEval documents of the problems the variant mutated, in the same order."""
    from dynbench_tasks.lmeval import task_manager

    tasks = task_manager(metadata).load(["cruxeval_orig", f"cruxeval_{variant}"])["tasks"]
    originals = {doc["id"]: doc for doc in tasks["cruxeval_orig"].test_docs()}
    mutated = list(tasks[f"cruxeval_{variant}"].test_docs())
    return [originals[doc["id"]] for doc in mutated], mutated


def probe(lm, originals: list[dict], mutated: list[dict]) -> list[ProbeRow]:
    """Rows ranked by gap, largest first."""
    from lm_eval.api.instance import Instance

    requests = []
    for index, (before, after) in enumerate(zip(originals, mutated, strict=True)):
        for doc in (before, after):
            requests.append(Instance(request_type="loglikelihood", doc=doc, idx=index,
                                     arguments=(paper_prompt(doc), f" {doc['output']}")))
    scores = [float(result[0]) for result in lm.loglikelihood(requests)]
    rows = [ProbeRow(doc["id"], scores[2 * i], scores[2 * i + 1], scores[2 * i] - scores[2 * i + 1])
            for i, doc in enumerate(originals)]
    return sorted(rows, key=lambda row: (-row.gap, row.id))


def separation(rows: list[ProbeRow], positives: set[str]) -> dict[str, float | None]:
    """How well the gap picks out ``positives`` (e.g. the problems a model was trained on): ROC AUC
    and precision among the top-k, k the number of positives."""
    from sklearn.metrics import roc_auc_score

    labels = [row.id in positives for row in rows]
    k = sum(labels)
    if k == 0 or k == len(rows):
        return {"auc": None, "precision_at_k": None, "k": k}
    auc = roc_auc_score(labels, [row.gap for row in rows])
    return {"auc": round(float(auc), 4), "precision_at_k": round(sum(labels[:k]) / k, 4), "k": k}


def write(rows: list[ProbeRow], path: Path) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for rank, row in enumerate(rows, 1):
            handle.write(json.dumps({"rank": rank, **row.__dict__}) + "\n")
