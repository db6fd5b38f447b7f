"""Exact dense kernel-matrix linear algebra: materialise K (n^2 kernel evaluations), then solve.

The reference cost every KDE-based algorithm is measured against: K v, K V (V with m columns: K is
read once, so n^2 evaluations whatever m), ||K||_2 (Lanczos on the dense matrix, scipy eigsh) and
s(K), each after reading all n^2 entries of K.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.kde_oracle import SamplingKDE


def dense_solve(oracle: SamplingKDE, task: str, v: np.ndarray | None = None) -> float | np.ndarray:
    from claimbench.datasets.kernel_point_clouds import top_eigenvalue

    idx = np.arange(oracle.n)
    K = oracle.block(idx, idx)  # (n, n): n^2 evaluations
    if task in ("matvec", "matmat"):
        return K @ v  # v: (n,) or V: (n, m)
    if task == "spectral":
        return top_eigenvalue(K)
    if task == "sum":
        return float(K.sum())
    raise ValueError(task)


@dataclass
class DenseKernelLinalg(Method):
    name: ClassVar[str] = "dense"

    def run(self, data, seed: int) -> dict:
        oracle = SamplingKDE(data["points"], data["bandwidth"], seed, kernel=data.get("kernel"))
        t0 = time.perf_counter()
        ans = dense_solve(oracle, data["task"], data["V"] if data["task"] == "matmat" else data.get("v"))
        return {"answer": ans, "kernel_evals": oracle.evals, "time_s": time.perf_counter() - t0}
