"""Student-t machinery shared by means, log ratios, TOST, slopes and Welch differences."""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

from .outcome import ALPHA, Outcome, Tested, _interval, _need, _ours


def _fit(x: np.ndarray, y: np.ndarray) -> tuple[float, float, int]:
    """Least-squares slope, its standard error and residual degrees of freedom."""
    from scipy import stats as sps

    fit = sps.linregress(x, y)
    se = float(fit.stderr)
    if not math.isfinite(se) and x.size > 2 and np.ptp(x) > 0:
        # scipy gives nan when y is constant (r = 0/0); the OLS standard error is then 0
        resid = y - (fit.intercept + fit.slope * x)
        se = math.sqrt(float(resid @ resid) / (x.size - 2) / float(((x - x.mean()) ** 2).sum()))
    return float(fit.slope), se, int(x.size - 2)


def _t_judge(est: float, se: float, dof: float, lo: float, hi: float, n: int, label: str,
             threshold: str, transform: Callable[[float], float] = float,
             need: Callable[[], int | None] | None = None) -> Tested:
    """Intersection-union t-test that ``est`` (standard error ``se``, ``dof`` degrees of
    freedom) lies in (lo, hi); its interval at level alpha is the test's dual. Means, mean log
    ratios, TOST, slopes and Welch differences all reduce to it. ``transform`` maps the
    estimate and interval for display (exp for log ratios); ``need`` estimates the replicates
    that would decide an inconclusive claim."""
    from scipy import stats as sps

    usable = dof > 0 and math.isfinite(se)

    def one_sided(bound: float, upper: bool) -> float:
        if not math.isfinite(bound):
            return 0.0
        if not usable:
            return 1.0
        if se == 0:  # no spread: the value is the value
            return 0.0 if (est < bound if upper else est > bound) else 1.0
        t = (est - bound) / se
        return float(sps.t.cdf(t, dof) if upper else sps.t.sf(t, dof))

    p = max(one_sided(lo, False), one_sided(hi, True))

    def decide(alpha: float) -> Outcome:
        if usable:
            half = float(sps.t.ppf(1 - alpha, dof)) * se
            ci = (est - half, est + half)
        else:
            ci = (-math.inf, math.inf)
        verdict = _interval(ci, lo, hi)
        shown = (transform(ci[0]), transform(ci[1]))
        wanted = need() if (need and verdict == "inconclusive") else None
        return Outcome(verdict, transform(est), shown, p, n, label, wanted, threshold,
                       _ours(transform(est), shown))

    return Tested(p, decide)


def _t_test(x: np.ndarray, lo: float, hi: float, label: str, threshold: str,
            transform: Callable[[float], float] = float, alpha_floor: float = ALPHA) -> Tested:
    """The mean of ``x`` lies in (lo, hi): one-sample t."""
    n = int(x.size)
    mean = float(x.mean())
    se = float(np.std(x, ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    return _t_judge(mean, se, n - 1, lo, hi, n, label + f" ({n} units, t)", threshold,
                    transform, lambda: _need(x, mean, lo, hi, alpha_floor))



def _welch_dof(v1: float, d1: float, v2: float, d2: float) -> float:
    """Welch-Satterthwaite degrees of freedom of a difference with variances v1, v2."""
    if d1 <= 0 or d2 <= 0:
        return 0.0
    den = v1 ** 2 / d1 + v2 ** 2 / d2
    return (v1 + v2) ** 2 / den if den > 0 else float(d1 + d2)

