"""Does a model recite a benchmark's published answers? One verdict per model and benchmark.

A rewritten problem has a new answer, yet a model may still write the published one, by recitation or by chance
(a program can map many inputs to one output). The control is the decoy, the program's answer on another small
change of the shown input (mutators/input_choice.py): a model with no memory of the published answer writes it as
often. An exact one-sided
sign test on which way documents lean assumes nothing about their difficulty, correlated samples or spread rates.
Seeds pool by problem first: a problem's samples share its program whatever the seed; only problems are independent."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import count
from statistics import NormalDist

# The false-alarm rate allowed per model, across all the benchmarks it is tested on together.
ALPHA = 0.05
CONTAMINATED, NOT_FLAGGED, TOO_FEW = "contaminated", "not flagged", "too few documents"
# The stale-over-decoy excess that `needed` plans for: five points of documents is a small recitation.
SMALL_EXCESS = 0.05
SEARCH_CAP = 100_000


@dataclass(frozen=True)
class Unit:
    problem: str
    samples: int
    stale: int  # samples that wrote the published answer
    decoy: int  # samples that wrote the decoy

    @property
    def stale_rate(self) -> float:
        return self.stale / self.samples if self.samples else 0.0

    @property
    def decoy_rate(self) -> float:
        return self.decoy / self.samples if self.samples else 0.0

    @property
    def excess(self) -> float:
        return self.stale_rate - self.decoy_rate


@dataclass(frozen=True)
class Verdict:
    verdict: str
    p_value: float
    documents: int
    positive: int  # documents whose stale rate is above their control's
    negative: int
    stale: int  # samples, summed over documents
    decoy: int
    samples: int
    excess: float  # mean per-document stale rate minus control rate
    interval: tuple[float, float]
    needed: int  # documents that would detect a SMALL_EXCESS at this alpha with 80% power
    stale_documents: int  # documents with any stale sample
    decoy_documents: int
    alpha: float
    control: str  # what stale answers were compared with, as the sentence names it


def pool(units: Iterable[Unit]) -> list[Unit]:
    """One unit per problem, its counts summed over seeds, ordered by problem id."""
    pooled: dict[str, Unit] = {}
    for unit in units:  # a problem met once keeps its unit: pooling pooled units again costs little
        if (seen := pooled.get(unit.problem)) is not None:
            unit = Unit(unit.problem, seen.samples + unit.samples, seen.stale + unit.stale, seen.decoy + unit.decoy)
        pooled[unit.problem] = unit
    return [pooled[problem] for problem in sorted(pooled)]


def sign_test(units: Iterable[Unit]) -> tuple[int, int, float]:
    """(documents leaning stale, leaning decoy, one-sided exact p), ties dropped; units are pooled first."""
    excesses = [unit.excess for unit in pool(units)]
    positive, n = sum(excess > 0 for excess in excesses), sum(excess != 0 for excess in excesses)
    # Equal rates share a denominator, so ties are exact. Sign patterns are counted in exact integers, and Python
    # divides integers with correct rounding: no overflow, tiny p-values stay right (only p < 5e-324 underflows).
    term = at_least = math.comb(n, positive)
    for i in range(positive, n):  # C(n, i + 1) from C(n, i): one small multiplication per term
        term = term * (n - i) // (i + 1)
        at_least += term
    return positive, n - positive, at_least / (1 << n)


def excess_interval(units: Iterable[Unit], level: float = 0.95) -> tuple[float, float, float]:
    """Mean per-document excess of stale over decoy rate, and a two-sided normal interval for it."""
    excesses = [unit.excess for unit in pool(units)]
    if len(excesses) < 2:
        return (excesses[0] if excesses else 0.0), -1.0, 1.0
    mean = math.fsum(excesses) / len(excesses)
    deviation = math.sqrt(math.fsum((excess - mean) ** 2 for excess in excesses) / (len(excesses) - 1))
    half = NormalDist().inv_cdf(0.5 + level / 2) * deviation / math.sqrt(len(excesses))
    return mean, max(-1.0, mean - half), min(1.0, mean + half)


def threshold(benchmarks: int) -> float:
    """Bonferroni: at this alpha per benchmark, a model is flagged falsely on any with chance <= ALPHA."""
    return ALPHA / benchmarks


def minimum_documents(alpha: float) -> int:
    """The fewest discordant documents with which the sign test could ever reject: 2**-n <= alpha."""
    if alpha <= 0:
        raise ValueError("alpha must be positive")
    return next(n for n in count() if 2.0**-n <= alpha)


def _binomial_pmf(n: int, k: int, p: float) -> float:
    if p in (0.0, 1.0):
        return float(k == round(n * p))
    log_choose = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
    return math.exp(log_choose + k * math.log(p) + (n - k) * math.log1p(-p))


@lru_cache(maxsize=16)
def _rejection_chances(alpha: float, leaning: float, limit: int) -> tuple[float, ...]:
    """For each d <= limit, the chance the sign test rejects d discordant documents leaning stale with that chance.
    Its critical count (exact integers) grows by at most one per document: both are walked up in d term by term."""
    # At d = 0: the critical count, sum of C(d, i) over i >= critical, C(d, critical - 1), and the chance above.
    critical, at_least, just_below, chance, chances = 1, 0, 1, 0.0, [0.0]
    for d in range(limit):
        at_least = 2 * at_least + just_below  # Pascal's rule, from d to d + 1 documents
        just_below = just_below * (d + 1) // (d + 2 - critical)
        chance += leaning * _binomial_pmf(d, critical - 1, leaning)
        while at_least / (1 << (d + 1)) > alpha:  # the very comparison sign_test makes: they never disagree
            just_below = just_below * (d + 2 - critical) // critical
            at_least -= just_below
            chance -= _binomial_pmf(d + 1, critical, leaning)
            critical += 1
        chances.append(chance)
    return tuple(chances)


@lru_cache(maxsize=256)
def documents_needed(decoy_rate: float, excess: float = SMALL_EXCESS, alpha: float = ALPHA, power: float = 0.8) -> int:
    """The fewest documents with which the sign test detects a stale-over-decoy `excess` with `power`, when a
    document leans decoy with probability decoy_rate, stale with decoy_rate + excess, else neither. The power
    is summed exactly over the number of discordant documents; SEARCH_CAP when it is not reached below that."""
    if excess <= 0 or decoy_rate < 0 or 2 * decoy_rate + excess > 1 + 1e-9:
        raise ValueError("needs excess > 0 and decoy_rate in [0, (1 - excess) / 2]")
    discordance = min(1.0, 2 * decoy_rate + excess)
    leaning = (decoy_rate + excess) / discordance

    def power_at(documents: int, chances: tuple[float, ...]) -> float:
        return math.fsum(_binomial_pmf(documents, d, discordance) * chances[d] for d in range(documents + 1))

    # Bisection needs the power to rise with N: its sawtooth in d is smoothed out by d being random.
    low, high = 0, 1
    while power_at(high, chances := _rejection_chances(alpha, leaning, high)) < power:
        if high == SEARCH_CAP:
            return SEARCH_CAP
        low, high = high, min(2 * high, SEARCH_CAP)
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if power_at(middle, chances) >= power else (middle, high)
    return high


def judge(units: Iterable[Unit], alpha: float) -> Verdict:
    """The sign test of stale against decoy over a model's documents, pooled across seeds."""
    pooled = pool(units)
    positive, negative, p_value = sign_test(pooled)
    verdict = CONTAMINATED if p_value <= alpha else TOO_FEW if len(pooled) < minimum_documents(alpha) else NOT_FLAGGED
    excess, low, high = excess_interval(pooled)
    decoy_rate = math.fsum(unit.decoy_rate for unit in pooled) / len(pooled) if pooled else 0.0
    # Two decimals let verdicts share the work; past (1 - excess) / 2 the planning model has all documents discordant.
    needed = documents_needed(min(round(decoy_rate, 2), (1 - SMALL_EXCESS) / 2), alpha=alpha)
    stale, decoy = [unit.stale for unit in pooled], [unit.decoy for unit in pooled]
    return Verdict(verdict, p_value, len(pooled), positive, negative, sum(stale), sum(decoy),
                   sum(unit.samples for unit in pooled), excess, (low, high), needed, sum(map(bool, stale)),
                   sum(map(bool, decoy)), alpha, "decoy")


def paired_against(model_units: Iterable[Unit], reference_units: Iterable[Unit], alpha: float) -> Verdict:
    """Does the model write published answers more often than a reference model on the documents both ran?
    Null: on each document both are equally likely to; the reference's stale count takes the decoy's place."""
    references = {unit.problem: unit for unit in pool(reference_units)}
    pairs = [(unit, references[unit.problem]) for unit in pool(model_units)
             if unit.problem in references and unit.samples and references[unit.problem].samples]
    # Over a common denominator the two stale rates stand exactly where a unit's stale and decoy rates do.
    verdict = judge([Unit(unit.problem, unit.samples * other.samples, unit.stale * other.samples,
                          other.stale * unit.samples) for unit, other in pairs], alpha)
    return replace(verdict, stale=sum(unit.stale for unit, _ in pairs), decoy=sum(other.stale for _, other in pairs),
                   samples=sum(unit.samples for unit, _ in pairs), control="stale for the reference")


def sentence(verdict: Verdict, model: str, benchmark: str) -> str:
    """The verdict in one line."""
    p_value = "p < 1e-9" if verdict.p_value < 1e-9 else f"p = {verdict.p_value:.2g}"
    counts = (f"{verdict.stale_documents} of {verdict.documents} documents stale against "
              f"{verdict.decoy_documents} of {verdict.documents} {verdict.control}, {p_value}")
    if verdict.verdict == CONTAMINATED:
        return f"{model} recites published {benchmark} answers: {counts}"
    if verdict.verdict == NOT_FLAGGED:
        return f"{model} shows no sign of recitation on {benchmark}: {counts}"
    return (f"{model} has too few documents on {benchmark} to judge: {verdict.documents}, where even all stale could "
            f"not reach p <= {verdict.alpha:.2g} with fewer than {minimum_documents(verdict.alpha)}; about "
            f"{verdict.needed} would detect a {SMALL_EXCESS:.0%} excess of stale answers")
