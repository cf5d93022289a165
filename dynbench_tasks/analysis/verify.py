"""``dynbench verify``: check a submitted run without its model.

For every dynbench task in a run folder: the engine and the raw data must be the ones the run
records; its documents are rebuilt from the recorded provenance (seed, chain, options, scope, prompt,
ids) and must have the recorded digest; every logged sample's prompt must be the rebuilt one; every
logged generation is scored again (sandbox, Java judge) and must get the logged status; each
document's pass@1 and the task's aggregate must be what the files claim. A run made with ``--limit``
holds only some documents: it is verified as far as it goes and reported as partial.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

from dynbench_tasks.analysis.runs import TaskRun, load_runs
from dynbench_tasks.errors import DataError
from dynbench_tasks.scoring import PASSED, pass_at_k

VERIFIED, PARTIAL, FAILED, UNVERIFIABLE = "verified", "partial", "failed", "unverifiable"
_REBUILT_KEYS = ("seed", "chain", "options", "scope", "prompt", "ids", "repeats", "temperature", "timeout", "verify",
                 "data_source")


@dataclass
class TaskVerdict:
    task: str
    model: str
    outcome: str  # VERIFIED, PARTIAL (verified as far as the run goes), FAILED or UNVERIFIABLE
    documents: int = 0  # documents the run holds
    scored: int = 0  # documents the task scores
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        where = f"{self.task} ({self.model})"
        if self.outcome == VERIFIED:
            return f"{where}: verified ({self.documents} of {self.scored} documents)"
        if self.outcome == PARTIAL:
            return f"{where}: partial: {self.documents} of {self.scored} documents, all verified"
        if self.outcome == UNVERIFIABLE:
            return f"{where}: cannot be verified: {'; '.join(self.problems)}"
        shown = "; ".join(self.problems[:10]) + (f"; and {len(self.problems) - 10} more" if len(self.problems) > 10
                                                  else "")
        return f"{where}: FAILED: {len(self.problems)} mismatch(es): {shown}"


def _statuses(sample: dict) -> list[str]:
    return [json.loads(item)["status"] for item in (sample.get("filtered_resps") or [[]])[0]]


def _recorded_settings(provenance: dict, data_dir: str | None) -> dict:
    """The task settings the run recorded. The data: ``data_dir`` if given, else the folder the run
    read if it is here, else the bundled copy (whichever it is, its digest must be the recorded one)."""
    from pathlib import Path

    metadata = {key: provenance[key] for key in _REBUILT_KEYS if provenance.get(key) is not None}
    origin = (provenance.get("data") or {}).get("origin")
    if data_dir:
        metadata["data_dir"] = data_dir
    elif origin not in (None, "bundled") and not str(origin).startswith("hub:") and Path(origin).is_dir():
        metadata["data_dir"] = origin
    return metadata


def _rebuild(run: TaskRun, provenance: dict, data_dir: str | None):
    from dynbench_tasks.lmeval import task_manager

    return task_manager(_recorded_settings(provenance, data_dir)).load([run.task])["tasks"][run.task]


def _check_provenance(provenance: dict, task) -> list[str]:
    from mutators import ENGINE_VERSION

    problems = []
    if provenance.get("engine_version") != ENGINE_VERSION:
        problems.append(f"engine version differs (run {provenance.get('engine_version')}, here {ENGINE_VERSION})")
    rebuilt = task.config.metadata["dynbench"]
    recorded_data = (provenance.get("data") or {}).get("sha256")
    if recorded_data != rebuilt["data"]["sha256"]:
        problems.append(f"data digest differs (run {str(recorded_data)[:12]}, here {rebuilt['data']['sha256'][:12]})")
    elif provenance.get("documents_sha256") != rebuilt.get("documents_sha256"):
        problems.append("the documents differ from the ones the recorded seed, chain and data give")
    return problems


def _prompts(task) -> dict[int, str]:
    task.build_all_requests(limit=None)
    return {instance.doc_id: instance.arguments[0] for instance in task.instances}


def verify_task(run: TaskRun, data_dir: str | None = None) -> TaskVerdict:
    from dynbench_tasks.benchmarks import BENCHMARKS

    provenance = run.metadata.get("dynbench") or {}
    verdict = TaskVerdict(run.task, run.model, FAILED, len(run.samples), run.counts.get("scored", 0))
    if not run.samples:
        verdict.outcome = UNVERIFIABLE
        verdict.problems.append("the run logged no samples (run lm_eval with --log_samples)")
        return verdict
    if not provenance.get("engine_version"):
        verdict.outcome = UNVERIFIABLE
        verdict.problems.append("the results carry no dynbench provenance")
        return verdict
    try:
        task = _rebuild(run, provenance, data_dir)
    except Exception as error:  # noqa: BLE001 - any failure to rebuild is this task's verdict
        verdict.problems.append(f"its documents could not be rebuilt ({type(error).__name__}: {error})")
        return verdict
    verdict.problems += _check_provenance(provenance, task)
    if verdict.problems:
        return verdict
    documents = list(task.test_docs())
    prompts = _prompts(task)
    spec = BENCHMARKS[run.benchmark]
    if run.documents_claimed is not None and run.documents_claimed != len(run.samples):
        verdict.problems.append(f"the results claim {run.documents_claimed} documents, the samples hold "
                                f"{len(run.samples)}")
    logged, docs, generations, seen = [], [], [], set()
    for sample in run.samples:
        index, identifier = sample.get("doc_id"), str((sample.get("doc") or {}).get("id"))
        if not isinstance(index, int) or not 0 <= index < len(documents) or str(documents[index]["id"]) != identifier:
            verdict.problems.append(f"{identifier}: not a document of this task")
            continue
        if index in seen:
            verdict.problems.append(f"{identifier}: logged more than once")
            continue
        seen.add(index)
        prompt = ((sample.get("arguments") or {}).get("gen_args_0") or {}).get("arg_0")
        if prompt != prompts.get(index):
            verdict.problems.append(f"{identifier}: prompt differs from the rebuilt one")
        logged.append(sample)
        docs.append(documents[index])
        generations.append([str(g) for g in (sample.get("resps") or [[]])[0]])
    rescored = spec.score(generations, docs, task.settings) if docs else []
    pass_at_1 = []
    for sample, doc, row in zip(logged, docs, rescored, strict=True):
        statuses = [json.loads(item)["status"] for item in row]
        if statuses != _statuses(sample):
            verdict.problems.append(f"{doc['id']}: answers score {statuses} here, {_statuses(sample)} in the run")
        score = pass_at_k(len(statuses), statuses.count(PASSED), 1)
        pass_at_1.append(score)
        if not math.isclose(float(sample.get("pass@1", -1)), score, abs_tol=1e-9):
            verdict.problems.append(f"{doc['id']}: pass@1 {sample.get('pass@1')} claimed, {score:g} earned")
    if pass_at_1 and run.pass_at_1 is not None and not math.isclose(sum(pass_at_1) / len(pass_at_1), run.pass_at_1,
                                                                    abs_tol=1e-9):
        verdict.problems.append(f"the task's pass@1 {run.pass_at_1:g} claimed, {sum(pass_at_1) / len(pass_at_1):g} "
                                "earned by its samples")
    if not verdict.problems:
        verdict.outcome = VERIFIED if verdict.documents >= verdict.scored else PARTIAL
    return verdict


def verify_runs(folders: list[str], data_dir: str | None = None) -> list[TaskVerdict]:
    runs = load_runs(folders)
    if not runs:
        raise DataError("no dynbench task results in " + ", ".join(folders))
    return [verify_task(run, data_dir) for run in runs]
