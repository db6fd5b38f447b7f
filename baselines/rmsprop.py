"""RMSprop (Tieleman & Hinton 2012), coordinate-wise, no momentum, no bias correction:

    v_t = beta v_{t-1} + (1 - beta) g_t^2,   x_t = x_{t-1} - lr * g_t / (sqrt(v_t) + eps)

with g_t = grad(x_{t-1}) and v_0 = 0 (PyTorch's ``RMSprop`` with centered=False). It is
Adam with beta1 = 0 and no bias correction, so it runs Adam's loop with those settings
(``methods/adam_degenerate.py``); its outputs carry ``beta1 = 0`` and
``beta2 = beta`` so that Adam's rate formulas apply. Stops, like Adam, when v_t or
|x_t| leaves the normal float range (< 1e-300); with eps > 0 the trusted window ends
where sqrt(v_t) < 10 eps. ``data`` and outputs as in ``gradient_descent``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from claimbench.api import Method
from claimbench.methods.adam_degenerate import Adam


@dataclass
class RMSprop(Method):
    name: ClassVar[str] = "rmsprop"
    lr: float = 0.01  # PyTorch default
    beta: float = 0.99  # PyTorch default (alpha)
    eps: float = 0.0  # 0 as for Adam here (PyTorch: 1e-8)
    floor_factor: float = 10.0  # eps-dominated once sqrt(v) < floor_factor * eps (ours)

    def run(self, data, seed: int) -> dict:
        adam = Adam(lr=self.lr, beta1=0.0, beta2=self.beta, eps=self.eps, bias_correction=False,
                    floor_factor=self.floor_factor)
        return adam.run(data, seed)
