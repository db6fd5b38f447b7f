"""Statistics of the kinds that fit a curve or compare scopes: slope, slope_diff, better_diff,
growth, rank."""
from __future__ import annotations

import math

import numpy as np

from .. import stats
from ..checks import BetterDiff, Growth, Rank, Slope, SlopeDiff
from .evidence import Evidence, _matches
from .outcome import NoEvidence, Outcome, Tested, _fmt_bounds, _ours
from .ttests import _fit, _t_judge, _welch_dof


def _slope_data(c: Slope, ev: Evidence, method: str) -> tuple[np.ndarray, np.ndarray]:
    key = "dataset_params" if c.x_from == "dataset" else "method_params"
    rows = ev.method_rows(method, c.where)
    for r in rows:
        if c.x not in r[key]:
            raise NoEvidence("error", f"slope: parameter {c.x!r} not among "
                             f"{sorted(r[key])} of {method!r}")
    vals = ev.values(method, c.metric, c.where, extra=lambda r: (float(r[key][c.x]),))
    # With a declared unit the x value leads the key; with cells, read it back from the row.
    xs = []
    by_cell = {(r["dataset"], r["rep"]): float(r[key][c.x]) for r in rows}
    for k in vals:
        xs.append(by_cell[(k[0], k[1])] if not ev.unit else k[0])
    x, y = np.array(xs, dtype=float), np.array(list(vals.values()), dtype=float)
    if c.log_x:
        if np.any(x <= 0):
            raise NoEvidence("error", f"slope: log of non-positive {c.x!r}")
        x = np.log(x)
    if c.log_y:
        if np.any(y <= 0):
            raise NoEvidence("error", f"slope: log of non-positive {c.metric!r} values")
        y = np.log(y)
    if np.unique(x).size < 2 or x.size < 3:
        raise NoEvidence("error", f"slope needs at least 3 units and 2 distinct {c.x!r} values")
    return x, y


def judge_slope(c: Slope, ev: Evidence, method: str, alpha_floor: float) -> Tested:
    from scipy import stats as sps

    x, y = _slope_data(c, ev, method)
    slope, se, dof = _fit(x, y)
    axes = f"{'log ' if c.log_y else ''}{c.metric} vs {'log ' if c.log_x else ''}{c.x}"

    def need() -> int:
        bound = c.lo if abs(slope - c.lo) < abs(slope - c.hi) else c.hi
        gap = abs(slope - bound)
        if gap == 0 or not math.isfinite(se) or se == 0:
            return stats.CANNOT
        z = float(sps.norm.ppf(1 - alpha_floor)) + 0.842  # se shrinks like 1/sqrt(units)
        return max(x.size + 1, math.ceil(x.size * (z * se / gap) ** 2))

    return _t_judge(slope, se, dof, c.lo, c.hi, int(x.size),
                    f"least-squares slope of {axes} ({x.size} units, t)",
                    f"slope {_fmt_bounds(c.lo, c.hi, open_=True)}", need=need)



def judge_slope_diff(c: SlopeDiff, ev: Evidence) -> Tested:
    other = c.other or c.method
    other_where = c.where if c.other_where is None else c.other_where
    first = Slope(c.method, c.metric, c.x, log_x=c.log_x, log_y=c.log_y, x_from=c.x_from,
                  where=c.where)
    second = Slope(other, c.metric, c.x, log_x=c.log_x, log_y=c.log_y, x_from=c.x_from,
                   where=other_where)
    s1, se1, d1 = _fit(*_slope_data(first, ev, c.method))
    s2, se2, d2 = _fit(*_slope_data(second, ev, other))
    dof = _welch_dof(se1 ** 2, d1, se2 ** 2, d2)
    label = (f"slope of {c.method}{' ' + str(dict(c.where)) if c.where else ''} minus slope of "
             f"{other}{' ' + str(dict(other_where)) if other_where else ''} "
             f"({s1:.4g} - {s2:.4g}; Welch t, {dof:.1f} dof)")
    return _t_judge(s1 - s2, math.hypot(se1, se2), dof, c.lo, c.hi, d1 + d2 + 4, label,
                         f"slope difference {_fmt_bounds(c.lo, c.hi, open_=True)}")


def judge_better_diff(c: BetterDiff, ev: Evidence, higher: bool) -> Tested:
    def improvements(where) -> np.ndarray:
        a, b = ev.pairs(c.method, c.baseline, c.metric, where)
        return (a - b) if higher else (b - a)  # (units,)

    i1, i2 = improvements(c.where), improvements(c.other_where)
    v1 = float(np.var(i1, ddof=1)) / i1.size if i1.size > 1 else math.inf
    v2 = float(np.var(i2, ddof=1)) / i2.size if i2.size > 1 else math.inf
    dof = _welch_dof(v1, i1.size - 1, v2, i2.size - 1)
    est = float(i1.mean() - i2.mean())
    label = (f"improvement of {c.method} over {c.baseline} on {c.metric} in {dict(c.where)} "
             f"minus in {dict(c.other_where)} ({i1.size} and {i2.size} units; Welch t)")
    return _t_judge(est, math.sqrt(v1 + v2), dof, c.margin, math.inf, int(i1.size + i2.size),
                         label, f"difference of improvements > {c.margin:g}")


def judge_growth(c: Growth, ev: Evidence) -> Tested:
    from scipy import stats as sps

    if c.form not in ("exponential", "polynomial"):
        raise ValueError(f"Growth.form {c.form!r}: use 'exponential' or 'polynomial'")
    x, logy = _slope_data(Slope(c.method, c.metric, c.x, log_x=False, log_y=True,
                                x_from=c.x_from, where=c.where), ev, c.method)
    if np.any(x <= 0):
        raise NoEvidence("error", f"growth: the polynomial fit needs positive {c.x!r}")
    n = int(x.size)
    fits = {"exponential": x, "polynomial": np.log(x)}
    named, other = c.form, "polynomial" if c.form == "exponential" else "exponential"
    coef, se, dof = _fit(fits[named], logy)

    def loglik(t: np.ndarray) -> np.ndarray:
        slope, icpt = np.polyfit(t, logy, 1)
        r = logy - (icpt + slope * t)  # (n,)
        var = max(float(np.mean(r ** 2)), 1e-300)
        return -0.5 * np.log(2 * np.pi * var) - r ** 2 / (2 * var)

    m = loglik(fits[named]) - loglik(fits[other])  # (n,) Vuong's pointwise differences
    with np.errstate(all="ignore"):
        p_fit = 1.0 if np.ptp(m) == 0 and m.mean() <= 0 else (
            0.0 if np.ptp(m) == 0 else float(sps.ttest_1samp(m, 0.0, alternative="greater").pvalue))
        p_other = 1.0 if np.ptp(m) == 0 and m.mean() >= 0 else (
            0.0 if np.ptp(m) == 0 else float(sps.ttest_1samp(m, 0.0, alternative="less").pvalue))
    tau = sps.kendalltau(x, logy, alternative="greater")
    tau_less = float(sps.kendalltau(x, logy, alternative="less").pvalue)
    p_coef = float(sps.t.sf(coef / se, dof)) if se > 0 and dof > 0 else (0.0 if coef > 0 else 1.0)
    p = max(float(tau.pvalue), p_coef, p_fit)

    def decide(alpha: float) -> Outcome:
        half = float(sps.t.ppf(1 - alpha, dof)) * se if dof > 0 else math.inf
        ci = (coef - half, coef + half) if math.isfinite(half) else (-math.inf, math.inf)
        if p < alpha:
            verdict = "reproduced"
        elif p_other < alpha or tau_less < alpha:
            verdict = "not_reproduced"
        else:
            verdict = "inconclusive"
        detail = (f"{named} against {other} growth of {c.metric} in {c.x} ({n} units): "
                  f"Kendall tau {float(tau.statistic):.3g} (p {float(tau.pvalue):.3g}), "
                  f"{named} coefficient {coef:.4g} (p {p_coef:.3g}), Vuong: {named} fits better "
                  f"p {p_fit:.3g}, {other} fits better p {p_other:.3g}")
        return Outcome(verdict, coef, ci, p, n, detail, None,
                       f"increasing, {named} (coefficient > 0) and a better fit than {other}",
                       _ours(coef, ci))

    return Tested(p, decide)


def _rank_scores(c: Rank, ev: Evidence) -> tuple[list[str], np.ndarray]:
    methods = list(dict.fromkeys(c.among)) if c.among else sorted(
        {r["method"] for r in ev.rows if _matches(r, dict(c.where))})
    if c.method not in methods:
        methods.append(c.method)
    vals = {}
    for m in methods:
        try:
            vals[m] = ev.values(m, c.metric, c.where)
        except NoEvidence:
            if c.among or m == c.method:
                raise  # a named method without results cannot be ranked
    methods = [m for m in methods if m in vals]
    blocks = [k for k in vals[c.method] if all(k in v for v in vals.values())]
    if not blocks:
        raise NoEvidence("error", "rank: no unit where every method has a value")
    scores = np.array([[vals[m][b] for m in methods] for b in blocks])  # (blocks, methods)
    return methods, scores


def judge_rank(c: Rank, ev: Evidence, higher: bool, alpha_floor: float) -> Tested:
    methods, scores = _rank_scores(c, ev)
    rt = stats.rank_test(scores, methods, higher)
    j = methods.index(c.method)
    others = [i for i in range(len(methods)) if i != j]
    sign = 1.0 if higher else -1.0
    diffs = [sign * (scores[:, j] - scores[:, i]) for i in others]  # each (blocks,)
    ahead = stats.holm([stats.wilcoxon_p(d, "greater") for d in diffs]) if others else []
    behind = stats.holm([stats.wilcoxon_p(d, "less") for d in diffs]) if others else []
    # top-k: ahead of all but k-1 others, each by a Holm-corrected paired test; and Friedman.
    need_ahead = max(0, len(others) - (c.k - 1))
    p_pair = sorted(ahead)[need_ahead - 1] if need_ahead else 0.0
    p_friedman = rt.friedman_p if rt.friedman_p is not None else 0.0  # 2 methods: pairs only
    p = max(p_pair, p_friedman)
    avg = dict(zip(methods, rt.avg_ranks))
    mine = avg[c.method]
    position = 1 + sum(1 for m, r in avg.items() if m != c.method and r <= mine)

    def decide(alpha: float) -> Outcome:
        if p < alpha:
            verdict = "reproduced"
        elif sum(1 for q in behind if q < alpha) >= c.k:
            verdict = "not_reproduced"
        else:
            verdict = "inconclusive"
        n_ahead = sum(1 for q in ahead if q < alpha)
        fr = f"Friedman p = {rt.friedman_p:.3g}; " if rt.friedman_p is not None else ""
        detail = (f"average rank {mine:.2f} (position {position} of {len(methods)}) over "
                  f"{scores.shape[0]} blocks; {fr}significantly ahead of {n_ahead} of "
                  f"{len(others)} others (Holm-corrected signed-rank)")
        if rt.cd is not None:
            detail += f"; Nemenyi CD {rt.cd:.2f}"
        return Outcome(verdict, float(position), None, p, int(scores.shape[0]), detail, None,
                       f"top {c.k}, ahead of {need_ahead} others significantly",
                       f"position {position} (avg rank {mine:.2f})")

    return Tested(p, decide)

