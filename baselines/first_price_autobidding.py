"""First-price auction with uniform-bidding auto-bidders: the control for the IC checks.

Same market and equilibrium notion as the second-price analysis (see
baselines/uniform_bidding_best_response.py), but a winner pays its own bid.

* tCPA: an advertiser's cost per unit of value is its multiplier, so the constraint is
  alpha_i <= T_i and value grows with alpha_i: alpha_i = T_i, one equilibrium outcome.
* Budget, two advertisers: a cut s in the ratio order binds both budgets at
  alpha_0 = B_0 / A_0(s), alpha_1 = B_1 / B_1(s) (values on each one's own side); the implied ratio
  rises with s while the cut's ratio interval falls, so there is exactly one equilibrium.
  Three advertisers: best-response dynamics from many starts.

Alimohammadi et al. (arXiv 2301.13414, abstract) state that FPA is AIC when auto-bidders are
restricted to uniform bidding; with a unique equilibrium AIC, RAIC and OAIC coincide.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.baselines.uniform_bidding_best_response import (TIE_RTOL, eq_record,
                                                                find_equilibria)
from claimbench.methods.autobidding_raic import (AutobiddingIC, run_markets,
                                                 two_bidder_equilibria)


def fpa_tcpa_equilibrium(V: np.ndarray, cons: np.ndarray) -> list[dict]:
    alpha = np.asarray(cons, float)
    bids = alpha[:, None] * V  # (n, m)
    win = bids >= bids.max(0) * (1 - TIE_RTOL)
    x = win / win.sum(0, keepdims=True)  # ties split equally
    return [eq_record(alpha, x, V, "fpa")]


def fpa_equilibria(V, kind, cons, seed=0, starts=6, iters=60):
    if kind == "tcpa":
        return fpa_tcpa_equilibrium(V, cons), 0
    if V.shape[0] == 2:
        return two_bidder_equilibria(V, kind, cons, "fpa")
    return find_equilibria(V, kind, cons, "fpa", starts=starts, iters=iters, seed=seed)


@dataclass
class FirstPriceAutobidding(AutobiddingIC):
    name: ClassVar[str] = "fpa"

    def solve(self, V, kind, cons, seed):
        return fpa_equilibria(V, kind, cons, seed, self.starts, self.iters)

    def run(self, data, seed):
        return run_markets(self.solve, data, self.factors, self.tol, seed % (2 ** 31))
