"""KernelSHAP (Lundberg & Lee 2017): Shapley values as a weighted least-squares problem.

phi = argmin_phi sum_S mu(S) (v(S) - v(empty) - sum_{i in S} phi_i)^2  s.t.  sum_i phi_i = v(N) - v(empty),
over coalitions of size 1..p-1 with the Shapley kernel mu(S) = (p - 1) / (C(p, |S|) |S| (p - |S|))
(Charnes et al. 1988: with every coalition the solution is exactly the Shapley value).
Sampled version: m = budget - 2 coalitions are drawn i.i.d. from the kernel distribution
P(S) proportional to mu(S) (size s with probability proportional to (p-1)/(s(p-s)), then a uniform subset
of that size), each with unit weight; paired sampling (each draw with its complement, Covert & Lee
2021) by default. Evaluations are cached: duplicates add weight but cost no budget, and drawing
stops once m distinct coalitions were evaluated (or after `max_draws_factor * m` draws).
The constraint is eliminated through an orthonormal basis of {x : sum x = 0}; an
under-determined system (budget < p + 1) gets the minimum-norm solution.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method


def shapley_kernel_weight(p: int, size) -> np.ndarray:
    """mu(S) for |S| = size in 1..p-1."""
    size = np.asarray(size)
    binom = np.array([math.comb(p, int(s)) for s in np.ravel(size)], dtype=float).reshape(size.shape)
    return (p - 1) / (binom * size * (p - size))


def solve_constrained_wls(Z: np.ndarray, y: np.ndarray, w: np.ndarray, v0: float, vN: float) -> np.ndarray:
    """argmin sum_k w_k (y_k - v0 - Z_k phi)^2 s.t. 1^T phi = vN - v0 (minimum-norm when singular)."""
    Z = np.asarray(Z, dtype=float)
    p = Z.shape[1] if Z.ndim == 2 and Z.shape[1] else 0
    base = np.full(p, (vN - v0) / p)
    if len(y) == 0:
        return base
    Q = np.linalg.svd(np.eye(p) - 1.0 / p)[0][:, :p - 1]  # (p, p-1) orthonormal basis of 1^perp
    sw = np.sqrt(np.asarray(w, dtype=float))[:, None]
    X = sw * (Z @ Q)  # (m, p-1)
    b = sw[:, 0] * (np.asarray(y) - v0 - Z @ base)
    x = np.linalg.lstsq(X, b, rcond=1e-10)[0]  # paired rows are collinear in the projected basis
    return base + Q @ x


def sample_kernel_coalitions(rng: np.random.Generator, p: int, n: int) -> np.ndarray:
    """n coalitions from the Shapley kernel distribution over sizes 1..p-1."""
    sizes = np.arange(1, p)
    prob = (p - 1) / (sizes * (p - sizes))
    s = rng.choice(sizes, size=n, p=prob / prob.sum())
    keys = rng.random((n, p))
    ranks = np.argsort(np.argsort(keys, axis=1), axis=1)
    return ranks < s[:, None]  # (n, p) uniform subsets of the drawn sizes


@dataclass
class KernelSHAP(Method):
    name: ClassVar[str] = "kernel_shap"
    paired: bool = True  # paired sampling, the default of shap / shapiq implementations
    max_draws_factor: int = 50  # stop drawing after this many draws per budget unit (our choice)

    def run(self, data, seed: int) -> dict:
        rng = np.random.default_rng(seed)
        game = data.session()
        p = game.n_players
        t0 = time.perf_counter()
        v0, vN = game(np.array([np.zeros(p, bool), np.ones(p, bool)]))
        cache: dict[bytes, int] = {}
        rows, vals, counts = [], [], []
        path_n, path_phi = [game.n_evals], [np.full(p, (vN - v0) / p)]
        draws, max_draws = 0, self.max_draws_factor * max(1, game.budget)
        while game.remaining > 0 and len(cache) < 2**p - 2 and draws < max_draws:
            z = sample_kernel_coalitions(rng, p, 1)[0]
            batch = [z, ~z] if self.paired else [z]
            for zz in batch:
                draws += 1
                key = zz.tobytes()
                if key in cache:
                    counts[cache[key]] += 1
                    continue
                if game.remaining <= 0:
                    break
                cache[key] = len(rows)
                rows.append(zz)
                vals.append(float(game(zz[None])[0]))
                counts.append(1)
            if rows and (len(path_n) == 0 or path_n[-1] != game.n_evals):
                path_n.append(game.n_evals)
                path_phi.append(solve_constrained_wls(np.array(rows), np.array(vals),
                                                      np.array(counts, float), v0, vN))
        phi = solve_constrained_wls(np.array(rows).reshape(-1, p), np.array(vals),
                                    np.array(counts, float), v0, vN)
        return {"phi": phi, "n_evals": game.n_evals, "time_s": time.perf_counter() - t0,
                "path": {"n_evals": path_n, "phi": [q.tolist() for q in path_phi]}}
