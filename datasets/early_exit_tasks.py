"""Small classification tasks for early-exit networks, with train / validation / test splits.

* ``DigitsExitTask``: scikit-learn's bundled 8x8 digits (1797 images, 10 classes), optionally
  made harder by Gaussian pixel noise (``pixel_noise``, in the 0..16 pixel units) and by
  flipping a fraction of the training/validation labels (``label_noise``). Pixels are divided
  by 16 after the noise is added.
* ``SyntheticExitTask``: ``sklearn.datasets.make_classification`` with 10 classes, several
  clusters per class and a fraction of randomly assigned labels (``flip_y``): many samples
  that no exit can get right, which is where exiting early costs nothing. Features are
  standardised with the training split's mean and standard deviation.

``data`` holds the training and validation splits with labels and the test inputs;
``truth`` holds the test labels (digits: never flipped; synthetic: ``flip_y`` is part of the
data-generating process, so it reaches the test split too).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance


def split_indices(rng: np.random.Generator, n: int, val_frac: float,
                  test_frac: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A random partition of range(n) into train / validation / test index arrays."""
    perm = rng.permutation(n)
    n_test = int(round(test_frac * n))
    n_val = int(round(val_frac * n))
    return perm[n_test + n_val:], perm[n_test:n_test + n_val], perm[:n_test]


def flip_labels(rng: np.random.Generator, y: np.ndarray, frac: float, n_classes: int) -> np.ndarray:
    """Replace a fraction ``frac`` of the labels by a different, uniformly drawn class."""
    y = y.copy()
    flip = rng.random(y.size) < frac
    y[flip] = (y[flip] + rng.integers(1, n_classes, flip.sum())) % n_classes
    return y


def _package(X: np.ndarray, y: np.ndarray, tr, va, te, n_classes: int) -> Instance:
    data = {"X_train": X[tr], "y_train": y[tr], "X_val": X[va], "y_val": y[va],
            "X_test": X[te], "n_classes": n_classes}
    return Instance(data=data, truth={"y_test": y[te]})


@dataclass
class DigitsExitTask(Dataset):
    """sklearn digits; ``pixel_noise`` > 0 is the harder variant."""

    name: ClassVar[str] = "digits"
    pixel_noise: float = 0.0  # std of added Gaussian pixel noise, 0..16 scale (our choice; 0 = clean)
    label_noise: float = 0.0  # fraction of flipped train/val labels (our choice; 0 = clean)
    val_frac: float = 0.2  # held-out split for temperature scaling / EEFP heads (our choice)
    test_frac: float = 0.3  # our choice: ~540 test images

    def make(self, seed: int) -> Instance:
        from sklearn.datasets import load_digits

        rng = np.random.default_rng(seed)
        X, y = load_digits(return_X_y=True)  # (1797, 64), (1797,)
        X = X + self.pixel_noise * rng.standard_normal(X.shape)
        X = (X / 16.0).astype(np.float32)
        tr, va, te = split_indices(rng, len(y), self.val_frac, self.test_frac)
        y_noisy = flip_labels(rng, y, self.label_noise, 10)
        y = np.where(np.isin(np.arange(len(y)), te), y, y_noisy)  # test labels stay clean
        return _package(X, y.astype(np.int64), tr, va, te, 10)


@dataclass
class SyntheticExitTask(Dataset):
    """make_classification: 10 classes, 2 clusters per class, ``flip_y`` random labels."""

    name: ClassVar[str] = "synthetic"
    n_samples: int = 3000  # our choice: test split of 900
    n_features: int = 20  # our choice
    n_informative: int = 10  # our choice
    n_classes: int = 10  # as digits
    class_sep: float = 1.0  # sklearn default
    flip_y: float = 0.1  # fraction of random labels (our choice; the "noisy" variant of the note)
    val_frac: float = 0.2  # our choice
    test_frac: float = 0.3  # our choice

    def make(self, seed: int) -> Instance:
        from sklearn.datasets import make_classification

        rng = np.random.default_rng(seed)
        X, y = make_classification(
            n_samples=self.n_samples, n_features=self.n_features, n_informative=self.n_informative,
            n_redundant=2, n_classes=self.n_classes, n_clusters_per_class=2,
            class_sep=self.class_sep, flip_y=self.flip_y,
            random_state=int(rng.integers(2**31 - 1)))  # (n, d), (n,)
        tr, va, te = split_indices(rng, len(y), self.val_frac, self.test_frac)
        mu, sd = X[tr].mean(axis=0), X[tr].std(axis=0) + 1e-8
        X = ((X - mu) / sd).astype(np.float32)
        return _package(X, y.astype(np.int64), tr, va, te, self.n_classes)
