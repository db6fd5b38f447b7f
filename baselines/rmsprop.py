"""RMSprop (Tieleman & Hinton 2012), coordinate-wise, no momentum, no bias correction:

    v_t = beta v_{t-1} + (1 - beta) g_t^2,   x_t = x_{t-1} - lr * g_t / (sqrt(v_t) + eps)

with g_t = grad(x_{t-1}) and v_0 = 0 (PyTorch's ``RMSprop`` with centered=False). It is
Adam with beta1 = 0 and no bias correction; its outputs carry ``beta1 = 0`` and
``beta2 = beta`` so that Adam's rate formulas apply. Stops, like Adam, when v_t or
|x_t| leaves the normal float range (< 1e-300); with eps > 0 the trusted window ends
where sqrt(v_t) < 10 eps. ``data`` and outputs as in ``gradient_descent``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.datasets.degenerate_polynomials import TINY, trajectory_outputs


@dataclass
class RMSprop(Method):
    name: ClassVar[str] = "rmsprop"
    lr: float = 0.01  # PyTorch default
    beta: float = 0.99  # PyTorch default (alpha)
    eps: float = 0.0  # 0 as for Adam here (PyTorch: 1e-8)
    floor_factor: float = 10.0  # eps-dominated once sqrt(v) < floor_factor * eps (ours)

    def run(self, data, seed: int) -> dict:
        grad, x, n_iter = data["grad"], data["x0"], int(data["n_iter"])
        vec = isinstance(x, np.ndarray)
        lowest = np.min if vec else (lambda a: a)
        size = np.linalg.norm if vec else abs
        b, lr, eps = self.beta, self.lr, self.eps
        v = 0.0 * x
        xs, t_valid, t_floor = [x], n_iter, None
        t0 = time.perf_counter()
        for t in range(1, n_iter + 1):
            g = grad(x)
            v = b * v + (1.0 - b) * g * g
            if lowest(v) < TINY:
                t_valid = t - 1
                break
            root = v ** 0.5
            if eps > 0.0 and t_floor is None and lowest(root) < self.floor_factor * eps:
                t_floor = t - 1
            x = x - lr * g / (root + eps)
            xs.append(x)
            if size(x) < TINY:
                t_valid = t - 1
                break
        elapsed = time.perf_counter() - t0
        if t_floor is not None:
            t_valid = min(t_valid, t_floor)
        return trajectory_outputs(xs, t_valid, elapsed, beta1=0.0, beta2=b, eps=eps,
                                  t_eps_floor=t_floor)
