"""Declarations of the claim kinds. Evaluation lives in :mod:`claimbench.claims`.

A check names the method in the paper method's place (its *subject*: ``method``, ``a`` or
``numerator`` unless the claim says otherwise); foils and ``claimbench claims --as`` put another
method there and run the same check.

Every check selects evidence from the results of one benchmark run:

* methods are named by their grid label (``Config.label``; the class ``name``
  when the config has no parameter overrides);
* ``where`` restricts the dataset configs: ``{"T": 1024}``, ``{"T": (256, 1024)}``,
  ``{"dataset": "gauss_games"}`` (the dataset's ``name`` or its label);
* cells are paired across methods on (dataset config, seed): every method of a
  grid sees the same generated instance for the same seed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

STATS = ("mean", "median", "max", "min")


@dataclass(frozen=True)
class Better:
    """``method`` beats ``baseline`` on ``metric``: the Hodges-Lehmann shift of the paired
    improvements exceeds ``margin`` by a one-sided signed-rank test (ties kept), Holm-corrected.

    ``margin`` asks for an improvement larger than it (in the metric's units); a negative margin
    is a non-inferiority claim, tested against that margin.
    """

    method: str
    baseline: str
    metric: str
    where: Mapping[str, Any] = field(default_factory=dict)
    margin: float = 0.0
    alpha: float = 0.05
    kind: str = "better"


@dataclass(frozen=True)
class Value:
    """A statistic (over the selected cells) of ``method``'s ``metric`` lies in an interval.

    Either give ``lo``/``hi`` (one may be None) or ``target`` with ``tol``
    (absolute, or relative to the target when ``rel``). ``stat`` is the
    statistic over units: mean (t-interval), median (sign-test interval); ``max <= hi`` and
    ``min >= lo`` say every run satisfies the bound (one violation refutes it; a sign test over
    runs supports it), ``max >= lo`` and ``min <= hi`` say some run does (a witness proves it).
    """

    method: str
    metric: str
    lo: float | None = None
    hi: float | None = None
    target: float | None = None
    tol: float | None = None
    rel: bool = False
    stat: str = "mean"
    where: Mapping[str, Any] = field(default_factory=dict)
    kind: str = "value"

    def bounds(self) -> tuple[float, float]:
        if self.target is not None:
            if self.tol is None:
                raise ValueError("Value(target=...) needs tol")
            width = abs(self.target) * self.tol if self.rel else self.tol
            return self.target - width, self.target + width
        lo = float("-inf") if self.lo is None else self.lo
        hi = float("inf") if self.hi is None else self.hi
        return lo, hi


@dataclass(frozen=True)
class Ratio:
    """Geometric mean over paired cells of ``metric(numerator) / metric(denominator)``.

    ``at_least`` (a speedup: numerator = the slow method's time) or ``at_most``.
    """

    numerator: str
    denominator: str
    metric: str
    at_least: float | None = None
    at_most: float | None = None
    where: Mapping[str, Any] = field(default_factory=dict)
    kind: str = "ratio"


@dataclass(frozen=True)
class Slope:
    """Least-squares exponent of ``metric`` against parameter ``x`` lies in [lo, hi].

    ``log_x``/``log_y`` choose the axes: both True is a log-log power law;
    ``log_x=False, log_y=True`` is an exponential rate in x. ``x`` is a dataset
    parameter (or a method parameter when ``x_from="method"``). The slope's t-interval decides.
    """

    method: str
    metric: str
    x: str
    lo: float = float("-inf")
    hi: float = float("inf")
    log_x: bool = True
    log_y: bool = True
    x_from: str = "dataset"
    where: Mapping[str, Any] = field(default_factory=dict)
    kind: str = "slope"


@dataclass(frozen=True)
class Equivalent:
    """``a`` and ``b`` agree on ``metric`` within ``margin`` (paired TOST)."""

    a: str
    b: str
    metric: str
    margin: float
    rel: bool = False  # margin relative to |mean of b|
    where: Mapping[str, Any] = field(default_factory=dict)
    alpha: float = 0.05
    kind: str = "equivalent"


@dataclass(frozen=True)
class Rank:
    """``method`` is in the top ``k`` on ``metric`` over blocks (units of replication): Friedman
    significant and the method ahead of all but ``k - 1`` others by Holm-corrected signed-rank
    tests."""

    method: str
    metric: str
    k: int = 1
    among: tuple[str, ...] | None = None  # None: every method in the grid
    where: Mapping[str, Any] = field(default_factory=dict)
    kind: str = "rank"


@dataclass(frozen=True)
class SlopeDiff:
    """slope(``method`` on ``where``) - slope(``other`` on ``other_where``) lies in [lo, hi].

    Both are least-squares exponents of ``metric`` against ``x`` (axes as in :class:`Slope`);
    ``other`` defaults to ``method`` and ``other_where`` to ``where``. "Rough is worse than
    smooth" is method = other, two scopes, lo = 0; "a lower eps-exponent than BIMW'21" is two
    methods, one scope. t-interval with Welch-Satterthwaite degrees of freedom."""

    method: str
    metric: str
    x: str
    other: str = ""
    where: Mapping[str, Any] = field(default_factory=dict)
    other_where: Mapping[str, Any] | None = None
    lo: float = float("-inf")
    hi: float = float("inf")
    log_x: bool = True
    log_y: bool = True
    x_from: str = "dataset"
    kind: str = "slope_diff"


@dataclass(frozen=True)
class BetterDiff:
    """An interaction: the paired improvement of ``method`` over ``baseline`` on ``where``
    exceeds the one on ``other_where`` by more than ``margin`` ("the gap widens at small eps").
    Units of the two scopes are independent: Welch t-test of the difference of mean
    improvements."""

    method: str
    baseline: str
    metric: str
    where: Mapping[str, Any]
    other_where: Mapping[str, Any]
    margin: float = 0.0
    kind: str = "better_diff"


@dataclass(frozen=True)
class Growth:
    """``metric`` of ``method`` grows with ``x`` in the named ``form`` rather than the other:
    "exponential" (log y linear in x) against "polynomial" (log y linear in log x), or the
    reverse. Passes when (1) y increases with x (Kendall's tau > 0), (2) the named form's
    growth coefficient is > 0, and (3) it fits better than the other form (Vuong's test: a
    paired t-test on the pointwise Gaussian log-likelihoods of the two fits); the p-value is
    the largest of the three."""

    method: str
    metric: str
    x: str
    form: str = "exponential"
    where: Mapping[str, Any] = field(default_factory=dict)
    x_from: str = "dataset"
    kind: str = "growth"


@dataclass(frozen=True)
class NotRun:
    """A claim of the paper that cannot be checked here (it needs a multi-billion-parameter
    model, a human study, a dataset that cannot ship): declared so that the report lists it,
    with ``reason``. Its verdict is always ``not_run``; it takes no foils, since nothing is
    tested. ``method`` is the label in the paper method's place."""

    method: str
    reason: str
    kind: str = "not_run"


@dataclass(frozen=True)
class Exact:
    """A deterministic result (an identity, a closed form, an exact count): *every* unit's value
    of ``metric`` lies in [lo, hi] (inclusive), or within ``tol`` of ``target`` (relative to
    |target| when ``rel``). No statistics: one violating unit refutes it, and it takes no place
    in the paper's Holm family. ``tol`` is the declared numerical tolerance (floating point,
    solver accuracy), never a statistical margin. ``stat="max"`` (``"min"``) puts the largest
    (smallest) value over the units in the region instead: "up to 15 %" over a declared,
    deterministic sweep."""

    method: str
    metric: str
    lo: float | None = None
    hi: float | None = None
    target: float | None = None
    tol: float = 0.0
    rel: bool = False
    where: Mapping[str, Any] = field(default_factory=dict)
    stat: str = "all"  # "all" units, or the "max" / "min" over them
    kind: str = "exact"

    def bounds(self) -> tuple[float, float]:
        if self.target is not None:
            width = abs(self.target) * self.tol if self.rel else self.tol
            return self.target - width, self.target + width
        lo = float("-inf") if self.lo is None else self.lo - self.tol
        hi = float("inf") if self.hi is None else self.hi + self.tol
        return lo, hi


CHECK_TYPES = (Better, Value, Ratio, Slope, Equivalent, Rank, SlopeDiff, BetterDiff, Growth, Exact,
               NotRun)


def subject_role(check) -> str:
    """The field that holds the method in the paper method's place by default."""
    if isinstance(check, Ratio):
        return "numerator"
    if isinstance(check, Equivalent):
        return "a"
    return "method"


def methods_named(check) -> tuple[str, ...]:
    """Every method label a check refers to (for contract tests)."""
    if isinstance(check, Better):
        return (check.method, check.baseline)
    if isinstance(check, Ratio):
        return (check.numerator, check.denominator)
    if isinstance(check, SlopeDiff):
        return (check.method, check.other) if check.other else (check.method,)
    if isinstance(check, BetterDiff):
        return (check.method, check.baseline)
    if isinstance(check, Equivalent):
        return (check.a, check.b)
    if isinstance(check, Rank):
        return (check.method, *(check.among or ()))
    return (check.method,)


def methods_read(check, labels) -> set[str]:
    """The method labels (of ``labels``, a grid's) whose cells a check's verdict reads: those it
    names, and every one for a rank over the whole grid (``among=None``)."""
    if isinstance(check, Rank) and not check.among:
        return set(labels)
    return set(methods_named(check))


def other_roles(check, subject: str) -> tuple[str, ...]:
    """The methods a check names besides its subject: a foil that is one of them would compare
    with itself (Y against Y) and fail by construction."""
    named = methods_named(check)
    if isinstance(check, SlopeDiff) and not check.other:
        named = ()  # one method in two scopes: the foil replaces both
    return tuple(dict.fromkeys(m for m in named if m != subject))
