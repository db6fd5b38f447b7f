"""Teacher-student targets for softmax learning: peaked, non-peaked and finite separable.

Two families, both seeded and cheap:

* :class:`ScalarTeacher` -- a binary problem reduced to one scalar margin u per input.
  The teacher gives the "correct" class (the sign of u) probability p(u) = 1 when
  ``temperature = 0`` (peaked, the T -> 0 limit) or sigmoid(|u| / T) when T > 0. With
  ``n_points = 0`` the margins follow the half-normal law |u|, u ~ N(0, 1), integrated by
  Gauss-Legendre quadrature on log-spaced panels (an infinite data set, so the loss has a
  continuous margin density at 0); with ``n_points > 0`` they are a finite sample
  conditioned on |u| >= ``margin`` (a separable set with a margin).
* :class:`SoftmaxTeacher` -- the toy of the paper's code: inputs x ~ N(0, I_d) mapped to
  x_hat = rmsnorm(x) (norm sqrt(d)), teacher logits W_t x_hat / T with W_t drawn as a
  default ``nn.Linear`` weight (uniform on +-1/sqrt(d)), vocabulary V. T = 0 means hard
  argmax labels. ``n_train = 0`` is the online setting (fresh batches every step, drawn
  by the method from the teacher); ``n_train > 0`` is a fixed finite training set, which
  a linear teacher's argmax labels always make linearly separable.

``data`` holds what training needs: the quadrature/sample for the scalar problem; for the
softmax teacher its weight (to label the online stream, which the student never reads
otherwise), a fixed probe set with its teacher probabilities (to measure the population
loss), and the training set when finite. ``truth`` holds constants for metrics.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

# L(D) ~ A / D for the peaked scalar problem under cross-entropy: A = 2 phi(0) * pi^2 / 12,
# since int_0^inf log(1 + e^-v) dv = pi^2 / 12 (derivation in methods/softmax_power_law.py).
SCALAR_CE_CONSTANT = math.pi ** 2 / (6.0 * math.sqrt(2.0 * math.pi))
# Same for the squared error on the softmax output: 4 phi(0) * (ln 2 - 1/2).
SCALAR_MSE_PROB_CONSTANT = 4.0 / math.sqrt(2.0 * math.pi) * (math.log(2.0) - 0.5)


def half_normal_quadrature(n_panels: int = 48, nodes_per_panel: int = 8,
                           u_min: float = 1e-7, u_max: float = 9.0
                           ) -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights integrating f(|u|), u ~ N(0, 1); the panels are log-spaced so that
    a boundary layer of any width down to ``u_min`` is resolved."""
    edges = np.concatenate([[0.0], np.geomspace(u_min, u_max, n_panels)])  # (P+1,)
    x, w = np.polynomial.legendre.leggauss(nodes_per_panel)
    a, b = edges[:-1, None], edges[1:, None]  # (P, 1)
    u = (0.5 * (b - a) * x + 0.5 * (a + b)).ravel()  # (P * n,)
    wu = (0.5 * (b - a) * w).ravel()  # (P * n,)
    dens = 2.0 * np.exp(-0.5 * u * u) / math.sqrt(2.0 * math.pi)  # half-normal density
    return u, wu * dens


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * x))


@dataclass
class ScalarTeacher(Dataset):
    """Binary teacher reduced to the margin |u|; the student's logit margin is D |u|."""

    name: ClassVar[str] = "scalar_teacher"
    temperature: float = 0.0  # 0: hard labels (peaked limit); 1: the non-peaked control (ours)
    n_points: int = 0  # 0: continuous half-normal margins; > 0: finite separable set (ours)
    margin: float = 0.5  # smallest |u| of the finite set (ours)
    start_max: float = 0.5  # the start D_0 is drawn uniform on [0, start_max) (ours)

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        if self.n_points > 0:
            u = np.empty(0)
            while u.size < self.n_points:  # rejection: |u| >= margin
                draw = np.abs(rng.standard_normal(4 * self.n_points))
                u = np.concatenate([u, draw[draw >= self.margin]])
            u = np.sort(u[: self.n_points])  # (n,)
            w = np.full(self.n_points, 1.0 / self.n_points)
        else:
            u, w = half_normal_quadrature()
        T = float(self.temperature)
        p = np.ones_like(u) if T == 0.0 else sigmoid(u / T)  # teacher prob of the sign class
        d0 = float(rng.uniform(0.0, self.start_max))
        data = {"u": u, "w": w, "p": p, "temperature": T, "d0": d0}
        truth = {"ce_constant": SCALAR_CE_CONSTANT, "mse_prob_constant": SCALAR_MSE_PROB_CONSTANT,
                 "peaked": T == 0.0 and self.n_points == 0, "d0": d0,
                 "u_min": float(u.min()) if self.n_points > 0 else 0.0}
        return Instance(data=data, truth=truth)


def rmsnorm(x: np.ndarray) -> np.ndarray:
    """x * sqrt(d) / ||x|| along the last axis (torch's F.rms_norm with eps -> 0)."""
    return x * (math.sqrt(x.shape[-1]) / np.linalg.norm(x, axis=-1, keepdims=True))


def teacher_probs(logits: np.ndarray, temperature: float) -> np.ndarray:
    """softmax(logits / T); T = 0 gives the one-hot argmax (the peaked limit)."""
    if temperature == 0.0:
        out = np.zeros_like(logits)
        np.put_along_axis(out, logits.argmax(axis=-1)[..., None], 1.0, axis=-1)
        return out
    z = logits / temperature
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


@dataclass
class SoftmaxTeacher(Dataset):
    """Linear softmax teacher on rmsnorm'ed Gaussian inputs (the paper's toy, scaled down)."""

    name: ClassVar[str] = "softmax_teacher"
    d: int = 16  # input width; paper: n_embd = 32 (exp/exp-0.py), scaled down for CPU
    vocab: int = 32  # V; paper: 128, scaled down for CPU
    temperature: float = 1e-3  # paper scans T in [1e-3, 1] (exp-1); 1e-3 = its most peaked
    n_train: int = 0  # 0: online fresh batches as in the paper; > 0: finite set (control, ours)
    n_probe: int = 2048  # fixed inputs on which the population loss is measured (ours)

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        bound = 1.0 / math.sqrt(self.d)
        w_t = rng.uniform(-bound, bound, size=(self.vocab, self.d))  # (V, d) nn.Linear init
        x_probe = rmsnorm(rng.standard_normal((self.n_probe, self.d)))  # (P, d)
        p_probe = teacher_probs(x_probe @ w_t.T, self.temperature)  # (P, V)
        x_train = p_train = None
        if self.n_train > 0:
            x_train = rmsnorm(rng.standard_normal((self.n_train, self.d)))  # (n, d)
            p_train = teacher_probs(x_train @ w_t.T, self.temperature)  # (n, V)
        data = {"teacher_w": w_t, "temperature": float(self.temperature),
                "x_probe": x_probe, "p_probe": p_probe, "x_train": x_train, "p_train": p_train,
                "stream_seed": int(rng.integers(2 ** 31))}
        top2 = np.sort(x_probe @ w_t.T, axis=1)[:, -2:]  # (P, 2) two largest teacher logits
        truth = {"teacher_logit_std": float((x_probe @ w_t.T).std(axis=1).mean()),
                 "probe_gap_median": float(np.median(top2[:, 1] - top2[:, 0]))}
        return Instance(data=data, truth=truth)
