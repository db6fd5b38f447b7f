"""Checking claims against stored results, each with its negative control.

For every claim the same check also runs on null evidence built from the run
(the method replaced by the baseline, the value moved just outside the
tolerance, the other exponent, the order reversed). A check that does not fail
on its null evidence cannot fail at all: the claim is reported ``vacuous``.
"""
from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from typing import Iterable

import numpy as np

from . import stats
from .api import Benchmark, Claim
from .checks import Better, Equivalent, Rank, Ratio, Slope, Value

VERDICTS = ("reproduced", "not_reproduced", "inconclusive", "vacuous", "not_run", "error")


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


@dataclass
class ClaimResult:
    slug: str
    claim: str
    where: str
    text: str
    kind: str
    paper_value: str
    verdict: str
    ours: str
    estimate: float | None
    ci: tuple[float, float] | None
    p_value: float | None
    p_holm: float | None
    n: int
    threshold: str
    control: str  # "fails (ok)" / "passes (vacuous)" / "not run"
    control_verdict: str
    detail: str
    seeds_needed: int | None = None
    note: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


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
    """A benchmark's stored rows, indexed for checks."""

    def __init__(self, rows: Iterable[dict]) -> None:
        self.rows = list(rows)

    def method_rows(self, method: str, where: dict) -> list[dict]:
        rows = [r for r in self.rows if r["method"] == method and _matches(r, dict(where))]
        if not rows:
            known = sorted({r["method"] for r in self.rows})
            raise NoEvidence("not_run", f"no stored cells of {method!r}"
                             + (f" matching {dict(where)}" if where else "")
                             + (f" (stored: {', '.join(known)})" if known else ""))
        return rows

    def values(self, method: str, metric: str, where: dict) -> dict[tuple, float]:
        """(dataset label, rep) -> metric value over the method's ok cells."""
        rows = self.method_rows(method, where)
        ok = {(r["dataset"], r["rep"]): r["metrics"].get(metric) for r in rows
              if r["status"] == "ok"}
        # Sorted by (dataset, seed): a bootstrap must not depend on the order rows were stored.
        ok = {k: ok[k] for k in sorted(ok) if ok[k] is not None}
        if not ok:
            statuses = sorted({r["status"] for r in rows})
            raise NoEvidence("error", f"{method!r} has no usable {metric!r} values "
                             f"(statuses: {', '.join(statuses)})")
        return ok

    def pairs(self, a: str, b: str, metric: str, where: dict) -> tuple[np.ndarray, np.ndarray]:
        va, vb = self.values(a, metric, where), self.values(b, metric, where)
        keys = sorted(set(va) & set(vb))
        if not keys:
            raise NoEvidence("error", f"{a!r} and {b!r} share no (dataset, seed) cell with "
                             f"{metric!r}")
        return np.array([va[k] for k in keys]), np.array([vb[k] for k in keys])

    def params_of(self, method: str, where: dict) -> dict[tuple, dict]:
        return {(r["dataset"], r["rep"]): r for r in self.method_rows(method, where)}


# -- the six checks: (evidence, null) -> Outcome ----------------------------------------------------
def _interval_verdict(lo_ci: float, hi_ci: float, lo: float, hi: float) -> str:
    if lo <= lo_ci and hi_ci <= hi:
        return "reproduced"
    if hi_ci < lo or lo_ci > hi:
        return "not_reproduced"
    return "inconclusive"


def _fmt_bounds(lo: float, hi: float) -> str:
    if math.isinf(lo) and math.isinf(hi):
        return "any value"
    if math.isinf(lo):
        return f"<= {hi:.4g}"
    if math.isinf(hi):
        return f">= {lo:.4g}"
    return f"in [{lo:.4g}, {hi:.4g}]"


def _just_outside(point: float, lo: float, hi: float) -> float | None:
    """A value just outside [lo, hi], beyond the bound nearest to ``point``."""
    cands = []
    width = abs(hi - lo) if math.isfinite(hi - lo) else 0.0
    for bound, sign in ((lo, -1.0), (hi, 1.0)):
        if math.isfinite(bound):
            # Scaled by the distance too, so that the shift survives rounding of large values.
            step = 1e-3 * max(abs(bound), width, abs(point - bound), 1e-12)
            cands.append((abs(point - bound), bound + sign * step))
    return min(cands)[1] if cands else None


def _stat_fn(name: str):
    return {"mean": np.mean, "median": np.median, "max": np.max, "min": np.min}[name]


def check_value(c: Value, ev: Evidence, values: np.ndarray | None = None) -> Outcome:
    x = np.array(list(ev.values(c.method, c.metric, c.where).values())) if values is None else values
    lo, hi = c.bounds()
    fn = _stat_fn(c.stat)
    point = float(fn(x))
    if c.stat in ("max", "min"):
        ci = (point, point)  # an extreme is exact over the cells run: no resampling
    else:
        ci = stats.bootstrap_ci(x, fn)
    verdict = _interval_verdict(ci[0], ci[1], lo, hi)
    need = None
    if verdict == "inconclusive" and c.stat == "mean":
        bound = lo if abs(point - lo) < abs(point - hi) else hi
        need = stats.seeds_to_decide(x.size, point, float(np.std(x, ddof=1)), bound)
    return Outcome(verdict, point, ci, None, int(x.size),
                   f"{c.stat} of {c.metric} over {x.size} cells", need,
                   f"{c.stat} {_fmt_bounds(lo, hi)}")


def null_value(c: Value, ev: Evidence) -> Outcome | None:
    x = np.array(list(ev.values(c.method, c.metric, c.where).values()))
    lo, hi = c.bounds()
    point = float(_stat_fn(c.stat)(x))
    target = _just_outside(point, lo, hi)
    if target is None:
        return None
    return check_value(c, ev, x + (target - point))


def _ratio_logs(c: Ratio, ev: Evidence) -> np.ndarray:
    num, den = ev.pairs(c.numerator, c.denominator, c.metric, c.where)
    if np.any(num <= 0) or np.any(den <= 0):
        raise NoEvidence("error", f"ratio of {c.metric!r} needs positive values")
    return np.log(num / den)


def _ratio_bounds(c: Ratio) -> tuple[float, float]:
    lo = c.at_least if c.at_least is not None else 0.0
    hi = c.at_most if c.at_most is not None else math.inf
    return lo, hi


def check_ratio(c: Ratio, ev: Evidence, logs: np.ndarray | None = None) -> Outcome:
    logs = _ratio_logs(c, ev) if logs is None else logs
    lo, hi = _ratio_bounds(c)
    ci_log = stats.bootstrap_ci(logs)
    point = math.exp(float(logs.mean()))
    ci = (math.exp(ci_log[0]), math.exp(ci_log[1]))
    verdict = _interval_verdict(ci[0], ci[1], lo, hi)
    need = None
    if verdict == "inconclusive":
        bound = lo if c.at_least is not None else hi
        need = stats.seeds_to_decide(logs.size, float(logs.mean()), float(np.std(logs, ddof=1)),
                                     math.log(bound))
    return Outcome(verdict, point, ci, None, int(logs.size),
                   f"geometric mean of {c.numerator}/{c.denominator} on {c.metric} over "
                   f"{logs.size} pairs", need, f"ratio {_fmt_bounds(lo, hi)}")


def null_ratio(c: Ratio, ev: Evidence) -> Outcome | None:
    logs = _ratio_logs(c, ev)
    lo, hi = _ratio_bounds(c)
    point = math.exp(float(logs.mean()))
    target = _just_outside(point, lo if lo > 0 else -math.inf, hi)
    if target is None or target <= 0:
        return None
    return check_ratio(c, ev, logs + (math.log(target) - math.log(point)))


def _improvement(ev: Evidence, method: str, baseline: str, metric: str, where: dict,
                 higher: bool) -> np.ndarray:
    a, b = ev.pairs(method, baseline, metric, where)
    return (a - b) if higher else (b - a)


def check_better(c: Better, ev: Evidence, higher: bool, imp: np.ndarray | None = None,
                 holm_factor: float | None = None) -> Outcome:
    imp = _improvement(ev, c.method, c.baseline, c.metric, c.where, higher) if imp is None else imp
    d = imp - c.margin
    p = stats.wilcoxon_p(d, "greater")
    ci = stats.bootstrap_ci(imp)
    p_adj = p if holm_factor is None else holm_factor
    mean = float(imp.mean())
    if p_adj < c.alpha and mean > c.margin:
        verdict = "reproduced"
    elif ci[1] <= c.margin:
        verdict = "not_reproduced"
    else:
        verdict = "inconclusive"
    need = None
    if verdict == "inconclusive":
        need = stats.seeds_to_decide(imp.size, mean, float(np.std(imp, ddof=1)) if imp.size > 1
                                     else math.nan, c.margin)
    return Outcome(verdict, mean, ci, p, int(imp.size),
                   f"paired improvement of {c.method} over {c.baseline} on {c.metric} "
                   f"({'higher' if higher else 'lower'} is better), one-sided Wilcoxon",
                   need, f"improvement > {c.margin:g}, p < {c.alpha:g} (Holm)")


def null_better(c: Better, ev: Evidence, higher: bool) -> Outcome:
    # The method's results replaced by the baseline's: no improvement at all.
    a, b = ev.pairs(c.method, c.baseline, c.metric, c.where)
    return check_better(c, ev, higher, imp=np.zeros_like(b))


def _slope_data(c: Slope, ev: Evidence) -> tuple[np.ndarray, np.ndarray]:
    vals = ev.values(c.method, c.metric, c.where)
    rows = ev.params_of(c.method, c.where)
    xs, ys = [], []
    for key, y in vals.items():
        params = rows[key]["dataset_params" if c.x_from == "dataset" else "method_params"]
        if c.x not in params:
            raise NoEvidence("error", f"slope: parameter {c.x!r} not among "
                             f"{sorted(params)} of {c.method!r}")
        xs.append(float(params[c.x]))
        ys.append(float(y))
    x, y = np.array(xs), np.array(ys)
    if c.log_x:
        if np.any(x <= 0):
            raise NoEvidence("error", f"slope: log of non-positive {c.x!r}")
        x = np.log(x)
    if c.log_y:
        if np.any(y <= 0):
            raise NoEvidence("error", f"slope: log of non-positive {c.metric!r} values")
        y = np.log(y)
    if np.unique(x).size < 2 or x.size < 3:
        raise NoEvidence("error", f"slope needs at least 3 cells and 2 distinct {c.x!r} values")
    return x, y


def check_slope(c: Slope, ev: Evidence, xy: tuple | None = None) -> Outcome:
    from scipy import stats as sps

    x, y = _slope_data(c, ev) if xy is None else xy
    fit = sps.linregress(x, y)
    dof = x.size - 2
    half = float(sps.t.ppf(0.975, dof) * fit.stderr) if dof > 0 else math.inf
    if not math.isfinite(half):
        half = math.inf
    ci = (fit.slope - half, fit.slope + half)
    verdict = _interval_verdict(ci[0], ci[1], c.lo, c.hi)
    axes = f"{'log ' if c.log_y else ''}{c.metric} vs {'log ' if c.log_x else ''}{c.x}"
    return Outcome(verdict, float(fit.slope), ci, None, int(x.size),
                   f"least-squares slope of {axes} ({x.size} cells, t-interval)", None,
                   f"slope {_fmt_bounds(c.lo, c.hi)}")


def null_slope(c: Slope, ev: Evidence) -> Outcome | None:
    x, y = _slope_data(c, ev)
    from scipy import stats as sps

    slope = float(sps.linregress(x, y).slope)
    target = c.null_slope
    if target is None:
        width = c.hi - c.lo if math.isfinite(c.hi - c.lo) else 1.0
        cands = []
        if math.isfinite(c.lo):
            cands.append((abs(slope - c.lo), c.lo - 0.5 * width))
        if math.isfinite(c.hi):
            cands.append((abs(slope - c.hi), c.hi + 0.5 * width))
        if not cands:
            return None
        target = min(cands)[1]
    return check_slope(c, ev, (x, y + (target - slope) * x))


def _equiv_diffs(c: Equivalent, ev: Evidence) -> tuple[np.ndarray, float]:
    a, b = ev.pairs(c.a, c.b, c.metric, c.where)
    margin = c.margin * abs(float(b.mean())) if c.rel else c.margin
    return a - b, margin


def check_equivalent(c: Equivalent, ev: Evidence, dm: tuple | None = None) -> Outcome:
    from scipy import stats as sps

    d, m = _equiv_diffs(c, ev) if dm is None else dm
    mean = float(d.mean())
    if d.size < 2 or np.ptp(d) == 0:
        p = 0.0 if abs(mean) < m else 1.0
    else:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            p_lo = sps.ttest_1samp(d, -m, alternative="greater").pvalue
            p_hi = sps.ttest_1samp(d, m, alternative="less").pvalue
        p = float(max(p_lo, p_hi))
    ci = stats.bootstrap_ci(d)
    if p < c.alpha:
        verdict = "reproduced"
    elif ci[0] > m or ci[1] < -m:
        verdict = "not_reproduced"
    else:
        verdict = "inconclusive"
    need = None
    if verdict == "inconclusive" and d.size > 1:
        need = stats.seeds_to_decide(d.size, abs(mean), float(np.std(d, ddof=1)), m)
    return Outcome(verdict, mean, ci, p, int(d.size),
                   f"paired difference {c.a} - {c.b} on {c.metric}, TOST", need,
                   f"|difference| < {m:.4g}")


def null_equivalent(c: Equivalent, ev: Evidence) -> Outcome:
    d, m = _equiv_diffs(c, ev)
    shift = m * 1.05 + 1e-300 - float(d.mean())
    return check_equivalent(c, ev, (d + shift, m))


def _rank_scores(c: Rank, ev: Evidence, higher: bool):
    methods = list(c.among) if c.among else sorted({r["method"] for r in ev.rows
                                                   if _matches(r, dict(c.where))})
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
    blocks = sorted(set.intersection(*(set(v) for v in vals.values())))
    if not blocks:
        raise NoEvidence("error", "rank: no (dataset, seed) block where every method has a value")
    scores = np.array([[vals[m][b] for m in methods] for b in blocks])  # (blocks, methods)
    return methods, scores


def check_rank(c: Rank, ev: Evidence, higher: bool, ms: tuple | None = None) -> Outcome:
    methods, scores = _rank_scores(c, ev, higher) if ms is None else ms
    rt = stats.rank_test(scores, methods, higher)
    avg = dict(zip(methods, rt.avg_ranks))
    mine = avg[c.method]
    # Ties count against the method: "first" means strictly ahead of every other method.
    position = 1 + sum(1 for m, r in avg.items() if m != c.method and r <= mine)
    order = sorted(avg.values())
    kth = order[min(c.k, len(order)) - 1]
    if position <= c.k:
        verdict = "reproduced"
    elif rt.cd is not None and mine - kth > rt.cd:
        verdict = "not_reproduced"
    else:
        verdict = "inconclusive"
    return Outcome(verdict, float(position), (mine, mine), rt.friedman_p, int(scores.shape[0]),
                   f"average rank {mine:.2f} (position {position} of {len(methods)}) over "
                   f"{scores.shape[0]} blocks; Nemenyi CD {rt.cd:.2f}" if rt.cd else "", None,
                   f"position <= {c.k}")


def null_rank(c: Rank, ev: Evidence, higher: bool) -> Outcome:
    """The order reversed for the claimed method: in every block it scores just below the
    worst other method (for a method that was first, this is the reversed order)."""
    methods, scores = _rank_scores(c, ev, higher)
    j = methods.index(c.method)
    others = np.delete(scores, j, axis=1)  # (blocks, k-1)
    null = scores.copy()
    if others.shape[1]:
        worst = others.min(axis=1) if higher else others.max(axis=1)
        step = 1e-9 * np.maximum(1.0, np.abs(worst))
        null[:, j] = worst - step if higher else worst + step
    return check_rank(c, ev, higher, (methods, null))


# -- a benchmark's claims ---------------------------------------------------------------------------
def _higher(bench: Benchmark, metric: str) -> bool:
    return bench.metric(metric).higher_is_better


def _run_check(bench: Benchmark, claim: Claim, ev: Evidence, holm_p: float | None = None):
    c = claim.check
    if isinstance(c, Value):
        return check_value(c, ev), null_value(c, ev)
    if isinstance(c, Ratio):
        return check_ratio(c, ev), null_ratio(c, ev)
    if isinstance(c, Better):
        h = _higher(bench, c.metric)
        return check_better(c, ev, h, holm_factor=holm_p), null_better(c, ev, h)
    if isinstance(c, Slope):
        return check_slope(c, ev), null_slope(c, ev)
    if isinstance(c, Equivalent):
        return check_equivalent(c, ev), null_equivalent(c, ev)
    if isinstance(c, Rank):
        h = _higher(bench, c.metric)
        return check_rank(c, ev, h), null_rank(c, ev, h)
    raise TypeError(f"claim {claim.id}: unknown check {type(c).__name__}")


def _fmt_num(v: float | None) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    return f"{v:.4g}"


def _ours(o: Outcome, kind: str) -> str:
    if o.estimate is None:
        return "—"
    if kind == "rank":
        return f"position {int(o.estimate)}"
    s = _fmt_num(o.estimate)
    if o.ci and (o.ci[0] != o.ci[1]):
        s += f" [{_fmt_num(o.ci[0])}, {_fmt_num(o.ci[1])}]"
    return s


def evaluate_benchmark(bench: Benchmark, rows: Iterable[dict],
                       include_external: bool = True) -> list[ClaimResult]:
    ev = Evidence(r for r in rows if include_external or not r["external"])
    # Holm across the benchmark's `better` claims: their raw p-values first.
    raw: dict[str, float] = {}
    for claim in bench.claims:
        if isinstance(claim.check, Better):
            try:
                h = _higher(bench, claim.check.metric)
                raw[claim.id] = check_better(claim.check, ev, h).p_value
            except NoEvidence:
                pass
    adjusted = dict(zip(raw, stats.holm(list(raw.values())))) if raw else {}
    out = []
    for claim in bench.claims:
        kind = claim.check.kind
        try:
            outcome, null = _run_check(bench, claim, ev, adjusted.get(claim.id))
        except NoEvidence as exc:
            outcome, null = Outcome(exc.verdict, detail=exc.detail), None
        except Exception as exc:  # a broken check is reported, never hidden
            outcome, null = Outcome("error", detail=f"{type(exc).__name__}: {exc}"), None
        verdict = outcome.verdict
        if null is None:
            control = "not run" if verdict in ("not_run", "error") else "no null (vacuous)"
            control_verdict = "—"
            if verdict not in ("not_run", "error"):
                verdict = "vacuous"
        elif null.verdict == "reproduced":
            control, control_verdict, verdict = "passes (vacuous)", null.verdict, "vacuous"
        else:
            control, control_verdict = "fails (ok)", null.verdict
        detail = outcome.detail
        if outcome.seeds_needed and verdict == "inconclusive":
            detail += f"; about {outcome.seeds_needed} seeds/pairs would decide it"
        out.append(ClaimResult(
            bench.slug, claim.id, claim.where, claim.text, kind, claim.paper_value, verdict,
            _ours(outcome, kind), outcome.estimate, outcome.ci, outcome.p_value,
            adjusted.get(claim.id), outcome.n, outcome.threshold, control, control_verdict,
            detail, outcome.seeds_needed, claim.note))
    return out


# -- printing -----------------------------------------------------------------------------------------
def format_claims(results: list[list[ClaimResult]], fmt: str = "table") -> str:
    flat = [r for rs in results for r in rs]
    if fmt == "json":
        return json.dumps([r.to_dict() for r in flat], indent=2, default=str)
    header = ["slug", "claim", "where", "paper", "ours [95% CI]", "threshold", "verdict",
              "negative control"]
    body = [[r.slug, r.claim, r.where, r.paper_value or "—", r.ours, r.threshold, r.verdict,
             r.control] for r in flat]
    if fmt == "md":
        from .render import md_table

        return md_table(header, body)
    widths = [max(len(str(x)) for x in col) for col in zip(header, *body)] if body else []
    lines = ["  ".join(str(h).ljust(w) for h, w in zip(header, widths))]
    lines += ["  ".join(str(x).ljust(w) for x, w in zip(row, widths)) for row in body]
    return "\n".join(lines)


def compare(bench: Benchmark, rows: list[dict], a: str, b: str, metric: str) -> str:
    """Per dataset and overall: paired difference of a vs b with CI and Wilcoxon p."""
    from .errors import UserError, suggest as _suggest

    def label(name: str) -> str:
        known = {r["method"] for r in rows}
        if name in known:
            return name
        for r in rows:
            if r["method_ref"] and r["method_ref"] == name:
                return r["method"]
        raise UserError(f"no stored results for method {name!r} in {bench.slug}: "
                        f"{_suggest(name, sorted(known))} (run it first)")

    la, lb = label(a), label(b)
    ev = Evidence(rows)
    higher = _higher(bench, metric)
    datasets = sorted({r["dataset"] for r in rows})
    lines = [f"{bench.slug}: {la} vs {lb} on {metric} "
             f"({'higher' if higher else 'lower'} is better), paired on (dataset, seed)",
             f"{'dataset':<32} {'n':>3} {'mean A':>11} {'mean B':>11} {'A-B [95% CI]':>32} "
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
            better = la if (pr.mean_diff > 0) == higher else lb
        lines.append(f"{(ds or 'ALL'):<32} {pr.n:>3} {xa.mean():>11.4g} {xb.mean():>11.4g} "
                     f"{pr.mean_diff:>11.4g} [{pr.ci_lo:.3g}, {pr.ci_hi:.3g}]".ljust(96)
                     + f" {pr.p_value:>10.3g}  {better}")
    return "\n".join(lines)
