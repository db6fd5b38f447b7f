"""Regularized (aging) evolution over a finite pool of NAS cells (Real et al., "Regularized
Evolution for Image Classifier Architecture Search", AAAI 2019).

Aging evolution: start from ``population`` random cells; each step draw ``sample`` members at
random, take the best (by validation accuracy) as parent, mutate it, evaluate the child, append
it and remove the *oldest* member. Mutation in a tabulated pool (not every one of the 15625
cells is tabulated): the child is a not-yet-evaluated pool cell at the smallest non-zero
Hamming distance from the parent over the 6 edge ops (one edge changed when such a cell is in
the pool), ties at random. Interface: ``data`` of :mod:`claimbench.datasets.nas_cell_pool`.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method


def pool_mutation(archs: np.ndarray, parent: int, taken, rng) -> int | None:
    """A pool index nearest (Hamming >= 1) to ``parent`` among those not in ``taken``."""
    from claimbench.datasets.nas_cell_pool import hamming

    d = hamming(archs, archs[parent]).astype(float)  # (n,)
    d[list(taken)] = np.inf
    d[parent] = np.inf
    if not np.isfinite(d).any():
        return None
    best = np.flatnonzero(d == d.min())
    return int(rng.choice(best))


@dataclass
class RegularizedEvolution(Method):
    name: ClassVar[str] = "reg_evolution"
    population: int = 10  # ours (Real et al. 2019 use 100 at far larger budgets)
    sample: int = 3  # ours (Real et al. 2019: 25 of 100)

    def run(self, data, seed: int) -> dict:
        from claimbench.datasets.nas_cell_pool import PoolOracle

        rng = np.random.default_rng(seed)
        archs = data["archs"]
        oracle = PoolOracle(data["val_acc"], data["budget"])
        init = rng.choice(len(archs), size=min(self.population, oracle.budget), replace=False)
        pop = deque((int(i), oracle(int(i))) for i in init)
        while oracle.remaining > 0:
            idx = rng.choice(len(pop), size=min(self.sample, len(pop)), replace=False)
            parent = max((pop[k] for k in idx), key=lambda t: t[1])[0]
            child = pool_mutation(archs, parent, oracle.cache.keys(), rng)
            if child is None:
                break
            pop.append((child, oracle(child)))
            if len(pop) > self.population:
                pop.popleft()
        return {"queried": oracle.queried}

