"""Seeded auto-bidding markets: value-maximising advertisers bidding uniformly across many queries.

An instance is a value matrix ``V`` (n advertisers x m queries, all entries > 0) plus one
constraint per advertiser, reported to its auto-bidder:

* ``kind="tcpa"``: target CPA / return-on-spend, spend_i <= T_i * value_i;
* ``kind="budget"``: spend_i <= B_i.

A cell holds ``batch`` independent markets so that one grid cell checks many random instances.

Value models (our choice; the papers are theory and give no data):

* ``lognormal``: v_ij = exp(sigma * z_ij), z iid N(0, 1);
* ``correlated``: a common query quality shared by all advertisers,
  v_ij = exp(sigma * (rho * g_j + sqrt(1 - rho^2) * z_ij)).

``regime="multi_eq"`` (two advertisers, tCPA only) builds markets with several equilibria: with a
cut s (advertiser 0 wins the s queries on which its value ratio v_0j / v_1j is highest), an interior
second-price equilibrium needs T_0 / T_1 = L(s) := S_1(s) B_1(s) r(s) / (A_0(s) B_0(s)), where A_0, S_1 are
the two advertisers' values on advertiser 0's queries, B_0, B_1 on advertiser 1's, and r(s) the value
ratio at the cut. L takes the same value at both ends of the cut range, so a target ratio half way
between that end value and L's extreme is crossed at least twice. We set T_0 that way (our
instantiation of "instances with several equilibria"; Alimohammadi et al. 2023 build theirs in a
continuous query model that we do not have).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance


def draw_values(rng: np.random.Generator, n: int, m: int, model: str, sigma: float,
                rho: float) -> np.ndarray:
    z = rng.standard_normal((n, m))  # (n, m)
    if model == "lognormal":
        return np.exp(sigma * z)
    if model == "correlated":
        g = rng.standard_normal(m)  # (m,) common query quality
        return np.exp(sigma * (rho * g[None, :] + np.sqrt(1.0 - rho ** 2) * z))
    raise ValueError(f"unknown value model {model!r}")


def cut_level_curve(V: np.ndarray) -> tuple[np.ndarray, float]:
    """L(s) at the integer cuts s = 1..m-1 and its common end value S_1(m) / A_0(m) (two advertisers)."""
    r = V[0] / V[1]
    order = np.argsort(-r, kind="stable")
    a, b, r = V[0, order], V[1, order], r[order]
    pa, pb = np.cumsum(a)[:-1], np.cumsum(b)[:-1]  # (m-1,) values on advertiser 0's first s queries
    qa, qb = a.sum() - pa, b.sum() - pb  # (m-1,) values on advertiser 1's queries
    r_cut = np.sqrt(r[:-1] * r[1:])  # (m-1,) ratio between the last query won and the first lost
    return pb * qb * r_cut / (pa * qa), float(b.sum() / a.sum())


@dataclass
class AutobiddingAuctions(Dataset):
    name: ClassVar[str] = "autobidding_auctions"
    n: int = 2  # advertisers; the paper's uniform-bidding theorem is for n = 2 (arXiv v1 abstract)
    m: int = 100  # queries; a finite stand-in for the papers' continuum of queries (our choice)
    kind: str = "tcpa"  # "tcpa" or "budget": the two constraints of Alimohammadi et al. 2023
    values: str = "lognormal"  # "lognormal" or "correlated" (our choice)
    regime: str = "random"  # "random" or "multi_eq" (several equilibria by construction)
    batch: int = 10  # markets per cell (our choice)
    sigma: float = 1.0  # log-value spread (our choice)
    rho: float = 0.6  # weight of the common query quality in "correlated" (our choice)
    target_lo: float = 0.3  # tCPA targets ~ U[0.3, 1.5] (research note's plan; papers silent)
    target_hi: float = 1.5
    budget_lo: float = 0.1  # budget as a share of the advertiser's total value (our choice)
    budget_hi: float = 0.6

    def __post_init__(self) -> None:
        if self.kind not in ("tcpa", "budget"):
            raise ValueError(f"kind must be 'tcpa' or 'budget', got {self.kind!r}")
        if self.regime == "multi_eq" and (self.n != 2 or self.kind != "tcpa"):
            raise ValueError("regime='multi_eq' is built for n=2, kind='tcpa'")

    def _one(self, rng: np.random.Generator) -> dict:
        V = draw_values(rng, self.n, self.m, self.values, self.sigma, self.rho)  # (n, m)
        if self.kind == "tcpa":
            cons = rng.uniform(self.target_lo, self.target_hi, self.n)  # (n,)
        else:
            cons = rng.uniform(self.budget_lo, self.budget_hi, self.n) * V.sum(1)  # (n,)
        if self.regime == "multi_eq":
            level, end = cut_level_curve(V)
            extreme = level.max() if level.max() - end > end - level.min() else level.min()
            cons[0] = cons[1] * 0.5 * (end + extreme)
        return {"V": V, "kind": self.kind, "cons": cons}

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        markets = [self._one(rng) for _ in range(self.batch)]
        return Instance(data={"markets": markets},
                        truth={"n": self.n, "kind": self.kind, "regime": self.regime})
