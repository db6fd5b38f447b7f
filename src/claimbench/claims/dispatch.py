"""One check on the evidence: the kind's statistic (or an exact result), and the helpers that put
another method in the subject's place."""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from ..api import Benchmark, Claim
from ..checks import (Better, BetterDiff, Equivalent, Exact, Growth, NotRun, Rank, Ratio, Slope,
                      SlopeDiff, Value, subject_role)
from .evidence import Evidence
from .fits import judge_better_diff, judge_growth, judge_rank, judge_slope, judge_slope_diff
from .kinds import judge_better, judge_equivalent, judge_ratio, judge_value
from .outcome import ALPHA, NoEvidence, Outcome, Tested, _fmt, _fmt_bounds


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


def judge_exact(c: Exact, ev: Evidence, method: str) -> Outcome:
    """Every unit inside the declared region: decided without statistics."""
    if c.stat not in ("all", "max", "min"):
        raise ValueError(f"Exact.stat {c.stat!r}: use 'all', 'max' or 'min'")
    x = np.array(list(ev.values(method, c.metric, c.where).values()))  # (units,)
    lo, hi = c.bounds()
    n = int(x.size)
    region = _fmt_bounds(lo, hi)
    tol = f"declared tolerance {c.tol:g}{' relative' if c.rel else ''}"
    if c.stat != "all":
        v = float(x.max() if c.stat == "max" else x.min())
        ok = lo <= v <= hi
        return Outcome("reproduced" if ok else "not_reproduced", v, None, None, n,
                       f"exact: the {c.stat} of {c.metric} over {n} units is {_fmt(v)}, "
                       f"{'inside' if ok else 'outside'} {region} ({tol})", None,
                       f"{c.stat} over units {region}", _fmt(v))
    outside = (x < lo) | (x > hi)
    bad = int(outside.sum())
    span = _fmt(float(x.min())) if np.ptp(x) == 0 else f"{_fmt(float(x.min()))}..{_fmt(float(x.max()))}"
    return Outcome("not_reproduced" if bad else "reproduced", float(np.mean(x)), None, None, n,
                   f"exact: {bad}/{n} units of {c.metric} outside {region} ({tol}); values "
                   f"{span}", None, f"every unit {region}", f"{span} ({bad}/{n} outside)")


def judge_check(bench: Benchmark, check, ev: Evidence, alpha_floor: float = ALPHA
                ) -> Tested | Outcome:
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
    if isinstance(check, Exact):
        return judge_exact(check, ev, check.method)
    if isinstance(check, NotRun):
        raise NoEvidence("not_run", f"not checkable here: {check.reason}")
    raise TypeError(f"unknown check {type(check).__name__}")


def is_loose(check) -> bool:
    """A check no data can fail: its region is everything (or its margin unbounded)."""
    if isinstance(check, (Value, Exact)):
        lo, hi = check.bounds()
        return math.isinf(lo) and math.isinf(hi)
    if isinstance(check, Ratio):
        return check.at_least is None and check.at_most is None
    if isinstance(check, (Slope, SlopeDiff)):
        return math.isinf(check.lo) and math.isinf(check.hi)
    if isinstance(check, (Better, BetterDiff)):
        return check.margin == -math.inf
    if isinstance(check, Equivalent):
        return math.isinf(check.margin)
    return False


def safe_test(bench, check, ev, alpha_floor) -> Tested | Outcome:
    try:
        return judge_check(bench, check, ev, alpha_floor)
    except NoEvidence as exc:
        return Outcome(exc.verdict, detail=exc.detail)
    except Exception as exc:  # a broken check is reported, never hidden
        return Outcome("error", detail=f"{type(exc).__name__}: {exc}")
