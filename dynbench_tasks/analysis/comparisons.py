"""The statistics of a report: drops against ``orig``, rankings with Kendall's τ, and per-document
paired comparisons (McNemar's exact test, bootstrap confidence interval of the drop)."""

from __future__ import annotations

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


def paired(original: TaskRun, variant: TaskRun, resamples: int = 2000, seed: int = 0) -> Paired | None:
    ids = sorted(set(original.per_document) & set(variant.per_document))
    if not ids:
        return None
    before = np.array([original.per_document[i] for i in ids])
    after = np.array([variant.per_document[i] for i in ids])
    differences = (before - after) * 100
    drop = float(differences.mean())
    if len(ids) > 1 and differences.std() > 0:
        interval = stats.bootstrap((differences,), np.mean, n_resamples=resamples, confidence_level=0.95,
                                   method="percentile", random_state=seed).confidence_interval
        low, high = float(interval.low), float(interval.high)
    else:
        low = high = drop
    passed_before, passed_after = before >= 0.5, after >= 0.5
    orig_only = int(np.sum(passed_before & ~passed_after))
    variant_only = int(np.sum(~passed_before & passed_after))
    discordant = orig_only + variant_only
    p_value = stats.binomtest(orig_only, discordant, 0.5).pvalue if discordant else 1.0
    return Paired(len(ids), drop, low, high, orig_only, variant_only, float(p_value))


def ranking(scores: dict[str, float]) -> list[str]:
    """Models from best to worst (ties keep name order)."""
    return sorted(scores, key=lambda model: (-scores[model], model))


def kendall_tau(original: dict[str, float], variant: dict[str, float]) -> float | None:
    """Kendall's τ between two model orderings over the models in both; None below two models."""
    models = sorted(set(original) & set(variant))
    if len(models) < 2:
        return None
    tau = stats.kendalltau([original[m] for m in models], [variant[m] for m in models]).statistic
    return None if np.isnan(tau) else float(tau)
