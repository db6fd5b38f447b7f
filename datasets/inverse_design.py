"""Inverse-design tasks with an exact forward model: find designs x with f(x) = y*.

Two families, both with K = 3 labels computed exactly from the design:

* ``analytic_inverse``: x ~ U[-1, 1]^P and y = (mean_i sin(pi x_i), mean_i x_i^2,
  mean_i x_i x_{i+1}) (research note's plan for the paper's scalable analytic benchmark).
* ``digit_statistics``: x = an sklearn digit (P = 64 pixels in [-1, 1], via
  ``datasets/digit_images.py``), y = (mean intensity, intensity centroid row, centroid column)
  with intensity w = (x + 1) / 2 (the image-statistics proxy of the paper's image task).

``data`` holds the training pairs (x, y), in-range targets ``y_targets`` (labels of held-out
designs, so each is feasible) and out-of-range targets ``y_ood``: an in-range target with one
random label pushed outside the training labels' range by U(0.25, 1) times that range (the
abstention / OOD-detection set). The held-out designs go to ``truth``. Designs are scored
through :func:`forward`, which clips them to the design box [-1, 1]^P first.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

K = 3  # labels per design


def forward(task: str, x: np.ndarray) -> np.ndarray:
    """Exact labels (n, 3) of designs (n, P), clipped to the box [-1, 1]^P."""
    x = np.clip(np.asarray(x, dtype=np.float64), -1.0, 1.0)
    if task == "analytic":
        return np.stack([np.sin(np.pi * x).mean(1), (x ** 2).mean(1),
                         (x[:, :-1] * x[:, 1:]).mean(1)], axis=1)
    if task == "digits":
        w = (x + 1.0) / 2.0  # (n, 64) intensities in [0, 1]
        mass = w.sum(1) + 1e-12
        rows, cols = np.divmod(np.arange(64), 8)
        return np.stack([w.mean(1), w @ rows / mass, w @ cols / mass], axis=1)
    raise ValueError(task)


def ood_targets(y_train: np.ndarray, y_in: np.ndarray, n: int, rng) -> np.ndarray:
    """n targets outside the training range: one label of an in-range target pushed out."""
    lo, hi = y_train.min(0), y_train.max(0)
    span = hi - lo
    base = y_in[rng.integers(0, len(y_in), n)].copy()  # (n, K)
    comp = rng.integers(0, y_train.shape[1], n)
    push = rng.uniform(0.25, 1.0, n) * span[comp]
    up = rng.random(n) < 0.5
    base[np.arange(n), comp] = np.where(up, hi[comp] + push, lo[comp] - push)
    return base


def _instance(task, name, x_tr, x_te, n_test, n_ood, rng, key):
    y_tr = forward(task, x_tr)
    x_te = x_te[:n_test]
    y_te = forward(task, x_te)
    data = {"x": x_tr.astype(np.float32), "y": y_tr, "y_targets": y_te,
            "y_ood": ood_targets(y_tr, y_te, n_ood, rng), "task": task, "key": key}
    return Instance(data=data, truth={"x_test": x_te, "task": task, "name": name})


@dataclass
class AnalyticInverse(Dataset):
    """x ~ U[-1, 1]^P, y = (mean sin(pi x), mean x^2, mean x_i x_{i+1})."""

    name: ClassVar[str] = "analytic_inverse"
    P: int = 16  # design dimension; the paper scales P (v1: up to 100), note's plan {4, 16, 64}
    n_train: int = 2048  # ours: CPU budget
    n_test: int = 64  # ours: in-range targets
    n_ood: int = 64  # ours: out-of-range targets

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        x = rng.uniform(-1.0, 1.0, (self.n_train + self.n_test, self.P))
        key = {"dataset": self.name, "P": self.P, "n_train": self.n_train, "seed": int(seed)}
        return _instance("analytic", self.name, x[: self.n_train], x[self.n_train:],
                         self.n_test, self.n_ood, rng, key)


@dataclass
class DigitStatistics(Dataset):
    """sklearn digits (P = 64) with exactly computed image statistics as labels."""

    name: ClassVar[str] = "digit_statistics"
    n_test: int = 64  # ours: in-range targets (labels of held-out digits)
    n_ood: int = 64  # ours: out-of-range targets

    def make(self, seed: int) -> Instance:
        from claimbench.datasets.digit_images import Digits

        inst = Digits(test_frac=0.25).make(seed)
        rng = np.random.default_rng(seed)
        x_te = np.asarray(inst.truth["x"], dtype=np.float64)
        x_te = x_te[rng.permutation(len(x_te))]
        key = {"dataset": self.name, "seed": int(seed)}
        return _instance("digits", self.name, np.asarray(inst.data["x"], dtype=np.float64), x_te,
                         self.n_test, self.n_ood, rng, key)
