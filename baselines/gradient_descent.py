"""Gradient descent with a constant step on a smooth objective given by its gradient.

    x_{t+1} = x_t - lr * grad(x_t)

``lr = None`` takes the classical step 1/L from ``data["smoothness"]`` (L = the largest
curvature on the start's sublevel set). On f(x) = x^2 / 2 this is x_t = (1 - lr)^t x_0;
on f(x) = x^k / k (k >= 4) it is sub-linear, x_t ~ ((k - 2) lr t)^(-1/(k-2)).

``data``: ``grad`` (callable on a float or an ndarray), ``x0``, ``n_iter``, and
``smoothness`` when lr is None. Outputs: ``degenerate_polynomials.trajectory_outputs``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.datasets.degenerate_polynomials import TINY, trajectory_outputs


@dataclass
class GradientDescent(Method):
    name: ClassVar[str] = "gd"
    lr: float | None = None  # None: 1/L, the classical constant step (Nesterov 2004, Thm 2.1.14)

    def run(self, data, seed: int) -> dict:
        grad, x, n_iter = data["grad"], data["x0"], int(data["n_iter"])
        lr = self.lr if self.lr is not None else 1.0 / data["smoothness"]
        size = np.linalg.norm if isinstance(x, np.ndarray) else abs
        xs, t_valid = [x], n_iter
        t0 = time.perf_counter()
        for t in range(1, n_iter + 1):
            x = x - lr * grad(x)
            xs.append(x)
            if size(x) < TINY:
                t_valid = t - 1
                break
        return trajectory_outputs(xs, t_valid, time.perf_counter() - t0, lr=lr)
