"""Checking claims against stored results: one statistic per verdict, foils, one Holm family.

Every check reduces its evidence to one statistic with a confidence interval that is the exact
dual of its test, so the interval shown is the one the verdict is decided on:

* ``better``: the Hodges-Lehmann shift of the paired improvements and its Wilcoxon-inverted
  interval (signed-rank test with ties kept, exact where scipy allows);
* ``value`` (mean), ``ratio`` (mean log ratio), ``equivalent`` (TOST), ``slope`` (least
  squares): Student-t intervals; ``value`` (median): the order-statistic interval of the sign
  test; ``value`` (max/min): a universal statement ("every run") is refuted by one run and
  supported by a sign test over runs (p = 2^-n), an existential one ("some run") by a witness;
* ``rank``: Friedman, and the method ahead of the others by Holm-corrected signed-rank tests.

Each p-value is of the null hypothesis "the claim is false" (an intersection-union test when the
claim is an interval), and all claims of a paper form one Holm family: a claim is tested at its
Holm-effective level alpha * p / p_holm, and its interval is shown at that level (two one-sided
bounds). Rows are aggregated to the benchmark's unit of replication before any test.

Then the same check runs with each of the claim's foils in the subject's place, at the
unadjusted alpha (the stricter test of discrimination); a foil that passes makes the claim
``not_discriminating``, and so does a claim none of whose foils could produce the statistic.
"""
from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import asdict, dataclass, field
from typing import Callable, Iterable

import numpy as np

from . import stats
from .api import Benchmark, Claim
from .checks import (Better, BetterDiff, Equivalent, Growth, NotRun, Rank, Ratio, Slope, SlopeDiff,
                     Value, subject_role)

VERDICTS = ("reproduced", "not_reproduced", "inconclusive", "not_discriminating", "vacuous",
            "not_run", "error")
ALPHA = 0.05
TIE_RTOL = 1e-12  # paired differences within this relative tolerance are ties
DECIDED = ("reproduced", "not_reproduced", "inconclusive")  # a foil that produced the statistic


@dataclass
class Outcome:
    verdict: str
    estimate: float | None = None
    ci: tuple[float, float] | None = None
    p_value: float | None = None
    n: int = 0
    detail: str = ""
    seeds_needed: int | None = None
    threshold: str = ""
    ours: str = ""


@dataclass
class FoilResult:
    foil: str
    verdict: str
    ours: str
    p_value: float | None


@dataclass
class ClaimResult:
    slug: str
    claim: str
    where: str
    text: str
    kind: str
    source: str
    paper_value: str
    verdict: str
    ours: str
    estimate: float | None
    ci: tuple[float, float] | None
    p_value: float | None
    p_holm: float | None
    alpha: float | None  # the Holm-effective level the claim was decided at
    n: int
    threshold: str
    subject: str
    foils: list[FoilResult] = field(default_factory=list)
    detail: str = ""
    seeds_needed: int | None = None
    note: str = ""
    foil_note: str = ""

    @property
    def control(self) -> str:
        """The foils in one line: 'etc_ot: reproduced (passes!), greedy_ot: inconclusive'."""
        if not self.foils:
            return "no foils"
        return ", ".join(f"{f.foil}: {f.verdict}" + (" (passes)" if f.verdict == "reproduced"
                                                        else "") for f in self.foils)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["control"] = self.control
        return d


class NoEvidence(Exception):
    def __init__(self, verdict: str, detail: str) -> None:
        super().__init__(detail)
        self.verdict, self.detail = verdict, detail


# -- evidence -----------------------------------------------------------------------------------
def _dataset_name(label: str) -> str:
    return label.split("[", 1)[0]


def _matches(row: dict, where: dict) -> bool:
    for key, want in where.items():
        wants = want if isinstance(want, (tuple, list, set, frozenset)) else (want,)
        if key == "dataset":
            if row["dataset"] not in wants and _dataset_name(row["dataset"]) not in wants:
                return False
        elif row["dataset_params"].get(key) not in wants:
            return False
    return True


class Evidence:
    """A benchmark's stored rows, indexed for checks and aggregated to the unit of replication.

    ``unit`` () keys each value by (dataset label, seed): every cell is a replicate. Otherwise
    rows that share the unit's dataset parameters and seed are one run, averaged before any
    test (evaluation instances are not replicates)."""

    def __init__(self, rows: Iterable[dict], unit: tuple[str, ...] = ()) -> None:
        self.rows = list(rows)
        self.unit = tuple(unit)

    def method_rows(self, method: str, where: dict) -> list[dict]:
        rows = [r for r in self.rows if r["method"] == method and _matches(r, dict(where))]
        if not rows:
            known = sorted({r["method"] for r in self.rows})
            raise NoEvidence("not_run", f"no stored cells of {method!r}"
                             + (f" matching {dict(where)}" if where else "")
                             + (f" (stored: {', '.join(known)})" if known else ""))
        return rows

    def unit_key(self, row: dict, extra: tuple = ()) -> tuple:
        if not self.unit:
            return (row["dataset"], row["rep"], *extra)
        # "seed" alone: one run per seed, scored on every dataset config.
        return (*extra, *(repr(row["dataset_params"].get(u)) for u in self.unit if u != "seed"),
                row["rep"])

    def values(self, method: str, metric: str, where: dict,
               extra: Callable[[dict], tuple] | None = None) -> dict[tuple, float]:
        """unit key -> metric value (mean over the unit's ok cells), sorted by key: a statistic
        must not depend on the order rows were stored."""
        rows = self.method_rows(method, where)
        groups: dict[tuple, list[float]] = {}
        for r in rows:
            v = r["metrics"].get(metric) if r["status"] == "ok" else None
            if v is None:
                continue
            groups.setdefault(self.unit_key(r, extra(r) if extra else ()), []).append(float(v))
        if not groups:
            statuses = sorted({r["status"] for r in rows})
            raise NoEvidence("error", f"{method!r} has no usable {metric!r} values "
                             f"(statuses: {', '.join(statuses)})")
        return {k: float(np.mean(groups[k])) for k in sorted(groups, key=repr)}

    def pairs(self, a: str, b: str, metric: str, where: dict) -> tuple[np.ndarray, np.ndarray]:
        va, vb = self.values(a, metric, where), self.values(b, metric, where)
        keys = [k for k in va if k in vb]
        if not keys:
            raise NoEvidence("error", f"{a!r} and {b!r} share no (dataset, seed) unit with "
                             f"{metric!r}")
        return np.array([va[k] for k in keys]), np.array([vb[k] for k in keys])


# -- one statistic per check: a Tested knows its p-value and decides at any level ----------------
@dataclass
class Tested:
    """The evidence of one check reduced to one statistic.

    ``p`` is the p-value of "the claim is false"; ``decide(alpha)`` returns the Outcome at
    level alpha, with the interval shown at that level."""

    p: float
    decide: Callable[[float], Outcome]


def _fmt(v: float | None) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return f"{v:.4g}"


def _fmt_bounds(lo: float, hi: float, open_: bool = False) -> str:
    lt, gt = ("<", ">") if open_ else ("<=", ">=")
    if math.isinf(lo) and math.isinf(hi):
        return "any value"
    if math.isinf(lo):
        return f"{lt} {hi:.4g}"
    if math.isinf(hi):
        return f"{gt} {lo:.4g}"
    return f"in [{lo:.4g}, {hi:.4g}]"


def _interval(ci: tuple[float, float], lo: float, hi: float) -> str:
    """Verdict of a (two one-sided bounds) interval against the claimed region [lo, hi]."""
    if lo < ci[0] and ci[1] < hi:
        return "reproduced"
    if ci[1] < lo or ci[0] > hi:
        return "not_reproduced"
    return "inconclusive"


def _ours(point: float | None, ci: tuple[float, float] | None) -> str:
    if point is None:
        return "—"
    s = _fmt(point)
    if ci is not None and ci[0] != ci[1]:
        s += f" [{_fmt(ci[0])}, {_fmt(ci[1])}]"
    return s


def _need(x: np.ndarray, point: float, lo: float, hi: float, alpha_floor: float,
          floor: int = 2) -> int | None:
    bound = lo if abs(point - lo) < abs(point - hi) else hi
    if not math.isfinite(bound) or x.size < 2:
        return None
    return stats.seeds_to_decide(x.size, point, float(np.std(x, ddof=1)), bound, alpha_floor,
                                 floor)


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


def _stat_values(c, ev: Evidence, method: str) -> np.ndarray:
    return np.array(list(ev.values(method, c.metric, c.where).values()))


def judge_value(c: Value, ev: Evidence, method: str, alpha_floor: float) -> Tested:
    x = _stat_values(c, ev, method)
    lo, hi = c.bounds()
    threshold = f"{c.stat} {_fmt_bounds(lo, hi)}"
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
                                       else math.inf)
    if c.at_least is None:
        threshold = f"ratio <= {c.at_most:.4g}" if c.at_most is not None else "any value"
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
                    f"slope {_fmt_bounds(c.lo, c.hi)}", need=need)


def judge_equivalent(c: Equivalent, ev: Evidence, alpha_floor: float) -> Tested:
    a, b = ev.pairs(c.a, c.b, c.metric, c.where)
    m = c.margin * abs(float(b.mean())) if c.rel else c.margin
    d = a - b
    return _t_test(d, -m, m, f"paired difference {c.a} - {c.b} on {c.metric} (TOST)",
                   f"|difference| < {m:.4g}", alpha_floor=alpha_floor)


def _welch_dof(v1: float, d1: float, v2: float, d2: float) -> float:
    """Welch-Satterthwaite degrees of freedom of a difference with variances v1, v2."""
    if d1 <= 0 or d2 <= 0:
        return 0.0
    den = v1 ** 2 / d1 + v2 ** 2 / d2
    return (v1 + v2) ** 2 / den if den > 0 else float(d1 + d2)


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


# -- a benchmark's claims ---------------------------------------------------------------------------
def _higher(bench: Benchmark, metric: str) -> bool:
    return bench.metric(metric).higher_is_better


def subject_of(claim: Claim) -> str:
    return claim.subject or getattr(claim.check, subject_role(claim.check))


def substitute(check, old: str, new: str):
    """The check with ``new`` wherever it names ``old`` (rank lists deduplicated)."""
    changes = {}
    for f in dataclasses.fields(check):
        v = getattr(check, f.name)
        if f.name in ("method", "baseline", "numerator", "denominator", "a", "b", "other") \
                and v == old:
            changes[f.name] = new
        elif f.name == "among" and v:
            changes[f.name] = tuple(dict.fromkeys(new if m == old else m for m in v))
    return dataclasses.replace(check, **changes)


def judge_check(bench: Benchmark, check, ev: Evidence, alpha_floor: float = ALPHA) -> Tested:
    if isinstance(check, Value):
        return judge_value(check, ev, check.method, alpha_floor)
    if isinstance(check, Ratio):
        return judge_ratio(check, ev, alpha_floor)
    if isinstance(check, Better):
        return judge_better(check, ev, _higher(bench, check.metric), alpha_floor)
    if isinstance(check, Slope):
        return judge_slope(check, ev, check.method, alpha_floor)
    if isinstance(check, Equivalent):
        return judge_equivalent(check, ev, alpha_floor)
    if isinstance(check, Rank):
        return judge_rank(check, ev, _higher(bench, check.metric), alpha_floor)
    if isinstance(check, SlopeDiff):
        return judge_slope_diff(check, ev)
    if isinstance(check, BetterDiff):
        return judge_better_diff(check, ev, _higher(bench, check.metric))
    if isinstance(check, Growth):
        return judge_growth(check, ev)
    if isinstance(check, NotRun):
        raise NoEvidence("not_run", f"not checkable here: {check.reason}")
    raise TypeError(f"unknown check {type(check).__name__}")


def is_loose(check) -> bool:
    """A check no data can fail: its region is everything (or its margin unbounded)."""
    if isinstance(check, Value):
        lo, hi = check.bounds()
        return math.isinf(lo) and math.isinf(hi)
    if isinstance(check, Ratio):
        return check.at_least is None and check.at_most is None
    if isinstance(check, Slope):
        return math.isinf(check.lo) and math.isinf(check.hi)
    if isinstance(check, Better):
        return check.margin == -math.inf
    if isinstance(check, Equivalent):
        return math.isinf(check.margin)
    if isinstance(check, SlopeDiff):
        return math.isinf(check.lo) and math.isinf(check.hi)
    if isinstance(check, BetterDiff):
        return check.margin == -math.inf
    return False


def _safe_test(bench, check, ev, alpha_floor) -> Tested | Outcome:
    try:
        return judge_check(bench, check, ev, alpha_floor)
    except NoEvidence as exc:
        return Outcome(exc.verdict, detail=exc.detail)
    except Exception as exc:  # a broken check is reported, never hidden
        return Outcome("error", detail=f"{type(exc).__name__}: {exc}")


def _needs_capable_model(bench: Benchmark, rows: list[dict], claim, subject: str) -> Outcome | None:
    """A not_run outcome when ``claim`` needs a capable model and ``subject`` ran with a tiny
    one (or with none); None when the claim can be judged."""
    if not claim.needs_capable_model:
        return None
    from .models import CAPABLE_HELP, is_capable, spec_of

    spec = None
    for g in bench.grids.values():
        for c in bench.method_configs(g):
            if c.label == subject:
                spec = spec_of(c)
    if spec is None:  # a BYO method: the spec it ran with is in its stored parameters
        spec = next((r["method_params"].get("model") for r in rows if r["method"] == subject
                     and r["method_params"].get("model")), None)
    if is_capable(spec):
        return None
    return Outcome("not_run", detail=f"{CAPABLE_HELP} ({subject!r} ran with "
                                     f"{spec or 'no model'})")


def evaluate_benchmark(bench: Benchmark, rows: Iterable[dict], include_external: bool = True,
                       as_method: str | None = None) -> list[ClaimResult]:
    """Every claim of ``bench`` with its foils; ``as_method`` puts that label in each claim's
    subject place (the paper method's), so any method is judged by the paper's claims."""
    rows = [r for r in rows if include_external or not r["external"]]
    ev = Evidence(rows, bench.unit)
    family = len(bench.claims)
    alpha_floor = ALPHA / max(1, family)  # a claim's worst-case Holm level
    checks, tested, waiting = {}, {}, set()
    for claim in bench.claims:
        subject = subject_of(claim)
        check = claim.check if not as_method else substitute(claim.check, subject, as_method)
        checks[claim.id] = check
        weak = _needs_capable_model(bench, rows, claim, as_method or subject)
        if weak:
            waiting.add(claim.id)
        tested[claim.id] = weak or _safe_test(bench, check, ev, alpha_floor)
    # One Holm family over every claim of the paper that has a p-value.
    ps = {cid: t.p for cid, t in tested.items() if isinstance(t, Tested)}
    holm = dict(zip(ps, stats.holm(list(ps.values())))) if ps else {}
    out = []
    for claim in bench.claims:
        t = tested[claim.id]
        subject = as_method or subject_of(claim)
        p_holm = holm.get(claim.id)
        alpha = None
        if isinstance(t, Tested):
            # The level at which Holm tests this claim: reject iff p < alpha * p / p_holm.
            alpha = ALPHA * t.p / p_holm if p_holm and p_holm > 0 else ALPHA / max(1, len(ps))
            alpha = min(alpha, ALPHA)
            outcome = t.decide(alpha)
        else:
            outcome = t
        foils = []
        # a claim waiting for a capable model is not judged, so neither are its foils
        for foil in (() if claim.id in waiting else claim.foils):
            if foil == subject:
                continue
            ft = _safe_test(bench, substitute(checks[claim.id], subject, foil), ev, alpha_floor)
            fo = ft.decide(ALPHA) if isinstance(ft, Tested) else ft
            foils.append(FoilResult(foil, fo.verdict, fo.ours or "—",
                                    ft.p if isinstance(ft, Tested) else None))
        verdict = outcome.verdict
        if is_loose(claim.check) and verdict not in ("not_run", "error"):
            verdict = "vacuous"
        elif verdict == "reproduced" and any(f.verdict == "reproduced" for f in foils):
            verdict = "not_discriminating"
        elif verdict == "reproduced" and foils and not any(f.verdict in DECIDED for f in foils):
            # No foil produced the statistic: nothing has shown that the check can fail. (A
            # claim with no foils at all is refused by the contract test of every benchmark.)
            verdict = "not_discriminating"
        detail = outcome.detail
        if verdict == "inconclusive" and outcome.seeds_needed is not None:
            if outcome.seeds_needed == stats.CANNOT:
                detail += "; cannot be decided with this design (more seeds would not do)"
            else:
                detail += (f"; about {outcome.seeds_needed} units would decide it at its "
                           f"worst-case Holm level {alpha_floor:.2g}")
        if foils and all(f.verdict in ("not_run", "error") for f in foils):
            detail += "; no foil could be evaluated: discrimination not shown"
        out.append(ClaimResult(
            bench.slug, claim.id, claim.where, claim.text, claim.check.kind, claim.source,
            claim.paper_value, verdict, outcome.ours or "—", outcome.estimate, outcome.ci,
            outcome.p_value, p_holm, alpha, outcome.n, outcome.threshold, subject, foils,
            detail, outcome.seeds_needed, claim.note, claim.foil_note))
    return out


def count_verdicts(results: Iterable[ClaimResult]) -> dict[str, int]:
    """Verdict counts with paper claims and derived checks apart: 'paper:reproduced', ..."""
    counts: dict[str, int] = {}
    for r in results:
        for key in (r.verdict, f"{r.source or 'unmarked'}:{r.verdict}"):
            counts[key] = counts.get(key, 0) + 1
    return counts


# -- printing -----------------------------------------------------------------------------------------
def format_claims(results: list[list[ClaimResult]], fmt: str = "table") -> str:
    flat = [r for rs in results for r in rs]
    if fmt == "json":
        return json.dumps([r.to_dict() for r in flat], indent=2, default=str)
    header = ["slug", "claim", "source", "where", "paper", "ours [CI]", "n", "threshold",
              "alpha", "verdict", "foils"]
    body = [[r.slug, r.claim, r.source or "—", r.where, r.paper_value or "—", r.ours,
             str(r.n), r.threshold, _fmt(r.alpha), r.verdict, r.control] for r in flat]
    if fmt == "md":
        from .render import md_table

        return md_table(header, body)
    widths = [max(len(str(x)) for x in col) for col in zip(header, *body)] if body else []
    lines = ["  ".join(str(h).ljust(w) for h, w in zip(header, widths))]
    lines += ["  ".join(str(x).ljust(w) for x, w in zip(row, widths)) for row in body]
    return "\n".join(lines)


def resolve_label(rows: list[dict], name: str, slug: str) -> str:
    """A stored method label from a label or a ``file.py:Class`` reference."""
    from .errors import UserError, suggest as _suggest

    known = {r["method"] for r in rows}
    if name in known:
        return name
    for r in rows:
        if r["method_ref"] and r["method_ref"] == name:
            return r["method"]
    raise UserError(f"no stored results for method {name!r} in {slug}: "
                    f"{_suggest(name, sorted(known))} (run it first)")


def compare(bench: Benchmark, rows: list[dict], a: str, b: str, metric: str) -> str:
    """Per dataset and overall: Hodges-Lehmann shift of a vs b, its Wilcoxon-inverted 95%
    interval and the signed-rank p-value (one procedure: the interval and p agree)."""
    la, lb = resolve_label(rows, a, bench.slug), resolve_label(rows, b, bench.slug)
    ev = Evidence(rows, bench.unit)
    higher = _higher(bench, metric)
    datasets = sorted({r["dataset"] for r in rows})
    lines = [f"{bench.slug}: {la} vs {lb} on {metric} "
             f"({'higher' if higher else 'lower'} is better), paired on the unit of replication",
             f"{'dataset':<32} {'n':>3} {'mean A':>11} {'mean B':>11} {'A-B (HL) [95% CI]':>32} "
             f"{'Wilcoxon p':>10}  better"]
    for ds in datasets + [None]:
        where = {"dataset": ds} if ds else {}
        try:
            xa, xb = ev.pairs(la, lb, metric, where)
        except NoEvidence as exc:
            lines.append(f"{ds or 'all':<32} {exc.detail}")
            continue
        pr = stats.paired(xa, xb)
        better = "—"
        if pr.p_value < 0.05:
            better = la if (pr.estimate > 0) == higher else lb
        lines.append(f"{(ds or 'ALL'):<32} {pr.n:>3} {xa.mean():>11.4g} {xb.mean():>11.4g} "
                     f"{pr.estimate:>11.4g} [{pr.ci_lo:.3g}, {pr.ci_hi:.3g}]".ljust(96)
                     + f" {pr.p_value:>10.3g}  {better}")
    return "\n".join(lines)
