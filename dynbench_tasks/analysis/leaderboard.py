"""``dynbench leaderboard``: a static, offline site ranking models by their contamination-resistant score.

Per benchmark, one row per model: the headline, the mean pass@1 over the answer-changing variants its
runs hold (for each seed, then mean ± standard deviation over the seeds); beside it the static pass@1
(``orig``), robustness (the mean over the meaning-preserving variants) and the drop = static - headline
with a 95% percentile-bootstrap interval. Static, headline and drop are computed on one set of
documents, the ones all of the row's static and answer-changing runs scored, so they add up; runs of
different sizes are compared on the documents they share, marked and warned about. Outside a round,
lm-eval's own task (``cruxeval_output``/``cruxeval_input``, never verified) shows where a run holds it,
and each row says whether ``dynbench verify`` accepts its runs. A ``Round`` fixes everything that
decides the documents and their judging: seed, variant chains, scope, ids, options, prompt, timeout, repeats, generation
settings (temperature, max_gen_toks, …), engine version, judging-rule version and data digest; every
setting it does not name is dynbench's default, its data the bundled copy (or the maintainer's data
folder). It ranks only runs made with all of it that verify verifies in full (no partial run), and
may require greedy runs; every other row, and every row without a headline, is listed apart with the
reason in one line. A row is one submitter's: one RUN_DIR's runs (or, with ``--names``, the runs the
maintainer gave one name); where two RUN_DIRs hold one model name, whatever their seeds, each RUN_DIR's runs
are a row of their own, ranked as any other and shown as the name and the folder (``runs.SHARED_NAME``),
never pooled; one warning line names the folders. Models tied on the headline share a rank. A model is its whole name
(``evilorg/m`` is not ``victimorg/m``).
``index.html`` is self-contained (its columns sort with a few lines of plain script); the same
rows are written as ``leaderboard.json``, ``.csv`` and ``.md``, each escaped for its format: model
names come from submitted files and are hostile.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import json
import math
import re
import statistics
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

from dynbench_tasks.analysis.comparisons import headline_figures, robustness
from dynbench_tasks.analysis.runs import BUILTIN, TaskRun
from dynbench_tasks.analysis.text import csv_cell, html_text, markdown_cell, one_line
from dynbench_tasks.analysis.verify import FAILED, PARTIAL, UNVERIFIABLE, VERIFIED, TaskVerdict, is_greedy
from dynbench_tasks.benchmarks import BENCHMARKS
from dynbench_tasks.errors import DataError, DynbenchError
from dynbench_tasks.variants import ANSWER_CHANGING, COPYABLE_ANSWER_CHANGES, MEANING_PRESERVING, STATIC, VARIANTS

HEADLINE = "contamination-resistant score"
WHY_HEADLINE = (
    "Why this headline: a model that has memorised a published benchmark still passes its meaning-preserving "
    "rewrites (varnorm1 … afu), because their answers are the published ones. On the answer-changing variants "
    f"({', '.join(ANSWER_CHANGING)}) every scored problem has a new answer, so memorising the published one earns "
    "nothing. The contamination-resistant score is therefore the mean pass@1 over the answer-changing variants a "
    f"model's runs hold; on translation not {', '.join(COPYABLE_ANSWER_CHANGES)}, because a model that memorised "
    "the published Java copies a lone changed literal into it. Static (orig) and robustness (the mean over the "
    "meaning-preserving variants) stand beside it, and drop = static - headline, in points: positive means the "
    "model scores lower once the answers are new.")
DOCUMENTS_NOTE = (
    "Static, headline and drop on a row are computed on the same documents, those all its static and "
    "answer-changing runs scored (column 'documents'), so static - headline = drop; the interval is a 95% "
    "percentile bootstrap over those documents. Runs of different sizes (⚠, e.g. one made with --limit) are "
    "compared on the documents they share. One submission's runs with several seeds are pooled: each seed's "
    "headline, then mean ± sd over the seeds; runs of one model name from different submissions never are.")
HARNESS_NOTE = ("lm-eval's own task, scored by its own executor: it strips quotes from answers (so every "
                "string-valued answer fails), cuts answers at '#', accepts an answer that merely echoes the call, "
                "and runs answers beside the reference in one process; dynbench's orig scores the same problems "
                "as docs/judging.md describes.")
WARNING_MARK = "⚠"


@dataclass
class Row:
    benchmark: str
    model: str
    headline: float | None  # the contamination-resistant score: pass@1 in points, on `documents`
    headline_sd: float | None  # over the seeds
    headline_variants: list[str]  # the answer-changing variants it averages
    seeds: list[int]
    static: float | None  # orig, on `documents`
    drop: float | None  # static - headline, points, on `documents`: positive = lower with new answers
    drop_low: float | None  # its 95% bootstrap interval over `documents`
    drop_high: float | None
    robustness: float | None  # mean over the meaning-preserving variants, on the documents orig scored
    robustness_variants: list[str]
    documents: int | None  # the documents static, headline and drop share; None: no samples logged
    run_sizes: str  # when the runs differ in size, each size with its runs; else empty
    harness: float | None  # lm-eval's own task
    verification: str
    greedy: bool  # every answer generated at temperature 0
    view: str | None  # page of this row's samples, relative to the site
    rank: int | None = None  # None: not ranked, for the reason in `not_ranked`
    not_ranked: str = ""
    recitation: str | None = None  # the recitation verdict of the row's verified runs (see Recitation)
    recitation_p: float | None = None
    recitation_detail: str = ""
    recited: bool = False  # the verdict says it recites


@dataclass(frozen=True)
class Recitation:
    """A row's recitation verdict, as ``dynbench detect`` gives it, computed where answers are judged
    (this module judges none) from the row's runs that verify verified in full."""

    verdict: str | None  # None: nothing to judge, for the reason in `detail`
    p_value: float | None
    detail: str
    recited: bool


@dataclass
class Submission:
    """What one row is computed from: a model's runs of a benchmark (one round's, or the others)."""

    benchmark: str
    model: str
    runs: list[TaskRun]  # dynbench's tasks and lm-eval's own
    not_ranked: str = ""  # why the round lists it apart, whatever its scores


@dataclass(frozen=True)
class Round:
    """What a round fixes. ``metadata``: its task settings, as ``lm_eval --metadata`` takes them (JSON
    text; every setting left out is dynbench's default); ``data_dir``: the maintainer's data folder
    (None: ``$DYNBENCH_DATA_DIR``, else the bundled copy). A round requiring greedy runs fixes
    temperature 0 unless its metadata names a temperature."""

    seed: int | None = None
    metadata: str = "{}"
    require_greedy: bool = False
    data_dir: str | None = None

    @property
    def fixed(self) -> bool:
        """Whether this is a round at all (a seed); without one, runs are compared as they are."""
        return self.seed is not None


# Provenance settings a round fixes, as `metadata.dynbench` records them, with the name a reason gives each.
_FIXED_SETTINGS = {"chain": "variant chain", "options": "options", "scope": "scope", "ids": "ids", "prompt": "prompt",
                   "timeout": "timeout", "verify": "equivalence check", "repeats": "repeats",
                   "temperature": "temperature", "engine_version": "engine version", "judging_rules": "judging rules"}


@cache
def _reference(task: str, metadata: str, require_greedy: bool, data_dir: str | None) -> tuple[dict, dict]:
    """(provenance, generation_kwargs) a run of ``task`` records when made with the round's settings,
    read from the task's YAML and dynbench's defaults without building any document."""
    from lm_eval.tasks._yaml_loader import load_yaml

    from dynbench_tasks.benchmarks.records import read_data_file
    from dynbench_tasks.lmeval.environment import task_directory
    from dynbench_tasks.lmeval.settings import settings_from_metadata
    from dynbench_tasks.lmeval.task import settled_sampling
    from dynbench_tasks.scoring import JUDGING_RULES
    from mutators import ENGINE_VERSION

    found = next(Path(task_directory()).rglob(f"{task}.yaml"), None)
    if found is None:
        raise DataError(f"dynbench has no task {task}")
    config = load_yaml(found, resolve_func=False)
    chosen = json.loads(metadata)
    if require_greedy:
        chosen.setdefault("temperature", 0)
    settings = settings_from_metadata({**config.get("metadata", {}), **chosen})
    generation = dict(config.get("generation_kwargs") or {})
    prompt = BENCHMARKS[settings.benchmark].task_config(settings)  # a prompt may take more tokens (chat, cot)
    generation.update({key: prompt[key] for key in ("max_gen_toks",) if key in prompt})
    if settings.temperature is not None:
        generation.update(temperature=settings.temperature, do_sample=settings.temperature > 0)
    generation = settled_sampling(generation)  # as the task decodes it: greedy drops the sampling-only keys
    generation.pop("until", None)
    try:
        data = read_data_file(BENCHMARKS[settings.benchmark].filename, data_dir).sha256
    except Exception as error:  # noqa: BLE001 - the round's data cannot be read: no run matches it, and each says why
        data = f"unreadable ({one_line(error)[:80]})"
    provenance = {"chain": settings.chain, "options": dict(settings.options), "scope": settings.scope,
                  "ids": list(settings.ids), "prompt": settings.prompt, "timeout": settings.timeout,
                  "verify": settings.verify, "repeats": settings.repeats or config.get("repeats"),
                  "temperature": generation.get("temperature"), "engine_version": ENGINE_VERSION,
                  "judging_rules": JUDGING_RULES, "data": data}
    return json.loads(json.dumps(provenance)), json.loads(json.dumps(generation))


def _short(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str) if not isinstance(value, str) else value
    return text if len(text) <= 24 else text[:21] + "..."


def round_differences(run: TaskRun, game: Round) -> list[str]:
    """What of the round ``run`` was not made with, each as a few words; empty when it was made with all."""
    differences = []
    if game.seed is not None and run.seed != game.seed:
        differences.append(f"made with {_seeds_text([run.seed])}, not this round's seed {game.seed}")
    try:
        provenance, generation = _reference(run.task, game.metadata, game.require_greedy, game.data_dir)
    except DynbenchError as error:  # e.g. a custom variant, whose chain no round names
        return [*differences, f"the round's settings do not make this task ({one_line(error)[:80]})"]
    recorded = _object(run.metadata.get("dynbench"))
    recorded = {**recorded, "judging_rules": recorded.get("judging_rules", 1),  # none recorded: rules 1
                "data": _object(recorded.get("data")).get("sha256", "none recorded")}
    for key, name in (*_FIXED_SETTINGS.items(), ("data", "data digest")):
        if recorded.get(key) != provenance[key]:
            differences.append(f"{name} {_short(recorded.get(key))} (the round's: {_short(provenance[key])})")
    ran = {key: value for key, value in run.generation.items() if key != "until"}
    changed = sorted(key for key in set(ran) | set(generation) if ran.get(key) != generation.get(key))
    if changed:
        differences.append("generation settings " + ", ".join(
            f"{key} {_short(ran.get(key))} (the round's: {_short(generation.get(key))})" for key in changed[:4]))
    return differences


def _object(value: object) -> dict:
    return value if isinstance(value, dict) else {}


# ---------------------------------------------------------------------------------- rows
def _verification(verdicts: list[TaskVerdict]) -> str:
    outcomes = {v.outcome for v in verdicts}
    if not verdicts or outcomes & {FAILED, UNVERIFIABLE}:
        return "unverified"
    return PARTIAL if PARTIAL in outcomes else VERIFIED


def _seed_order(seed: int | None) -> tuple:
    return (seed is None, seed or 0)


def _seeds_text(seeds: list[int | None]) -> str:
    known = sorted(s for s in set(seeds) if s is not None)
    parts = [f"seed{'s' if len(known) != 1 else ''} {', '.join(map(str, known))}"] if known else []
    return " and ".join(parts + (["no recorded seed"] if None in seeds else []))


def _greedy(run: TaskRun, verdicts: dict[int, TaskVerdict]) -> bool:
    """Whether the run's answers were generated at temperature 0: as ``dynbench verify`` found its
    generation settings, else as lm-eval recorded them (a run verify could not check)."""
    verdict = verdicts.get(id(run))
    return verdict.greedy if verdict is not None and verdict.greedy is not None else is_greedy(run.generation)


def _temperature_text(runs: list[TaskRun], verdicts: dict[int, TaskVerdict]) -> str:
    temperatures = sorted({str(r.generation.get("temperature", "not recorded"))[:20] for r in runs})
    text = f"temperature {', '.join(temperatures)}"
    hidden = [verdicts[id(r)] for r in runs if id(r) in verdicts and verdicts[id(r)].greedy_claimed]
    if hidden:  # temperature 0 claimed, but verify found repeats that differ
        text += f", but the repeats of {max(v.differing_repeats or 0 for v in hidden)} documents differ"
    return text


def submissions(runs: list[TaskRun], verdicts: dict[int, TaskVerdict], game: Round | None = None
                ) -> list[Submission]:
    """The rows to compute: per benchmark and model, its runs; in a round, the runs made with all of
    it apart from the others (one row for each way they differ), and (when the round requires greedy
    runs) a submission with any answer not certified greedy apart. lm-eval's own tasks take no seed:
    they join every row of their model. A model is one submitter's: ``load_runs`` labels a name that runs
    of several RUN_DIRs carry with each one's folder, unless the maintainer's ``--names`` pools them."""
    game = game or Round()
    found = []
    for benchmark in BENCHMARKS:
        for model in dict.fromkeys(r.model for r in runs if r.benchmark == benchmark):
            mine = [r for r in runs if r.model == model and r.benchmark == benchmark]
            builtin = [r for r in mine if r.variant == BUILTIN]
            dynbench = [r for r in mine if r.variant != BUILTIN]
            if not game.fixed:
                groups = [(dynbench, "")]
            else:
                by_reason: dict[str, list[TaskRun]] = {}
                for run in dynbench:
                    by_reason.setdefault("; ".join(round_differences(run, game)), []).append(run)
                groups = [(by_reason.pop(""), "")] if "" in by_reason else []
                groups += [(outside, reason) for reason, outside in by_reason.items()]
            for group, reason in groups or [([], "")]:
                if game.fixed and not reason:
                    reason = _not_verified(group, verdicts)
                sampled = [r for r in group if not _greedy(r, verdicts)]
                if game.require_greedy and not reason and sampled:
                    reason = (f"not greedy ({_temperature_text(sampled, verdicts)}); this round requires "
                              "temperature 0, so that spot checks can compare answers")
                # lm-eval's own task is never verified: a round shows only what verify accepted
                found.append(Submission(benchmark, model, group + ([] if game.fixed else builtin), reason))
    return found


def _not_verified(runs: list[TaskRun], verdicts: dict[int, TaskVerdict]) -> str:
    """Why a round cannot rank runs made with it: one of them verify did not accept (its first
    problem), else one that holds only the first documents; empty when verify verified them all."""
    found = [(run, verdicts.get(id(run))) for run in runs]
    for run, verdict in found:
        if verdict is None:
            return f"{run.task}: not verified"
        if verdict.outcome not in (VERIFIED, PARTIAL):
            first = verdict.problems[0] if verdict.problems else "no reason given"
            return one_line(f"{run.task}: {verdict.outcome}: {first}")
    for run, verdict in found:
        if verdict.outcome == PARTIAL:
            return f"{run.task}: only the first {verdict.documents} of {verdict.scored} documents (lm_eval --limit)"
    return ""


def _by_seed(runs: list[TaskRun]) -> dict[int | None, list[TaskRun]]:
    grouped: dict[int | None, list[TaskRun]] = {}
    for run in runs:
        grouped.setdefault(run.seed, []).append(run)
    return grouped


def _size(run: TaskRun) -> str:
    documents = "unknown" if run.documents is None else str(run.documents)
    return f"all {documents} documents" if run.complete else f"{documents} documents"


def _sizes_text(runs: list[TaskRun]) -> str:
    """Empty when the runs have one size; else each seed's size (each run's, where they differ)."""
    if len({_size(r) for r in runs}) < 2:
        return ""
    parts = []
    for seed, of_seed in sorted(_by_seed(runs).items(), key=lambda item: _seed_order(item[0])):
        by_size: dict[str, list[str]] = {}
        for run in of_seed:
            by_size.setdefault(_size(run), []).append(run.variant)
        sizes = list(by_size) if len(by_size) == 1 else [f"{size} ({', '.join(v)})" for size, v in by_size.items()]
        parts.append(f"{_seeds_text([seed])}: {', '.join(sizes)}")
    return "; ".join(parts)


def _row(submission: Submission, verdicts: dict[int, TaskVerdict]) -> Row:
    runs = [r for r in submission.runs if r.pass_at_1 is not None]
    static_runs = [r for r in runs if r.variant == STATIC]
    counted_variants = BENCHMARKS[submission.benchmark].headline_variants
    changing = [r for r in runs if r.variant in counted_variants]
    preserving = [r for r in runs if r.variant in MEANING_PRESERVING]
    harness = [r.pass_at_1 * 100 for r in runs if r.variant == BUILTIN]
    compared = static_runs + changing
    figures = headline_figures(list(_by_seed(static_runs).values()), list(_by_seed(changing).values()))
    reason = submission.not_ranked
    if figures.documents == []:
        reason = reason or "its static and answer-changing runs share no document"
    elif figures.documents is None and _sizes_text(compared):
        # Their own figures would stand on different documents, and nothing says which they share.
        figures = headline_figures([], [])
        reason = reason or ("its runs differ in size and logged no samples (lm_eval --log_samples), so there are "
                            "no shared documents to compare them on")
    unscored = [r.variant for r in submission.runs if r.variant in counted_variants and r.pass_at_1 is None]
    if figures.headline is None and not reason and unscored:
        reason = f"its answer-changing tasks have no score ({', '.join(unscored)}: failed, or a score out of range)"
    elif figures.headline is None and not reason:
        held = ", ".join(v for v in VARIANTS if any(r.variant == v for r in submission.runs)) or "none"
        reason = (f"no answer-changing variant its headline counts ({', '.join(counted_variants)}), so no {HEADLINE}; "
                  f"its runs hold: {held}")
    robust, counted = robustness(static_runs, list(_by_seed(preserving).values()))
    dynbench = [r for r in submission.runs if r.variant != BUILTIN]
    variant_order = list(VARIANTS).index
    seeds = figures.seed_headlines
    return Row(
        submission.benchmark, submission.model, figures.headline,
        statistics.stdev(seeds) if len(seeds) > 1 else None, sorted({r.variant for r in changing}, key=variant_order),
        sorted({r.seed for r in compared if r.seed is not None}), figures.static, figures.drop, figures.drop_low,
        figures.drop_high, robust, sorted({r.variant for r in counted}, key=variant_order),
        len(figures.documents) if figures.documents else None, _sizes_text(compared + preserving),
        statistics.fmean(harness) if harness else None,
        _verification([verdicts[id(r)] for r in dynbench if id(r) in verdicts]),
        bool(dynbench) and all(_greedy(r, verdicts) for r in dynbench), None, not_ranked=reason)


def build_rows(runs: list[TaskRun], verdicts: dict[int, TaskVerdict], round_seed: int | None = None,
               require_greedy: bool = False, view: Callable[[Submission], str | None] | None = None,
               game: Round | None = None, recite: Callable[[Submission], Recitation | None] | None = None
               ) -> list[Row]:
    """``verdicts``: by ``id`` of each run; ``view`` writes a submission's page and says where;
    ``game``: the round, else one of ``round_seed`` and ``require_greedy`` with dynbench's defaults;
    ``recite``: a submission's recitation verdict, where its benchmark has one."""
    game = game or Round(round_seed, require_greedy=require_greedy)
    rows = []
    for submission in submissions(runs, verdicts, game):
        row = _row(submission, verdicts)
        row.view = view(submission) if view else None
        if recite and (found := recite(submission)) is not None:
            row.recitation, row.recitation_p, row.recitation_detail, row.recited = (
                found.verdict, found.p_value, found.detail, found.recited)
        rows.append(row)
    for benchmark in BENCHMARKS:
        ranked = sorted((r for r in rows if r.benchmark == benchmark and not r.not_ranked),
                        key=lambda r: (-r.headline, r.model))
        for position, row in enumerate(ranked, 1):
            above = ranked[position - 2] if position > 1 else None
            tied = above is not None and math.isclose(above.headline, row.headline, rel_tol=1e-9, abs_tol=1e-9)
            row.rank = above.rank if tied else position  # ties share a rank; the next rank counts them
    order = list(BENCHMARKS)
    return sorted(rows, key=lambda r: (order.index(r.benchmark), r.rank is None, r.rank or 0, r.model, r.not_ranked))


def duplicate_warnings(runs: list[TaskRun]) -> list[str]:
    """One line for each run that replaced others of the same model, task and seed."""
    return [one_line(f"{run.model}, {run.task}, {_seeds_text([run.seed])}: {len(run.superseded)} other results "
                     f"file(s) of the same model, task and seed, left out: {', '.join(run.superseded)}; the latest, "
                     f"{run.source}, is used") for run in runs if run.superseded]


def settings_warnings(runs: list[TaskRun], game: Round) -> list[str]:
    """Outside a round, one line for each run not made with dynbench's default settings: its rank
    compares it with runs of other documents or judging (a round, --seed, lists such runs apart)."""
    if game.fixed:
        return []
    lines = []
    for run in runs:
        if run.variant != BUILTIN and (differences := round_differences(run, game)):
            lines.append(f"{run.model}, {run.task}: not made with dynbench's default settings: "
                         f"{'; '.join(differences)}")
    return [one_line(line) for line in lines]


def warnings(rows: list[Row], round_seed: int | None = None) -> list[str]:
    """One line for each row whose runs differ in size, and for a round nothing was made for."""
    lines = [f"{row.model} on {row.benchmark}: runs of different sizes ({row.run_sizes}); "
             + (f"its row is computed on the {row.documents} documents they all scored" if row.documents else
                "they logged no samples, so nothing shows which documents they share") for row in rows if row.run_sizes]
    if round_seed is not None and not any(row.rank for row in rows):
        lines.append(f"no run was made and verified with this round's seed {round_seed} and settings: nothing is "
                     "ranked")
    return [one_line(line) for line in lines]


# ---------------------------------------------------------------------------------- rendering
COLUMNS = ["rank", "model", HEADLINE, "static (orig)", "drop (static - headline) [95% CI]", "robustness",
           "documents", "lm-eval's own task", "verification", "recitation (p)"]
NOT_RANKED_COLUMN = "not ranked because"


def _number(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def _headline_text(row: Row) -> tuple[str, str]:
    """The headline and what it is made of."""
    if row.headline is None:
        return "—", ""
    spread = f" ± {row.headline_sd:.2f}" if row.headline_sd is not None else ""
    seeds = f"{_seeds_text(row.seeds)}; " if row.seeds else ""
    return f"{row.headline:.2f}{spread}", seeds + ", ".join(row.headline_variants)


def _drop_text(row: Row) -> str:
    if row.drop is None:
        return "—"
    if row.drop_low is None:
        return f"{row.drop:+.2f} (no samples logged: no interval)"
    return f"{row.drop:+.2f} [{row.drop_low:+.2f}, {row.drop_high:+.2f}]"


def _documents_text(row: Row) -> tuple[str, str]:
    shown = "—" if row.documents is None else str(row.documents)
    return (f"{shown} {WARNING_MARK}", f"runs of different sizes: {row.run_sizes}") if row.run_sizes else (shown, "")


def _robustness_text(row: Row) -> tuple[str, str]:
    return _number(row.robustness), ", ".join(row.robustness_variants)


def _recitation_text(row: Row) -> tuple[str, str]:
    if row.recitation is None:
        return "—", row.recitation_detail
    p = row.recitation_p
    shown = "" if p is None else " (p < 1e-9)" if p < 1e-9 else f" (p = {p:.2g})"
    return row.recitation + shown, row.recitation_detail


def _cells(row: Row) -> list[tuple[str, str]]:
    """Each column's text and its detail (a second, smaller line on the page; parenthesised in Markdown)."""
    first = str(row.rank) if row.rank is not None else row.not_ranked
    return [(first, ""), (row.model, ""), _headline_text(row), (_number(row.static), ""), (_drop_text(row), ""),
            _robustness_text(row), _documents_text(row),
            (_number(row.harness) + (" *" if row.harness is not None else ""), ""), (row.verification, ""),
            _recitation_text(row)]


def _sections(rows: list[Row]):
    """Per benchmark with rows: (benchmark, ranked rows, rows listed apart)."""
    for benchmark in BENCHMARKS:
        mine = [r for r in rows if r.benchmark == benchmark]
        if mine:
            yield benchmark, [r for r in mine if r.rank is not None], [r for r in mine if r.rank is None]


def _round_text(round_seed: int | None, require_greedy: bool, game: Round | None = None) -> str:
    """What the round requires, or empty when it requires nothing."""
    game = game or Round(round_seed, require_greedy=require_greedy)
    settings = "dynbench's default settings" if game.metadata == "{}" else f"the settings {game.metadata}"
    rules = ([f"made with seed {game.seed}", f"{settings} (all else at dynbench's defaults) and this dynbench's "
              "engine, judging rules and data"] if game.fixed else []) + (
        ["generated greedily (temperature 0)"] if game.require_greedy else [])
    if not rules:
        return ""
    where = f"Round with seed {game.seed}: only" if game.fixed else "Only"
    return f"{where} runs {', '.join(rules)} are ranked; every other run is listed apart with the reason."


def markdown(rows: list[Row], round_seed: int | None = None, require_greedy: bool = False,
             game: Round | None = None) -> str:
    lines = ["# dynbench leaderboard", ""]
    if _round_text(round_seed, require_greedy, game):
        lines += [markdown_cell(_round_text(round_seed, require_greedy, game)), ""]
    lines += [WHY_HEADLINE, "", DOCUMENTS_NOTE, ""]

    def table(first: str, chosen: list[Row]) -> list[str]:
        header = [first, *COLUMNS[1:]]
        body = []
        for row in chosen:
            cells = [markdown_cell(text) + (f" ({markdown_cell(detail)})" if detail else "")
                     for text, detail in _cells(row)]
            body.append("| " + " | ".join(cells) + " |")
        return ["| " + " | ".join(map(markdown_cell, header)) + " |", "|" + "---|" * len(header), *body, ""]

    for benchmark, ranked, apart in _sections(rows):
        lines += [f"## {benchmark}", ""]
        if ranked:
            lines += table(COLUMNS[0], ranked)
        if apart:
            lines += [f"Not ranked on {benchmark}:", "", *table(NOT_RANKED_COLUMN, apart)]
        if any(r.harness is not None for r in ranked + apart):
            lines += [f"\\* {markdown_cell(HARNESS_NOTE)}", ""]
    return "\n".join(lines)


_STYLE = """body{font-family:sans-serif;margin:2em;max-width:80em}p{max-width:60em}
table{border-collapse:collapse;width:100%;margin:1em 0}th{cursor:pointer;background:#eee}
td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}
td.model{overflow-wrap:anywhere;min-width:8em;max-width:22em}td.why{max-width:20em}td.documents{max-width:14em}
td.drop{white-space:nowrap}small{display:block;color:#555}.verified{color:#060}.partial{color:#a60}
.unverified,.recited{color:#a00}.note{font-size:90%;color:#444}"""
# Handlers are attached here rather than written into the page, so the page's policy can allow this
# script alone (by its hash) and no inline handler at all.
_SCRIPT = """function sortBy(header){const table=header.closest('table');const index=[...header.parentNode.children]
.indexOf(header);const body=table.tBodies[0];const rows=[...body.rows];const down=header.dataset.order!=='down';
header.dataset.order=down?'down':'up';const key=r=>{const t=r.cells[index].dataset.sort;const n=parseFloat(t);
return isNaN(n)?t:n};rows.sort((a,b)=>{const x=key(a),y=key(b);const c=(typeof x==='number'&&typeof y==='number')
?x-y:String(x).localeCompare(String(y));return down?-c:c});rows.forEach(r=>body.appendChild(r))}
for(const header of document.querySelectorAll('th'))header.addEventListener('click',()=>sortBy(header))"""
_POLICY = ("default-src 'none'; style-src 'unsafe-inline'; "
           f"script-src 'sha256-{base64.b64encode(hashlib.sha256(_SCRIPT.encode()).digest()).decode()}'")
_NOWHERE = "-Infinity"  # the sort key of a missing number: last when sorting from the highest


def _sort_key(row: Row, column: int) -> str:
    numbers = {0: row.rank, 2: row.headline, 3: row.static, 4: row.drop, 5: row.robustness, 6: row.documents,
               7: row.harness, 9: row.recitation_p}
    if column in numbers and not (column == 0 and row.rank is None):
        value = numbers[column]
        return _NOWHERE if value is None else repr(float(value))
    return _cells(row)[column][0]


def _html_table(benchmark: str, chosen: list[Row], first: str, table_id: str) -> str:
    headers = "".join(f"<th>{html_text(c)}</th>" for c in [first, *COLUMNS[1:]])
    body = []
    for row in chosen:
        cells = []
        for column, (text, detail) in enumerate(_cells(row)):
            shown = html_text(text)
            if column == 1 and row.view:
                shown = f"<a href='{html_text(row.view)}'>{shown}</a>"
            if detail:
                shown += f"<small>{html_text(detail)}</small>"
            kind = {0: " class='why'" if row.rank is None else "", 1: " class='model'", 4: " class='drop'",
                    6: " class='documents'", 8: f" class='{html_text(row.verification)}'",
                    9: " class='recited'" if row.recited else ""}.get(column, "")
            cells.append(f"<td data-sort='{html_text(_sort_key(row, column))}'{kind}>{shown}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table id='{html_text(table_id)}'><thead><tr>{headers}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def html_page(rows: list[Row], round_seed: int | None = None, require_greedy: bool = False,
              game: Round | None = None) -> str:
    parts = ["<!doctype html><html><head><meta charset='utf-8'>",
             f"<meta http-equiv='Content-Security-Policy' content=\"{html_text(_POLICY)}\">",
             "<meta name='viewport' content='width=device-width'><title>dynbench leaderboard</title>",
             f"<style>{_STYLE}</style></head><body><h1>dynbench leaderboard</h1>"]
    if _round_text(round_seed, require_greedy, game):
        parts.append(f"<p><strong>{html_text(_round_text(round_seed, require_greedy, game))}</strong></p>")
    parts.append(f"<p>Models are ranked by their {HEADLINE}. {html_text(WHY_HEADLINE)}</p>"
                 f"<p class='note'>{html_text(DOCUMENTS_NOTE)} Click a column to sort by it.</p>")
    for benchmark, ranked, apart in _sections(rows):
        parts.append(f"<h2>{html_text(benchmark)}</h2>")
        if ranked:
            parts.append(_html_table(benchmark, ranked, COLUMNS[0], benchmark))
        if apart:
            parts.append(f"<h3>Not ranked on {html_text(benchmark)}</h3>"
                         + _html_table(benchmark, apart, NOT_RANKED_COLUMN, f"{benchmark}-not-ranked"))
        if any(r.harness is not None for r in ranked + apart):
            parts.append(f"<p class='note'>* {html_text(HARNESS_NOTE)}</p>")
    parts.append(f"<script>{_SCRIPT}</script></body></html>")
    return "".join(parts)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text)[:48]


def _view_page(submission: Submission, folder: Path) -> str | None:
    """Writes the page of the submission's samples (an answer-changing variant's where it has one)
    and returns its path relative to the site. The name carries a digest of exactly whose samples it
    shows: two models whose names differ only in characters a file name cannot hold never share a page."""
    from dynbench_tasks.analysis.viewer import write_view_page

    preferred = [*ANSWER_CHANGING, *(v for v in VARIANTS if v not in ANSWER_CHANGING and v != STATIC)]
    shown = sorted((r for r in submission.runs if r.variant in preferred and r.samples),
                   key=lambda r: (preferred.index(r.variant), _seed_order(r.seed)))
    if not shown:
        return None
    task = shown[0].task
    identity = json.dumps([submission.model, task, [str(r.source) for r in submission.runs], submission.not_ranked])
    digest = hashlib.sha256(identity.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    page = Path("views") / f"{_slug(submission.model)}-{digest}_{task}.html"
    try:
        write_view_page([r for r in submission.runs if r.variant != BUILTIN and r.seed == shown[0].seed], task,
                        folder / page, submission.model)
    except Exception:  # noqa: BLE001 - a submitted samples file the page cannot show costs its link, not the board
        return None
    return page.as_posix()


def write_leaderboard(runs: list[TaskRun], verdicts: dict[int, TaskVerdict], folder: Path,
                      round_seed: int | None = None, require_greedy: bool = False, game: Round | None = None,
                      recite: Callable[[Submission], Recitation | None] | None = None
                      ) -> tuple[list[Row], list[Path]]:
    """The site in ``folder``: its rows, and the files written (index.html first)."""
    folder.mkdir(parents=True, exist_ok=True)
    game = game or Round(round_seed, require_greedy=require_greedy)
    rows = build_rows(runs, verdicts, view=lambda submission: _view_page(submission, folder), game=game,
                      recite=recite)
    (folder / "index.html").write_text(html_page(rows, game=game), encoding="utf-8")
    (folder / "leaderboard.md").write_text(markdown(rows, game=game), encoding="utf-8")
    (folder / "leaderboard.json").write_text(json.dumps([asdict(r) for r in rows], indent=1), encoding="utf-8")
    with (folder / "leaderboard.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(list(Row.__dataclass_fields__))
        for row in rows:
            writer.writerow([csv_cell(value) for value in asdict(row).values()])
    return rows, [folder / name for name in ("index.html", "leaderboard.json", "leaderboard.csv", "leaderboard.md")]
