"""Differential evolution, DE/rand/1/bin (Storn & Price 1997), with a trajectory recorder.

Per generation, for every parent ``x_i``: a mutant ``v = x_r1 + F (x_r2 - x_r3)`` with
``r1, r2, r3`` distinct and different from ``i``; a binomial crossover with rate ``CR``
that always takes coordinate ``j_rand`` from the mutant; clipping to the box; one-to-one
selection (the trial replaces its parent when it is no worse). ``de_trajectory`` records
the trial vectors, their values and the Gaussian fit (mean, covariance) of the population
after selection, which is how MetaDistill stores a DE teacher's generation.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, ClassVar

import numpy as np

from claimbench.api import Method


def _three_others(n: int, rng: np.random.Generator) -> np.ndarray:
    """(n, 3) indices, distinct within a row and different from the row index."""
    r = np.argsort(rng.random((n, n - 1)), axis=1)[:, :3]  # (n, 3) in 0..n-2
    return r + (r >= np.arange(n)[:, None])  # skip the row's own index


def de_trajectory(f: Callable, dim: int, lower: float, upper: float, popsize: int,
                  generations: int, seed: int, F: float = 0.5, CR: float = 0.5,
                  X0: np.ndarray | None = None, fit0: np.ndarray | None = None) -> dict:
    """Returns X (G, N, D) trials, fit (G, N), mean (G, D), cov (G, D, D), best_trace (G + 1,)."""
    if popsize < 4:
        raise ValueError("DE/rand/1 needs popsize >= 4")
    rng = np.random.default_rng(seed)
    P = rng.uniform(lower, upper, (popsize, dim)) if X0 is None else np.array(X0, dtype=float)
    fp = np.asarray(f(P), dtype=float) if fit0 is None else np.array(fit0, dtype=float)  # (N,)
    b = float(fp.min())
    Xs, fits, means, covs, best = [], [], [], [], [b]
    for _ in range(generations):
        r = _three_others(popsize, rng)
        V = P[r[:, 0]] + F * (P[r[:, 1]] - P[r[:, 2]])  # (N, D)
        cross = rng.random((popsize, dim)) < CR
        cross[np.arange(popsize), rng.integers(0, dim, popsize)] = True
        U = np.clip(np.where(cross, V, P), lower, upper)  # (N, D)
        fu = np.asarray(f(U), dtype=float)
        keep = fu <= fp
        P[keep], fp[keep] = U[keep], fu[keep]
        b = min(b, float(fu.min()))
        Xs.append(U), fits.append(fu), best.append(b)
        means.append(P.mean(0)), covs.append(np.cov(P.T).reshape(dim, dim))
    return {"X": np.stack(Xs), "fit": np.stack(fits), "mean": np.stack(means),
            "cov": np.stack(covs), "best_trace": np.array(best), "pop": P, "pop_fit": fp}


@dataclass
class DifferentialEvolution(Method):
    """DE/rand/1/bin on a box-bounded black box (evaluation budget in data)."""

    name: ClassVar[str] = "differential_evolution"
    popsize: int = 32  # same population as the learned optimizers; our scale
    F: float = 0.5  # MetaDistill code, scripts/collect_trajectories.py (DE teacher)
    CR: float = 0.5  # idem

    def run(self, data: dict, seed: int) -> dict:
        t0 = time.perf_counter()
        gens = max(0, data["budget"] // self.popsize - 1)  # the initial population uses one generation
        tr = de_trajectory(data["f"], data["dim"], data["lower"], data["upper"], self.popsize, gens,
                           seed, self.F, self.CR)
        # last_f: the best of the final population; DE's greedy selection keeps the best point
        # found in the population, so it equals the best-so-far value
        return {"best_f": float(tr["best_trace"][-1]), "last_f": float(tr["best_trace"][-1]),
                "time_s": time.perf_counter() - t0,
                "traces": {"best_vs_evals": {"x": [float(self.popsize * (g + 1)) for g in range(gens + 1)],
                                             "y": [float(v) for v in tr["best_trace"]]}}}
