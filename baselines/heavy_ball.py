"""Polyak's heavy-ball momentum with constant step and momentum.

    x_{t+1} = x_t - lr * grad(x_t) + momentum * (x_t - x_{t-1}),   x_{-1} = x_0

``lr = None`` takes 1/L from ``data["smoothness"]``. momentum = 0 is gradient descent.
``data`` and outputs as in ``gradient_descent``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.datasets.degenerate_polynomials import TINY, trajectory_outputs


@dataclass
class HeavyBall(Method):
    name: ClassVar[str] = "heavy_ball"
    lr: float | None = None  # None: 1/L (our choice; stable for momentum < 1 on quadratics)
    momentum: float = 0.9  # the common default (e.g. PyTorch SGD examples)

    def run(self, data, seed: int) -> dict:
        grad, x, n_iter = data["grad"], data["x0"], int(data["n_iter"])
        lr = self.lr if self.lr is not None else 1.0 / data["smoothness"]
        size = np.linalg.norm if isinstance(x, np.ndarray) else abs
        prev, xs, t_valid = x, [x], n_iter
        t0 = time.perf_counter()
        for t in range(1, n_iter + 1):
            x, prev = x - lr * grad(x) + self.momentum * (x - prev), x
            xs.append(x)
            if size(x) < TINY:
                t_valid = t - 1
                break
        return trajectory_outputs(xs, t_valid, time.perf_counter() - t0, lr=lr,
                                  momentum=self.momentum)
