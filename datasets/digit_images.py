"""scikit-learn's handwritten digits (UCI optical digits: 1797 images, 8x8, 16 grey levels) as
a small class-conditional image-generation task.

Pixels are rescaled from 0..16 to [-1, 1]. A seeded stratified split holds ``test_frac`` of
the images out: ``data`` carries the training images and labels (what a generative model is
fitted on) plus the identity of the split (for checkpoint keys); ``truth`` carries the
held-out images and labels, the reference set of fidelity/diversity metrics (k-NN precision
and recall, a classifier's confidence). Images are flat (n, 64) arrays in row-major order;
:func:`to_patches` / :func:`from_patches` convert to (n, 16, 4) sequences of 2x2 patches.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

SIDE = 8  # sklearn digits are 8x8


def to_patches(x: np.ndarray, patch: int = 2) -> np.ndarray:
    """(n, 64) images -> (n, (8/p)^2, p*p) patch tokens, raster order of patches."""
    g = SIDE // patch
    img = x.reshape(-1, g, patch, g, patch)  # (n, gy, py, gx, px)
    return img.transpose(0, 1, 3, 2, 4).reshape(len(x), g * g, patch * patch)


def from_patches(t: np.ndarray, patch: int = 2) -> np.ndarray:
    """Inverse of :func:`to_patches`: (n, 16, 4) -> (n, 64)."""
    g = SIDE // patch
    img = t.reshape(-1, g, g, patch, patch).transpose(0, 1, 3, 2, 4)  # (n, gy, py, gx, px)
    return img.reshape(len(t), SIDE * SIDE)


@dataclass
class Digits(Dataset):
    """sklearn digits, [-1, 1] pixels, seeded stratified train / held-out split."""

    name: ClassVar[str] = "digits"
    test_frac: float = 0.25  # ours: about 450 held-out images, 45 per class, as k-NN reference

    def make(self, seed: int) -> Instance:
        from sklearn.datasets import load_digits
        from sklearn.model_selection import train_test_split

        d = load_digits()
        x = (d.data.astype(np.float64) / 8.0 - 1.0).astype(np.float32)  # (1797, 64) in [-1, 1]
        y = d.target.astype(np.int64)
        xtr, xte, ytr, yte = train_test_split(x, y, test_size=self.test_frac, stratify=y,
                                              random_state=int(seed % 2**32))
        data = {"x": xtr, "y": ytr, "n_classes": 10,
                "key": {"dataset": self.name, "test_frac": self.test_frac, "seed": int(seed)}}
        return Instance(data=data, truth={"x": xte, "y": yte, "train_x": xtr, "train_y": ytr})
