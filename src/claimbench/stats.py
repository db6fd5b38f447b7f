"""Statistics over seeds: summaries with bootstrap CIs, paired tests, Holm, Friedman/Nemenyi.

Every test scipy has comes from scipy. Bootstraps are seeded, so a report is reproducible.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np

CONFIDENCE = 0.95
N_RESAMPLES = 2000
BOOT_SEED = 20260101


@dataclass(frozen=True)
class Summary:
    n: int
    mean: float
    std: float
    median: float
    iqm: float
    ci_lo: float
    ci_hi: float


def bootstrap_ci(values, statistic=np.mean, confidence: float = CONFIDENCE,
                 seed: int = BOOT_SEED) -> tuple[float, float]:
    """Percentile bootstrap CI of ``statistic`` (scipy.stats.bootstrap, seeded).

    Fewer than two values, or values that are all equal, give the degenerate CI
    at the point estimate: there is no spread to resample.
    """
    from scipy import stats

    x = np.asarray(values, dtype=float)
    point = float(statistic(x)) if x.size else float("nan")
    if x.size < 2 or np.ptp(x) == 0:
        return point, point
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = stats.bootstrap((x,), lambda s, axis: statistic(s, axis=axis),
                              confidence_level=confidence, n_resamples=N_RESAMPLES,
                              method="percentile", vectorized=True,
                              rng=np.random.default_rng(seed))
    lo, hi = float(res.confidence_interval.low), float(res.confidence_interval.high)
    return min(lo, point), max(hi, point)


def iqm(values) -> float:
    from scipy import stats

    x = np.asarray(values, dtype=float)
    return float(stats.trim_mean(x, 0.25)) if x.size else float("nan")


def summarize(values, seed: int = BOOT_SEED) -> Summary:
    x = np.asarray([v for v in values if v is not None], dtype=float)
    if x.size == 0:
        nan = float("nan")
        return Summary(0, nan, nan, nan, nan, nan, nan)
    lo, hi = bootstrap_ci(x, seed=seed)
    return Summary(int(x.size), float(x.mean()), float(x.std(ddof=1)) if x.size > 1 else 0.0,
                   float(np.median(x)), iqm(x), lo, hi)


@dataclass(frozen=True)
class Paired:
    n: int
    mean_diff: float  # mean of (a - b)
    ci_lo: float
    ci_hi: float
    p_value: float  # Wilcoxon signed-rank, with the requested alternative


def wilcoxon_p(d, alternative: str = "two-sided") -> float:
    """Wilcoxon signed-rank p-value of differences ``d`` (scipy); all-zero differences give 1."""
    from scipy import stats

    d = np.asarray(d, dtype=float)
    if d.size == 0 or np.all(d == 0):
        return 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(stats.wilcoxon(d, alternative=alternative, zero_method="wilcox").pvalue)


def paired(a, b, alternative: str = "two-sided", seed: int = BOOT_SEED) -> Paired:
    """Paired comparison of matched samples: mean of a - b, its bootstrap CI, Wilcoxon p."""
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    lo, hi = bootstrap_ci(d, seed=seed)
    return Paired(int(d.size), float(d.mean()) if d.size else float("nan"), lo, hi,
                  wilcoxon_p(d, alternative))


def holm(pvalues) -> list[float]:
    """Holm step-down adjusted p-values (scipy has no Holm; statsmodels' multipletests agrees)."""
    p = np.asarray(pvalues, dtype=float)
    m = p.size
    order = np.argsort(p)
    adjusted = np.empty(m)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adjusted[i] = running
    return adjusted.tolist()


@dataclass(frozen=True)
class RankTest:
    methods: list[str]
    avg_ranks: list[float]  # 1 = best
    friedman_p: float | None
    cd: float | None  # Nemenyi critical difference at alpha = 0.05


def rank_test(scores: np.ndarray, methods: list[str], higher_is_better: bool,
              alpha: float = 0.05) -> RankTest:
    """Average ranks over blocks (rows = datasets or (dataset, seed) blocks, cols = methods),
    Friedman test and the Nemenyi critical difference (Demsar 2006)."""
    from scipy import stats

    s = np.asarray(scores, dtype=float)  # (blocks, k)
    n, k = s.shape
    ranks = stats.rankdata(-s if higher_is_better else s, axis=1)  # (blocks, k)
    avg = ranks.mean(axis=0)
    p = None
    if k >= 3 and n >= 2:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            p = float(stats.friedmanchisquare(*s.T).pvalue)
            if math.isnan(p):
                p = 1.0
    cd = None
    if k >= 2 and n >= 1:
        q = float(stats.studentized_range.ppf(1 - alpha, k, np.inf)) / math.sqrt(2)
        cd = q * math.sqrt(k * (k + 1) / (6.0 * n))
    return RankTest(list(methods), avg.tolist(), p, cd)


def seeds_to_decide(n: int, mean: float, sd: float, threshold: float) -> int | None:
    """About how many paired seeds a one-sided test at 5% with 80% power needs to tell
    ``mean`` from ``threshold`` given spread ``sd`` (normal approximation)."""
    gap = abs(mean - threshold)
    if n < 2 or gap == 0 or not math.isfinite(sd):
        return None
    return max(n + 1, math.ceil(((1.645 + 0.842) * sd / gap) ** 2))
