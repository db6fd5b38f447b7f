"""Uniform random couplings: a learner that ignores its observations (linear-regret reference).

Each round plays a draw from the uniform distribution on the transport polytope Pi(mu, nu),
sampled by hit-and-run (Smith 1984): from the current coupling, pick a uniformly random
direction in the polytope's affine hull (matrices with zero row and column sums), and move to a
uniform point of the chord through the current coupling. Its stationary law is uniform on the
polytope; consecutive draws are correlated (a Markov chain started at mu x nu).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.datasets.bandit_transport import PlayLog


def _centred_basis(n: int) -> np.ndarray:
    """Orthonormal basis of {v in R^n : sum v = 0}: shape (n, n - 1)."""
    return np.linalg.svd(np.ones((1, n)))[2][1:].T


class CouplingSampler:
    """Hit-and-run chain on Pi(mu, nu); every state has the marginals mu and nu exactly."""

    def __init__(self, mu: np.ndarray, nu: np.ndarray, rng: np.random.Generator,
                 chunk: int = 1024):
        self.U, self.W = _centred_basis(len(mu)), _centred_basis(len(nu))
        self.plan = np.outer(mu, nu)  # (n, m), interior start
        self.rng, self.chunk = rng, chunk
        self._dirs, self._unif, self._i = None, None, chunk

    def _refill(self) -> None:
        # Directions and chord positions drawn in chunks: the chain itself stays sequential.
        Z = self.rng.standard_normal((self.chunk, self.U.shape[1], self.W.shape[1]))
        self._dirs = self.U @ Z @ self.W.T  # isotropic in the affine hull, (chunk, n, m)
        self._unif = self.rng.random(self.chunk)
        self._i = 0

    def step(self) -> np.ndarray:
        if self._i == self.chunk:
            self._refill()
        D, u = self._dirs[self._i], self._unif[self._i]
        self._i += 1
        with np.errstate(divide="ignore"):
            ratio = -self.plan / D  # plan + s D >= 0 bounds s on the side where D < 0 or > 0
        lo = np.max(ratio[D > 0])
        hi = np.min(ratio[D < 0])
        self.plan = np.maximum(self.plan + (lo + u * (hi - lo)) * D, 0.0)
        return self.plan

    def draw(self, n_steps: int) -> np.ndarray:
        for _ in range(n_steps):
            self.step()
        return self.plan


@dataclass
class RandomCoupling(Method):
    """Plays an (approximately) uniform random coupling every round."""

    name: ClassVar[str] = "random_coupling"
    n_steps: int = 1  # hit-and-run steps between plays (our choice)

    def run(self, data, seed: int) -> dict:
        t0 = time.perf_counter()
        sampler = CouplingSampler(data.mu, data.nu, np.random.default_rng(seed))
        log = PlayLog(data.horizon, (len(data.mu), len(data.nu)))
        for t in range(data.horizon):
            plan = sampler.draw(self.n_steps).copy()
            data.pull(t, plan)  # observed and ignored
            log.add(plan)
        out = log.outputs()
        out["time_s"] = time.perf_counter() - t0
        return out
