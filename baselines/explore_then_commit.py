"""Explore-then-commit for bandit optimal transport.

Explore for m rounds, fit the cost by regularised least squares on the couplings' density
coordinates, then commit to the exact OT plan of the estimate for the remaining T - m rounds.
With m ~ D^{1/3} T^{2/3} its regret is O(T^{2/3}) (the usual explore-then-commit rate); it needs
the horizon T. Exploration plays either random vertices of the transport polytope (exact OT
plans of i.i.d. Gaussian costs: far-apart, informative plays) or uniform random couplings
(hit-and-run, see random_coupling.py), which on large supports stay near mu x nu and carry
little signal.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.random_coupling import CouplingSampler
from claimbench.datasets.bandit_transport import PlayLog
from claimbench.methods.bandit_ot import (RidgeState, basis_per_axis, coordinates, cost_matrix,
                                          coupling_basis, entropic_plan)


@dataclass
class ExploreThenCommitOT(Method):
    """Random exploration for m = ceil(scale D^{1/3} T^{2/3}) rounds, then exact OT of c_hat."""

    name: ClassVar[str] = "etc_ot"
    lam: float = 1.0  # ridge parameter (same as oful_ot)
    basis: str = "fixed"  # truncation K per axis: "fixed" or "horizon" (as oful_ot)
    smoothness: float = 1.0  # assumed Sobolev order in K(T) (as oful_ot)
    max_basis: int | None = 4  # cosines per axis when basis="fixed" (as oful_ot)
    explore_scale: float = 1.0  # constant in m (our choice)
    explore: str = "vertex"  # "vertex" or "uniform" exploration plays (our choice)
    n_steps: int = 1  # hit-and-run steps between "uniform" plays (as random_coupling)

    def run(self, data, seed: int) -> dict:
        t0 = time.perf_counter()
        mu, nu, shape, T = data.mu, data.nu, (len(data.mu), len(data.nu)), data.horizon
        K = basis_per_axis(data.horizon, self.basis, self.max_basis, self.smoothness)
        E = coupling_basis(mu, nu, data.x, data.y, K)  # (n m, D)
        D = E.shape[1]
        m = min(T, math.ceil(self.explore_scale * D ** (1 / 3) * T ** (2 / 3)))
        rng = np.random.default_rng(seed)
        sampler = CouplingSampler(mu, nu, rng)
        ridge = RidgeState(D, self.lam)
        log = PlayLog(T, shape)
        for t in range(m):
            if self.explore == "vertex":
                plan = entropic_plan(mu, nu, rng.standard_normal(shape), 0.0)
            else:
                plan = sampler.draw(self.n_steps).copy()
            ridge.update(coordinates(E, plan), data.pull(t, plan))
            log.add(plan)
        if m < T:
            commit = entropic_plan(mu, nu, cost_matrix(E, ridge.theta(), shape), 0.0)
            data.pull_many(m, T - m, commit)  # observed, no longer used
            log.add_many(commit, T - m)
        out = log.outputs()
        out.update(time_s=time.perf_counter() - t0, explore_rounds=m)
        return out
