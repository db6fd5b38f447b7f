"""A zero-sum matrix game as a linear program, solved by HiGHS (scipy.optimize.linprog).

von Neumann: ``min_{x in simplex} max_j (A^T x)_j`` is the LP

    min_{x, v} v   s.t.   A^T x <= v 1,   1^T x = 1,   x >= 0,

and the column player's equilibrium strategy ``y`` is minus the dual multipliers
of the ``m`` inequality rows (they are <= 0 and sum to one in magnitude).
The solve is a single call, so "time to gap eps" is the solve time when the
returned pair meets eps and is censored at the solve time otherwise.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.datasets.matrix_games import TARGETS, duality_gap, target_key


def solve_matrix_game_lp(A: np.ndarray, method: str = "highs") -> tuple[np.ndarray, np.ndarray, float]:
    """Equilibrium ``(x, y)`` and value of ``min_x max_y x^T A y`` by HiGHS."""
    from scipy.optimize import linprog

    n, m = A.shape
    c = np.zeros(n + 1)
    c[-1] = 1.0
    A_ub = np.hstack([A.T, -np.ones((m, 1))])  # (m, n+1)
    A_eq = np.zeros((1, n + 1))
    A_eq[0, :n] = 1.0
    bounds = [(0.0, None)] * n + [(None, None)]
    res = linprog(c, A_ub=A_ub, b_ub=np.zeros(m), A_eq=A_eq, b_eq=[1.0], bounds=bounds, method=method)
    if res.status != 0:
        raise RuntimeError(f"HiGHS failed: {res.message}")
    x = np.maximum(res.x[:n], 0.0)
    x /= x.sum()
    y = np.maximum(-res.ineqlin.marginals, 0.0)
    y /= y.sum()
    return x, y, float(res.x[-1])


@dataclass
class LinearProgram(Method):
    """HiGHS on the game LP: the exact-arithmetic-style reference a reviewer asked about."""

    name: ClassVar[str] = "lp_highs"
    solver: str = "highs"  # scipy's HiGHS front end picks simplex or IPM (our choice; paper has no LP baseline)

    def run(self, data, seed: int) -> dict:
        A = data["A"]
        t0 = time.perf_counter()
        x, y, _ = solve_matrix_game_lp(A, self.solver)
        elapsed = time.perf_counter() - t0
        gap = duality_gap(A, x, y)
        hit_t = {target_key(t): (elapsed if gap <= t else None) for t in TARGETS}
        hit_i = {target_key(t): (1 if gap <= t else None) for t in TARGETS}
        return {
            "x": x, "y": y, "time_s": elapsed, "iters": 1, "time_cap_s": elapsed, "iters_cap": 1,
            "time_to_gap": hit_t, "iters_to_gap": hit_i,
            "traces": {"gap_vs_time": {"x": [elapsed], "y": [max(gap, 0.0)]},
                       "gap_vs_iter": {"x": [1.0], "y": [max(gap, 0.0)]}},
        }
