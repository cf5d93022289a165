"""The preprocessing hook: turn a benchmark split into the documents of one dynamic task.

Every program is mutated by the task's chain under its seed and, unless ``verify`` is off, checked
against the original in the sandbox; the mutated tasks of a run that share a benchmark and a seed
are built together, when the first of them is asked for its documents. The result is memoised per
process and cached by ``datasets`` under a fingerprint of engine version, chain, seed, options and
the raw data, so a warm run skips the work and a change to any of them can never be served stale
mutants.
"""

from __future__ import annotations

import logging
from collections import Counter

import datasets

from dynbench_tasks.benchmarks import BENCHMARKS
from dynbench_tasks.errors import SettingsError
from dynbench_tasks.lmeval.build_progress import BuildProgress
from dynbench_tasks.lmeval.counts import NEW_ANSWER, NOT_JUDGEABLE, SCORED, STATIC_STATUS, UNVERIFIED
from dynbench_tasks.lmeval.settings import TaskSettings, check_ids
from dynbench_tasks.mutation import mutate_programs
from dynbench_tasks.runtime import shared_sandbox
from mutators import ENGINE_VERSION, MUTATED, STATUSES
from mutators.chain import parse_chain
from mutators.engine import MutationResult, mutate

logger = logging.getLogger("lm_eval.dynbench")
_prepared: dict[tuple[str, str], tuple[datasets.Dataset, dict]] = {}


def _records(batch: dict[str, list]) -> list[dict]:
    columns = list(batch)
    return [dict(zip(columns, values, strict=True)) for values in zip(*batch.values(), strict=True)]


def _family(settings: TaskSettings, source: str) -> tuple:
    """What the tasks whose documents are built together share: the programs and the seed."""
    return settings.benchmark, source, settings.seed, settings.verify


# Mutated tasks made in this process and not yet built, by family, then by fingerprint: the first of
# a family to be built builds them all (every chain's mutants of a program checked in one child).
_expected: dict[tuple, dict[str, TaskSettings]] = {}
_built: dict[str, list[MutationResult]] = {}


def expect(settings: TaskSettings, source: str) -> None:
    """Say, as a task is made, that its documents will be asked for (lm-eval makes every task of a
    run before it builds any)."""
    if settings.chain is not None:
        _expected.setdefault(_family(settings, source), {})[settings.fingerprint(source)] = settings


def _mutated(programs: list, settings: TaskSettings, label: str, source: str) -> list[MutationResult]:
    fingerprint = settings.fingerprint(source)
    if fingerprint not in _built:
        family = _expected.get(_family(settings, source), {})
        together = {fingerprint: settings, **{k: v for k, v in family.items() if k not in _built}}
        chains = [parse_chain(s.chain, dict(s.options)) for s in together.values()]
        if len(together) > 1:
            label = f"{label} and {len(together) - 1} more"
        kind = "|".join([settings.benchmark, ENGINE_VERSION, str(len(programs)),
                         *sorted(other.chain for other in together.values())])
        with BuildProgress(label, len(programs) * len(chains), kind=kind) as progress:
            per_chain = mutate_programs(programs, chains, settings.seed, label=label, verify=settings.verify,
                                        sandbox=progress.sandboxes(shared_sandbox),
                                        mutate_one=progress.rewriting(mutate))
        _built.update(zip(together, per_chain, strict=True))
    return _built[fingerprint]


def _forget(settings: TaskSettings, source: str) -> None:
    fingerprint = settings.fingerprint(source)
    _expected.get(_family(settings, source), {}).pop(fingerprint, None)
    _built.pop(fingerprint, None)


def _mutate_batch(batch: dict[str, list], settings: TaskSettings, label: str, source: str) -> dict[str, list]:
    """Columns of the documents: the program (and CRUXEval input) as shown to the model, the
    originals beside them, and the mutation record."""
    records = _records(batch)
    spec = BENCHMARKS[settings.benchmark]
    programs = [spec.program(record) for record in records]
    if settings.chain is None:
        results = [
            MutationResult(code=p.code, status=STATIC_STATUS, reason="", chain="", seed=settings.seed) for p in programs
        ]
    else:
        results = _mutated(programs, settings, label, source)
    field = spec.code_field
    return {
        field: [r.code if r.status == MUTATED else p.code for p, r in zip(programs, results, strict=True)],
        f"original_{field}": [p.code for p in programs],
        "mutation": [r.record() for r in results],
        **spec.document_columns(records, results),
    }


def _why_empty(settings: TaskSettings) -> str:
    if settings.chain is not None and settings.scope == "mutated":
        what = "gives none of the chosen problems a new answer" if settings.changes_answers else \
            "changes none of the chosen programs"
        return f"chain {settings.chain} {what}; --metadata '{{\"scope\": \"all\"}}' scores unchanged ones too"
    return "none of the chosen problems can be judged"


def _answered(settings: TaskSettings):
    """Whether a document counts as changed: for an answer-changing chain, its answer (the output, or
    for input prediction the input) is not the published one any more; else its program changed."""
    if not settings.changes_answers:
        return lambda doc: doc["mutation"]["status"] == MUTATED
    direction = "input" if BENCHMARKS[settings.benchmark].answer_is_input else "output"
    return lambda doc: doc["mutation"]["status"] == MUTATED and direction in doc["mutation"]["changed_answers"]


def prepare_documents(dataset: datasets.Dataset, settings: TaskSettings, label: str,
                      source: str) -> tuple[datasets.Dataset, dict]:
    """(documents to score, counts by status) for one task; computed once per process. ``source``
    identifies the raw data (the sha256 of its file)."""
    fingerprint = settings.fingerprint(source)
    key = (fingerprint, settings.scope, settings.ids)
    if key not in _prepared:
        spec = BENCHMARKS[settings.benchmark]
        judgeable = dataset.filter(spec.judgeable, new_fingerprint=fingerprint + "j", desc=f"{label}: judgeable")
        mutated = judgeable.map(
            _mutate_batch,
            batched=True,
            batch_size=None,
            fn_kwargs={"settings": settings, "label": label, "source": source},
            new_fingerprint=fingerprint,
            desc=f"{label}: building documents",
        )
        _forget(settings, source)  # built now, or served from the datasets cache
        statuses = Counter(record["status"] for record in mutated["mutation"])
        counts = {status: statuses.get(status, 0) for status in (STATIC_STATUS, *STATUSES) if statuses.get(status)}
        if settings.chain is None:
            counts = {STATIC_STATUS: len(mutated)}
        if len(judgeable) < len(dataset):
            counts[NOT_JUDGEABLE] = len(dataset) - len(judgeable)
        if settings.chain is not None and settings.verify:
            counts[UNVERIFIED] = sum(r["status"] == MUTATED and not r["verified_inputs"] for r in mutated["mutation"])
        changed = _answered(settings)
        if settings.changes_answers:
            counts[NEW_ANSWER] = sum(map(changed, mutated))
        scored = mutated
        if settings.chain is not None and settings.scope == "mutated":
            scored = mutated.filter(changed, new_fingerprint=fingerprint + "m")
        if settings.ids:
            check_ids(settings.benchmark, settings.ids, dataset["id"])
            wanted = set(settings.ids)
            scored = scored.filter(lambda doc: str(doc["id"]) in wanted, keep_in_memory=True)
        if len(scored) == 0:
            raise SettingsError(f"{label}: no documents left to score ({_why_empty(settings)})")
        counts[SCORED] = len(scored)
        logger.info(
            "%s: chain %s, seed %s, engine %s; %s (scope=%s)",
            label, settings.chain or "none (static)", settings.seed if settings.chain else "-", ENGINE_VERSION,
            ", ".join(f"{n} {status}" for status, n in counts.items()), settings.scope,
        )
        _prepared[key] = (scored, counts)
    return _prepared[key]
