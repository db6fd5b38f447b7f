"""What a check returns: an Outcome at a level, a Tested that decides at any level, and the
formatting of numbers, bounds and intervals shared by every kind."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .. import stats

ALPHA = 0.05
TIE_RTOL = 1e-12  # paired differences within this relative tolerance are ties


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




class NoEvidence(Exception):
    def __init__(self, verdict: str, detail: str) -> None:
        super().__init__(detail)
        self.verdict, self.detail = verdict, detail


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
    return f"in ({lo:.4g}, {hi:.4g})" if open_ else f"in [{lo:.4g}, {hi:.4g}]"


def _interval(ci: tuple[float, float], lo: float, hi: float) -> str:
    """Verdict of a (two one-sided bounds) interval against the claimed region, the open
    interval (lo, hi): inside it, reproduced; inside its complement, not reproduced. A bound is
    outside the region, so an interval that only touches it (a value with no spread that equals
    the bound: a foil at exactly 0 against "> 0") is outside too."""
    if lo < ci[0] and ci[1] < hi:
        return "reproduced"
    if ci[1] <= lo or ci[0] >= hi:
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

