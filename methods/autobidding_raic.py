"""Risk-Averse and Optimistic Advertiser Incentive Compatibility in Auto-bidding (RAIC / OAIC).

Paper: C. Liaw, W. Zhu, "Risk-Averse and Optimistic Advertiser Incentive Compatibility in
Auto-bidding", arXiv 2508.16823, https://arxiv.org/abs/2508.16823 (arXiv v1, 22 Aug 2025; the
PMLR version is "ICML 2026"). Background and the AIC notion: Y. Alimohammadi, A. Mehta,
A. Perlroth, "Incentive Compatibility in the Auto-bidding World", arXiv 2301.13414 (EC 2023).

What we read is the abstract of both papers. Their definitions (abstract wording, our symbols):
let E_i(c'_i) be the set of equilibrium outcomes when advertiser i reports constraint c'_i to its
auto-bidder (the others report truthfully) and u_i the outcome's worth to i under its true c_i.

  (1) AIC   (Alimohammadi et al., as read by Liaw & Zhu): for all i, all c'_i,
            min_{E_i(c_i)} u_i  >=  max_{E_i(c'_i)} u_i   (worst truthful beats best deviation).
  (2) RAIC  : for all i, all c'_i,  min_{E_i(c_i)} u_i  >=  min_{E_i(c'_i)} u_i.
  (3) OAIC  : for all i, all c'_i,  max_{E_i(c_i)} u_i  >=  max_{E_i(c'_i)} u_i.

Claims: SPA is RAIC and OAIC; in arXiv v1 also "for two advertisers when they are assumed to employ
uniform bidding strategies"; FPA and SPA are not AIC (Alimohammadi et al.).

Model implemented (the setting of the two-advertiser uniform-bidding result):
  (4) advertiser i has value v_ij > 0 on query j and reports a target CPA T_i (spend <= T_i value)
      or a budget B_i (spend <= B_i); its auto-bidder bids b_ij = alpha_i v_ij on every query;
  (5) SPA: the highest bid wins, tied bidders split a query fractionally, a winner pays the
      highest competing bid per unit won;
  (6) an equilibrium is a profile (alpha, split) where each advertiser's value is its best
      response value (fractional knapsack over the prices it faces, see
      baselines/uniform_bidding_best_response.py) and its reported constraint holds; for tCPA,
      bids are undominated: alpha_i >= T_i;
  (7) u_i = value won if i's true constraint holds, -inf otherwise.

Equilibrium computation for two advertisers is exact. Sort queries by r_j = v_0j / v_1j
(decreasing); every allocation in (5) is a cut s in [0, m]: advertiser 0 takes the first floor(s)
queries and a fraction s - floor(s) of the next. With both constraints binding the cut fixes the
multipliers, e.g. for tCPA  alpha_1 = T_0 A_0(s) / S_1(s),  alpha_0 = T_1 B_1(s) / B_0(s)  (A, S: the
two advertisers' values on advertiser 0's side of the cut; B on advertiser 1's side), and the cut
is an equilibrium iff alpha_1 / alpha_0 lies in the ratio interval of the cut: [r_s, r_{s-1}] at an
integer cut, {r_k} inside query k. On each query this is a quadratic in the fraction, solved in
closed form; every candidate is then checked against (6) directly. For tCPA two further
equilibria can exist where one advertiser wins every query and the other, unable to win anything
within its target, is indifferent: "0 wins all" iff T_1 S_1(m) <= T_0 A_0(m), "1 wins all" iff
T_0 A_0(m) <= T_1 S_1(m). Three advertisers: best-response dynamics from many starts.
Budgets need no such corner: an advertiser with money left can always buy part of a query.

Deviations:
  1. Read from the abstracts only; (4)-(7) are our reconstruction of the model (undominated
     tCPA bids, fractional tie-splitting, infeasible = -inf, "any value-maximising multiplier"
     as best response). Under the other common convention (each auto-bidder takes the largest
     feasible multiplier) equilibria need not exist and we do not use it.
  2. Finitely many queries instead of a continuum; ties are split fractionally so that
     equilibria exist.
  3. The paper's "for every misreport" is checked on a grid of misreports c'_i = f * c_i;
     with ``search="continuous"`` (issue 29) also by a search over f in [0.1, 10]: 32 scrambled
     Sobol factors (log scale) plus a bounded scalar search near each margin's best factor. The
     margins are step functions of f, so the search is a heuristic, not a proof over the
     continuum.
  4. An equilibrium family that shares one allocation but where i's spend ranges over an
     interval (the "wins everything" tCPA equilibria) counts as infeasible for the worst case
     if any member breaks i's true constraint and as feasible for the best case if any member
     meets it.
  5. Three advertisers: equilibria from best-response dynamics (polished to exact equilibria,
     see baselines/uniform_bidding_best_response.py) are a subset of all equilibria, so their
     verdicts can be wrong either way; the paper's uniform-bidding theorem covers two advertisers
     only and no claim uses them.
  6. The research note suggested a 400 x 400 multiplier grid with refinement for n = 2; the
     cut enumeration above replaces it (it finds every equilibrium exactly, the grid cannot).

Mutants for foils (field ``mutant``; the default "" is the method above, unchanged; no mutant is
the paper's method):
  - ``reported_worth``: requirement (7) removed: a misreport's equilibria are judged under the
    constraint the advertiser *reported* (c'_i) instead of its true c_i, so a looser report that
    wins more value by overspending is not charged for breaking the true constraint. Same
    equilibria, same misreport grid; only the worth changes. It shows that the misreports of the
    grid do move an advertiser to more value, so zero RAIC/OAIC violations for SPA come from the
    true-constraint accounting the definitions require, not from misreports that change nothing.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.uniform_bidding_best_response import (dedupe, eq_record,
                                                                find_equilibria,
                                                                verify_equilibrium)

VERIFY_TOL = 1e-7  # relative residual accepted for a closed-form equilibrium (float round-off)


# ---------------------------------------------------------------------------------------------
# Two advertisers: exact enumeration along the cut
# ---------------------------------------------------------------------------------------------
def _cut_multipliers(auction: str, kind: str, cons, a1, b1, a2, b2):
    """Multipliers when both constraints bind at a cut (a: advertiser 0's values, b: 1's; 1/2 = sides)."""
    c0, c1 = cons
    if auction == "spa" and kind == "tcpa":
        return c1 * b2 / a2, c0 * a1 / b1  # 0 pays alpha_1 b1 = T_0 a1; 1 pays alpha_0 a2 = T_1 b2
    if auction == "spa" and kind == "budget":
        return c1 / a2, c0 / b1
    if auction == "fpa" and kind == "budget":
        return c0 / a1, c1 / b2  # first price: each pays its own bid
    raise ValueError(f"no binding-cut equilibrium form for {auction}/{kind}")


def _quadratic_roots(c2, c1, c0):
    """Real roots of c2 t^2 + c1 t + c0 = 0, row-wise; returns (2, K) with NaN where none."""
    roots = np.full((2,) + c0.shape, np.nan)
    scale = np.maximum.reduce([np.abs(c2), np.abs(c1), np.abs(c0)]) + 1e-300
    lin = np.abs(c2) <= 1e-13 * scale
    with np.errstate(divide="ignore", invalid="ignore"):
        roots[0, lin] = -c0[lin] / c1[lin]
        quad = ~lin
        disc = c1 ** 2 - 4 * c2 * c0
        ok = quad & (disc >= 0)
        sq = np.sqrt(np.where(ok, disc, 0.0))
        qq = -0.5 * (c1 + np.where(c1 >= 0, sq, -sq))
        roots[0, ok] = (qq / c2)[ok]
        roots[1, ok] = np.where(qq[ok] != 0, c0[ok] / qq[ok], np.nan)
    return roots


def two_bidder_equilibria(V: np.ndarray, kind: str, cons: np.ndarray,
                          auction: str = "spa") -> tuple[list[dict], int]:
    """Every uniform-bidding equilibrium of a two-advertiser market, and #candidates rejected."""
    m = V.shape[1]
    r_all = V[0] / V[1]
    order = np.argsort(-r_all, kind="stable")
    a, b, r = V[0, order], V[1, order], r_all[order]  # (m,) sorted by decreasing ratio
    pa = np.concatenate(([0.0], np.cumsum(a)))  # (m+1,) advertiser 0's value of the first k queries
    pb = np.concatenate(([0.0], np.cumsum(b)))  # (m+1,) advertiser 1's value of the same queries
    ta, tb = pa[-1], pb[-1]
    cuts: list[tuple[int, float]] = []  # (k, theta): 0 takes queries < k and theta of query k

    # Integer cuts k = 1..m-1: the implied ratio must sit in [r_k, r_{k-1}].
    k = np.arange(1, m)
    al0, al1 = _cut_multipliers(auction, kind, cons, pa[k], pb[k], ta - pa[k], tb - pb[k])
    ratio = al1 / al0
    ok = (ratio >= r[k] * (1 - 1e-12)) & (ratio <= r[k - 1] * (1 + 1e-12))
    cuts += [(int(kk), 0.0) for kk in k[ok]]

    # Fractional cuts inside query k: alpha_1 / alpha_0 = r_k, a polynomial of degree <= 2 in theta.
    k = np.arange(m)

    def gap(theta):
        a1, b1 = pa[k] + theta * a[k], pb[k] + theta * b[k]
        a2, b2 = ta - a1, tb - b1
        c0, c1 = cons
        if auction == "spa" and kind == "tcpa":
            return c0 * a1 * a2 - r[k] * c1 * b1 * b2
        if auction == "spa" and kind == "budget":
            return c0 * a2 - r[k] * c1 * b1
        return c1 * a1 - r[k] * c0 * b2  # fpa budget

    f0, fh, f1 = gap(0.0), gap(0.5), gap(1.0)
    q2 = 2.0 * (f1 - 2.0 * fh + f0)
    q1 = f1 - f0 - q2
    roots = _quadratic_roots(q2, q1, f0)
    for row in roots:
        inside = np.isfinite(row) & (row > 1e-12) & (row < 1 - 1e-12)
        cuts += [(int(kk), float(th)) for kk, th in zip(k[inside], row[inside])]

    eqs, rejected = [], 0
    for kk, th in cuts:
        a1, b1 = pa[kk] + th * a[kk], pb[kk] + th * b[kk]
        alpha = np.array(_cut_multipliers(auction, kind, cons, a1, b1, ta - a1, tb - b1))
        xs = np.zeros(m)
        xs[:kk] = 1.0
        if kk < m:
            xs[kk] = th
        x = np.zeros((2, m))
        x[0, order] = xs
        x[1] = 1.0 - x[0]
        if verify_equilibrium(alpha, x, V, kind, cons, auction) <= VERIFY_TOL:
            eqs.append(eq_record(alpha, x, V, auction))
        else:
            rejected += 1

    if auction == "spa" and kind == "tcpa":
        eqs += _spa_tcpa_corner_equilibria(V, cons, r_all, ta, tb)
    return dedupe(eqs, V), rejected


def _spa_tcpa_corner_equilibria(V, cons, r_all, ta, tb) -> list[dict]:
    """'One advertiser wins everything' equilibria (tCPA, SPA, undominated bids)."""
    m = V.shape[1]
    out = []
    r_max, r_min = r_all.max(), r_all.min()
    # advertiser 1 wins all: 0 bids alpha_0 = T_0 (cheapest for 1), 1 bids high enough that 0's
    # cheapest query costs more than T_0 per unit of value.
    if cons[0] * ta <= cons[1] * tb * (1 + 1e-12):
        alpha = np.array([cons[0], max(cons[1], cons[0] * r_max) * (1 + 1e-6)])
        x = np.vstack([np.zeros(m), np.ones(m)])
        if verify_equilibrium(alpha, x, V, "tcpa", cons, "spa") <= VERIFY_TOL:
            out.append(eq_record(alpha, x, V, "spa", spend_lo=[0.0, cons[0] * ta],
                                 spend_hi=[0.0, cons[1] * tb]))
    if cons[1] * tb <= cons[0] * ta * (1 + 1e-12):
        alpha = np.array([max(cons[0], cons[1] / r_min) * (1 + 1e-6), cons[1]])
        x = np.vstack([np.ones(m), np.zeros(m)])
        if verify_equilibrium(alpha, x, V, "tcpa", cons, "spa") <= VERIFY_TOL:
            out.append(eq_record(alpha, x, V, "spa", spend_lo=[cons[1] * tb, 0.0],
                                 spend_hi=[cons[0] * ta, 0.0]))
    return out


def spa_equilibria(V, kind, cons, seed=0, starts=6, iters=60):
    """All SPA equilibria for n = 2 (exact); best-response dynamics from many starts for n >= 3."""
    if V.shape[0] == 2:
        return two_bidder_equilibria(V, kind, cons, "spa")
    return find_equilibria(V, kind, cons, "spa", starts=starts, iters=iters, seed=seed)


# ---------------------------------------------------------------------------------------------
# The incentive-compatibility checks (1)-(3)
# ---------------------------------------------------------------------------------------------
def worth(eqs: list[dict], i: int, kind: str, c_true: float, scale: float, tol: float):
    """(worst, best) worth (7) to advertiser i over an equilibrium set, under its true constraint."""
    worst, best = np.inf, -np.inf
    for e in eqs:
        v = e["values"][i]
        limit = c_true * v if kind == "tcpa" else c_true
        slack = tol * scale
        surely = e["spend_hi"][i] <= limit + slack
        maybe = e["spend_lo"][i] <= limit + slack
        worst = min(worst, v if surely else -np.inf)
        if maybe:
            best = max(best, v)
    return worst, best


def ic_violations(truth_eqs: list[dict], mis_eqs: list[list[dict]], i: int, kind: str,
                  c_true: float, scale: float, tol: float = 1e-6,
                  c_judged: list[float] | None = None) -> dict:
    """AIC / RAIC / OAIC verdicts for advertiser i against a list of misreports' equilibrium sets.

    Margins are (misreport statistic - truthful statistic) / scale, clipped to [-1, 1]: positive
    means the misreport is better, i.e. a violation when above tol. ``c_judged`` (foil only, the
    ``reported_worth`` mutant) judges each misreport's equilibria under the constraint it reports
    instead of the true one.
    """
    t_min, t_max = worth(truth_eqs, i, kind, c_true, scale, tol)
    margins = {"aic": -1.0, "raic": -1.0, "oaic": -1.0}
    for k, eqs in enumerate(mis_eqs):
        if not eqs:
            continue
        c_eval = c_true if c_judged is None else c_judged[k]
        m_min, m_max = worth(eqs, i, kind, c_eval, scale, tol)
        for key, diff in (("aic", m_max - t_min), ("raic", m_min - t_min), ("oaic", m_max - t_max)):
            d = -1.0 if not np.isfinite(diff) else float(np.clip(diff / scale, -1.0, 1.0))
            margins[key] = max(margins[key], d)
    out = {f"{k}_margin": v for k, v in margins.items()}
    out.update({k: float(v > tol) for k, v in margins.items()})
    return out


def continuous_search(evaluate: Callable, factors, lo: float, hi: float, points: int,
                      refine: int, seed: int) -> None:
    """Search the misreport factor f over the continuum [lo, hi] (deviation 3's remedy).

    ``evaluate(f)`` solves the misreport c' = f c and returns its (raic, oaic) margins. Start from
    the grid ``factors`` and a scrambled Sobol sample of ``points`` factors (log scale); then, for
    each margin, a bounded scalar search (``refine`` evaluations) between the neighbours of its
    best factor. The margins are step functions of f (equilibria change at breakpoints), so the
    search is a heuristic that can only add misreports to the grid's, never remove one.
    """
    from scipy.optimize import minimize_scalar
    from scipy.stats import qmc

    u = qmc.Sobol(1, scramble=True, seed=seed).random(points)[:, 0]  # (points,)
    xs = sorted({float(np.log(f)) for f in factors}
                | set((np.log(lo) + u * (np.log(hi) - np.log(lo))).tolist()))
    seen = {x: evaluate(float(np.exp(x))) for x in xs}
    for k in range(2):  # 0: raic margin, 1: oaic margin
        best = max(xs, key=lambda x: seen[x][k])
        j = xs.index(best)
        a, b = xs[max(j - 1, 0)], xs[min(j + 1, len(xs) - 1)]
        if b > a:
            minimize_scalar(lambda x: -evaluate(float(np.exp(x)))[k], bounds=(a, b),
                            method="bounded", options={"maxiter": refine, "xatol": 1e-6})


def market_ic(solve: Callable, V: np.ndarray, kind: str, cons: np.ndarray, factors, tol: float,
              seed: int, reported_worth: bool = False, search: dict | None = None) -> dict:
    """Solve the truthful market and every single-advertiser misreport; return the verdicts.

    ``search`` (keys lo, hi, points, refine) adds a continuous search over misreports to the grid.
    """
    truth, rejected = solve(V, kind, cons, seed)
    row = {"n": int(V.shape[0]), "n_eq_truth": len(truth), "rejected": rejected, "missing": 0}
    if not truth:
        return row
    verdict = {"aic": 0.0, "raic": 0.0, "oaic": 0.0,
               "aic_margin": -1.0, "raic_margin": -1.0, "oaic_margin": -1.0}
    scale_of = V.sum(1)  # (n,)
    for i in range(V.shape[0]):
        mis, tried = [], []

        def evaluate(f: float, i: int = i) -> tuple[float, float]:
            c = cons.copy()
            c[i] = cons[i] * f
            eqs, rej = solve(V, kind, c, seed)
            row["rejected"] += rej
            row["missing"] += int(not eqs)
            mis.append(eqs)
            tried.append(f)
            one = ic_violations(truth, [eqs], i, kind, cons[i], float(scale_of[i]), tol,
                                [cons[i] * f] if reported_worth else None)
            return one["raic_margin"], one["oaic_margin"]

        if search is None:
            for f in factors:
                evaluate(f)
        else:
            continuous_search(evaluate, factors, search["lo"], search["hi"], search["points"],
                              search["refine"], seed + 7919 * i)
        factors_i = tried
        judged = [cons[i] * f for f in factors_i] if reported_worth else None
        res = ic_violations(truth, mis, i, kind, cons[i], float(V[i].sum()), tol, judged)
        row.setdefault("tried", 0)
        row["tried"] += len(factors_i)
        for key in verdict:
            verdict[key] = max(verdict[key], res[key])
    row.update(verdict)
    return row


def run_markets(solve: Callable, data: dict, factors, tol: float, seed: int,
                reported_worth: bool = False, search: dict | None = None) -> dict:
    """IC analysis of every market in a cell; cell metrics are maxima / means over markets."""
    t0 = time.perf_counter()
    rows = [market_ic(solve, mk["V"], mk["kind"], np.asarray(mk["cons"], float), factors, tol,
                      seed + j, reported_worth, search) for j, mk in enumerate(data["markets"])]
    elapsed = time.perf_counter() - t0
    done = [r for r in rows if "raic" in r]
    out: dict = {"time_s": elapsed, "markets": rows, "n_markets": len(rows),
                 "n_solved": len(done)}
    if done:
        for key in ("aic", "raic", "oaic", "aic_margin", "raic_margin", "oaic_margin"):
            out[key] = float(max(r[key] for r in done))
        for key in ("aic", "raic", "oaic"):
            out[f"{key}_rate"] = float(np.mean([r[key] for r in done]))
        out["n_eq_truth"] = float(np.mean([r["n_eq_truth"] for r in done]))
        out["multi_eq_share"] = float(np.mean([r["n_eq_truth"] >= 2 for r in done]))
    out["rejected"] = float(sum(r["rejected"] for r in rows))
    out["missing"] = float(sum(r["missing"] for r in rows))
    out["misreports_tried"] = float(np.mean([r.get("tried", 0) for r in done])) if done else 0.0
    return out


@dataclass
class AutobiddingIC(Method):
    """RAIC / OAIC / AIC verdicts of second-price auto-bidding, from complete equilibrium sets."""

    name: ClassVar[str] = "spa"
    factors: tuple = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.01, 1.05, 1.1, 1.25, 1.5, 2.0)
    # misreports c' = f * c (research note: a grid over 0.5-2x the truth; paper: every c')
    tol: float = 1e-6  # relative tolerance of the comparisons (research note)
    starts: int = 6  # best-response starts for n >= 3 (our choice)
    iters: int = 60  # best-response iterations per start (our choice)
    mutant: str = ""  # foil only: "reported_worth" (module header); not the paper's method
    search: str = "grid"  # "grid": the factors only; "continuous": continuous_search (issue 29)
    search_lo: float = 0.1  # continuous range of f (our choice: 20x wider than the grid's 0.5-2)
    search_hi: float = 10.0
    search_points: int = 32  # Sobol factors beside the grid's (a power of 2: one per stratum)
    search_refine: int = 8  # bounded-search evaluations per margin (our choice)

    def applies_to(self, dataset) -> str | None:
        if self.search == "continuous" and getattr(dataset, "n", 2) != 2:
            return ("the continuous misreport search is for two advertisers, whose equilibrium "
                    "sets are exact; best-response subsets (n >= 3) cannot support it")
        return None

    def solve(self, V, kind, cons, seed):
        return spa_equilibria(V, kind, cons, seed, self.starts, self.iters)

    def run(self, data, seed):
        if self.mutant not in ("", "reported_worth"):
            raise ValueError(f"unknown mutant {self.mutant!r}; valid: '' or 'reported_worth'")
        if self.search not in ("grid", "continuous"):
            raise ValueError(f"unknown search {self.search!r}; valid: 'grid' or 'continuous'")
        if not 0 < self.search_lo < 1 < self.search_hi:
            raise ValueError(f"search range must satisfy 0 < search_lo < 1 < search_hi, got "
                             f"[{self.search_lo}, {self.search_hi}]")
        search = None if self.search == "grid" else {
            "lo": self.search_lo, "hi": self.search_hi, "points": self.search_points,
            "refine": self.search_refine}
        return run_markets(self.solve, data, self.factors, self.tol, seed % (2 ** 31),
                           reported_worth=self.mutant == "reported_worth", search=search)
