"""Greedy plug-in for bandit optimal transport: play the exact OT plan of the current cost estimate.

Same regularised least squares as OFUL (ridge on the coupling's density coordinates in an
orthonormal basis of L2(mu x nu)), but no optimism: pi_t = argmin_pi <c_hat_t, pi> (POT
``ot.emd``). It can lock onto a suboptimal vertex, since it only learns along the directions it
plays.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.datasets.bandit_transport import PlayLog
from claimbench.methods.bandit_ot import (RidgeState, coordinates, cost_matrix, coupling_basis,
                                          entropic_plan)


@dataclass
class GreedyPluginOT(Method):
    """Certainty equivalence: exact OT on the ridge estimate of the cost."""

    name: ClassVar[str] = "greedy_ot"
    lam: float = 1.0  # ridge parameter (same as oful_ot)
    max_basis: int | None = 4  # cosines per axis (same model class as oful_ot)
    switch_ratio: float = 2.0  # re-solve when det V doubles (as oful_ot); 1.0 = every round

    def run(self, data, seed: int) -> dict:
        t0 = time.perf_counter()
        mu, nu, shape = data.mu, data.nu, (len(data.mu), len(data.nu))
        E = coupling_basis(mu, nu, data.x, data.y, self.max_basis)  # (n m, D)
        ridge = RidgeState(E.shape[1], self.lam)
        log = PlayLog(data.horizon, shape)
        t = 0
        while t < data.horizon:
            # Re-solved only when det V has grown by switch_ratio (a block of identical plays).
            plan = entropic_plan(mu, nu, cost_matrix(E, ridge.theta(), shape), 0.0)
            a = coordinates(E, plan)
            k = min(ridge.rounds_until_growth(a, self.switch_ratio), data.horizon - t)
            ridge.update(a, float(np.sum(data.pull_many(t, k, plan))), k)
            log.add_many(plan, k)
            t += k
        out = log.outputs()
        out["time_s"] = time.perf_counter() - t0
        return out
