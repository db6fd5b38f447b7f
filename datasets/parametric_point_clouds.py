"""Point clouds sampled from parametric shapes, for point-cloud classification without downloads.

Eight classes (sphere, box, cylinder, cone, torus, pyramid, ellipsoid, capsule), each a surface
sampled with ``n_points`` points, given a random anisotropic scale (each axis x U(1 - s, 1 + s)),
a random rotation about the up axis (``rotation="so3"``: uniform in SO(3), scipy's
``Rotation.random``), Gaussian jitter and a fraction
``outliers`` of points replaced by uniform noise in the bounding cube; then centred and scaled
into the unit ball (the usual ModelNet normalisation). A stand-in for ModelNet40 /
ScanObjectNN, which need a download. Labels of the test split go to ``truth`` only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

SHAPES = ("sphere", "box", "cylinder", "cone", "torus", "pyramid", "ellipsoid", "capsule")


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def sample_shape(kind: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """n points (n, 3) on the surface of a canonical shape of size ~1."""
    u, v = rng.random(n), rng.random(n)
    if kind == "sphere":
        return _unit(rng.standard_normal((n, 3)))
    if kind == "ellipsoid":
        return _unit(rng.standard_normal((n, 3))) * np.array([1.0, 0.6, 0.35])
    if kind == "box":
        p = rng.uniform(-1, 1, (n, 3)) * np.array([1.0, 0.7, 0.5])
        axis = rng.integers(0, 3, n)
        p[np.arange(n), axis] = np.sign(rng.standard_normal(n)) * np.array([1.0, 0.7, 0.5])[axis]
        return p
    if kind == "cylinder":
        th = 2 * np.pi * u
        return np.stack([0.5 * np.cos(th), 0.5 * np.sin(th), 2 * v - 1], axis=1)
    if kind == "cone":
        th, h = 2 * np.pi * u, np.sqrt(v)  # area-uniform along the slant
        return np.stack([0.7 * h * np.cos(th), 0.7 * h * np.sin(th), 1 - 2 * h], axis=1)
    if kind == "torus":
        th, ph = 2 * np.pi * u, 2 * np.pi * v
        return np.stack([(0.7 + 0.25 * np.cos(ph)) * np.cos(th),
                         (0.7 + 0.25 * np.cos(ph)) * np.sin(th), 0.25 * np.sin(ph)], axis=1)
    if kind == "pyramid":  # square base at z=-1, apex at z=1: 4 triangular faces + base
        face = rng.integers(0, 5, n)
        a, b = rng.random(n), rng.random(n)
        flip = a + b > 1
        a[flip], b[flip] = 1 - a[flip], 1 - b[flip]
        corners = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], float)
        c0, c1 = corners[face % 4], corners[(face + 1) % 4]
        base = np.stack([c0[:, 0] * (1 - a - b) + c1[:, 0] * a, c0[:, 1] * (1 - a - b) + c1[:, 1] * a,
                         -1 + 2 * b], axis=1)  # apex at (0, 0, 1) weighted by b
        floor = np.stack([rng.uniform(-1, 1, n), rng.uniform(-1, 1, n), -np.ones(n)], axis=1)
        return np.where((face == 4)[:, None], floor, base) * np.array([0.8, 0.8, 1.0])
    if kind == "capsule":  # cylinder of radius 0.4 with hemispherical caps
        p = _unit(rng.standard_normal((n, 3))) * 0.4
        side = rng.random(n) < 0.6
        th = 2 * np.pi * u
        p[side] = np.stack([0.4 * np.cos(th), 0.4 * np.sin(th), 1.2 * v - 0.6], axis=1)[side]
        p[~side, 2] += np.sign(p[~side, 2]) * 0.6
        return p
    raise ValueError(kind)


@dataclass
class ParametricPointClouds(Dataset):
    name: ClassVar[str] = "parametric_point_clouds"

    n_points: int = 64  # ours (note: 512), for CPU
    n_train: int = 200  # ours (note: 2k)
    n_test: int = 200  # ours (note: 800)
    scale_jitter: float = 0.3  # ours: each axis scaled by U(0.7, 1.3)
    jitter: float = 0.02  # ours: Gaussian noise std per coordinate
    outliers: float = 0.1  # research note: 10% outliers
    rotation: str = "z"  # "z" (about the up axis, ModelNet-style augmentation) | "so3" (note)

    def make(self, seed: int) -> Instance:
        from scipy.spatial.transform import Rotation

        rng = np.random.default_rng(seed)

        def split(m: int):
            y = rng.integers(0, len(SHAPES), m)
            clouds = np.empty((m, self.n_points, 3))
            if self.rotation == "so3":
                rots = Rotation.random(m, random_state=rng).as_matrix()  # (m, 3, 3)
            else:
                rots = Rotation.from_euler("z", rng.uniform(0, 2 * np.pi, (m, 1))).as_matrix()
            for i in range(m):
                p = sample_shape(SHAPES[y[i]], self.n_points, rng)
                p = p * rng.uniform(1 - self.scale_jitter, 1 + self.scale_jitter, 3)
                p = p @ rots[i].T + rng.normal(0, self.jitter, p.shape)
                k = int(round(self.outliers * self.n_points))
                idx = rng.choice(self.n_points, k, replace=False)
                lo, hi = p.min(0), p.max(0)
                p[idx] = rng.uniform(lo, hi, (k, 3))
                p -= p.mean(0)
                clouds[i] = p / np.linalg.norm(p, axis=1).max()
            return clouds.astype(np.float32), y.astype(np.int64)

        xtr, ytr = split(self.n_train)
        xte, yte = split(self.n_test)
        data = {"x_train": xtr, "y_train": ytr, "x_test": xte, "n_classes": len(SHAPES)}
        return Instance(data=data, truth={"y_test": yte})
