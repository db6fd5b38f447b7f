"""Uniform random search without replacement over a finite pool of NAS cells (Bergstra &
Bengio 2012; the NAS baseline of Li & Talwalkar 2019). Interface: ``data`` of
:mod:`claimbench.datasets.nas_cell_pool`. (:mod:`claimbench.baselines.random_search` is the
continuous-box version.)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method


@dataclass
class PoolRandomSearch(Method):
    """Uniform random search without replacement over the pool (Bergstra & Bengio 2012)."""

    name: ClassVar[str] = "random_search"

    def run(self, data, seed: int) -> dict:
        from claimbench.datasets.nas_cell_pool import PoolOracle

        rng = np.random.default_rng(seed)
        oracle = PoolOracle(data["val_acc"], data["budget"])
        for i in rng.permutation(len(data["archs"]))[:oracle.budget]:
            oracle(int(i))
        return {"queried": oracle.queried}
