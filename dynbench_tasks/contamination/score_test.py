"""Does a model score higher on the published benchmark than its dynamic score predicts? ConStat's question,
asked of the models at hand: the meaning-preserving variant (``fuv``) is a reference benchmark for free.

Over the other models (at least MIN_REFERENCES), a straight line on the logit scale predicts the ``orig``
score from the ``fuv`` score; a model whose ``orig`` score lies above its prediction by more than the others'
scatter and its own sampling noise explain is flagged. Null: the model stands on the line as the others do
(its distance from it drawn like theirs: a model's own knack for rewritten code, plus the noise of its finite
documents). One-sided (only an excess on ``orig`` is memory), a t test with n - 2 degrees of freedom for n
references. Scores are compared on the documents every model scored, so a ``--limit`` or a missing document
does not bias them. The test cannot tell a reference pool that is itself contaminated: it measures a model
against the others, and a memory they all share moves the line, not the model."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from scipy import stats

from dynbench_tasks.contamination.verdict import CONTAMINATED, NOT_FLAGGED

MIN_REFERENCES = 5
STATIC, DYNAMIC = "orig", "fuv"  # the published task and the meaning-preserving one it is predicted from


@dataclass(frozen=True)
class ScorePoint:
    model: str
    static: float  # pass@1 on the published programs
    dynamic: float  # pass@1 on their meaning-preserving rewrites
    static_documents: int
    dynamic_documents: int


@dataclass(frozen=True)
class ScoreVerdict:
    verdict: str
    p_value: float
    model: str
    benchmark: str
    static: float
    predicted: float  # the static score the references' line gives the model's dynamic score
    dynamic: float
    excess: float  # static minus predicted
    interval: tuple[float, float]  # two-sided 95% for the excess
    references: tuple[str, ...]
    slope: float
    scatter: float  # the references' spread about the line beyond their sampling noise (sd, in logits)
    documents: tuple[int, int]  # the common documents of the static and the dynamic task
    alpha: float

    def row(self) -> dict:
        """The verdict as ``dynbench detect --json`` prints it under ``score_tests``."""
        return {"model": self.model, "benchmark": self.benchmark, "verdict": self.verdict, "p_value": self.p_value,
                "static": self.static, "dynamic": self.dynamic, "predicted": self.predicted, "excess": self.excess,
                "interval": list(self.interval), "references": list(self.references), "slope": self.slope,
                "scatter": self.scatter, "documents": list(self.documents), "alpha": self.alpha}


def _clipped(share: float, documents: int) -> float:
    return min(max(share, 0.5 / documents), 1 - 0.5 / documents)  # an empty or full score stays finite


def _logit(share: float, documents: int) -> float:
    share = _clipped(share, documents)
    return math.log(share / (1 - share))


def _logit_noise(share: float, documents: int) -> float:
    """The sampling variance of a score's logit (the delta method on a binomial share)."""
    share = _clipped(share, documents)
    return 1 / (documents * share * (1 - share))


def score_test(target: ScorePoint, references: list[ScorePoint], alpha: float, benchmark: str) -> ScoreVerdict:
    """The target's static score against the line fitted through the references' (dynamic, static) scores, on
    the logit scale, where scores of one skill on an easier and a harder test lie nearer a straight line."""
    n = len(references)
    if n < MIN_REFERENCES:
        raise ValueError(f"the score test needs at least {MIN_REFERENCES} other models, got {n}")
    xs = [_logit(p.dynamic, p.dynamic_documents) for p in references]
    ys = [_logit(p.static, p.static_documents) for p in references]
    mean_x, mean_y = math.fsum(xs) / n, math.fsum(ys) / n
    spread_x = math.fsum((x - mean_x) ** 2 for x in xs)
    slope = math.fsum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / spread_x if spread_x else 0.0
    intercept = mean_y - slope * mean_x

    def noise(point: ScorePoint) -> float:  # the sampling variance of static - slope * dynamic, in logits
        return (_logit_noise(point.static, point.static_documents)
                + slope**2 * _logit_noise(point.dynamic, point.dynamic_documents))

    residual = math.fsum((y - intercept - slope * x) ** 2 for x, y in zip(xs, ys, strict=True)) / (n - 2)
    # The residual holds the references' sampling noise; the target brings its own instead.
    scatter = max(0.0, residual - math.fsum(map(noise, references)) / n)
    x = _logit(target.dynamic, target.dynamic_documents)
    leverage = 1 / n + ((x - mean_x) ** 2 / spread_x if spread_x else 0.0)
    error = math.sqrt(scatter + noise(target) + residual * leverage)
    predicted = intercept + slope * x
    distance = _logit(target.static, target.static_documents) - predicted
    p_value = float(stats.t.sf(distance / error, n - 2))
    half = float(stats.t.ppf(0.975, n - 2)) * error
    share = _share(predicted)
    return ScoreVerdict(CONTAMINATED if p_value <= alpha else NOT_FLAGGED, p_value, target.model, benchmark,
                        target.static, share, target.dynamic, target.static - share,
                        (target.static - _share(predicted + half), target.static - _share(predicted - half)),
                        tuple(point.model for point in references), slope, math.sqrt(scatter),
                        (target.static_documents, target.dynamic_documents), alpha)


def _share(logit: float) -> float:
    return 1 / (1 + math.exp(-logit))


def score_points(runs: Iterable) -> dict[str, list[ScorePoint]]:
    """Per benchmark, each model's static and dynamic pass@1 on the documents every such model logged a score
    for; a model takes part only with logged per-document scores of both tasks."""
    scores: dict[str, dict[str, dict[str, dict[str, float]]]] = defaultdict(lambda: defaultdict(dict))
    for run in runs:
        if run.variant in (STATIC, DYNAMIC) and run.per_document:
            scores[run.benchmark][run.model][run.variant] = run.per_document
    points: dict[str, list[ScorePoint]] = {}
    for benchmark, models in scores.items():
        both = {model: tasks for model, tasks in models.items() if len(tasks) == 2}
        if not both:
            continue
        common = {variant: set.intersection(*(set(tasks[variant]) for tasks in both.values()))
                  for variant in (STATIC, DYNAMIC)}
        if not all(common.values()):
            continue
        points[benchmark] = [ScorePoint(model, *(_mean(tasks[v], common[v]) for v in (STATIC, DYNAMIC)),
                                        len(common[STATIC]), len(common[DYNAMIC]))
                             for model, tasks in sorted(both.items())]
    return points


def left_out(runs: Iterable) -> list[str]:
    """Why a model, or a whole benchmark, takes no part in the score test, one line each; only for benchmarks
    where some model ran both tasks with logged samples (where nobody did, no score test was meant)."""
    logged: dict[str, dict[str, dict[str, set[str]]]] = defaultdict(lambda: defaultdict(dict))
    for run in runs:
        if run.variant in (STATIC, DYNAMIC):
            variants = logged[run.benchmark][run.model]
            if run.per_document:
                variants.setdefault(run.variant, set()).update(run.per_document)
    lines = []
    for benchmark, models in sorted(logged.items()):
        both = {model: variants for model, variants in models.items() if len(variants) == 2}
        tasks = f"{benchmark}_{STATIC} and {benchmark}_{DYNAMIC}"
        missing = sorted(set(models) - set(both))
        if both and missing:
            lines.append(f"score test on {benchmark}: {', '.join(missing)} left out: no logged samples of both {tasks} "
                         "(lm_eval --log_samples)")
        if 0 < len(both) <= MIN_REFERENCES:
            lines.append(f"score test on {benchmark}: {len(both)} models ran {tasks} with logged samples; it needs "
                         f"{MIN_REFERENCES + 1}")
        elif both and not all(set.intersection(*(scored[v] for scored in both.values())) for v in (STATIC, DYNAMIC)):
            lines.append(f"score test on {benchmark}: no document of {tasks} that all {len(both)} models scored "
                         "(run them on the same problems)")
    return lines


def _mean(per_document: dict[str, float], documents: set[str]) -> float:
    return math.fsum(per_document[document] for document in documents) / len(documents)


def score_verdicts(points: dict[str, list[ScorePoint]], alpha: dict[str, float]) -> list[ScoreVerdict]:
    """Each model against all the others, per benchmark where at least MIN_REFERENCES others took part;
    ``alpha``: each model's threshold."""
    return [score_test(point, [other for other in group if other is not point], alpha[point.model], benchmark)
            for benchmark, group in sorted(points.items()) if len(group) > MIN_REFERENCES for point in group]


def score_sentence(verdict: ScoreVerdict) -> str:
    """The verdict in one line."""
    p_value = "p < 1e-9" if verdict.p_value < 1e-9 else f"p = {verdict.p_value:.2g}"
    where = (f"{verdict.benchmark} orig {verdict.static:.1%} where the {len(verdict.references)} other models' "
             f"{DYNAMIC} scores predict {verdict.predicted:.1%} from its {verdict.dynamic:.1%} "
             f"(excess {verdict.excess:+.1%}, 95% interval {verdict.interval[0]:+.1%} to {verdict.interval[1]:+.1%}), "
             f"{p_value}")
    if verdict.verdict == CONTAMINATED:
        return f"{verdict.model} scores above its dynamic score on the published programs: {where}"
    return f"{verdict.model} scores as its dynamic score predicts: {where}"
