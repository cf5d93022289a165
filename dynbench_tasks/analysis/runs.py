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
    generation: dict = field(default_factory=dict)  # lm-eval's generation_kwargs as it ran the task

    @property
    def counts(self) -> dict:
        return _object(_object(self.metadata.get("dynbench")).get("counts"))

    @property
    def seed(self) -> int | None:
        """The recorded seed; None when there is none, or it is not a whole number (no run makes one)."""
        seed = _object(self.metadata.get("dynbench")).get("seed")
        return seed if isinstance(seed, int) and not isinstance(seed, bool) else None

    @property
    def documents(self) -> int | None:
        """How many documents the run scored: its logged samples, else lm-eval's count."""
        return len(self.per_document) if self.per_document else self.documents_claimed

    @property
    def complete(self) -> bool:
        """Whether the run scored every document of its task (a ``--limit`` run did not)."""
        total, documents = self.counts.get("scored"), self.documents
        return type(total) is int and documents is not None and documents >= total


def _model_name(results: dict, folder: Path) -> str:
    name = results.get("model_name") or _object(results.get("config")).get("model_args") or folder.name
    return Path(str(name)).name or str(name)


def _fraction(value: object) -> float | None:
    """A pass@1 as lm-eval writes it, a number from 0 to 1; None for anything else."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1:
        return float(value)
    return None


def _pass_at_1(metrics: dict) -> float | None:
    for key, value in metrics.items():
        named = key.startswith("pass@1,") or key.startswith("pass_at_k,")  # ours, lm-eval's own cruxeval tasks
        if named and "_stderr" not in key:
            return _fraction(value)
    return None


def _object(value: object) -> dict:
    """``value`` when it is a JSON object, else an empty one: result files may be written by anyone."""
    return value if isinstance(value, dict) else {}


def _read_samples(path: Path) -> list:
    """The logged samples, one per line; a line that is not JSON is kept as its text, for ``dynbench
    verify`` to name."""
    samples = []
    with path.open(encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if line.strip():
                try:
                    samples.append(json.loads(line))
                except ValueError:
                    samples.append(line)
    return samples


def _document_scores(samples: list) -> dict[str, float]:
    """Each logged document's pass@1 (benchmark id -> score), from the samples that state one as
    lm-eval writes it, a number from 0 to 1; any other sample is for ``dynbench verify`` to name."""
    scores = {}
    for sample in samples:
        doc, value = _object(sample).get("doc"), _fraction(_object(sample).get("pass@1"))
        if isinstance(doc, dict) and value is not None:
            scores[str(doc.get("id"))] = value
    return scores


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
            try:
                results = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, ValueError) as error:
                raise DataError(f"{path}: not a readable lm-eval results file ({type(error).__name__})") from None
            if not isinstance(results, dict):
                raise DataError(f"{path}: not an lm-eval results file (no JSON object)")
            model = names[position] if names and position < len(names) else _model_name(results, path.parent)
            stamp = path.stem.removeprefix("results_")
            for task, metrics in _object(results.get("results")).items():
                match = _TASK.match(task)
                if match:
                    benchmark, variant = match.group(1), match.group(2)
                elif task in BUILTIN_TASKS:
                    benchmark, variant = BUILTIN_TASKS[task], BUILTIN
                else:
                    continue
                config = _object(_object(results.get("configs")).get(task))
                claimed = _object(_object(results.get("n-samples")).get(task)).get("effective")
                run = TaskRun(model, task, benchmark, variant, _pass_at_1(_object(metrics)),
                              _object(config.get("metadata")), source=str(path),
                              documents_claimed=claimed if type(claimed) is int else None,
                              generation=_object(config.get("generation_kwargs")))
                samples_file = path.parent / f"samples_{task}_{stamp}.jsonl"
                if samples_file.is_file():
                    run.samples = _read_samples(samples_file)
                    run.per_document = _document_scores(run.samples)
                runs[(model, task, run.seed)] = run
    return list(runs.values())


def pool_runs(runs: list[TaskRun]) -> list[TaskRun]:
    """One run per model and task: its scored runs with different seeds pooled on the documents all of
    them scored, so that a short run (``--limit``) never weighs some documents twice and others once:
    each document's pass@1 is its mean over the runs, and pass@1 the mean of the runs' pass@1 on those
    documents, with its standard deviation. Runs without logged samples (or sharing no document)
    pool their own figures."""
    import statistics

    groups: dict[tuple[str, str], list[TaskRun]] = {}
    for run in runs:
        groups.setdefault((run.model, run.task), []).append(run)
    pooled = []
    for group in groups.values():
        scored = [r for r in group if r.pass_at_1 is not None]
        if len(group) == 1 or not scored:
            pooled.append(group[0])
            continue
        first = scored[0]
        shared = sorted(set.intersection(*(set(r.per_document) for r in scored)))
        if shared:
            scores = [statistics.fmean(r.per_document[i] for i in shared) for r in scored]
            per_document = {i: statistics.fmean(r.per_document[i] for r in scored) for i in shared}
        else:
            scores, per_document = [r.pass_at_1 for r in scored], {}
        pooled.append(TaskRun(
            first.model, first.task, first.benchmark, first.variant, statistics.fmean(scores), first.metadata,
            per_document, [s for r in scored for s in r.samples], first.source, seeds=[r.seed for r in scored],
            spread=statistics.stdev(scores) if len(scores) > 1 else None))
    return pooled
