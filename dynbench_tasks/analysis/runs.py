"""Read lm-eval output folders: one ``TaskRun`` per model and dynbench task, with per-document
scores when lm-eval logged samples (``--log_samples``)."""

from __future__ import annotations

import io
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from dynbench_tasks.analysis.submitted import (
    MAX_SAMPLE_BYTES,
    MAX_SAMPLES_BYTES,
    open_regular_file,
    parse_json,
    read_json_file,
)
from dynbench_tasks.analysis.text import one_line
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
    samples_file: str = ""  # the logged samples lm-eval wrote beside ``source``, where there are any
    seeds: list[int] = field(default_factory=list)  # more than one: pooled over runs with these seeds
    spread: float | None = None  # pooled: the standard deviation of pass@1 over the seeds
    documents_claimed: int | None = None  # lm-eval's count of the documents it scored
    generation: dict = field(default_factory=dict)  # lm-eval's generation_kwargs as it ran the task
    superseded: list[str] = field(default_factory=list)  # results files of the same model, task and seed it replaced
    submission: str = ""  # the RUN_DIR it was submitted in
    submitted_model: str = ""  # the name the run came with; ``model`` adds its RUN_DIR where another RUN_DIR's runs
    # carry that name too (shared_name_lines)

    @property
    def provenance(self) -> dict:
        """What dynbench recorded with the run (``metadata.dynbench``); {} where that is no object."""
        return _object(self.metadata.get("dynbench"))

    @property
    def counts(self) -> dict:
        return _object(self.provenance.get("counts"))

    @property
    def seed(self) -> int | None:
        """The recorded seed; None when there is none, or it is not a whole number (no run makes one)."""
        seed = self.provenance.get("seed")
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


_UNSEEN_SPACE = re.compile(r"^ | $|(?<= ) | (?= )|[^\S ]")


def _model_name(results: dict, folder: Path) -> str:
    """The model's identity: lm-eval's whole model name (never a part of it: ``evilorg/victim`` is not
    ``victimorg/victim``), with the revision where the model arguments name one."""
    config = _object(results.get("config"))
    name = results.get("model_name") or config.get("model_args") or folder.name
    revision = _revision(config.get("model_args"))
    # A hub's model names are ASCII: a letter from another script that looks like a Latin one shows escaped,
    # and so does a space no one sees (at an end, beside another, a tab), which tables trim or collapse
    ascii_name = (f"{name}@{revision}" if revision else str(name)).encode("ascii", "backslashreplace").decode()
    return _UNSEEN_SPACE.sub(lambda space: f"\\x{ord(space.group()):02x}", ascii_name)


def _revision(model_args: object) -> str | None:
    """The ``revision=`` of lm-eval's model arguments (a string ``key=value,…`` or an object)."""
    if isinstance(model_args, dict):
        revision = model_args.get("revision")
    elif isinstance(model_args, str):
        pairs = (item.split("=", 1) for item in model_args.split(",") if "=" in item)
        revision = next((value.strip() for key, value in pairs if key.strip() == "revision"), None)
    else:
        revision = None
    return str(revision) if revision not in (None, "") else None


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


def _read_samples(path: Path, within: str) -> list:
    """The logged samples, one per line, read within ``submitted``'s bounds from a regular file in the
    submission folder ``within`` (a link, a file or a line past them is a ``DataError``); a line that is
    not JSON, or nests too deep, is kept as its text for ``dynbench verify`` to name."""
    try:
        opened = open_regular_file(path, within)
    except OSError as error:
        raise DataError(f"{one_line(path)}: not lm-eval's samples ({error.strerror or type(error).__name__})") from None
    if os.fstat(opened.fileno()).st_size > MAX_SAMPLES_BYTES:
        opened.close()
        raise DataError(f"{one_line(path)}: larger than {MAX_SAMPLES_BYTES // 1024 ** 3} GiB, not lm-eval's samples")
    samples = []
    with io.TextIOWrapper(opened, encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(iter(lambda: handle.readline(MAX_SAMPLE_BYTES + 1), ""), 1):
            if len(line) > MAX_SAMPLE_BYTES:
                raise DataError(f"{one_line(path)}: line {number} is longer than {MAX_SAMPLE_BYTES // 1024 ** 2} MiB, "
                                "not a sample lm-eval logs")
            if line.strip():
                try:
                    samples.append(parse_json(line))
                except ValueError:
                    samples.append(line)
    return samples


def _document_scores(samples: list) -> dict[str, float]:
    """Each logged document's pass@1 (benchmark id -> score), from the samples that state one as
    lm-eval writes it, a number from 0 to 1; any other sample is for ``dynbench verify`` to name."""
    scores = {}
    for sample in samples:
        doc, value = _object(sample).get("doc"), _fraction(_object(sample).get("pass@1"))
        key = doc.get("id") if isinstance(doc, dict) else None
        if isinstance(key, (str, int)) and not isinstance(key, bool) and value is not None:
            scores[str(key)] = value
    return scores


def load_runs(folders: list[str], names: list[str] | None = None, keep_all: bool = False) -> list[TaskRun]:
    """Every dynbench task result under ``folders`` (searched recursively), and lm-eval's own
    ``cruxeval_output``/``cruxeval_input`` results as variant ``builtin``. ``names`` optionally gives
    each folder's model a display name; otherwise lm-eval's whole model name is used, with the folder
    added where runs of several folders carry one name (:func:`_label_shared_names`). When a model ran
    a task several times with one seed in one folder (or under one ``names`` name), the latest result
    (by lm-eval's time stamp, then path) is kept and lists the others in ``superseded``; ``keep_all``
    keeps every one. Runs with other seeds are kept. A results or samples file that cannot be read (a
    link, no regular file, one outside its folder, past a bound) is a ``DataError`` with one line per such file."""
    found: list[tuple[str, TaskRun]] = []
    unreadable = []
    for position, folder in enumerate(folders):
        root = Path(folder)
        if not root.exists():
            raise DataError(f"{one_line(folder)}: no such folder")
        paths = sorted(root.rglob("results_*.json"), key=lambda p: p.name)
        if not paths:
            raise DataError(f"{one_line(folder)}: no lm-eval results_*.json inside")
        for path in paths:
            try:
                results = read_json_file(path, "an lm-eval results file", within=folder)
                if not isinstance(results, dict):
                    raise DataError(f"{path}: not an lm-eval results file (no JSON object)")
                model = names[position] if names and position < len(names) else _model_name(results, path.parent)
                for run in _task_runs(results, path, model, folder):
                    run.submission, run.submitted_model = folder, model
                    found.append((path.stem.removeprefix("results_"), run))
            except DataError as error:
                unreadable.append(one_line(error))
            except OSError as error:
                unreadable.append(one_line(f"{path}: cannot be read ({type(error).__name__})"))
    if unreadable:
        raise DataError("\n".join(unreadable) if len(unreadable) == 1 else
                        f"{len(unreadable)} submitted files cannot be read:\n" + "\n".join(unreadable))
    if not names:
        _label_shared_names([run for _, run in found])
    if keep_all:
        return [run for _, run in found]
    latest: dict[tuple[str, str, object], tuple[str, TaskRun]] = {}
    for stamp, run in sorted(found, key=lambda item: (item[0], item[1].source)):
        # A maintainer's name (--names) is the identity, whichever folder holds the run; without one, a
        # folder's runs never replace another's (their models are labelled apart).
        key = (run.model, run.task, run.seed, None if names else run.submission)
        if key in latest:
            run.superseded = [*latest[key][1].superseded, latest[key][1].source]
        latest[key] = (stamp, run)
    kept = {id(run) for _, run in latest.values()}
    return [run for _, run in found if id(run) in kept]


SHARED_NAME = "{model} (in {folder})"  # a model name that runs of several RUN_DIRs carry, as each one's row shows it
_LABEL_LIKE = re.compile(r"\(in\b")


def _label_shared_names(runs: list[TaskRun]) -> None:
    """A row, a verdict and a score test are one submitter's: where runs of different folders carry one
    model name, each run's model becomes SHARED_NAME, so that nothing keyed by model pools them, and a name
    someone else submitted can neither take a submitter's rank nor frame it. Only ``--names`` pools runs
    of several folders. A submitted name that reads like a label is labelled with its own folder, and
    labelling is repeated until no label is shared."""
    for run in runs:
        if _LABEL_LIKE.search(run.model):
            run.model = SHARED_NAME.format(model=run.model, folder=run.submission)
    while True:
        folders: dict[str, set[str]] = {}
        for run in runs:
            folders.setdefault(run.model, set()).add(run.submission)
        shared = {model for model, found in folders.items() if len(found) > 1}
        if not shared:
            return
        for run in runs:
            if run.model in shared:
                run.model = SHARED_NAME.format(model=run.model, folder=run.submission)


def shared_name_lines(runs: list[TaskRun]) -> list[str]:
    """One line for each model name that runs of several folders carry, naming the folders."""
    folders: dict[str, dict[str, str]] = {}
    for run in runs:
        if run.model != run.submitted_model:
            folders.setdefault(run.submitted_model, {})[run.submission] = run.model
    return [one_line(f"{name} is the model name of runs in {len(labels)} folders ({', '.join(labels)}): each "
                     "folder's runs are their own row and verdict, shown as "
                     f"{SHARED_NAME.format(model=name, folder='FOLDER')}; --names gives one submitter's folders one "
                     "name") for name, labels in sorted(folders.items())]


# ASCII letters that read as others (capital I, digit 1 and a bar as a small L; digit 0 as O), and pairs that read as
# one letter: two names alike after them, case aside, read as one name in a table
_READ_ALIKE = str.maketrans({"I": "l", "1": "l", "|": "l", "0": "o"})
_PAIRS_ALIKE = (("rn", "m"), ("vv", "w"))


def _as_read(name: str) -> str:
    read = name.translate(_READ_ALIKE).casefold()
    for pair, letter in _PAIRS_ALIKE:
        read = read.replace(pair, letter)
    return read


def look_alike_lines(runs: list[TaskRun]) -> list[str]:
    """One line for each set of model names, submitted from different folders, that differ only in letters that
    look alike or in case (``meta-IIama`` beside ``meta-llama``), and one for each set of row labels that do
    (``org/m (in subs/wiIliam)`` beside ``org/m (in subs/william)``: a folder named to read as another's): each
    is its own row, which a reader of the table could take for the other's."""
    submitted = {(run.submitted_model, run.submission) for run in runs}
    labelled = {(run.model, run.submission) for run in runs if run.model != run.submitted_model}
    return ([f"the model names {shown} look alike: each is its own row; check who submitted each"
             for shown in _alike(submitted, lambda name, where: f"{name} (in {', '.join(sorted(where))})")] +
            [f"the row labels {shown} look alike: each is its own submitter's row; check who submitted each"
             for shown in _alike(labelled, lambda label, _: label)])


def _alike(shown_in: set[tuple[str, str]], show) -> list[str]:
    """Each set of names (of (name, folder) pairs) from several folders that read as one, shown one line each."""
    names: dict[str, dict[str, set[str]]] = {}
    for name, folder in shown_in:
        names.setdefault(_as_read(name), {}).setdefault(name, set()).add(folder)
    return [one_line(" and ".join(show(name, where) for name, where in sorted(alike.items())))
            for _, alike in sorted(names.items()) if len(alike) > 1 and len(set().union(*alike.values())) > 1]


def _task_runs(results: dict, path: Path, model: str, folder: str) -> list[TaskRun]:
    """The dynbench tasks (and lm-eval's own comparable tasks) of one results file in the submission ``folder``."""
    stamp = path.stem.removeprefix("results_")
    runs = []
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
        if samples_file.exists() or samples_file.is_symlink():  # a FIFO or a device is named, not skipped
            run.samples_file = str(samples_file)
            run.samples = _read_samples(samples_file, folder)
            run.per_document = _document_scores(run.samples)
        runs.append(run)
    return runs


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
