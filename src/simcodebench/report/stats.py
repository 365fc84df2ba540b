"""Interval and estimator arithmetic for pass rates: Wilson score intervals, unbiased pass@k, and the paired
comparison of two agents on the same items (exact McNemar test, paired bootstrap of the difference)."""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence

Z95 = 1.959963984540054
"""Two-sided 95% standard-normal quantile."""


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion ``successes / n``.

    Returns ``(low, high)`` within [0, 1]; ``n == 0`` carries no information and gives ``(0.0, 1.0)``.
    Raises ``ValueError`` unless ``0 <= successes <= n``.
    """
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"wilson_interval needs 0 <= successes <= n, got successes={successes}, n={n}")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    center = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, center - half)
    high = 1.0 if successes == n else min(1.0, center + half)
    return low, high


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k from ``n`` samples of which ``c`` passed: ``1 - C(n-c, k) / C(n, k)``.

    Computed as ``1 - prod_{i=n-c+1}^{n} (1 - k/i)``, which never forms large binomials. Raises
    ``ValueError`` for ``k < 1``, ``k > n`` (too few samples to estimate pass@k) or ``c`` outside [0, n].
    """
    if k < 1:
        raise ValueError(f"pass@k needs k >= 1, got k={k}")
    if k > n:
        raise ValueError(f"pass@{k} needs at least {k} samples per case, got n={n}; lower k or draw more")
    if not 0 <= c <= n:
        raise ValueError(f"pass@k needs 0 <= c <= n, got c={c}, n={n}")
    if n - c < k:
        return 1.0
    return 1.0 - math.prod(1.0 - k / i for i in range(n - c + 1, n + 1))


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar p-value from the discordant pairs: ``only_a`` pairs where only A passed,
    ``only_b`` where only B passed.

    Under the null hypothesis (A and B pass equally often) each discordant pair is a fair coin, so the p-value
    is the two-sided binomial test of ``only_a`` successes in ``only_a + only_b`` trials at 1/2 (``scipy``'s
    ``binomtest``). No discordant pair carries no evidence: 1.0.
    """
    if only_a < 0 or only_b < 0:
        raise ValueError(f"mcnemar_exact needs counts >= 0, got {only_a}, {only_b}")
    n = only_a + only_b
    if n == 0:
        return 1.0
    from scipy.stats import binomtest

    return float(binomtest(only_a, n, 0.5).pvalue)


def paired_bootstrap(
    a: Sequence[float],
    b: Sequence[float],
    clusters: Sequence[Hashable],
    resamples: int = 10_000,
    seed: int = 0,
    level: float = 0.95,
) -> tuple[float, float, float]:
    """The difference in pass rate ``mean(a) - mean(b)`` over paired outcomes, with a percentile bootstrap
    interval at ``level``.

    ``a[i]`` and ``b[i]`` are the two agents' verdicts on the same item (a sample of a case; or two rates in
    [0, 1] on the same item, such as a family's published and fresh pass rates); the bootstrap
    draws whole ``clusters`` (the cases) with replacement, keeping each item's pair together, since samples of
    one case are not independent. Seeded: the same inputs give the same interval. Returns
    ``(difference, low, high)``; raises ``ValueError`` on no pairs or sequences of unequal length.
    """
    import numpy as np

    if not len(a) == len(b) == len(clusters):
        raise ValueError(f"paired_bootstrap needs sequences of one length, got {len(a)}, {len(b)}, {len(clusters)}")
    if not len(a):
        raise ValueError("paired_bootstrap needs at least one pair")
    diff = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    _, index = np.unique(np.asarray([str(c) for c in clusters]), return_inverse=True)
    sums = np.bincount(index, weights=diff)
    sizes = np.bincount(index).astype(float)
    observed = float(sums.sum() / sizes.sum())
    if resamples < 1:
        raise ValueError(f"paired_bootstrap needs resamples >= 1, got {resamples}")
    rng = np.random.default_rng(seed)
    chunk = max(1, 2_000_000 // len(sums))  # at most ~16 MB of draws at a time, however many cases
    estimates = np.empty(resamples)
    for start in range(0, resamples, chunk):
        draws = rng.integers(0, len(sums), size=(min(chunk, resamples - start), len(sums)))
        estimates[start : start + len(draws)] = sums[draws].sum(axis=1) / sizes[draws].sum(axis=1)
    tail = (1.0 - level) / 2
    low, high = np.quantile(estimates, [tail, 1.0 - tail])
    return observed, float(low), float(high)
