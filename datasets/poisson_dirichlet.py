"""Poisson's equation on the unit square with zero Dirichlet data, solved exactly in the sine basis.

Problem: Delta u = a on (0, 1)^2, u = 0 on the boundary (Darcy flow with constant permeability;
the sign convention of PISD's code, whose PDE loss is ||Delta u - a||^2).

Fields live on the n x n interior points x_i = i h, h = 1 / (n + 1). The source is a Gaussian
random field in the sine basis, a(x, y) = sum_{j,k <= n} c_jk sin(j pi x) sin(k pi y) with
c_jk ~ N(0, (j^2 + k^2)^(-s)), and the solution is exact mode by mode,
u_jk = -c_jk / (pi^2 (j^2 + k^2)), since Delta sin(j pi x) sin(k pi y) = -pi^2 (j^2 + k^2) (.).
Modes stop at n, the highest frequency the grid resolves (no aliasing).

One instance = a training set of (a, u) pairs (what a generative model learns the joint prior
from) plus ``n_test`` test pairs with sparse observations for two tasks: forward (a observed at a
random fraction of the points, u wanted) and inverse (u observed, a wanted). The test fields are
the truth; a method sees only the observed values and the masks.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance
from claimbench.grid import derive_seed


def sine_basis(n: int) -> np.ndarray:
    """(n modes, n points): B[j-1, i-1] = sin(j pi x_i), x_i = i / (n + 1)."""
    j = np.arange(1, n + 1)
    return np.sin(np.pi * np.outer(j, j) / (n + 1))


def wavenumber_sq(n: int) -> np.ndarray:
    """(n, n): j^2 + k^2 for the sine modes j, k = 1..n."""
    j = np.arange(1, n + 1, dtype=float)
    return j[:, None] ** 2 + j[None, :] ** 2


def fields_from_modes(c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sine coefficients c (..., n, n) -> grid values of a and of the exact solution u."""
    n = c.shape[-1]
    b = sine_basis(n)  # (n, n)
    cu = -c / (np.pi ** 2 * wavenumber_sq(n))  # (..., n, n)
    a = np.einsum("ji,...jk,kl->...il", b, c, b)  # (..., n, n)
    u = np.einsum("ji,...jk,kl->...il", b, cu, b)  # (..., n, n)
    return a, u


def laplacian_fd(u: np.ndarray) -> np.ndarray:
    """5-point finite-difference Laplacian of grid fields (..., n, n) with zero Dirichlet data."""
    n = u.shape[-1]
    h2 = 1.0 / (n + 1) ** 2
    p = np.pad(u, [(0, 0)] * (u.ndim - 2) + [(1, 1), (1, 1)])
    return (p[..., 2:, 1:-1] + p[..., :-2, 1:-1] + p[..., 1:-1, 2:] + p[..., 1:-1, :-2]
            - 4.0 * u) / h2


@dataclass
class PoissonDirichlet(Dataset):
    """Random sources and exact solutions of Delta u = a, zero boundary values, n x n grid."""

    name: ClassVar[str] = "poisson_dirichlet"
    n: int = 16  # ours (the paper: 128 x 128, DiffusionPDE's data); the issue asks for 16 or 32
    s: float = 2.5  # ours: decay of the source's mode variances (j^2 + k^2)^(-s)
    n_train: int = 2048  # ours (the paper: DiffusionPDE's 50k training pairs)
    n_test: int = 4  # ours: test fields per instance, each with its own observation mask
    obs_frac: float = 0.05  # research note's plan: 5% observed points (paper: 500 of 128^2, ~3%)

    def _sample(self, rng, count: int) -> tuple[np.ndarray, np.ndarray]:
        std = wavenumber_sq(self.n) ** (-self.s / 2)  # (n, n)
        c = rng.standard_normal((count, self.n, self.n)) * std  # (count, n, n)
        return fields_from_modes(c)

    def make(self, seed: int) -> Instance:
        train_a, train_u = self._sample(np.random.default_rng(derive_seed("train", seed)),
                                        self.n_train)
        rng = np.random.default_rng(derive_seed("test", seed))
        test_a, test_u = self._sample(rng, self.n_test)
        n_obs = max(1, int(round(self.obs_frac * self.n * self.n)))
        tasks = {}
        for task, field in (("forward", test_a), ("inverse", test_u)):
            mask = np.zeros((self.n_test, self.n * self.n), dtype=bool)
            for t in range(self.n_test):
                mask[t, rng.choice(self.n * self.n, n_obs, replace=False)] = True
            mask = mask.reshape(self.n_test, self.n, self.n)
            tasks[task] = {"observed": "a" if task == "forward" else "u", "mask": mask,
                           "values": np.where(mask, field, 0.0)}
        data = {"n": self.n, "train_a": train_a, "train_u": train_u, "tasks": tasks}
        return Instance(data=data, truth={"a": test_a, "u": test_u})
