"""Adam for numpy models with hand-written gradients, shared by methods, baselines and datasets.

Kingma & Ba (2015) with torch's defaults and bias correction; array parameters are updated in place
(``params[k] -= ...``, so a dict entry that is a float is replaced instead).
Weight decay follows torch: ``decoupled=False`` adds ``weight_decay * p`` to the gradient
(``torch.optim.Adam``), ``decoupled=True`` shrinks ``p`` by ``1 - lr * weight_decay`` first
(``torch.optim.AdamW``). ``decays(key)`` says which parameters decay (default: all).
"""
from __future__ import annotations

from typing import Callable, Hashable

import numpy as np


class Adam:
    def __init__(self, lr: float, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0.0, decoupled: bool = False,
                 decays: Callable[[Hashable], bool] | None = None) -> None:
        if lr <= 0 or eps < 0 or weight_decay < 0 or not all(0 <= b < 1 for b in betas):
            raise ValueError(f"Adam needs lr > 0, eps >= 0, weight_decay >= 0 and betas in [0, 1); "
                             f"got lr={lr}, eps={eps}, weight_decay={weight_decay}, betas={betas}")
        self.lr, (self.b1, self.b2), self.eps = lr, betas, eps
        self.wd, self.decoupled, self.decays = weight_decay, decoupled, decays
        self.m: dict = {}
        self.v: dict = {}
        self.t = 0

    def step(self, params, grads) -> None:
        """One update. ``params`` and ``grads``: dicts of arrays with the same keys, or lists."""
        self.t += 1
        c1, c2 = 1.0 - self.b1 ** self.t, 1.0 - self.b2 ** self.t
        items = grads.items() if isinstance(grads, dict) else enumerate(grads)
        for k, g in items:
            if self.wd and (self.decays is None or self.decays(k)):
                if self.decoupled:
                    params[k] *= 1.0 - self.lr * self.wd
                else:
                    g = g + self.wd * params[k]
            if k not in self.m:  # zeros only for a new key, not a fresh pair every step
                self.m[k], self.v[k] = np.zeros_like(g), np.zeros_like(g)
            m, v = self.m[k], self.v[k]
            m *= self.b1
            m += (1.0 - self.b1) * g
            v *= self.b2
            v += (1.0 - self.b2) * g * g
            params[k] -= self.lr * (m / c1) / (np.sqrt(v / c2) + self.eps)
