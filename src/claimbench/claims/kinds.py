"""Statistics of the kinds that read one method's values or paired values: value (mean, median,
max/min), ratio, better, equivalent."""
from __future__ import annotations

import math

import numpy as np

from .. import stats
from ..checks import Better, Equivalent, Ratio, Value
from .evidence import Evidence
from .outcome import (TIE_RTOL, NoEvidence, Outcome, Tested, _fmt, _fmt_bounds, _interval,
                      _ours)
from .ttests import _t_test


def _stat_values(c, ev: Evidence, method: str) -> np.ndarray:
    return np.array(list(ev.values(method, c.metric, c.where).values()))


def judge_value(c: Value, ev: Evidence, method: str, alpha_floor: float) -> Tested:
    x = _stat_values(c, ev, method)
    lo, hi = c.bounds()
    # mean and median are judged on an interval against the open region (lo, hi) (_interval);
    # max and min count runs against the closed bound
    threshold = f"{c.stat} {_fmt_bounds(lo, hi, open_=c.stat in ('mean', 'median'))}"
    if c.stat == "mean":
        return _t_test(x, lo, hi, f"mean of {c.metric}", threshold, alpha_floor=alpha_floor)
    if c.stat == "median":
        return _median_test(x, lo, hi, c.metric, threshold, alpha_floor)
    return _extreme_test(x, lo, hi, c.stat, c.metric, threshold, alpha_floor)


def _median_test(x, lo, hi, metric, threshold, alpha_floor) -> Tested:
    from scipy import stats as sps

    def res(bound, alternative):
        return sps.quantile_test(x, q=bound, p=0.5, alternative=alternative)

    p = max(0.0 if not math.isfinite(lo) else float(res(lo, "greater").pvalue),
            0.0 if not math.isfinite(hi) else float(res(hi, "less").pvalue))
    point = float(np.median(x))

    def decide(alpha: float) -> Outcome:
        ci_lo = float(res(point, "greater").confidence_interval(1 - alpha).low)
        ci_hi = float(res(point, "less").confidence_interval(1 - alpha).high)
        ci = (ci_lo, ci_hi)
        verdict = _interval(ci, lo, hi)
        need = None
        if verdict == "inconclusive":
            need = stats.sign_test_floor(alpha_floor) if x.size < stats.sign_test_floor(
                alpha_floor) else stats.CANNOT
        return Outcome(verdict, point, ci, p, int(x.size),
                       f"median of {metric} ({x.size} units, sign-test interval)", need,
                       threshold, _ours(point, ci))

    return Tested(p, decide)


def _extreme_test(x, lo, hi, stat, metric, threshold, alpha_floor) -> Tested:
    """max <= hi / min >= lo: every run satisfies it (universal); max >= lo / min <= hi: some
    run does (existential). One run refutes a universal statement; a sign test over runs
    (H0: a run violates it with probability >= 1/2, p = 2^-n) supports it. A witness proves an
    existential one."""
    n = int(x.size)
    point = float(np.max(x) if stat == "max" else np.min(x))
    universal_hi = stat == "max" and math.isfinite(hi)
    universal_lo = stat == "min" and math.isfinite(lo)
    exist_lo = stat == "max" and math.isfinite(lo)
    exist_hi = stat == "min" and math.isfinite(hi)
    violations = int(np.sum(x > hi)) if universal_hi else 0
    violations += int(np.sum(x < lo)) if universal_lo else 0
    witnesses = True
    if exist_lo:
        witnesses = witnesses and bool(np.any(x >= lo))
    if exist_hi:
        witnesses = witnesses and bool(np.any(x <= hi))
    universal = universal_hi or universal_lo
    if violations or not witnesses:
        p = 1.0
    else:
        p = 0.5 ** n if universal else 0.0
    refuted = violations > 0

    def decide(alpha: float) -> Outcome:
        if refuted:
            verdict = "not_reproduced"
        elif not witnesses:
            verdict = "inconclusive"
        else:
            verdict = "reproduced" if p < alpha else "inconclusive"
        parts = []
        if universal:
            bound = 1 - alpha ** (1 / n) if not refuted else None
            parts.append(f"{violations}/{n} units violate it"
                         + (f" (violation rate <= {bound:.2g} at level {alpha:.2g}; sign test "
                            f"p = 2^-{n})" if bound is not None else ""))
        if exist_lo or exist_hi:
            parts.append("a witness exists" if witnesses else "no unit is a witness")
        need = None
        if verdict == "inconclusive" and universal and witnesses:
            need = stats.sign_test_floor(alpha_floor)
        return Outcome(verdict, point, None, p, n, f"{stat} of {metric} over {n} units: "
                       + "; ".join(parts), need, threshold, f"{_fmt(point)} ({violations}/{n} "
                       "violate)" if universal else _fmt(point))

    return Tested(p, decide)


def _ratio_logs(c: Ratio, ev: Evidence, num: str, den: str) -> np.ndarray:
    a, b = ev.pairs(num, den, c.metric, c.where)
    if np.any(a <= 0) or np.any(b <= 0):
        raise NoEvidence("error", f"ratio of {c.metric!r} needs positive values")
    return np.log(a / b)


def judge_ratio(c: Ratio, ev: Evidence, alpha_floor: float) -> Tested:
    logs = _ratio_logs(c, ev, c.numerator, c.denominator)
    lo = math.log(c.at_least) if c.at_least is not None else -math.inf
    hi = math.log(c.at_most) if c.at_most is not None else math.inf
    threshold = "ratio " + _fmt_bounds(math.exp(lo), math.exp(hi) if math.isfinite(hi)
                                       else math.inf, open_=True)
    if c.at_least is None:
        threshold = f"ratio < {c.at_most:.4g}" if c.at_most is not None else "any value"
    return _t_test(logs, lo, hi, f"geometric mean of {c.numerator}/{c.denominator} on "
                   f"{c.metric}", threshold, transform=math.exp, alpha_floor=alpha_floor)


def judge_better(c: Better, ev: Evidence, higher: bool, alpha_floor: float) -> Tested:
    a, b = ev.pairs(c.method, c.baseline, c.metric, c.where)
    imp = (a - b) if higher else (b - a)  # (units,)
    # A difference at floating-point noise is a tie (two runs that agree up to rounding), not
    # a win: otherwise a lower bound of 3e-17 would clear a margin of 0.
    imp = np.where(np.abs(imp) <= TIE_RTOL * np.maximum(np.abs(a), np.abs(b)), 0.0, imp)
    sr = stats.SignedRank(imp)
    p = sr.p_greater(c.margin)
    est = stats.hodges_lehmann(imp)
    n = int(imp.size)

    def decide(alpha: float) -> Outcome:
        ci = sr.bounds(alpha)
        if ci[0] > c.margin:  # equivalently p < alpha
            verdict = "reproduced"
        elif ci[1] < c.margin:  # equivalently sr.p_less(margin) < alpha
            verdict = "not_reproduced"
        else:
            verdict = "inconclusive"
        need = None
        if verdict == "inconclusive" and n > 1:
            need = stats.seeds_to_decide(n, est, float(np.std(imp, ddof=1)), c.margin,
                                         alpha_floor, stats.sign_test_floor(alpha_floor))
        return Outcome(verdict, est, ci, p, n,
                       f"paired improvement of {c.method} over {c.baseline} on {c.metric} "
                       f"({'higher' if higher else 'lower'} is better; {n} units): "
                       "Hodges-Lehmann shift, Wilcoxon signed-rank (ties kept)", need,
                       f"improvement > {c.margin:g}", _ours(est, ci))

    return Tested(p, decide)



def judge_equivalent(c: Equivalent, ev: Evidence, alpha_floor: float) -> Tested:
    a, b = ev.pairs(c.a, c.b, c.metric, c.where)
    m = c.margin * abs(float(b.mean())) if c.rel else c.margin
    d = a - b
    return _t_test(d, -m, m, f"paired difference {c.a} - {c.b} on {c.metric} (TOST)",
                   f"|difference| < {m:.4g}", alpha_floor=alpha_floor)

