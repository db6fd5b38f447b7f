"""The fixed solver portfolio that benchmark-design papers (EoB, arXiv 2601.21877)
differentiate, with CMA-ES and differential evolution as thin budget-exact wrappers of the
shared implementations:

* :class:`PortfolioCMAES` -- ``cma_trajectory`` of :mod:`claimbench.baselines.cma_es`
  (the ``cma`` package, Hansen & Ostermeier 2001; proposals clipped to the box), population
  4 + floor(3 ln d) (the package default), run until the budget is spent;
* :class:`PortfolioDE` -- ``de_trajectory`` of :mod:`claimbench.baselines.differential_evolution`
  (DE/rand/1/bin, Storn & Price 1997), population ``popsize_per_dim`` * d, F = 0.5, CR = 0.9.

Both see the objective through :class:`~claimbench.baselines.black_box.BudgetedObjective`,
which stops them at exactly ``budget`` evaluations (the last generation may be cut), like the
other members: random search, (1+1)-ES, Nelder-Mead, particle swarm.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from claimbench.api import Method
from claimbench.baselines.black_box import run_solver
from claimbench.baselines.nelder_mead import NelderMead
from claimbench.baselines.one_plus_one_es import OnePlusOneES
from claimbench.baselines.particle_swarm import ParticleSwarm
from claimbench.baselines.random_search import RandomSearch


def _box(obj) -> tuple[float, float]:
    lo, hi = float(obj.lower.min()), float(obj.upper.max())
    if not (obj.lower == lo).all() or not (obj.upper == hi).all():
        raise ValueError("the shared CMA-ES / DE codes take a cube [lo, hi]^d")
    return lo, hi


@dataclass
class PortfolioCMAES(Method):
    name: ClassVar[str] = "cma_es"
    sigma_frac: float = 0.2  # initial step / box width; the shared CMAES default
    popsize: int | None = None  # None: the cma default 4 + floor(3 ln d)

    def minimize(self, obj, rng) -> None:
        from claimbench.baselines.cma_es import cma_trajectory

        lo, hi = _box(obj)
        lam = self.popsize or 4 + int(3 * math.log(obj.dim))
        gens = -(-obj.remaining // lam)
        cma_trajectory(obj, obj.dim, lo, hi, lam, gens, int(rng.integers(2**62)), self.sigma_frac)

    def run(self, data, seed: int) -> dict:
        return run_solver(self, data, seed)


@dataclass
class PortfolioDE(Method):
    name: ClassVar[str] = "differential_evolution"
    popsize_per_dim: int = 5  # population / d; our choice for budgets of ~100 d
    F: float = 0.5  # Storn & Price 1997 recommendation
    CR: float = 0.9  # Storn & Price 1997 recommendation

    def minimize(self, obj, rng) -> None:
        from claimbench.baselines.differential_evolution import de_trajectory

        lo, hi = _box(obj)
        n = max(4, self.popsize_per_dim * obj.dim)
        gens = -(-max(obj.remaining - n, 0) // n)
        de_trajectory(obj, obj.dim, lo, hi, n, gens, int(rng.integers(2**62)), self.F, self.CR)

    def run(self, data, seed: int) -> dict:
        return run_solver(self, data, seed)


def portfolio() -> tuple[Method, ...]:
    """The fixed portfolio, in a fixed order (performance vectors are indexed by it)."""
    return (RandomSearch(), OnePlusOneES(), NelderMead(), PortfolioCMAES(), PortfolioDE(),
            ParticleSwarm())


PORTFOLIO_NAMES = ("random_search", "one_plus_one_es", "nelder_mead", "cma_es",
                   "differential_evolution", "particle_swarm")
