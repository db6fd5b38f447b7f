"""Sign gradient descent (signSGD without noise), coordinate-wise:

    x_{t+1} = x_t - lr * sign(grad(x_t))

Adam's beta1 = beta2 = 0 limit. With a constant step it cannot converge: once within lr
of the minimizer it oscillates at amplitude ~lr (a period-2 cycle on x^k / k).
``data`` and outputs as in ``gradient_descent``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.datasets.degenerate_polynomials import trajectory_outputs


def _scalar_sign(g: float) -> float:
    return float((g > 0) - (g < 0))


@dataclass
class SignDescent(Method):
    name: ClassVar[str] = "sign_gd"
    lr: float = 0.01  # the same lr as Adam here (ours), so both oscillate at the same scale

    def run(self, data, seed: int) -> dict:
        grad, x, n_iter = data["grad"], data["x0"], int(data["n_iter"])
        sign = np.sign if isinstance(x, np.ndarray) else _scalar_sign
        xs = [x]
        t0 = time.perf_counter()
        for _ in range(n_iter):
            x = x - self.lr * sign(grad(x))
            xs.append(x)
        return trajectory_outputs(xs, n_iter, time.perf_counter() - t0, lr=self.lr)
