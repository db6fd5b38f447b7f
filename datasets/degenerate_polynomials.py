"""Highly degenerate polynomial objectives f(x) = sum_i x_i^k / k (even k >= 4) and the
trajectory format every optimizer on them returns.

At the minimizer x* = 0 every derivative below order k vanishes, so the Hessian is zero
there and gradient descent slows to a power law. ``dim > 1`` is the separable sum over
coordinates (coordinate-wise optimizers then run ``dim`` independent copies of the 1-D
problem from different starts).

A method sees ``data``: the gradient callable, the start, the iteration budget and a
smoothness constant L (the largest f'' on the sublevel set of the start, which fixes
the classical step 1/L of gradient descent). ``truth`` holds k and the optimum.

``trajectory_outputs`` packs a run into the outputs the benchmark reads: the iterates
(a float array of shape (t_run + 1,) or (t_run + 1, dim)), the last index that is
numerically trustworthy, the wall time and a thinned trace of log10 ||x_t||.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

TINY = 1e-300  # below this a float64 iterate or second moment is no longer trusted
TRACE_POINTS = 400  # points kept in the log10 ||x_t|| trace before the harness thins it


@dataclass(frozen=True)
class PowerGradient:
    """Gradient of f(x) = sum x_i^k / k; works on a Python float or an ndarray."""

    k: int

    def __call__(self, x):
        return x ** (self.k - 1)

    def value(self, x) -> float:
        return float(np.sum(np.asarray(x, dtype=float) ** self.k) / self.k)


def log_loss(xs: np.ndarray, k: int) -> np.ndarray:
    """ln f(x_t) for a trajectory, computed from ln|x| so that it never underflows."""
    a = np.abs(np.asarray(xs, dtype=float))
    la = np.log(np.maximum(a, 1e-320)) * k  # (T+1,) or (T+1, dim)
    if la.ndim == 1:
        return la - math.log(k)
    top = la.max(axis=1)  # (T+1,)
    return top + np.log(np.exp(la - top[:, None]).sum(axis=1)) - math.log(k)


def norms(xs: np.ndarray) -> np.ndarray:
    """||x_t|| for a trajectory of floats (T+1,) or vectors (T+1, dim)."""
    xs = np.asarray(xs, dtype=float)
    return np.abs(xs) if xs.ndim == 1 else np.linalg.norm(xs, axis=1)


def trajectory_outputs(xs, t_valid: int, time_s: float, **extra) -> dict:
    """Outputs of one optimizer run; ``t_valid`` is the last trusted iterate index."""
    xs = np.asarray(xs, dtype=float)  # (t_run+1,) or (t_run+1, dim)
    r = norms(xs)
    stride = max(1, len(r) // TRACE_POINTS)
    idx = np.arange(0, len(r), stride)
    y = np.log10(np.maximum(r[idx], 1e-320))
    return {
        "x_traj": xs,
        "t_valid": int(t_valid),
        "t_run": len(xs) - 1,
        "time_s": float(time_s),
        "traces": {"log10_norm_x_vs_iter": {"x": idx.tolist(), "y": y.tolist()}},
        **extra,
    }


@dataclass
class DegeneratePolynomial(Dataset):
    """f(x) = sum_i x_i^k / k from a seeded start near +-x0 in every coordinate."""

    name: ClassVar[str] = "degenerate_poly"
    k: int = 4  # even k >= 4: the paper's L(x) = x^k / k (abstract; its plotted k not seen)
    dim: int = 1  # 1 = the paper's scalar problem; > 1 = separable sum (our extension)
    x0: float = 1.0  # start magnitude (our choice: paper's start not seen)
    x0_jitter: float = 0.2  # seeds draw |x0_i| uniform in x0 * [1 - jitter, 1 + jitter] (ours)
    n_iter: int = 20_000  # iteration budget (ours; quick scale)

    def make(self, seed: int) -> Instance:
        if self.k < 2 or self.k % 2:
            raise ValueError(f"k must be even, got {self.k}")
        rng = np.random.default_rng(seed)
        mag = self.x0 * rng.uniform(1 - self.x0_jitter, 1 + self.x0_jitter, self.dim)  # (dim,)
        sign = rng.choice([-1.0, 1.0], self.dim)  # (dim,)
        start = mag * sign  # (dim,)
        smooth = (self.k - 1) * float(np.max(np.abs(start))) ** (self.k - 2)
        x0 = float(start[0]) if self.dim == 1 else start  # a float keeps 1-D loops fast
        data = {"grad": PowerGradient(self.k), "x0": x0, "n_iter": self.n_iter,
                "smoothness": smooth}
        return Instance(data=data, truth={"k": self.k, "x_star": 0.0, "f_star": 0.0})
