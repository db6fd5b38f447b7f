"""Point clouds with a Gaussian kernel, and one kernel-matrix query posed on them.

Points have unit variance per coordinate: "uniform" draws x ~ U[-sqrt(3), sqrt(3)]^d;
"clustered" draws cluster centres c ~ N(0, sep^2 I) and x = c + N(0, I) with Dirichlet(2)
cluster proportions. The kernel is k(x, y) = exp(-||x - y||^2 / h^2) with
h = bandwidth * sqrt(2 d), so bandwidth = 1 puts h at the rms distance of two points of one
cloud (k ~ e^-1 there): the kernel matrix is far from the identity, the regime where KDE
queries are cheap.

The instance also names the task and its target relative error eps (what a method is asked):
"matvec" (K v for a fixed v >= 0, v_j ~ U(0, 1)), "spectral" (||K||_2) or "sum" (s(K)).
The truth holds the exact answer, computed densely (n^2 kernel evaluations, not charged to any
method). `data["kernel"]` is the cached kernel matrix that backs the KDE oracle: methods read it
only through the counting oracle (baselines/kde_oracle.py).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance
from claimbench.baselines.kde_oracle import gaussian_kernel

TASKS = ("matvec", "spectral", "sum")


def point_cloud(rng: np.random.Generator, n: int, d: int, family: str, n_clusters: int, sep: float) -> np.ndarray:
    if family == "uniform":
        return rng.uniform(-math.sqrt(3.0), math.sqrt(3.0), size=(n, d))  # (n, d)
    if family == "clustered":
        centres = sep * rng.standard_normal((n_clusters, d))  # (k, d)
        labels = rng.choice(n_clusters, size=n, p=rng.dirichlet(np.full(n_clusters, 2.0)))
        return centres[labels] + rng.standard_normal((n, d))  # (n, d)
    raise ValueError(f"unknown family {family!r}")


def top_eigenvalue(K: np.ndarray) -> float:
    from scipy.sparse.linalg import eigsh

    if K.shape[0] <= 300:
        return float(np.linalg.eigvalsh(K)[-1])
    return float(eigsh(K, k=1, which="LA", tol=1e-12, v0=np.ones(K.shape[0]))[0][0])


@dataclass
class KernelPointCloud(Dataset):
    name: ClassVar[str] = "kernel_points"
    n: int = 1000  # points (note: 2k-10k at full scale; scaled down here)
    task: str = "spectral"  # one of TASKS
    eps: float = 0.1  # target relative error (note: eps in {0.2, 0.1, 0.05, 0.025})
    family: str = "clustered"  # "clustered" or "uniform"
    d: int = 10  # dimension (research note: d = 10)
    bandwidth: float = 1.0  # h / sqrt(2 d); our choice: K far from the identity (paper silent)
    n_clusters: int = 5  # our choice
    cluster_sep: float = 1.0  # centre spread in units of the within-cluster std; our choice

    def make(self, seed: int) -> Instance:
        if self.task not in TASKS:
            raise ValueError(f"task {self.task!r} not in {TASKS}")
        rng = np.random.default_rng(seed)
        x = point_cloud(rng, self.n, self.d, self.family, self.n_clusters, self.cluster_sep)
        h = self.bandwidth * math.sqrt(2.0 * self.d)
        K = gaussian_kernel(x, x, h)  # (n, n)
        data = {"points": x, "bandwidth": h, "task": self.task, "eps": self.eps, "kernel": K.astype(np.float32)}
        truth: dict = {"mean_kernel": float(K.mean())}
        if self.task == "matvec":
            v = rng.uniform(0.0, 1.0, size=self.n)  # (n,)
            data["v"] = v
            truth["Kv"] = K @ v
        elif self.task == "spectral":
            truth["spectral_norm"] = top_eigenvalue(K)
        else:
            truth["sum"] = float(K.sum())
        return Instance(data=data, truth=truth)
