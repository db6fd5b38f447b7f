"""Statistics against scipy and hand-computed values."""
import math

import numpy as np
import pytest
from scipy import stats as sps

from claimbench import stats


def test_summary_matches_numpy_and_scipy():
    x = np.array([1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0])
    s = stats.summarize(x)
    assert s.n == 8 and s.mean == pytest.approx(x.mean()) and s.std == pytest.approx(x.std(ddof=1))
    assert s.median == pytest.approx(12.0)
    assert s.iqm == pytest.approx(sps.trim_mean(x, 0.25))  # mean of the middle half
    assert s.iqm == pytest.approx((4 + 8 + 16 + 32) / 4)
    assert (s.ci_lo, s.ci_hi) == pytest.approx(stats.t_interval(x))


def test_paired_wilcoxon_matches_scipy():
    a = np.array([1.8, 2.2, 3.1, 4.0, 5.5, 6.1, 7.3])
    b = np.array([1.0, 2.0, 3.0, 3.0, 5.0, 5.9, 7.4])
    pr = stats.paired(a, b, alternative="greater")
    assert pr.p_value == pytest.approx(sps.wilcoxon(a - b, alternative="greater").pvalue)
    assert pr.mean_diff == pytest.approx(np.mean(a - b))
    d = a - b
    walsh = [(d[i] + d[j]) / 2 for i in range(7) for j in range(i, 7)]
    assert pr.estimate == pytest.approx(np.median(walsh))  # Hodges-Lehmann
    assert stats.wilcoxon_p(np.zeros(5)) == 1.0


@pytest.mark.parametrize("d", [
    np.random.default_rng(0).normal(0.3, 1, 12),
    np.random.default_rng(1).normal(0.3, 1, 40),
    np.r_[np.zeros(3), np.full(9, 0.5)],              # zeros and ties: scipy permutes
    np.round(np.random.default_rng(2).normal(0.2, 1, 12)),
])
def test_exact_signed_rank_matches_scipy(d):
    for alt in ("greater", "less"):
        assert stats.wilcoxon_p(d, alt) == pytest.approx(
            sps.wilcoxon(d, alternative=alt, zero_method="zsplit").pvalue, rel=1e-9)


def test_wilcoxon_interval_matches_the_textbook_one():
    # Without ties, the exact interval is [W_(C+1), W_(N-C)] of the N sorted Walsh averages, C
    # the largest count with P(T+ <= C) < alpha (Hollander & Wolfe, Ch. 3.3).
    d = np.random.default_rng(4).normal(0.5, 1.0, 10)
    walsh = np.sort([(d[i] + d[j]) / 2 for i in range(10) for j in range(i, 10)])
    null = np.array([sum(r for r, s in zip(range(1, 11), f"{m:010b}") if s == "1")
                     for m in range(1024)])
    c = max(c for c in range(56) if np.mean(null <= c) < 0.025)
    lo, hi = stats.SignedRank(d).bounds(0.025)
    assert lo == pytest.approx(walsh[c]) and hi == pytest.approx(walsh[len(walsh) - 1 - c])


def test_ties_at_the_margin_count_against_the_claim():
    d = np.r_[np.zeros(94), np.full(6, 1e-12)]
    sr = stats.SignedRank(d)
    assert sr.p_greater(0.0) > 0.5 and sr.bounds(0.05)[0] <= 0.0


def test_holm_by_hand():
    # p = (0.01, 0.04, 0.03, 0.005), m = 4: sorted 0.005*4=0.02, 0.01*3=0.03, 0.03*2=0.06,
    # 0.04*1=0.04 -> monotone 0.06.
    assert stats.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert stats.holm([0.9, 0.8]) == pytest.approx([1.0, 1.0])


def test_friedman_and_nemenyi():
    rng = np.random.default_rng(1)
    scores = rng.normal(size=(10, 3)) + np.array([0.0, 1.0, 2.0])
    rt = stats.rank_test(scores, ["a", "b", "c"], higher_is_better=True)
    assert rt.friedman_p == pytest.approx(sps.friedmanchisquare(*scores.T).pvalue)
    assert rt.avg_ranks[2] < rt.avg_ranks[0]  # c has the highest scores: best rank
    # Demsar (2006), Table 5: q_0.05 for k=3 is 2.343; CD = q sqrt(k(k+1)/(6N)).
    assert rt.cd == pytest.approx(2.343 * math.sqrt(3 * 4 / 60), rel=1e-3)
    assert sum(rt.avg_ranks) == pytest.approx(6.0)


def test_seeds_to_decide():
    n = stats.seeds_to_decide(5, 0.5, 1.0, 0.0, 0.05)
    # t approximation: (t_0.95 + t_0.8) sd / sqrt(n) < gap near n = (1.645 + 0.842)^2 * 4 = 25
    assert 25 <= n <= 30
    assert stats.seeds_to_decide(5, 0.0, 1.0, 0.0, 0.05) == stats.CANNOT
    assert stats.seeds_to_decide(1, 0.5, 1.0, 0.0, 0.05) is None


def test_t_interval():
    x = np.array([1.0, 2.0, 3.0, 4.0])
    lo, hi = stats.t_interval(x)
    half = sps.t.ppf(0.975, 3) * x.std(ddof=1) / 2
    assert (lo, hi) == pytest.approx((2.5 - half, 2.5 + half))
    assert stats.t_interval([2.0, 2.0]) == (2.0, 2.0)
