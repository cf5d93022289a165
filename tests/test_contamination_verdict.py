"""The per-model recitation verdict: the exact sign test of stale against decoy answers, its pooling, the
documents it needs, its false-alarm rate on simulated honest models, and the sentences it prints."""

import math
import random
import time
from dataclasses import replace
from fractions import Fraction

import pytest

from dynbench_tasks.contamination.verdict import (
    ALPHA,
    CONTAMINATED,
    NOT_FLAGGED,
    TOO_FEW,
    Unit,
    documents_needed,
    excess_interval,
    judge,
    minimum_documents,
    paired_against,
    pool,
    sentence,
    sign_test,
    threshold,
)


def documents(stale_only: int, decoy_only: int, ties: int = 0, samples: int = 5) -> list[Unit]:
    """Documents leaning one way with all their samples, the other way, or tied (neither answer written)."""
    units = [Unit(f"s{i}", samples, samples, 0) for i in range(stale_only)]
    units += [Unit(f"d{i}", samples, 0, samples) for i in range(decoy_only)]
    return units + [Unit(f"t{i}", samples, 0, 0) for i in range(ties)]


def honest_model(rng: random.Random, count: int, samples: int = 5) -> list[Unit]:
    """Each document gets a rate in [0, 0.3]; every sample writes the published answer with that chance and the
    decoy with the same chance (never both), as a model with no memory of the published answer would."""
    units = []
    for index in range(count):
        rate = rng.uniform(0.0, 0.3)
        stale = decoy = 0
        for _ in range(samples):
            draw = rng.random()
            stale += draw < rate
            decoy += rate <= draw < 2 * rate
        units.append(Unit(f"p{index}", samples, stale, decoy))
    return units


def log_space_tail(n: int, k: int) -> float:
    """P(Binomial(n, 1/2) >= k), summed in log space: an independent way to the same number."""
    logs = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) - n * math.log(2) for i in range(k, n + 1)]
    top = max(logs)
    return math.exp(top) * math.fsum(math.exp(value - top) for value in logs)


@pytest.mark.parametrize(
    ("positive", "negative", "expected"),
    [(9, 1, Fraction(11, 1024)), (10, 0, Fraction(1, 1024)), (2, 2, Fraction(11, 16)), (0, 3, Fraction(1)),
     (3, 0, Fraction(1, 8)), (0, 0, Fraction(1))],
)
def test_sign_test_tail_is_the_hand_checked_binomial_value(positive, negative, expected):
    """Null: each discordant document leans stale or decoy with chance 1/2. One-sided: p = P(Bin(n, 1/2) >= positive),
    e.g. n = 10, 9 stale: (C(10,9) + C(10,10)) / 2**10 = 11/1024; no documents: p = 1."""
    assert sign_test(documents(positive, negative)) == (positive, negative, float(expected))


def test_ties_are_dropped():
    """Documents with equal stale and decoy rates (1 of 5 each, or none of either) say nothing either way."""
    untied = sign_test(documents(9, 1))
    with_ties = [*documents(9, 1, ties=7), Unit("both", 5, 1, 1), Unit("twice", 5, 2, 2), Unit("empty", 0, 0, 0)]
    assert sign_test(with_ties) == untied == (9, 1, 11 / 1024)


def test_large_counts_stay_exact_and_finite():
    """Up to 10,000 documents the tail neither overflows nor loses tiny values: it matches a log-space sum."""
    for n, k in ((2000, 1200), (10_000, 5200), (10_000, 5600)):
        positive, negative, p_value = sign_test(documents(k, n - k))
        assert (positive, negative) == (k, n - k)
        assert p_value == pytest.approx(log_space_tail(n, k), rel=1e-9)
    assert 0 < sign_test(documents(1200, 800))[2] < 1e-9
    assert sign_test(documents(10_000, 0))[2] == 0.0  # 2**-10000 underflows to 0, never to an error


def test_pool_sums_a_problems_seeds_into_one_document():
    """Seeds of one problem share its program: they are one document, not several independent ones."""
    units = [Unit("b", 5, 1, 0), Unit("a", 5, 2, 2), Unit("b", 5, 0, 3), Unit("a", 3, 1, 0)]
    assert pool(units) == [Unit("a", 8, 3, 2), Unit("b", 10, 1, 3)]
    # Unpooled, "b" would count once for stale and once for decoy; pooled it leans decoy once.
    assert sign_test(units)[:2] == (1, 1)
    assert judge(units, ALPHA).documents == 2


def test_unit_rates():
    unit = Unit("a", 8, 3, 1)
    assert (unit.stale_rate, unit.decoy_rate, unit.excess) == (0.375, 0.125, 0.25)
    assert (Unit("a", 0, 0, 0).stale_rate, Unit("a", 0, 0, 0).decoy_rate) == (0.0, 0.0)


def test_a_reciting_model_is_contaminated():
    """60 documents all stale, none decoy: one-sided exact p = 2**-60, far below alpha = 0.05."""
    verdict = judge(documents(60, 0), ALPHA)
    assert verdict.verdict == CONTAMINATED
    assert verdict.p_value == 2.0**-60 < 1e-9
    assert (verdict.stale, verdict.decoy, verdict.samples) == (300, 0, 300)
    assert (verdict.excess, verdict.interval) == (1.0, (1.0, 1.0))


def test_an_exchangeable_model_is_not_flagged():
    """As many documents lean stale as decoy (30 each, 40 tied): p = P(Bin(60, 1/2) >= 30) > 0.5 > alpha = 0.05."""
    verdict = judge(documents(30, 30, ties=40), ALPHA)
    assert verdict.verdict == NOT_FLAGGED
    assert 0.5 < verdict.p_value < 0.6
    assert (verdict.documents, verdict.positive, verdict.negative) == (100, 30, 30)
    assert verdict.interval[0] < 0 < verdict.interval[1]


def test_too_few_documents_to_ever_reject():
    """At alpha = 0.05 / 3 the one-sided sign test needs 2**-n <= alpha, so at least 6 documents; 3 all stale
    (p = 1/8) are too few, 6 all stale (p = 1/64 = 0.0156) are enough."""
    assert minimum_documents(0.05 / 3) == 6
    verdict = judge(documents(3, 0), 0.05 / 3)
    assert (verdict.verdict, verdict.p_value) == (TOO_FEW, 1 / 8)
    assert judge(documents(6, 0), 0.05 / 3).verdict == CONTAMINATED
    assert judge(documents(6, 0), 0.0155).verdict == TOO_FEW  # 1/64 > 0.0155: it takes 7


@pytest.mark.parametrize(("alpha", "expected"), [(0.5, 1), (0.05, 5), (0.025, 6), (1 / 32, 5), (1 / 32 * 0.999, 6)])
def test_minimum_documents(alpha, expected):
    """The smallest n with 2**-n <= alpha, exact at powers of two."""
    assert minimum_documents(alpha) == expected


def test_threshold_splits_alpha_over_benchmarks():
    """Bonferroni: B benchmarks at ALPHA / B each are falsely flagged together with chance <= ALPHA."""
    assert (threshold(1), threshold(2), threshold(4)) == (ALPHA, ALPHA / 2, ALPHA / 4)


def test_excess_interval():
    """Two-sided normal interval: mean +- 1.96 s / sqrt(n) of the per-document excesses, clamped to [-1, 1]."""
    units = [Unit("a", 5, 1, 0), Unit("b", 5, 0, 0), Unit("c", 5, 2, 0), Unit("d", 5, 1, 0)]  # 0.2, 0, 0.4, 0.2
    mean, low, high = excess_interval(units)
    half = 1.959964 * math.sqrt(0.08 / 3) / 2
    assert (mean, low, high) == pytest.approx((0.2, 0.2 - half, 0.2 + half))
    assert excess_interval([Unit("a", 5, 1, 0)]) == (0.2, -1.0, 1.0)
    assert excess_interval([Unit("a", 10, 10, 0), Unit("b", 10, 10, 0), Unit("c", 10, 9, 0)])[2] == 1.0


def test_documents_needed_moves_the_right_way():
    """More excess to detect: fewer documents; more decoy answers (noise), or a stricter alpha: more documents."""
    assert documents_needed(0.1, excess=0.1) < documents_needed(0.1, excess=0.05) < documents_needed(0.1, excess=0.03)
    assert documents_needed(0.0) < documents_needed(0.05) < documents_needed(0.1) < documents_needed(0.2)
    assert documents_needed(0.1, alpha=ALPHA) < documents_needed(0.1, alpha=ALPHA / 2)


def exact_power(documents_count: int, decoy_rate: Fraction, excess: Fraction, critical: list[int]) -> Fraction:
    """The power in fractions: d discordant documents ~ Bin(N, q), each leaning stale with chance p; the test rejects
    when at least critical[d] lean stale."""
    discordance = 2 * decoy_rate + excess
    leaning = (decoy_rate + excess) / discordance
    power = Fraction(0)
    for d in range(documents_count + 1):
        rejects = sum(math.comb(d, k) * leaning**k * (1 - leaning) ** (d - k) for k in range(critical[d], d + 1))
        power += math.comb(documents_count, d) * discordance**d * (1 - discordance) ** (documents_count - d) * rejects
    return power


@pytest.mark.parametrize(("decoy_rate", "excess"), [(0.125, 0.25), (0.0, 0.25)])
def test_documents_needed_is_the_first_n_with_the_power(decoy_rate, excess):
    """Checked in exact fractions by scanning N upwards: the answer reaches 80% power at one-sided alpha = 0.05,
    and no smaller N does. The rejection counts come from the package's own sign test (p <= alpha)."""
    needed = documents_needed(decoy_rate, excess=excess, alpha=ALPHA, power=0.8)
    critical = [next(k for k in range(d + 2) if k > d or sign_test(documents(k, d - k))[2] <= ALPHA)
                for d in range(needed + 1)]
    powers = [exact_power(n, Fraction(decoy_rate), Fraction(excess), critical) for n in range(1, needed + 1)]
    assert powers[-1] >= Fraction(8, 10)
    assert all(power < Fraction(8, 10) for power in powers[:-1])


def test_documents_needed_is_quick():
    """Well under a second for decoy rates in [0, 0.2] (one second allowed, as the machine may be loaded)."""
    documents_needed.cache_clear()
    for decoy_rate in (0.0, 0.03, 0.07, 0.11, 0.16, 0.2):
        start = time.perf_counter()
        documents_needed(decoy_rate, alpha=ALPHA / 3)
        assert time.perf_counter() - start < 1.0


def test_false_alarm_rate_on_simulated_honest_models():
    """Null: stale and decoy answers exchangeable on every document (same per-document chance, rates spread over
    [0, 0.3]). 2,000 models of 200 documents x 5 samples; the one-sided exact sign test at alpha = 0.05 flags at
    most 5% of them (fewer, as the discrete test rarely attains alpha exactly). It does flag some: with the 80 to
    160 discordant documents these models have, its exact size lies between 3% and 5%."""
    rng = random.Random(20240613)
    flagged = sum(judge(honest_model(rng, 200), ALPHA).verdict == CONTAMINATED for _ in range(2000))
    assert 0.01 < flagged / 2000 <= ALPHA


def test_paired_against_a_reference_model():
    """Null: model and reference equally likely to write the published answer on each document; one-sided at 0.05.
    Only documents both ran count, and the reference's stale answers stand where the decoy's do."""
    reference = [Unit(f"s{i}", 3, 1, 0) for i in range(50)] + [Unit("elsewhere", 3, 3, 0)]
    verdict = paired_against(documents(60, 0), reference, ALPHA)
    assert (verdict.verdict, verdict.documents, verdict.positive) == (CONTAMINATED, 50, 50)
    assert (verdict.stale, verdict.decoy, verdict.samples) == (250, 50, 250)
    assert verdict.excess == pytest.approx(2 / 3)
    same = paired_against(reference, reference, ALPHA)
    assert (same.verdict, same.positive, same.negative, same.p_value) == (NOT_FLAGGED, 0, 0, 1.0)
    # 2 of 6 against 1 of 3 is the same rate: a tie, not a lean.
    assert paired_against([Unit("s0", 6, 2, 0)], reference, ALPHA).positive == 0
    # A document where either model gave no answer to compare (no samples counted) is not paired.
    silent = [Unit(f"s{i}", 0, 0, 0) for i in range(50)]
    assert paired_against(documents(60, 0), silent, ALPHA).documents == 0
    assert paired_against(silent, reference, ALPHA).documents == 0


def test_sentences():
    """One line per verdict, with p to two significant digits or as p < 1e-9."""
    contaminated = judge(documents(46, 4, ties=145), ALPHA)
    assert sentence(contaminated, "tiny", "cruxeval") == (
        "tiny recites published cruxeval answers: 46 of 195 documents stale against 4 of 195 decoy, p < 1e-9")
    quiet = replace(judge(documents(30, 30, ties=40), ALPHA), p_value=0.4123)
    assert sentence(quiet, "tiny", "cruxeval") == (
        "tiny shows no sign of recitation on cruxeval: 30 of 100 documents stale against 30 of 100 decoy, p = 0.41")
    assert sentence(replace(contaminated, p_value=0.003149), "tiny", "cruxeval").endswith(", p = 0.0031")
    few = sentence(judge(documents(3, 0), 0.05 / 3), "tiny", "cruxeval")
    assert few.startswith("tiny has too few documents on cruxeval to judge: 3,")
    assert "fewer than 6" in few
    assert f"about {documents_needed(0.0, alpha=0.05 / 3)} would detect" in few
