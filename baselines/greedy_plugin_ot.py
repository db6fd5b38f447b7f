"""Greedy plug-in for bandit optimal transport: play the exact OT plan of the current cost estimate.

Same regularised least squares as OFUL (ridge on the coupling's density coordinates in an
orthonormal basis of L2(mu x nu)), but no optimism: pi_t = argmin_pi <c_hat_t, pi> (POT
``ot.emd``). It can lock onto a suboptimal vertex, since it only learns along the directions it
plays.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.datasets.bandit_transport import PlayLog
from claimbench.methods.bandit_ot import (RidgeState, basis_per_axis, confidence_radius,
                                          coordinates, cost_matrix, coupling_basis, entropic_plan)


@dataclass
class GreedyPluginOT(Method):
    """Certainty equivalence: exact OT on the ridge estimate of the cost."""

    name: ClassVar[str] = "greedy_ot"
    lam: float = 1.0  # ridge parameter (same as oful_ot)
    basis: str = "fixed"  # truncation K per axis: "fixed" or "horizon" (as oful_ot)
    smoothness: float = 1.0  # assumed Sobolev order in K(T) (as oful_ot)
    max_basis: int | None = 4  # cosines per axis when basis="fixed" (as oful_ot)
    delta: float = 0.05  # confidence level of the reported OFUL radius only (as oful_ot)
    switch_ratio: float = 2.0  # re-solve when det V doubles (as oful_ot); 1.0 = every round

    def run(self, data, seed: int) -> dict:
        t0 = time.perf_counter()
        mu, nu, shape = data.mu, data.nu, (len(data.mu), len(data.nu))
        K = basis_per_axis(data.horizon, self.basis, self.max_basis, self.smoothness)
        E = coupling_basis(mu, nu, data.x, data.y, K)  # (n m, D)
        ridge = RidgeState(E.shape[1], self.lam)
        log = PlayLog(data.horizon, shape)
        t, blocks = 0, []
        while t < data.horizon:
            # Re-solved only when det V has grown by switch_ratio (a block of identical plays).
            plan = entropic_plan(mu, nu, cost_matrix(E, ridge.theta(), shape), 0.0)
            a = coordinates(E, plan)
            k = min(ridge.rounds_until_growth(a, self.switch_ratio), data.horizon - t)
            # The same per-block quantities as oful_ot's trajectory bound (no entropy: eps = 0).
            beta = confidence_radius(data.noise_sd, self.delta, ridge.logdet, self.lam,
                                     data.cost_bound)
            blocks.append([k, beta, math.sqrt(max(a @ ridge.Vinv @ a, 0.0)), 0.0])
            ridge.update(a, float(np.sum(data.pull_many(t, k, plan))), k)
            log.add_many(plan, k)
            t += k
        out = log.outputs()
        out.update(time_s=time.perf_counter() - t0, bound_blocks=blocks)
        return out
