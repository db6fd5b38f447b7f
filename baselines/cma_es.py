"""CMA-ES (Hansen & Ostermeier 2001) through the ``cma`` package, with a trajectory recorder.

``cma_trajectory`` runs ``cma.CMAEvolutionStrategy`` with ask/tell on a box-bounded
black box and records, per generation, the evaluated proposals, their values and the
search distribution after the update, ``N(mean, sigma^2 C)`` -- the form in which
MetaDistill stores a teacher's generation. ``CMAES`` is the plain optimizer as a Method.

Choices (the ``cma`` defaults otherwise): the initial mean is uniform in the box and the
initial step size is ``sigma_frac`` times the box width; proposals are clipped to the box and
the clipped points are told back (Lamarckian repair; the package's own box transform costs
~3 ms per generation); the stopping criteria are off, and a run the package stops for
numerical reasons keeps its last distribution.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable, ClassVar

import numpy as np

from claimbench.api import Method


def cma_trajectory(f: Callable, dim: int, lower: float, upper: float, popsize: int,
                   generations: int, seed: int, sigma_frac: float = 0.2,
                   init: str = "box") -> dict:
    """Returns X (G, N, D), fit (G, N), mean (G, D), cov (G, D, D), best_trace (G,).

    ``init="box"`` (default): x0 ~ U(box), sigma0 = sigma_frac * width. ``init="unit"``: the
    MetaDistill code's teacher (optimizers/cmaes.py), x0 ~ U(0, 1)^D and sigma0 ~ U(0, 1) in
    absolute units, whatever the box.
    """
    import cma

    rng = np.random.default_rng(seed)
    if init == "box":
        x0, sigma0 = rng.uniform(lower, upper, dim), sigma_frac * (upper - lower)
    elif init == "unit":
        x0, sigma0 = rng.uniform(0.0, 1.0, dim), float(rng.uniform(1e-3, 1.0))
    else:
        raise ValueError(f"unknown init {init!r}")
    es = cma.CMAEvolutionStrategy(x0, sigma0, {
        "popsize": popsize, "seed": int(rng.integers(1, 2**31 - 1)),
        "verbose": -9, "verb_disp": 0, "verb_log": 0, "tolfun": 0.0, "tolx": 0.0,
        "tolfunhist": 0.0, "tolstagnation": 10**9, "tolflatfitness": 10**9})
    Xs, fits, means, covs, best = [], [], [], [], []
    b = math.inf
    for _ in range(generations):
        if es.stop() and Xs:  # numerical stop (e.g. a degenerate covariance): keep the last generation
            Xs.append(Xs[-1]), fits.append(fits[-1]), means.append(means[-1]), covs.append(covs[-1])
            best.append(b)
            continue
        X = np.minimum(np.maximum(np.asarray(es.ask()), lower), upper)  # (N, D), repaired
        y = np.asarray(f(X), dtype=float)  # (N,)
        es.tell(list(X), y.tolist())  # the package re-checks repaired points (check_points)
        b = min(b, float(y.min()))
        Xs.append(X), fits.append(y), best.append(b)
        means.append(np.array(es.mean, dtype=float))
        covs.append(es.sigma ** 2 * np.array(es.sm.covariance_matrix, dtype=float))
    return {"X": np.stack(Xs), "fit": np.stack(fits), "mean": np.stack(means),
            "cov": np.stack(covs), "best_trace": np.array(best)}


@dataclass
class CMAES(Method):
    """CMA-ES with a fixed population on a box-bounded black box (evaluation budget in data)."""

    name: ClassVar[str] = "cma_es"
    popsize: int = 32  # same population as the learned optimizers (MetaDistill code: 200 for all); our scale
    sigma_frac: float = 0.2  # initial step size / box width; our choice

    def run(self, data: dict, seed: int) -> dict:
        t0 = time.perf_counter()
        gens = max(1, data["budget"] // self.popsize)
        tr = cma_trajectory(data["f"], data["dim"], data["lower"], data["upper"], self.popsize,
                            gens, seed, self.sigma_frac)
        return {"best_f": float(tr["best_trace"][-1]), "last_f": float(np.min(tr["fit"][-1])),
                "time_s": time.perf_counter() - t0,
                "traces": {"best_vs_evals": {"x": [float(self.popsize * (g + 1)) for g in range(gens)],
                                             "y": [float(v) for v in tr["best_trace"]]}}}
