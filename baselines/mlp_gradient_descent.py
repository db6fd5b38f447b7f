"""Full-batch gradient descent on an N-layer ReLU network, in numpy (float64): the reference
that in-context gradient-descent simulators are checked against.

Network (weights include a bias column, activations a row of ones):

    H_0 = [X^T; 1]                         (d + 1, n)
    Z_l = W_l H_{l-1},  H_l = [relu(Z_l); 1]   l = 1..N-1
    f   = Z_N                              (1, n)       linear output layer

Loss  (1 / 2n) sum_i (f_i - y_i)^2. Back-propagation:

    delta_N = (f - y) / n,  delta_l = (W_{l+1}[:, :-1]^T delta_{l+1}) * 1[Z_l > 0]
    grad W_l = delta_l H_{l-1}^T,  W_l <- W_l - lr grad W_l.

N = 1 is linear least squares. ``MLPGradientDescent`` runs it as a method on
``datasets.in_context_regression.ICGDRegression`` (outputs: the final weights).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method


def with_ones(A: np.ndarray) -> np.ndarray:
    return np.vstack([A, np.ones((1, A.shape[1]))])  # (rows + 1, n)


def forward(weights: list[np.ndarray], X: np.ndarray) -> list[np.ndarray]:
    """Activations [H_0, H_1, ..., H_{N-1}, f]; H_l carries the ones row, f does not."""
    acts = [with_ones(X.T)]
    for l, W in enumerate(weights):
        Z = W @ acts[-1]  # (out, n)
        acts.append(Z if l == len(weights) - 1 else with_ones(np.maximum(Z, 0.0)))
    return acts


def gradients(weights: list[np.ndarray], X: np.ndarray, y: np.ndarray) -> list[np.ndarray]:
    acts = forward(weights, X)
    n = X.shape[0]
    delta = (acts[-1] - y[None, :]) / n  # (1, n)
    grads = [None] * len(weights)
    for l in range(len(weights) - 1, -1, -1):
        grads[l] = delta @ acts[l].T  # (out, in + 1)
        if l > 0:
            # relu'(Z) = 1[Z > 0] = 1[relu(Z) > 0]; the ones row of H is dropped
            delta = (weights[l][:, :-1].T @ delta) * (acts[l][:-1] > 0)  # (in, n)
    return grads


def gd(weights: list[np.ndarray], X: np.ndarray, y: np.ndarray, lr: float,
       steps: int) -> list[np.ndarray]:
    W = [w.copy() for w in weights]
    for _ in range(steps):
        W = [w - lr * g for w, g in zip(W, gradients(W, X, y))]
    return W


def mse(weights: list[np.ndarray], X: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean((forward(weights, X)[-1][0] - y) ** 2))


@dataclass
class MLPGradientDescent(Method):
    name: ClassVar[str] = "numpy_gd"

    def applies_to(self, dataset) -> str | None:
        return None if getattr(dataset, "name", "") == "icgd_mlp_regression" else \
            "needs an N-layer network regression prompt"

    def run(self, data, seed: int) -> dict:
        t0 = time.perf_counter()
        W = gd(data["W0"], data["X"], data["y"], data["lr"], data["L"])
        return {"weights": W, "wall_s": time.perf_counter() - t0}
