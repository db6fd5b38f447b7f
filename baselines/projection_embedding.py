"""Reference embedding: the ground-truth points projected to d dimensions.

A d-dimensional view of the truth: PCA (top-d principal directions of the centred points) or a
random Gaussian projection R^D -> R^d. It is an *oracle reference*, not a learner: it reads the
true points, which triplet datasets expose under the explicitly named key
data["oracle_points"] for this purpose only (see datasets/triplet_instances.py). It witnesses a
lower bound on what the best d-dimensional embedding can satisfy. For a random d-of-D projection
of isotropic points the squared-distance difference of a triplet keeps a correlation sqrt(d/D)
with the true one, so about 1/2 + arcsin(sqrt(d/D)) / pi of triplets survive (research note's
heuristic): a gradual, not sudden, decline in d / D. PCA of few points (n not >> D) does better.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.datasets.triplet_instances import target_dim

KINDS = ("pca", "random")


def project_points(X: np.ndarray, d: int, kind: str = "pca", rng: np.random.Generator | None = None) -> np.ndarray:
    X = np.asarray(X, dtype=float)  # (n, D)
    d = min(d, X.shape[1]) if kind == "pca" else d
    if kind == "pca":
        Xc = X - X.mean(axis=0)
        _, _, Vt = np.linalg.svd(Xc, full_matrices=False)  # Vt: (min(n, D), D)
        return Xc @ Vt[:d].T  # (n, d)
    if kind == "random":
        rng = rng or np.random.default_rng(0)
        P = rng.standard_normal((X.shape[1], d)) / np.sqrt(d)  # (D, d)
        return X @ P
    raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")


@dataclass
class ProjectionEmbedding(Method):
    name: ClassVar[str] = "projection"
    d: int = 0  # embedding dimension; 0 means use d_ratio
    d_ratio: float = 1.0  # d = max(1, round(d_ratio * D)) when d == 0
    kind: str = "pca"  # research note: "PCA of ground truth to d dims"; "random" = JL-style projection

    def run(self, data: dict, seed: int) -> dict:
        d = target_dim(self.d, self.d_ratio, data["D"])
        t0 = time.perf_counter()
        X = project_points(data["oracle_points"], d, self.kind, np.random.default_rng(seed))
        return {"X": X, "d": X.shape[1], "time_s": time.perf_counter() - t0}
