"""Read lm-eval output folders: one ``TaskRun`` per model and dynbench task, with per-document
scores when lm-eval logged samples (``--log_samples``)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from dynbench_tasks.benchmarks import BENCHMARKS
from dynbench_tasks.errors import DataError
from dynbench_tasks.variants import VARIANTS

_TASK = re.compile(rf"^({'|'.join(BENCHMARKS)})_({'|'.join(VARIANTS)})$")
# lm-eval's own tasks a dynbench task can be compared with: (benchmark, the variant name they take here)
BUILTIN = "builtin"
BUILTIN_TASKS = {"cruxeval_output": "cruxeval", "cruxeval_input": "cruxeval_input"}


@dataclass
class TaskRun:
    model: str
    task: str
    benchmark: str
    variant: str
    pass_at_1: float | None  # None when the task failed to produce a score
    metadata: dict
    per_document: dict[str, float] = field(default_factory=dict)  # benchmark id -> pass@1
    samples: list[dict] = field(default_factory=list)
    source: str = ""
    seeds: list[int] = field(default_factory=list)  # more than one: pooled over runs with these seeds
    spread: float | None = None  # pooled: the standard deviation of pass@1 over the seeds
    documents_claimed: int | None = None  # lm-eval's count of the documents it scored

    @property
    def counts(self) -> dict:
        return (self.metadata.get("dynbench") or {}).get("counts") or {}

    @property
    def seed(self) -> int | None:
        return (self.metadata.get("dynbench") or {}).get("seed")


def _model_name(results: dict, folder: Path) -> str:
    name = results.get("model_name") or (results.get("config") or {}).get("model_args") or folder.name
    return Path(str(name)).name or str(name)


def _pass_at_1(metrics: dict) -> float | None:
    for key, value in metrics.items():
        named = key.startswith("pass@1,") or key.startswith("pass_at_k,")  # ours, lm-eval's own cruxeval tasks
        if named and "_stderr" not in key and isinstance(value, (int, float)):
            return float(value)
    return None


def _read_samples(path: Path) -> list[dict]:
    samples = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                samples.append(json.loads(line))
    return samples


def load_runs(folders: list[str], names: list[str] | None = None) -> list[TaskRun]:
    """Every dynbench task result under ``folders`` (searched recursively), and lm-eval's own
    ``cruxeval_output``/``cruxeval_input`` results as variant ``builtin``. ``names`` optionally gives
    each folder's model a display name; otherwise lm-eval's model name is used. When a model ran a
    task several times with one seed, the latest result wins; runs with other seeds are kept."""
    runs: dict[tuple[str, str, object], TaskRun] = {}
    for position, folder in enumerate(folders):
        root = Path(folder)
        if not root.exists():
            raise DataError(f"{folder}: no such folder")
        found = sorted(root.rglob("results_*.json"), key=lambda p: p.name)
        if not found:
            raise DataError(f"{folder}: no lm-eval results_*.json inside")
        for path in found:
            results = json.loads(path.read_text(encoding="utf-8"))
            model = names[position] if names and position < len(names) else _model_name(results, path.parent)
            stamp = path.stem.removeprefix("results_")
            for task, metrics in (results.get("results") or {}).items():
                match = _TASK.match(task)
                if match:
                    benchmark, variant = match.group(1), match.group(2)
                elif task in BUILTIN_TASKS:
                    benchmark, variant = BUILTIN_TASKS[task], BUILTIN
                else:
                    continue
                run = TaskRun(model, task, benchmark, variant, _pass_at_1(metrics),
                              (results.get("configs") or {}).get(task, {}).get("metadata") or {}, source=str(path),
                              documents_claimed=((results.get("n-samples") or {}).get(task) or {}).get("effective"))
                samples_file = path.parent / f"samples_{task}_{stamp}.jsonl"
                if samples_file.is_file():
                    run.samples = _read_samples(samples_file)
                    run.per_document = {
                        str(s["doc"].get("id")): float(s.get("pass@1", 0.0)) for s in run.samples if "doc" in s
                    }
                runs[(model, task, run.seed)] = run
    return list(runs.values())


def pool_runs(runs: list[TaskRun]) -> list[TaskRun]:
    """One run per model and task: runs of it with different seeds pooled (pass@1 their mean, with
    its standard deviation; each document's pass@1 its mean over the runs that scored it)."""
    import statistics

    groups: dict[tuple[str, str], list[TaskRun]] = {}
    for run in runs:
        groups.setdefault((run.model, run.task), []).append(run)
    pooled = []
    for group in groups.values():
        first = group[0]
        if len(group) == 1:
            pooled.append(first)
            continue
        scores = [r.pass_at_1 for r in group if r.pass_at_1 is not None]
        per_document: dict[str, list[float]] = {}
        for run in group:
            for identifier, score in run.per_document.items():
                per_document.setdefault(identifier, []).append(score)
        pooled.append(TaskRun(
            first.model, first.task, first.benchmark, first.variant,
            statistics.fmean(scores) if scores else None, first.metadata,
            {identifier: statistics.fmean(values) for identifier, values in per_document.items()},
            [s for r in group for s in r.samples], first.source, seeds=[r.seed for r in group],
            spread=statistics.stdev(scores) if len(scores) > 1 else None))
    return pooled
