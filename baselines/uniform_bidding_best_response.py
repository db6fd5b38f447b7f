"""Uniform-bidding auto-bidding equilibria by best-response dynamics from many starting points.

Each advertiser i bids b_ij = alpha_i * v_ij on every query j (uniform bidding). The highest bid
wins; tied highest bidders split the query fractionally (the split is part of the equilibrium).
Price per unit won: second price p_ij = max_{k != i} b_kj, or first price p_ij = b_ij.

Best response (value maximisation under the advertiser's constraint, given the others' bids):

* second price: i can buy any fraction of query j at unit price q_ij = max_{k != i} b_kj, so its
  best value is the fractional knapsack  max sum_j y_j v_ij  s.t.  sum_j y_j (q_ij - T_i v_ij) <= 0
  (tCPA) or  sum_j y_j q_ij <= B_i  (budget), 0 <= y <= 1, solved greedily by q_ij / v_ij. The
  multiplier that buys the greedy solution is the price-per-value of its marginal query;
* first price with uniform bidding: tCPA forces alpha_i <= T_i, so alpha_i = T_i; with a budget,
  alpha_i is the largest multiplier whose spend alpha_i * (value won) fits the budget.

An equilibrium is a profile (alpha, split) in which every advertiser's value equals its best
value and its constraint holds. For tCPA we keep to undominated bids alpha_i >= T_i (bidding
T_i v_ij never breaks the constraint in a truthful auction, so lower multipliers are dominated).

``find_equilibria`` runs damped simultaneous best responses (geometric averaging of multipliers)
from ``starts`` random profiles. Best responses on multipliers stall at ties, where the split is
the free variable, so each end point is "polished": its near-tied queries fix the multiplier
ratios and the scale and splits are solved exactly (a generalised eigenvalue problem). Only
profiles that pass ``verify_equilibrium`` are kept; equilibria that share an allocation but
differ in the prices set by indifferent rivals are reported with their spend range. The search
finds equilibria near which best responses stall; others (notably those where an advertiser wins
nothing, for tCPA) can be missed, so an equilibrium set from here is a subset of the true one.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method

TIE_RTOL = 1e-7  # bids within this relative gap count as tied


# ---------------------------------------------------------------------------------------------
# Auction primitives
# ---------------------------------------------------------------------------------------------
def competing_bids(alpha: np.ndarray, V: np.ndarray) -> np.ndarray:
    """q_ij = max_{k != i} alpha_k v_kj: the price i pays per unit won in a second-price auction."""
    bids = alpha[:, None] * V  # (n, m)
    n = bids.shape[0]
    q = np.empty_like(bids)
    for i in range(n):
        q[i] = np.delete(bids, i, axis=0).max(0) if n > 1 else 0.0
    return q  # (n, m)


def _competing_bid(i: int, alpha: np.ndarray, V: np.ndarray) -> np.ndarray:
    """Row i of ``competing_bids`` alone (the best-response inner loop needs only this)."""
    others = [k for k in range(V.shape[0]) if k != i]
    if not others:
        return np.zeros(V.shape[1])
    return (alpha[others, None] * V[others]).max(0)  # (m,)


def outcome(alpha: np.ndarray, V: np.ndarray, x: np.ndarray, auction: str = "spa") -> dict:
    """Values and spends of allocation x (n, m) at multipliers alpha under the given price rule."""
    if auction == "spa":
        price = competing_bids(alpha, V)  # (n, m) per unit of query won
    elif auction == "fpa":
        price = alpha[:, None] * V  # (n, m)
    else:
        raise ValueError(auction)
    return {"values": (x * V).sum(1), "spend": (x * price).sum(1)}


def default_allocation(alpha: np.ndarray, V: np.ndarray) -> np.ndarray:
    """Highest bid wins; ties split equally (an equilibrium may need another split)."""
    bids = alpha[:, None] * V  # (n, m)
    top = bids.max(0)
    win = bids >= top * (1 - TIE_RTOL)
    return win / win.sum(0, keepdims=True)  # (n, m)


def _greedy(cost: np.ndarray, v: np.ndarray, cap: float):
    """Fractional knapsack max sum y v s.t. sum y cost <= cap, items already in greedy order.

    Returns (value, number of items taken fully, fraction of the next item).
    """
    cum = np.concatenate(([0.0], np.cumsum(cost)))  # (m+1,)
    # Round-off guard: a query priced exactly at the target has cost ~ +-1e-16 and must be taken.
    slack = 1e-11 * (np.abs(cost).sum() + abs(cap)) + 1e-300
    ok = np.nonzero(cum <= cap + slack)[0]
    k = int(ok.max())  # cum falls then rises (costs sorted by ratio), so {cum <= cap} is a prefix
    if k == len(v):
        return float(v.sum()), k, 0.0
    frac = 1.0 if cost[k] <= slack else min(1.0, max(0.0, (cap - cum[k]) / cost[k]))
    return float(v[:k].sum() + frac * v[k]), k, frac


def spa_best_response(i: int, alpha: np.ndarray, V: np.ndarray, kind: str, c: float):
    """Best value of i against the others' bids in SPA, its multiplier, and its greedy fractions."""
    q = _competing_bid(i, alpha, V)  # (m,)
    v = V[i]
    t = q / v  # price per unit of value
    order = np.argsort(t, kind="stable")
    cost = v[order] * (t[order] - c) if kind == "tcpa" else q[order]
    cap = 0.0 if kind == "tcpa" else c
    value, k, frac = _greedy(cost, v[order], cap)
    y = np.zeros_like(v)
    y[order[:k]] = 1.0
    if k < len(v):
        y[order[k]] = frac
        mult = t[order[k]]  # ties with the price-setter on the marginal query
    else:
        mult = t[order[-1]]  # wins everything: the smallest multiplier that still does
    if kind == "tcpa":
        mult = max(mult, c)
    return value, mult, y


def fpa_best_response(i: int, alpha: np.ndarray, V: np.ndarray, kind: str, c: float):
    """Best value of i under uniform bidding in FPA, its multiplier, and the fractions it buys."""
    v = V[i]
    q = _competing_bid(i, alpha, V)  # (m,) highest other bid
    w = q / v  # multiplier needed to reach query j
    if kind == "tcpa":
        y = (w <= c * (1 + TIE_RTOL)).astype(float)
        return float((y * v).sum()), c, y
    order = np.argsort(w, kind="stable")
    ws, vs = w[order], v[order]
    y_sorted = np.zeros_like(vs)
    won = 0.0
    mult = None
    for k in range(len(vs)):
        # multipliers in [w_k, w_{k+1}) win the first k queries and tie on query k
        if won > 0 and c / won < ws[k]:
            mult = c / won  # spend alpha * won hits the budget before query k is reached
            break
        frac = min(1.0, max(0.0, (c / ws[k] - won) / vs[k]))
        y_sorted[k] = frac
        if frac < 1.0:
            mult = ws[k]
            break
        won += vs[k]
    if mult is None:
        mult = c / won
    y = np.zeros_like(v)
    y[order] = y_sorted
    return float((y * v).sum()), mult, y


def best_response(auction: str, i, alpha, V, kind, c):
    fn = spa_best_response if auction == "spa" else fpa_best_response
    return fn(i, alpha, V, kind, c)


def verify_equilibrium(alpha: np.ndarray, x: np.ndarray, V: np.ndarray, kind: str,
                       cons: np.ndarray, auction: str = "spa", tol: float = 1e-7) -> float:
    """Largest violation (relative to each advertiser's total value) of the equilibrium conditions.

    Conditions: x is a split of every query among its highest bidders; every advertiser meets its
    constraint; its value equals its best-response value; tCPA multipliers are undominated.
    Returns 0.0 for an exact equilibrium.
    """
    n, m = V.shape
    scale = V.sum(1)  # (n,)
    bids = alpha[:, None] * V  # (n, m)
    top = bids.max(0)
    res = [float(np.abs(x.sum(0) - 1.0).max()), float(np.clip(-x, 0, None).max())]
    off_top = (bids < top * (1 - TIE_RTOL)) & (x > 1e-12)
    res.append(float((x * off_top).max()) if off_top.any() else 0.0)
    out = outcome(alpha, V, x, auction)
    limit = cons * out["values"] if kind == "tcpa" else cons
    res.append(float(((out["spend"] - limit) / scale).max()))
    for i in range(n):
        best, _, _ = best_response(auction, i, alpha, V, kind, cons[i])
        res.append((best - out["values"][i]) / scale[i])
    if kind == "tcpa":
        res.append(float(((cons - alpha) / cons).max()))
    return max(0.0, max(res))


def eq_record(alpha, x, V, auction, spend_lo=None, spend_hi=None) -> dict:
    """An equilibrium as the IC check needs it: values and the range of each advertiser's spend.

    The spend range is non-trivial where the equilibrium is a family of multiplier profiles with one
    allocation (an advertiser that wins everything pays a price set by an indifferent rival).
    """
    out = outcome(alpha, V, x, auction)
    lo = out["spend"] if spend_lo is None else np.asarray(spend_lo, float)
    hi = out["spend"] if spend_hi is None else np.asarray(spend_hi, float)
    return {"alpha": np.asarray(alpha, float), "x": x, "values": out["values"],
            "spend_lo": lo, "spend_hi": hi}


def with_spend_range(alpha, x, V, kind, cons, auction="spa", tol=1e-7) -> dict:
    """``eq_record`` widened over the family of equilibria that share x (second price, tCPA).

    An advertiser that wins nothing can move its multiplier anywhere in [T_k, just below the winning
    bids] without changing the allocation, but it changes what the winners pay; one that wins every
    query can raise its own multiplier. Each move is kept only as far as the profile stays an
    equilibrium (bisection along the move).
    """
    rec = eq_record(alpha, x, V, auction)
    if auction != "spa" or kind != "tcpa":
        return rec
    losers = [k for k in range(V.shape[0]) if rec["values"][k] <= 1e-12 * V[k].sum()]
    if not losers:
        return rec
    # An advertiser that wins every query may raise its multiplier freely as well.
    takers = [i for i in range(V.shape[0]) if np.all(x[i] >= 1 - 1e-12)]
    up = alpha.copy()
    up[takers] *= 1e3
    top = (up[:, None] * V).max(0)  # (m,) winning bids after the takers' raise
    lo, hi = rec["spend_lo"].copy(), rec["spend_hi"].copy()
    for side in (1, 2):
        target = alpha.copy() if side == 1 else up.copy()
        for k in losers:
            target[k] = cons[k] if side == 1 else max(float((top / V[k]).min()) * (1 - 1e-9),
                                                      alpha[k])
        good, bad = 0.0, 1.0
        if verify_equilibrium(target, x, V, kind, cons, auction) <= tol:
            good = 1.0
        else:
            for _ in range(30):
                mid = 0.5 * (good + bad)
                trial = alpha + mid * (target - alpha)
                if verify_equilibrium(trial, x, V, kind, cons, auction) <= tol:
                    good = mid
                else:
                    bad = mid
        spend = outcome(alpha + good * (target - alpha), V, x, auction)["spend"]
        lo, hi = np.minimum(lo, spend), np.maximum(hi, spend)
    rec["spend_lo"], rec["spend_hi"] = lo, hi
    return rec


def dedupe(eqs: list[dict], V: np.ndarray, rtol: float = 1e-6) -> list[dict]:
    """Merge equilibria whose value vectors agree (relative to each advertiser's total value)."""
    scale = V.sum(1)
    kept: list[dict] = []
    for e in eqs:
        if not any(np.all(np.abs(e["values"] - k["values"]) <= rtol * scale) for k in kept):
            kept.append(e)
    return kept


# ---------------------------------------------------------------------------------------------
# Best-response dynamics
# ---------------------------------------------------------------------------------------------
def _split_from_br(alpha, V, kind, cons, auction):
    """Allocation at alpha: winners take their query; tied queries split by the tied bidders' wishes."""
    n, m = V.shape
    bids = alpha[:, None] * V
    top = bids.max(0)
    tied = bids >= top * (1 - TIE_RTOL)  # (n, m)
    want = np.zeros((n, m))
    for i in range(n):
        want[i] = best_response(auction, i, alpha, V, kind, cons[i])[2]
    x = np.where(tied, want, 0.0)
    single = tied.sum(0) == 1
    x[:, single] = tied[:, single]
    tot = x.sum(0)
    empty = tot <= 0
    x[:, empty] = tied[:, empty] / tied[:, empty].sum(0)
    tot = x.sum(0)
    return x / tot  # (n, m)


def _tie_forest(alpha: np.ndarray, V: np.ndarray, max_gap: float):
    """Near-tied queries (top two bids within max_gap in log) that join distinct bidder groups."""
    n, m = V.shape
    bids = alpha[:, None] * V  # (n, m)
    top2 = np.argsort(-bids, axis=0)[:2]  # (2, m)
    first, second = top2[0], top2[1]
    gap = np.log(bids[first, np.arange(m)] / bids[second, np.arange(m)])  # (m,)
    parent = list(range(n))

    def root(u):
        while parent[u] != u:
            u = parent[u]
        return u

    ties = []
    for j in np.argsort(gap, kind="stable"):
        if gap[j] > max_gap or len(ties) == n - 1:
            break
        ru, rv = root(first[j]), root(second[j])
        if ru != rv:
            parent[ru] = rv
            ties.append((int(j), int(first[j]), int(second[j])))
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return ties, list(groups.values())


def _solve_group(members, ties, rho, x0, V, kind, cons, price):
    """Scale and tie splits of one tie group: roots of det(sC - D) (generalised eigenvalues)."""
    from scipy.linalg import eigvals

    idx = {i: r for r, i in enumerate(members)}
    g_ties = [t for t in ties if t[1] in idx]
    p = len(members)
    C = np.zeros((p, p))
    D = np.zeros((p, p))
    C[:, -1] = (x0[members] * price[members]).sum(1)
    value0 = (x0[members] * V[members]).sum(1)
    value_f = np.zeros((p, p - 1))
    for a, (j, i, k) in enumerate(g_ties):  # f_a goes to i, 1 - f_a to k
        C[idx[i], a] += price[i, j]
        C[idx[k], a] -= price[k, j]
        C[idx[k], -1] += price[k, j]
        value_f[idx[i], a] += V[i, j]
        value_f[idx[k], a] -= V[k, j]
        value0[idx[k]] += V[k, j]
    c = cons[members]
    if kind == "tcpa":
        D[:, :-1] = c[:, None] * value_f
        D[:, -1] = c * value0
    else:
        D[:, -1] = c
    if not (np.all(np.isfinite(C)) and np.all(np.isfinite(D))):
        return []
    with np.errstate(all="ignore"):
        roots = eigvals(D, C)
    sols = []
    for s in roots:
        if not np.isfinite(s) or abs(s.imag) > 1e-9 * abs(s) or s.real <= 0:
            continue
        s = s.real
        _, _, vt = np.linalg.svd(s * C - D)
        z = vt[-1]
        if abs(z[-1]) < 1e-14:
            continue
        f = z[:-1] / z[-1]
        if np.any(f < -1e-9) or np.any(f > 1 + 1e-9):
            continue
        sols.append((s, np.clip(f, 0.0, 1.0), g_ties))
    return sols


def polish(alpha_hat, V, kind, cons, auction="spa", max_gap=1e-2, tol=1e-7) -> list[dict]:
    """Exact equilibria sharing the tie structure of an approximate profile.

    Near-tied queries link bidders into groups; inside a group the ties fix the multiplier ratios,
    and the group's scale s and tie splits f solve its binding constraints
    s * C [f; 1] = D [f; 1], i.e. det(sC - D) = 0: s is a generalised eigenvalue of (D, C). Queries
    that are not tied keep the winner they have at ``alpha_hat``. Second price needs a single group
    (a price is a rival's bid, so every binding constraint needs a tie); first price can have several
    (a price is one's own bid). Every solution is checked with ``verify_equilibrium``.
    """
    n, m = V.shape
    ties, groups = _tie_forest(alpha_hat, V, max_gap)
    if auction == "spa" and len(groups) != 1:
        return []
    rho = alpha_hat.copy()
    for _ in range(n):  # rescale along the ties so that tied bids are exactly equal
        for j, i, k in ties:
            rho[k] = rho[i] * V[i, j] / V[k, j]
    tie_items = [t[0] for t in ties]
    rest = np.setdiff1d(np.arange(m), tie_items)
    x0 = np.zeros((n, m))
    x0[(alpha_hat[:, None] * V[:, rest]).argmax(0), rest] = 1.0
    if auction == "spa":
        price = competing_bids(rho / rho[0], V)  # (n, m) at scale 1
        options = [[(s, f, g, groups[0]) for s, f, g in
                    _solve_group(groups[0], ties, rho / rho[0], x0, V, kind, cons, price)]]
    else:
        options = []
        for members in groups:
            r = rho / rho[members[0]]
            price = r[:, None] * V  # (n, m) own bids at scale 1
            options.append([(s, f, g, members) for s, f, g in
                            _solve_group(members, ties, r, x0, V, kind, cons, price)])
    out = []
    for combo in itertools.product(*options):
        alpha = rho.copy()
        x = x0.copy()
        for s, f, g_ties, members in combo:
            ref = rho[0] if auction == "spa" else rho[members[0]]
            alpha[members] = s * rho[members] / ref
            for a, (j, i, k) in enumerate(g_ties):
                x[i, j], x[k, j] = f[a], 1.0 - f[a]
        if verify_equilibrium(alpha, x, V, kind, cons, auction) <= tol:
            out.append(with_spend_range(alpha, x, V, kind, cons, auction))
    return out


def find_equilibria(V: np.ndarray, kind: str, cons: np.ndarray, auction: str = "spa",
                    starts: int = 6, iters: int = 60, damping: float = 0.5, seed: int = 0,
                    tol: float = 1e-7) -> tuple[list[dict], int]:
    """Equilibria reached by damped best responses from random starts; also returns #failed starts.

    Best responses on multipliers stall at a tie (the split, not the multiplier, is free there);
    each end point is checked as it is and then polished on its tie structure (``polish``).
    """
    n, m = V.shape
    rng = np.random.default_rng(seed)
    base = cons.copy() if kind == "tcpa" else cons / V.sum(1)
    found, failed = [], 0
    for _ in range(starts):
        la = np.log(base) + rng.uniform(0.0, 2.0, n)
        for _ in range(iters):
            alpha = np.exp(la)
            br = np.array([best_response(auction, i, alpha, V, kind, cons[i])[1] for i in range(n)])
            step = np.log(br) - la
            la = la + damping * step
            if np.abs(step).max() < 1e-9:  # stalled (polish takes over from here)
                break
        alpha = np.exp(la)
        x = _split_from_br(alpha, V, kind, cons, auction)
        here = []
        if verify_equilibrium(alpha, x, V, kind, cons, auction) <= tol:
            here.append(with_spend_range(alpha, x, V, kind, cons, auction))
        here += polish(alpha, V, kind, cons, auction, tol=tol)
        found += here
        failed += int(not here)
    return dedupe(found, V), failed


@dataclass
class UniformBestResponse(Method):
    """IC analysis in SPA with equilibria found by best-response dynamics from many starts.

    The equilibrium search is incomplete: a RAIC/OAIC verdict can flip when an equilibrium is missed.
    """

    name: ClassVar[str] = "br_starts"
    auction: str = "spa"
    starts: int = 6  # our choice
    iters: int = 60  # our choice; the exact polish needs only the tie structure
    damping: float = 0.5  # our choice
    factors: tuple = (0.5, 0.7, 0.9, 0.99, 1.01, 1.1, 1.5, 2.0)  # misreport = factor x truth
    tol: float = 1e-6  # relative tolerance of the IC comparisons (research note)

    def run(self, data, seed):
        from claimbench.methods.autobidding_raic import run_markets

        def solve(V, kind, cons, s):
            return find_equilibria(V, kind, cons, self.auction, self.starts, self.iters,
                                   self.damping, s)

        return run_markets(solve, data, self.factors, self.tol, seed)
