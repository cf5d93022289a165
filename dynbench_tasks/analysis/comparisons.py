"""The statistics of a report and the leaderboard: drops against ``orig``, rankings with Kendall's τ,
and per-document paired comparisons (McNemar's exact test, bootstrap confidence interval of the drop).
Everywhere, drop = static - dynamic in points of pass@1: positive means lower on the dynamic benchmark."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from scipy import stats

from dynbench_tasks.analysis.runs import TaskRun


@dataclass
class Paired:
    """A model's variant against its ``orig`` run on the documents both scored (joined on the
    benchmark's own id). Documents pass when at least half their samples pass."""

    shared: int
    drop: float  # points of pass@1, orig minus variant, on the shared documents: positive = lower when changed
    ci_low: float
    ci_high: float
    orig_only: int  # passed on orig, failed on the variant
    variant_only: int
    p_value: float


def mean_with_interval(differences: np.ndarray, resamples: int = 2000, seed: int = 0) -> tuple[float, float, float]:
    """The mean of per-document differences and its 95% percentile-bootstrap interval over the
    documents (the interval is the mean itself when the documents cannot vary it)."""
    mean = float(differences.mean())
    if len(differences) < 2 or differences.std() == 0:
        return mean, mean, mean
    interval = stats.bootstrap((differences,), np.mean, n_resamples=resamples, confidence_level=0.95,
                               method="percentile", random_state=seed).confidence_interval
    return mean, float(interval.low), float(interval.high)


def paired(original: TaskRun, variant: TaskRun, resamples: int = 2000, seed: int = 0) -> Paired | None:
    ids = sorted(set(original.per_document) & set(variant.per_document))
    if not ids:
        return None
    before = np.array([original.per_document[i] for i in ids])
    after = np.array([variant.per_document[i] for i in ids])
    drop, low, high = mean_with_interval((before - after) * 100, resamples, seed)
    passed_before, passed_after = before >= 0.5, after >= 0.5
    orig_only = int(np.sum(passed_before & ~passed_after))
    variant_only = int(np.sum(~passed_before & passed_after))
    discordant = orig_only + variant_only
    p_value = stats.binomtest(orig_only, discordant, 0.5).pvalue if discordant else 1.0
    return Paired(len(ids), drop, low, high, orig_only, variant_only, float(p_value))


def ranking(scores: dict[str, float]) -> list[list[str]]:
    """Models from best to worst, those with the same score together (in name order): a tie shares
    its place. Scores a rounding error apart (60 and 3 / 5 * 100) are the same score."""
    places: list[list[str]] = []
    for model in sorted(scores, key=lambda name: (-scores[name], name)):
        if places and math.isclose(scores[places[-1][0]], scores[model], rel_tol=1e-9, abs_tol=1e-9):
            places[-1].append(model)
        else:
            places.append([model])
    return places


def kendall_tau(original: dict[str, float], variant: dict[str, float]) -> float | None:
    """Kendall's τ between two model orderings over the models in both; None below two models."""
    models = sorted(set(original) & set(variant))
    if len(models) < 2:
        return None
    tau = stats.kendalltau([original[m] for m in models], [variant[m] for m in models]).statistic
    return None if np.isnan(tau) else float(tau)


@dataclass
class Headline:
    """A model's static score (``orig``), contamination-resistant score (the headline: the mean over
    the answer-changing variants) and drop = static - headline, in points of pass@1, all on one set
    of documents, those every run scored (``documents``), so that static - headline = drop. Runs of
    several seeds: each seed's runs are averaged first (that seed's headline), then the seeds. When
    some run logged no samples (``documents`` None), each figure is the runs' own pass@1 and the drop
    has no interval; when the runs share no document (``documents`` empty), there are no figures."""

    static: float | None
    headline: float | None
    seed_headlines: list[float]  # each seed's, whose mean the headline is
    drop: float | None
    drop_low: float | None  # the drop's 95% bootstrap interval over `documents`
    drop_high: float | None
    documents: list[str] | None


def _points(run: TaskRun, documents: Iterable[str] | None) -> float:
    """The run's pass@1 in points: on ``documents``, or as the run reports it (None)."""
    if documents is None:
        return run.pass_at_1 * 100
    return float(np.mean([run.per_document[i] for i in documents])) * 100


def _per_seed(groups: list[list[TaskRun]], documents: list[str] | None) -> list[float]:
    """Each seed's mean pass@1 (points) over its runs."""
    return [float(np.mean([_points(run, documents) for run in group])) for group in groups if group]


def _per_document(groups: list[list[TaskRun]], documents: list[str]) -> np.ndarray:
    """Each document's mean over the seeds of its mean over that seed's runs (points): their mean is
    the mean of the seeds' figures, so the bootstrap resamples exactly what the row shows."""
    return np.mean([[np.mean([run.per_document[i] for run in group]) for i in documents]
                    for group in groups if group], axis=0) * 100


def headline_figures(static: list[list[TaskRun]], changing: list[list[TaskRun]]) -> Headline:
    """``static``, ``changing``: the scored runs of ``orig`` and of the answer-changing variants, one
    list per seed (a run pooled over seeds counts as one)."""
    runs = [run for group in static + changing for run in group]
    logged = bool(runs) and all(run.per_document for run in runs)
    documents = sorted(set.intersection(*(set(run.per_document) for run in runs))) if logged else None
    if documents == []:
        return Headline(None, None, [], None, None, None, [])
    seed_headlines, static_seeds = _per_seed(changing, documents), _per_seed(static, documents)
    headline = float(np.mean(seed_headlines)) if seed_headlines else None
    static_score = float(np.mean(static_seeds)) if static_seeds else None
    drop = low = high = None
    if headline is not None and static_score is not None:
        if documents is None:
            drop = static_score - headline
        else:
            drop, low, high = mean_with_interval(_per_document(static, documents) - _per_document(changing, documents))
    return Headline(static_score, headline, seed_headlines, drop, low, high, documents)


def robustness(static: list[TaskRun], preserving: list[list[TaskRun]]) -> tuple[float | None, list[TaskRun]]:
    """The mean pass@1 (points) over the meaning-preserving variants, per seed then over the seeds,
    each run on the documents ``orig`` scored too (so a ``--limit`` on orig limits it alike); and the
    runs it counts. Without logged samples, the runs' own pass@1."""
    logged = bool(static) and all(run.per_document for run in static + [r for group in preserving for r in group])
    window = set.intersection(*(set(run.per_document) for run in static)) if logged else None

    def shared(run: TaskRun) -> set[str] | None:
        return None if window is None else window & set(run.per_document)

    counted = [[run for run in group if window is None or shared(run)] for group in preserving]
    scores = [float(np.mean([_points(run, shared(run)) for run in group])) for group in counted if group]
    return (float(np.mean(scores)) if scores else None), [run for group in counted for run in group]
