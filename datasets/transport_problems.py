"""Discrete optimal-transport instances with a general cost c(x, y) = ||x - y||^p.

Source and target are equal-size uniform point clouds drawn from two different Gaussian
mixtures. The exact optimal cost and plan (POT's network simplex, ``ot.emd``) are put in
``truth``; methods see only the points, the weights and the cost exponent.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance


def gaussian_mixture(rng: np.random.Generator, n: int, dim: int, k: int, spread: float,
                     std: float) -> np.ndarray:
    means = rng.uniform(-spread, spread, size=(k, dim))  # (k, d)
    comp = rng.integers(0, k, size=n)
    return means[comp] + std * rng.standard_normal((n, dim))  # (n, d)


@dataclass
class GaussianMixtureOT(Dataset):
    name: ClassVar[str] = "gmm_ot"
    task: ClassVar[str] = "ot"
    dim: int = 2  # research note plan: 2-D / 4-D mixtures
    n_points: int = 300  # our choice (note plan: 2k points in the full grid)
    cost_power: float = 1.5  # research note plan: p in {1.5, 3}
    n_components: int = 3  # our choice
    spread: float = 2.0  # our choice: component means in [-spread, spread]^d
    std: float = 0.4  # our choice

    def make(self, seed: int) -> Instance:
        from ot import emd  # exact discrete OT, trusted reference

        rng = np.random.default_rng(seed)
        x = gaussian_mixture(rng, self.n_points, self.dim, self.n_components, self.spread, self.std)
        y = gaussian_mixture(rng, self.n_points, self.dim, self.n_components, self.spread, self.std)
        a = np.full(self.n_points, 1.0 / self.n_points)
        b = np.full(self.n_points, 1.0 / self.n_points)
        d2 = ((x[:, None, :] - y[None, :, :]) ** 2).sum(-1)  # (N, N)
        C = d2 ** (self.cost_power / 2.0)
        plan = emd(a, b, C)  # (N, N), a permutation matrix / N for uniform equal-size clouds
        return Instance(
            data={"x": x, "y": y, "a": a, "b": b, "cost_power": self.cost_power},
            truth={"ot_cost": float((plan * C).sum()), "exact_map": plan.argmax(axis=1), "y": y},
        )
