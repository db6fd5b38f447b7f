"""Sequences of XOR-cluster classification tasks with mutually orthogonal cluster means.

Task k (k = 1..K) has two orthonormal directions u_{k,1}, u_{k,2} (all 2K of them orthonormal,
from a QR factorisation of a Gaussian matrix) and means mu_{k,c} = mu_norm * u_{k,c}. A point
of task k is x = s * mu_{k,c} + sigma * z with s = +-1 (equally likely), z ~ N(0, I_d) and
label y = +1 for c = 1, y = -1 for c = 2: the label is the XOR of "which pair" and is
independent of the sign s, so no linear classifier does better than chance.

``data`` holds the training sets (what a learner sees) and the training protocol a
continual-learning experiment fixes with its task stream (hidden width, GD iterations per
task); ``truth`` holds fresh test sets drawn from the same clusters and the means.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance


def orthonormal_means(rng: np.random.Generator, d: int, K: int, mu_norm: float) -> np.ndarray:
    """(K, 2, d) means: 2K orthonormal directions scaled to norm mu_norm."""
    if 2 * K > d:
        raise ValueError(f"2K = {2 * K} orthogonal means need d >= 2K, got d = {d}")
    q, _ = np.linalg.qr(rng.standard_normal((d, 2 * K)))  # (d, 2K), orthonormal columns
    return mu_norm * q.T.reshape(K, 2, d)


def sample_xor_task(rng: np.random.Generator, means: np.ndarray, n: int,
                    sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """n points of one task with means (2, d): X (n, d), y (n,) in {-1, +1}."""
    d = means.shape[1]
    cls = rng.integers(0, 2, n)  # 0 -> label +1 (pair 1), 1 -> label -1 (pair 2)
    sign = rng.choice([-1.0, 1.0], n)
    X = sign[:, None] * means[cls] + sigma * rng.standard_normal((n, d))  # (n, d)
    y = np.where(cls == 0, 1.0, -1.0)  # (n,)
    return X, y


@dataclass
class XORClusterTasks(Dataset):
    """K XOR-cluster tasks in R^d with orthogonal means, n training points each."""

    name: ClassVar[str] = "xor_cluster_tasks"
    d: int = 30  # our choice: >= 2K + 20 as in the research note's plan (d = 2K + 20), fixed over K
    K: int = 3  # number of tasks; the paper's experiment uses K = 3 (Fig. 1 caption)
    n: int = 500  # training points per task; paper: 2500 and 5000 (Fig. 1); reduced for CPU
    sigma: float = 1.0  # noise std (research note's plan; paper's value not read)
    mu_norm: float = 4.0  # ||mu|| (research note's plan: {2, 4})
    n_test: int = 1000  # fresh test points per task (our choice)
    # Training protocol carried with the task stream (methods use it unless they override it):
    width: int = 64  # hidden width m (research note's sweep {16, 64, 256})
    iters: int = 500  # GD iterations per task T (research note's sweep {100, 500, 2000})

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        means = orthonormal_means(rng, self.d, self.K, self.mu_norm)  # (K, 2, d)
        train = [sample_xor_task(rng, means[k], self.n, self.sigma) for k in range(self.K)]
        test = [sample_xor_task(rng, means[k], self.n_test, self.sigma) for k in range(self.K)]
        data = {"train": train, "protocol": {"width": self.width, "iters": self.iters}}
        return Instance(data=data, truth={"test": test, "means": means})
