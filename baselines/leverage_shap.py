"""Leverage SHAP (Musco & Witter, ICLR 2025): KernelSHAP's regression with leverage-score sampling.

The Shapley values solve the constrained weighted regression of baselines/kernel_shap.py. Musco &
Witter show the statistical leverage scores of its (projected, kernel-weighted) rows are
proportional to 1 / C(p, |S|): every coalition size 1..p-1 carries the same total leverage. Leverage
SHAP therefore samples coalitions without replacement with equal expected counts per size, paired
with their complements, and reweights each sampled row by mu(S) / P(S in sample), so that with every
coalition sampled the solution is exact.

Implementation: the m = budget - 2 evaluations are split over sizes by water-filling (equal
count n_s per size, capped at C(p, s); sizes s and p - s share their count because samples come
in complementary pairs), and n_s distinct coalitions of size s are drawn uniformly. The row
weight is mu(S) C(p, s) / n_s (inclusion probability n_s / C(p, s)).

Deviation: the paper samples by independent Bernoulli trials (a random number of rows close to m);
we fix the per-size counts to their expectations (stratified, exactly m rows), which has the same
inclusion probabilities and respects the budget exactly.
"""
from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.kernel_shap import shapley_kernel_weight, solve_constrained_wls


def leverage_pair_counts(p: int, n_pairs: int, rng: np.random.Generator) -> dict[int, int]:
    """Number of complementary pairs per size s <= p/2 with equal per-size coalition counts."""
    classes = list(range(1, p // 2 + 1))
    # capacity in pairs and coalitions-per-size contributed by one pair of each class
    cap = {s: (math.comb(p, s) // 2 if 2 * s == p else math.comb(p, s)) for s in classes}
    per_size = {s: (2 if 2 * s == p else 1) for s in classes}  # coalitions of size s per pair
    n_pairs = min(n_pairs, sum(cap.values()))
    counts = {s: 0 for s in classes}
    left = n_pairs
    while left > 0:
        open_ = [s for s in classes if counts[s] < cap[s]]
        # next pair goes to the sizes with the fewest coalitions so far (ties at random)
        level = {s: counts[s] * per_size[s] for s in open_}
        low = min(level.values())
        pick = [s for s in open_ if level[s] == low]
        counts[pick[int(rng.integers(len(pick)))]] += 1
        left -= 1
    return counts


def _distinct_subsets(rng: np.random.Generator, p: int, s: int, k: int, fix_first: bool) -> np.ndarray:
    """k distinct subsets of size s, uniformly; fix_first restricts to subsets containing player 0."""
    if fix_first:
        pool = [(0,) + c for c in itertools.combinations(range(1, p), s - 1)]
    else:
        pool = list(itertools.combinations(range(p), s))
    pick = rng.choice(len(pool), size=k, replace=False)
    Z = np.zeros((k, p), dtype=bool)
    for row, j in enumerate(pick):
        Z[row, list(pool[j])] = True
    return Z


@dataclass
class LeverageSHAP(Method):
    name: ClassVar[str] = "leverage_shap"

    def run(self, data, seed: int) -> dict:
        rng = np.random.default_rng(seed)
        game = data.session()
        p = game.n_players
        t0 = time.perf_counter()
        v0, vN = game(np.array([np.zeros(p, bool), np.ones(p, bool)]))
        counts = leverage_pair_counts(p, game.remaining // 2, rng)
        rows = []
        for s, k in counts.items():
            if k == 0:
                continue
            Z = _distinct_subsets(rng, p, s, k, fix_first=(2 * s == p))
            rows += [Z, ~Z] if 2 * s != p else [np.vstack([Z, ~Z])]
        Z = np.vstack(rows) if rows else np.zeros((0, p), bool)
        y = game(Z) if len(Z) else np.zeros(0)
        size = Z.sum(axis=1)
        n_s = np.bincount(size, minlength=p + 1)  # coalitions sampled per size
        w = shapley_kernel_weight(p, size) * np.array([math.comb(p, int(s)) for s in size]) / n_s[size] \
            if len(Z) else np.zeros(0)
        phi = solve_constrained_wls(Z, y, w, v0, vN)
        return {"phi": phi, "n_evals": game.n_evals, "time_s": time.perf_counter() - t0,
                "path": {"n_evals": [game.n_evals], "phi": [phi.tolist()]}}
