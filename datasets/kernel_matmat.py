"""A matrix-matrix product K V on the point clouds of kernel_point_clouds.py (task "matmat").

The same clouds and Gaussian kernel as KernelPointCloud (its point_cloud and bandwidth convention,
h = bandwidth * sqrt(2 d)); the query is K V for a block V of m non-negative columns, V_ij ~ U(0, 1)
iid (the matvec task's v, m times). A separate file so that KernelPointCloud's instances (and the
cells built on them) are unchanged. The truth holds K V, computed densely (n^2 kernel evaluations,
not charged to any method); `data["kernel"]` is the oracle's cached backing store, as there.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance
from claimbench.baselines.kde_oracle import gaussian_kernel
from claimbench.datasets.kernel_point_clouds import point_cloud


@dataclass
class KernelMatMat(Dataset):
    name: ClassVar[str] = "kernel_matmat"
    n: int = 1000  # points
    m: int = 4  # columns of V (paper silent; our choice, small for CPU)
    eps: float = 0.1  # target relative error
    family: str = "clustered"  # "clustered" or "uniform"
    d: int = 10  # dimension (research note: d = 10)
    bandwidth: float = 1.0  # h / sqrt(2 d), as KernelPointCloud
    n_clusters: int = 5
    cluster_sep: float = 1.0
    task: str = "matmat"  # the only task of this family (a field, so that claims can scope on it)

    def make(self, seed: int) -> Instance:
        if self.task != "matmat":
            raise ValueError(f"task {self.task!r}: KernelMatMat poses only 'matmat'")
        rng = np.random.default_rng(seed)
        x = point_cloud(rng, self.n, self.d, self.family, self.n_clusters, self.cluster_sep)  # (n, d)
        h = self.bandwidth * math.sqrt(2.0 * self.d)
        K = gaussian_kernel(x, x, h)  # (n, n)
        V = rng.uniform(0.0, 1.0, size=(self.n, self.m))  # (n, m)
        data = {"points": x, "bandwidth": h, "task": "matmat", "eps": self.eps, "V": V,
                "kernel": K.astype(np.float32)}
        return Instance(data=data, truth={"KV": K @ V, "mean_kernel": float(K.mean())})  # KV: (n, m)
