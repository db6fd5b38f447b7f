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
    assert s.ci_lo <= s.mean <= s.ci_hi and s.ci_lo > x.min() and s.ci_hi < x.max()


def test_bootstrap_ci_is_seeded_and_degenerates_without_spread():
    x = np.random.default_rng(0).normal(size=20)
    assert stats.bootstrap_ci(x) == stats.bootstrap_ci(x)
    assert stats.bootstrap_ci([3.0, 3.0, 3.0]) == (3.0, 3.0)
    assert stats.bootstrap_ci([5.0]) == (5.0, 5.0)
    # The percentile CI of the mean of N(0,1) x 20 is about +-1.96/sqrt(20).
    lo, hi = stats.bootstrap_ci(x)
    assert (hi - lo) == pytest.approx(2 * 1.96 * x.std() / math.sqrt(20), rel=0.3)


def test_paired_wilcoxon_matches_scipy():
    a = np.array([1.8, 2.2, 3.1, 4.0, 5.5, 6.1, 7.3])
    b = np.array([1.0, 2.0, 3.0, 3.0, 5.0, 5.9, 7.4])
    pr = stats.paired(a, b, alternative="greater")
    assert pr.p_value == pytest.approx(sps.wilcoxon(a - b, alternative="greater").pvalue)
    assert pr.mean_diff == pytest.approx(np.mean(a - b))
    assert stats.wilcoxon_p(np.zeros(5)) == 1.0


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
    n = stats.seeds_to_decide(5, 0.5, 1.0, 0.0)
    assert n == math.ceil(((1.645 + 0.842) * 2) ** 2)
    assert stats.seeds_to_decide(5, 0.0, 1.0, 0.0) is None
