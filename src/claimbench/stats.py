"""Statistics over seeds: summaries with t-intervals, the signed-rank test and its inverted
interval, Holm, Friedman/Nemenyi, and how many replicates would decide a claim.

Every test scipy has comes from scipy; the exact signed-rank distribution with ties is the one
exception (see ``_wilcoxon``).
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np

CONFIDENCE = 0.95


@dataclass(frozen=True)
class Summary:
    n: int
    mean: float
    std: float
    median: float
    iqm: float
    ci_lo: float
    ci_hi: float


def iqm(values) -> float:
    from scipy import stats

    x = np.asarray(values, dtype=float)
    return float(stats.trim_mean(x, 0.25)) if x.size else float("nan")


def t_interval(values, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Student-t interval of the mean: honest coverage from a handful of seeds, where a
    percentile bootstrap covers 74-85% instead of 95%. One value: unbounded; no spread: the
    point."""
    from scipy import stats

    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return float("nan"), float("nan")
    mean = float(x.mean())
    if x.size < 2:
        return -math.inf, math.inf
    se = float(x.std(ddof=1)) / math.sqrt(x.size)
    if se == 0:
        return mean, mean
    half = float(stats.t.ppf(0.5 + confidence / 2, x.size - 1)) * se
    return mean - half, mean + half


def summarize(values) -> Summary:
    """Mean, spread and the t-interval of the mean."""
    x = np.asarray([v for v in values if v is not None], dtype=float)
    if x.size == 0:
        nan = float("nan")
        return Summary(0, nan, nan, nan, nan, nan, nan)
    lo, hi = t_interval(x)
    return Summary(int(x.size), float(x.mean()), float(x.std(ddof=1)) if x.size > 1 else 0.0,
                   float(np.median(x)), iqm(x), lo, hi)


@dataclass(frozen=True)
class Paired:
    n: int
    estimate: float  # Hodges-Lehmann estimate of the location of a - b
    ci_lo: float  # Wilcoxon-inverted interval (two one-sided bounds at 1 - alpha each)
    ci_hi: float
    p_value: float  # Wilcoxon signed-rank (Pratt's zsplit for ties), requested alternative
    mean_diff: float  # plain mean of a - b, for display


EXACT_MAX_N = 200  # above this the normal approximation is used (scipy's, with tie correction)


def _wilcoxon(d: np.ndarray, alternative: str) -> float:
    """Signed-rank p-value with zero differences kept in the ranking (Pratt/zsplit).

    Exact, conditional on the ranks, for n <= EXACT_MAX_N: the null distribution of the sum of
    positive (doubled mid-)ranks by dynamic programming. scipy's exact method refuses ties and
    zeros, and its permutation fallback costs about a second a call, too slow for inverting the
    test; this computes the same distribution (a unit test checks both). Zeros add the same
    constant to the statistic under the null and observed, so they only shape the ranks: with
    ties kept, a method tied on most pairs is not declared better by its few non-zero ones."""
    from scipy import stats

    d = np.asarray(d, dtype=float)
    if d.size == 0 or np.all(d == 0):
        return 1.0
    if alternative == "two-sided":
        return min(1.0, 2 * min(_wilcoxon(d, "greater"), _wilcoxon(d, "less")))
    if d.size > EXACT_MAX_N:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return float(stats.wilcoxon(d, alternative=alternative, zero_method="zsplit",
                                        method="asymptotic").pvalue)
    r2 = np.rint(2 * stats.rankdata(np.abs(d))).astype(np.int64)  # (n,) doubled mid-ranks
    nonzero = d != 0
    ranks = r2[nonzero]
    dist = np.zeros(int(ranks.sum()) + 1)  # P(sum of positive doubled ranks = s)
    dist[0] = 1.0
    for r in ranks:
        shifted = np.zeros_like(dist)
        shifted[r:] = dist[:-r]
        dist = 0.5 * (dist + shifted)
    t_obs = int(ranks[d[nonzero] > 0].sum())
    p = dist[t_obs:].sum() if alternative == "greater" else dist[:t_obs + 1].sum()
    return float(min(1.0, p))


def wilcoxon_p(d, alternative: str = "two-sided", shift: float = 0.0) -> float:
    """Signed-rank p-value of H0: location(d) = shift (or <= / >= for one-sided alternatives)."""
    d = np.asarray(d, dtype=float) - shift
    return _wilcoxon(d, alternative)


def walsh_averages(d) -> np.ndarray:
    """Sorted unique (d_i + d_j) / 2 for i <= j: the points where the signed-rank statistic jumps."""
    d = np.asarray(d, dtype=float)
    i, j = np.triu_indices(d.size)
    return np.unique((d[i] + d[j]) / 2.0)


class SignedRank:
    """The signed-rank test of a location shift and its inverted interval, one procedure.

    The statistic is constant between consecutive Walsh averages and jumps at them, so the test
    is evaluated at the midpoints between them (where no difference is zero). A claim "shift >
    m" is tested just above m: when m is itself a Walsh average (ties at the margin, e.g. many
    exact zeros against m = 0) the tie counts against the claim. Then the test rejects at level
    alpha exactly when m lies below the lower bound of the interval, and the interval shown is
    the one the verdict is decided on."""

    def __init__(self, d) -> None:
        self.d = np.asarray(d, dtype=float)
        w = walsh_averages(self.d) if self.d.size else np.zeros(1)
        span = max(float(w[-1] - w[0]), 1.0)
        self.w = w  # (k,)
        self.mids = np.concatenate([[w[0] - span], (w[:-1] + w[1:]) / 2.0, [w[-1] + span]])

    def _p(self, i: int, alternative: str) -> float:
        return _wilcoxon(self.d - self.mids[i], alternative)

    def p_greater(self, margin: float) -> float:
        """p-value of H0: shift <= margin against shift > margin."""
        if self.d.size == 0:
            return 1.0
        # mids[j] stands for the open interval (w[j-1], w[j]): take the one just above margin.
        return self._p(int(np.searchsorted(self.w, margin, side="right")), "greater")

    def p_less(self, margin: float) -> float:
        """p-value of H0: shift >= margin against shift < margin."""
        if self.d.size == 0:
            return 1.0
        return self._p(int(np.searchsorted(self.w, margin, side="left")), "less")

    def bounds(self, alpha: float) -> tuple[float, float]:
        """lower = the largest Walsh average below which "greater" rejects; upper likewise."""
        if self.d.size == 0:
            return -math.inf, math.inf
        last = len(self.mids) - 1
        rej_g = (lambda i: self._p(i, "greater") < alpha)  # true for a prefix of midpoints
        rej_l = (lambda i: self._p(i, "less") < alpha)  # true for a suffix
        if not rej_g(0):
            lower = -math.inf
        elif rej_g(last):
            lower = math.inf
        else:
            lo, hi = 0, last
            while hi - lo > 1:
                mid = (lo + hi) // 2
                lo, hi = (mid, hi) if rej_g(mid) else (lo, mid)
            lower = float(self.w[lo])  # the jump between mids[lo] and mids[lo + 1]
        if not rej_l(last):
            upper = math.inf
        elif rej_l(0):
            upper = -math.inf
        else:
            lo, hi = 0, last
            while hi - lo > 1:
                mid = (lo + hi) // 2
                lo, hi = (lo, mid) if rej_l(mid) else (mid, hi)
            upper = float(self.w[hi - 1])
        return lower, upper


def hodges_lehmann(d) -> float:
    d = np.asarray(d, dtype=float)
    if d.size == 0:
        return float("nan")
    i, j = np.triu_indices(d.size)
    return float(np.median((d[i] + d[j]) / 2.0))


def paired(a, b, alternative: str = "two-sided", alpha: float = 0.025) -> Paired:
    """Paired comparison of matched samples: Hodges-Lehmann estimate of a - b, its
    Wilcoxon-inverted interval (each bound at 1 - alpha; 95% two-sided by default) and the
    signed-rank p-value: one procedure, so the interval and the test agree."""
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    sr = SignedRank(d)
    lo, hi = sr.bounds(alpha)
    if alternative == "greater":
        p = sr.p_greater(0.0)
    elif alternative == "less":
        p = sr.p_less(0.0)
    else:
        p = min(1.0, 2 * min(sr.p_greater(0.0), sr.p_less(0.0)))
    return Paired(int(d.size), hodges_lehmann(d), lo, hi, p,
                  float(d.mean()) if d.size else float("nan"))


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


CANNOT = -1  # seeds_to_decide: no number of replicates would decide it with this design


def seeds_to_decide(n: int, estimate: float, sd: float, threshold: float, alpha: float,
                    floor: int = 2, cap: int = 100_000) -> int | None:
    """About how many replicates a one-sided test at level ``alpha`` (the claim's share of its
    paper's Holm family in the worst case: alpha / family size) needs, with 80% power, to tell
    ``estimate`` from ``threshold`` given spread ``sd`` (t approximation), and never fewer than
    ``floor`` (the exact signed-rank or sign test cannot reach p < alpha with fewer: 2^-n >=
    alpha). Returns ``CANNOT`` when no number would do (no gap, or no spread to shrink), None
    when the spread is unknown."""
    from scipy import stats

    gap = abs(estimate - threshold)
    if not (math.isfinite(gap) and math.isfinite(sd)) or n < 2:
        return None
    if gap == 0 or sd == 0:
        return CANNOT
    need = max(n + 1, floor)
    while need <= cap:
        t = float(stats.t.ppf(1 - alpha, need - 1)) + float(stats.t.ppf(0.8, need - 1))
        if t * sd / math.sqrt(need) < gap:
            return need
        need = need + max(1, need // 10)
    return CANNOT


def sign_test_floor(alpha: float) -> int:
    """The fewest replicates for which 2^-n < alpha (exact sign / signed-rank test)."""
    return max(1, math.floor(math.log2(1.0 / alpha)) + 1)
