"""Position-aware random projection of one-hot DNA (a linear, frozen "embedding" that keeps
where each base is; its output dimension is the scale axis).

phi(s) = P^T vec(one-hot(s)) with P in R^{4L x d}, entries N(0, 1/(4L)) drawn from ``seed``.
A Johnson-Lindenstrauss sketch: as d grows it approaches the full positional one-hot code.
"""
from __future__ import annotations

import numpy as np


def random_projection_features(X: np.ndarray, dim: int, seed: int = 0) -> np.ndarray:
    X = np.asarray(X, dtype=np.int64)
    n, L = X.shape
    rng = np.random.default_rng(seed)
    P = rng.standard_normal((4 * L, dim)) / np.sqrt(4 * L)  # (4L, d)
    oh = np.eye(4)[X].reshape(n, 4 * L)  # (n, 4L)
    return oh @ P  # (n, d)
