"""The unbiased pass@k estimator (Chen et al., 2021)."""

from __future__ import annotations

from math import comb


def pass_at_k(n: int, c: int, k: int) -> float:
    """Probability that at least one of ``k`` samples drawn from ``n`` (``c`` correct) passes.

    With fewer than ``k`` samples the estimate is pass@n.
    """
    if n <= 0:
        return 0.0
    k = min(k, n)
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)
