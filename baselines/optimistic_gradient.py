"""Projected optimistic gradient descent-ascent (OGDA) on a product of simplices.

For the bilinear game min_{x in Δn} max_{y in Δm} x^T A y with F(z) = (A y, -A^T x),
OGDA in the two-sequence form of Wei, Lee, Zhang & Luo (ICLR 2021, "Linear last-iterate
convergence in constrained saddle-point optimization"):

    z_t       = P(ẑ_t - η F(z_{t-1}))
    ẑ_{t+1}   = P(ẑ_t - η F(z_t))

with P the Euclidean projection onto Δn × Δm. One F evaluation (two matrix-vector
products) per iteration; the duality gap of the last iterate z_t reads off F(z_t)
for free. Wei et al. prove linear last-iterate convergence on polytopes for
η <= 1/(8L), L = ||A||_2.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.simplex import project_simplex
from claimbench.datasets.matrix_games import GapTrace, norm2_products


@dataclass
class OptimisticGradient(Method):
    name: ClassVar[str] = "ogda"
    step_scale: float = 0.125  # η = step_scale / ||A||_2; 1/8 from Wei et al. 2021 (Thm 5)
    tol_gap: float = 1e-8  # stop at this last-iterate gap (our choice)
    max_iters: int = 1_000_000  # iteration cap (our choice)
    max_time_s: float = 5.0  # wall-time cap (our choice)
    max_work: float = float("inf")  # cap in products with A (matrix_games; our choice per grid)

    def run(self, data, seed: int) -> dict:
        A = data["A"]
        n, m = A.shape
        trace = GapTrace()
        eta = self.step_scale / np.linalg.norm(A, 2)
        xh, yh = np.full(n, 1.0 / n), np.full(m, 1.0 / m)  # ẑ_t
        gx, gy = A @ yh, -(A.T @ xh)  # F(z_{t-1}), z_0 = ẑ_1
        trace.work = norm2_products(A) + 2
        best = (float("inf"), xh, yh)
        it = 0
        while it < self.max_iters:
            x = project_simplex(xh - eta * gx)
            y = project_simplex(yh - eta * gy)
            gx, gy = A @ y, -(A.T @ x)  # (n,), (m,) F(z_t)
            trace.work += 2
            it += 1
            gap = float(-gy.min() - gx.min())  # max(A^T x) - min(A y)
            if gap < best[0]:
                best = (gap, x, y)
            now = trace.record(best[0], it)
            if best[0] <= self.tol_gap or now >= self.max_time_s or trace.work >= self.max_work:
                break
            xh = project_simplex(xh - eta * gx)
            yh = project_simplex(yh - eta * gy)
        return trace.outputs(best[1], best[2], it, self.max_time_s, self.max_iters)
