"""In-context regression prompts for in-context gradient descent (ICGD), seeded.

* :class:`ICGDRegression` -- one prompt of n examples (x_i, y_i), x ~ N(0, I_d), labelled by a
  random two-layer ReLU teacher (width ``width``, output normalised to unit variance) plus
  Gaussian noise, with the initial weights of an N-layer ReLU student (width ``width``, He
  initialisation, zero biases) and a step size: a simulator must output the student's weights
  after L full-batch GD steps. ``truth`` holds the numpy GD iterate
  (``baselines.mlp_gradient_descent.gd``) and a held-out test set.
* :class:`InContextLinearRegression` -- ``n_test`` linear-regression prompts (x ~ N(0, I_d),
  y = x^T w*, w* ~ N(0, I_d / d)) for in-context *weight prediction* (Huang, Wang & Lee, ICLR
  2025): a model reads the prompt and outputs the GD iterate w_k of the least-squares loss
  (1 / 2n) ||X w - y||^2 from w_0 = 0 with step ``lr``, for k = 1..K. ``data`` also names the
  task distribution (d, n, noise), from which a method may draw its own training prompts
  (:func:`sample_linear_tasks`); ``truth`` holds the iterates of the test prompts.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance
from claimbench.baselines.mlp_gradient_descent import forward, gd


def student_init(rng: np.random.Generator, d: int, width: int, N: int) -> list[np.ndarray]:
    """He-normal weights (He et al., 2015), zero bias column; the output layer has unit gain."""
    sizes = [d] + [width] * (N - 1) + [1]
    W = []
    for l in range(N):
        gain = 2.0 if l < N - 1 else 1.0
        w = rng.standard_normal((sizes[l + 1], sizes[l])) * np.sqrt(gain / sizes[l])
        W.append(np.hstack([w, np.zeros((sizes[l + 1], 1))]))  # (out, in + 1)
    return W


@dataclass
class ICGDRegression(Dataset):
    name: ClassVar[str] = "icgd_mlp_regression"
    n: int = 32  # research note's plan: n = 32 in-context examples
    d: int = 4  # note: d = 4
    width: int = 8  # note: width 8
    N: int = 2  # student depth, note: N in {1, 2, 4}
    L: int = 10  # GD steps, note: L <= 50
    lr: float = 0.05  # ours: a step that keeps GD stable for N <= 64 at width 8
    noise: float = 0.1  # ours
    n_test: int = 256  # ours
    study: str = "exec"  # "exec" (executor vs GD) or "cost" (attention-cost sweep); a label only

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        teacher = student_init(rng, self.d, self.width, 2)
        X = rng.standard_normal((self.n + self.n_test, self.d))
        f = forward(teacher, X)[-1][0]
        f = f / max(float(np.std(f)), 1e-12)
        y = f + self.noise * rng.standard_normal(len(f))
        W0 = student_init(rng, self.d, self.width, self.N)
        data = {"X": X[:self.n], "y": y[:self.n], "W0": W0, "lr": self.lr, "L": self.L,
                "N": self.N}
        W_ref = gd(W0, data["X"], data["y"], self.lr, self.L)
        return Instance(data=data, truth={"W": W_ref, "X_test": X[self.n:],
                                          "y_test": y[self.n:]})


def sample_linear_tasks(rng: np.random.Generator, batch: int, n: int, d: int,
                        noise: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``batch`` prompts: X (B, n, d), y (B, n), w* (B, d)."""
    X = rng.standard_normal((batch, n, d))
    w = rng.standard_normal((batch, d)) / np.sqrt(d)
    y = np.einsum("bnd,bd->bn", X, w) + noise * rng.standard_normal((batch, n))
    return X, y, w


def linear_gd_iterates(X: np.ndarray, y: np.ndarray, lr: float, K: int) -> np.ndarray:
    """GD iterates w_0 = 0, ..., w_K of (1 / 2n) ||X w - y||^2 for a batch: (B, K + 1, d)."""
    B, n, d = X.shape
    W = np.zeros((B, K + 1, d))
    for k in range(K):
        r = np.einsum("bnd,bd->bn", X, W[:, k]) - y  # (B, n)
        W[:, k + 1] = W[:, k] - lr * np.einsum("bnd,bn->bd", X, r) / n
    return W


@dataclass
class InContextLinearRegression(Dataset):
    name: ClassVar[str] = "icl_linear_regression"
    d: int = 4  # note: d = 4
    n: int = 16  # ours: n = 4d, few enough examples that one GD step is far from w*
    lr: float = 0.5  # ours: GD step; the iterates contract by at most |1 - lr * lambda| < 1
    K: int = 16  # note: k in {1, 2, 4, 8, 16}
    noise: float = 0.0  # ours: noiseless, as in Huang et al.'s weight prediction
    n_test: int = 128  # ours: test prompts per instance

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        X, y, w = sample_linear_tasks(rng, self.n_test, self.n, self.d, self.noise)
        data = {"X": X, "y": y, "d": self.d, "n": self.n, "lr": self.lr, "K": self.K,
                "noise": self.noise}
        return Instance(data=data, truth={"W_gd": linear_gd_iterates(X, y, self.lr, self.K),
                                          "w_star": w})
