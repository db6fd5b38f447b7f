"""The trivial embedding that ignores the input: every point at the origin of R^d.

All distances are equal, so every triplet is a tie; with ties counted one half
(datasets/triplet_instances.py: triplet_accuracy) its accuracy is exactly 1/2 on any instance.
It is the "trivial one-dimensional solution that ignores the input" against which
arXiv 2605.03346 measures collapse (abstract); any input-independent embedding has expected
accuracy 1/2 by the j <-> k symmetry of a random triplet.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method


@dataclass
class ConstantEmbedding(Method):
    name: ClassVar[str] = "constant"
    d: int = 1  # the paper's trivial solution is one-dimensional (abstract)

    def run(self, data: dict, seed: int) -> dict:
        t0 = time.perf_counter()
        X = np.zeros((data["n"], self.d))  # (n, d)
        return {"X": X, "d": self.d, "time_s": time.perf_counter() - t0}
