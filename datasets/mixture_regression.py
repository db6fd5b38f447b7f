"""Multi-task regression with a planted specialisation: each input belongs to one of K clusters
and each cluster has its own linear target map.

Inputs: cluster centres mu_c ~ N(0, sep^2 I_d) (c = 1..K), x = mu_c + N(0, I_d) with c uniform;
targets y = W_c x + b_c + noise, with W_c ~ N(0, 1/d) (out x d) and b_c ~ N(0, 1) drawn per
cluster. One global linear map cannot fit y; a mixture that sends each cluster to its own expert
can. The cluster of each validation point is the ground-truth specialisation (``truth``), never
shown to a method: a router's specialisation is scored against it (normalised mutual information
between cluster and selected expert).

Sizes are ours (a CPU-scale stand-in for the "synthetic multi-task regression with known
specialisation" of the mp_moe research note, issue 15).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance


@dataclass
class MixtureRegression(Dataset):
    name: ClassVar[str] = "mixture_regression"
    n_clusters: int = 8  # the research note's "8-cluster" task
    dim: int = 16  # input width (ours)
    out_dim: int = 4  # targets per point (ours: several outputs give the router more signal)
    sep: float = 3.0  # centre spread in units of the within-cluster std (ours: well separated)
    noise: float = 0.1  # target noise std (ours)
    n_train: int = 4096  # ours: 512 points per cluster
    n_val: int = 1024  # ours: 128 validation points per cluster

    def _draw(self, rng, n, centres, W, b):
        c = rng.integers(0, self.n_clusters, size=n)  # (n,)
        x = centres[c] + rng.standard_normal((n, self.dim))  # (n, d)
        y = np.einsum("nod,nd->no", W[c], x) + b[c]  # (n, out)
        y = y + self.noise * rng.standard_normal(y.shape)
        return x.astype(np.float32), y.astype(np.float32), c

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        centres = self.sep * rng.standard_normal((self.n_clusters, self.dim))  # (K, d)
        W = rng.standard_normal((self.n_clusters, self.out_dim, self.dim)) / np.sqrt(self.dim)  # (K, out, d)
        b = rng.standard_normal((self.n_clusters, self.out_dim))  # (K, out)
        tx, ty, tc = self._draw(rng, self.n_train, centres, W, b)
        vx, vy, vc = self._draw(rng, self.n_val, centres, W, b)
        data = {"train_x": tx, "train_y": ty, "val_x": vx, "val_y": vy}
        truth = {"val_cluster": vc, "train_cluster": tc, "n_clusters": self.n_clusters,
                 "val_y_var": float(vy.var(axis=0).mean())}
        return Instance(data=data, truth=truth)
