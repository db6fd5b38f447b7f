"""Triplet comparison instances realisable in D dimensions.

n ground-truth points are drawn in R^D (standard Gaussian, or uniform on the sphere S^{D-1});
m = triplets_per_dof * n * D random triplets (i, j, k) with i, j, k distinct are labelled by
the true squared distances and stored *oriented*: a stored row (i, j, k) means
||x_i - x_j|| < ||x_i - x_k|| (anchor i, positive j, negative k). A fraction `holdout` of the
triplets is held out for measuring generalisation. Every instance is exactly realisable in D
dimensions by the ground truth itself (exact ties have probability zero; any are dropped).

What a method may see (`data`): n, D, the training triplets, and `oracle_points`. The last is
the ground truth, exposed *only* for reference embeddings that are defined as functions of the
truth (baselines/projection_embedding.py: PCA / random projection of the true points, the
paper's and the note's yardstick for "the best a d-dimensional view of the truth can do").
Fitting methods (methods/triplet_dimension.py) never read it; a unit test checks that removing
the key does not change their output. The held-out triplets live in `truth` only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

POINT_LAWS = ("gaussian", "sphere")


def triplet_margins(X: np.ndarray, T: np.ndarray) -> np.ndarray:
    """||x_i - x_k||^2 - ||x_i - x_j||^2 per oriented triplet row (i, j, k): > 0 when satisfied."""
    X = np.asarray(X, dtype=float).reshape(len(X), -1)  # (n, d)
    xi, xj, xk = X[T[:, 0]], X[T[:, 1]], X[T[:, 2]]  # (m, d) each
    return np.sum((xi - xk) ** 2, axis=1) - np.sum((xi - xj) ** 2, axis=1)  # (m,)


def triplet_accuracy(X: np.ndarray, T: np.ndarray) -> float:
    """Fraction of oriented triplets an embedding satisfies; exact ties count one half."""
    s = triplet_margins(X, T)
    return float(np.mean(s > 0) + 0.5 * np.mean(s == 0))


def sample_points(rng: np.random.Generator, n: int, D: int, law: str) -> np.ndarray:
    X = rng.standard_normal((n, D))  # (n, D)
    if law == "sphere":
        X /= np.linalg.norm(X, axis=1, keepdims=True)
    elif law != "gaussian":
        raise ValueError(f"points must be one of {POINT_LAWS}, got {law!r}")
    return X


def sample_triplets(rng: np.random.Generator, X: np.ndarray, m: int) -> np.ndarray:
    """m random triplets of distinct indices, oriented by the true distances of X."""
    n = len(X)
    i = rng.integers(0, n, m)
    # distinct j, k != i: offsets in [1, n-1], and k's offset avoids j's
    oj = rng.integers(1, n, m)
    ok = rng.integers(1, n - 1, m)
    ok = ok + (ok >= oj)
    T = np.stack([i, (i + oj) % n, (i + ok) % n], axis=1)  # (m, 3)
    s = triplet_margins(X, T)
    swap = s < 0
    T[swap, 1], T[swap, 2] = T[swap, 2], T[swap, 1].copy()
    return T[s != 0].astype(np.int64)


@dataclass
class TripletInstances(Dataset):
    name: ClassVar[str] = "triplets"
    n: int = 300  # research note's plan (the paper is theory only: no experimental scale)
    D: int = 16  # ground-truth dimension; note's plan D in {8, 16, 32}
    points: str = "gaussian"  # note's plan: N(0, I_D) and uniform on S^{D-1}
    triplets_per_dof: float = 50.0  # m = 50 n D, note's plan (paper: m triplets, no number)
    holdout: float = 0.2  # note's plan: 20% held out

    def make(self, seed: int) -> Instance:
        if self.n < 3:
            raise ValueError("need at least 3 points")
        rng = np.random.default_rng(seed)
        X = sample_points(rng, self.n, self.D, self.points)  # (n, D)
        m = int(round(self.triplets_per_dof * self.n * self.D))
        T = sample_triplets(rng, X, m)  # (m, 3)
        n_test = int(round(self.holdout * len(T)))
        data = {"n": self.n, "D": self.D, "train": T[n_test:], "oracle_points": X}
        truth = {"points": X, "test": T[:n_test]}
        return Instance(data=data, truth=truth)


def target_dim(d: int, d_ratio: float, D: int) -> int:
    """Embedding dimension of a method: d when given (> 0), else max(1, round(d_ratio * D))."""
    return int(d) if d > 0 else max(1, int(round(d_ratio * D)))
