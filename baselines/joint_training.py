"""Joint (multitask) training: the non-continual reference for a sequence of tasks.

Instead of visiting the tasks one after the other, GD runs on the sum of all task losses,
sum_k L_k(W), from the same initialisation, for ``iters`` steps. Each step touches every
task's data once, so T joint steps cost the same gradient evaluations as T sequential steps
per task, and the sum (not the mean) keeps each task's gradient at the scale it has when the
task is trained alone. Nothing is forgotten by construction: it shows what the same network
and budget reach when all tasks are available at once.

Model: the one-hidden-layer quadratic network of :mod:`claimbench.methods.continual_quadratic`
(the only model offered for now; ``model`` names it so other networks can be added).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.methods.continual_quadratic import (init_weights, loss, loss_and_grad,
                                                    second_layer)


@dataclass
class JointTraining(Method):
    """GD on sum_k L_k(W) over all tasks at once (multitask reference)."""

    name: ClassVar[str] = "joint_training"
    model: str = "quadratic"  # f(x) = sum_j a_j (w_j . x)^2, a_j = +-1/m (as the sequential method)
    eta: float = 0.5  # same step as the sequential method (our choice)
    init_scale: float = 0.1  # same initialisation as the sequential method (our choice)
    width: int | None = None  # None = the task stream's protocol
    iters: int | None = None  # joint GD steps; None = the protocol's steps per task

    def run(self, data, seed):
        if self.model != "quadratic":
            raise ValueError(f"unknown model {self.model!r}")
        train = data["train"]
        m = self.width or data["protocol"]["width"]
        T = self.iters or data["protocol"]["iters"]
        rng = np.random.default_rng(seed)
        a = second_layer(m)
        W = init_weights(rng, m, train[0][0].shape[1], self.init_scale)  # (m, d)
        t0 = time.perf_counter()
        for _ in range(T):
            W -= self.eta * sum(loss_and_grad(W, a, X, y)[1] for X, y in train)
        time_s = time.perf_counter() - t0
        return {"W_final": W, "a": a, "time_s": time_s,
                "final_train_loss": float(np.mean([loss(W, a, X, y) for X, y in train]))}
