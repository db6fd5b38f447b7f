"""Randomly rotated point clouds of solid primitives labelled with a noisy inertia tensor.

Each cloud is N points drawn uniformly from a solid ellipsoid, box or elliptic cylinder with
random half-extents, turned by a Haar-random rotation. The target is the shape's inertia tensor
per unit mass about its centre (closed form for the continuous solid, as a mesh-derived label
would be), written in Kelvin-Mandel coordinates

    v(S) = (S11, S22, S33, sqrt2 S23, sqrt2 S13, sqrt2 S12),      |v(S)| = ||S||_F,

where a rotation acts by the orthogonal 6x6 matrix Q(R): v(R S R^T) = Q(R) v(S).

Observation noise is heteroscedastic, anisotropic, heavy-tailed and rotation-equivariant:

    y = v(I + E),  E = tau_f * sqrt(nu / w) * I^(1/2) G I^(1/2),  w ~ chi2(nu),

G = (A + A^T)/2 with A iid N(0, 1) (isotropic in Kelvin-Mandel coordinates), tau_f a per-family
level: a multivariate Student-t(nu) in R^6 whose scale matrix is Q(R) Sigma_0(shape) Q(R)^T.
``noise_df = 0`` gives Gaussian noise.

The evaluation set mixes in-distribution clouds with an unseen family (solid tori, optionally
scaled up): ``truth["is_ood"]`` labels them. The first ``n_equiv`` evaluation clouds also come
as copies moved by a random element of E(3) (rotation or reflection, translation, point
permutation); ``truth["g_rot"]`` holds the orthogonal parts so that metrics can measure
equivariance from a method's predictions on both copies.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

SQRT2 = np.sqrt(2.0)
FAMILIES = ("ellipsoid", "box", "cylinder", "torus")
_KM_PAIRS = ((0, 0), (1, 1), (2, 2), (1, 2), (0, 2), (0, 1))


# -- Kelvin-Mandel coordinates ----------------------------------------------------------------
def kelvin_mandel(s: np.ndarray) -> np.ndarray:
    """(..., 3, 3) symmetric -> (..., 6)."""
    s = np.asarray(s)
    w = np.array([1.0, 1.0, 1.0, SQRT2, SQRT2, SQRT2])
    return np.stack([s[..., i, j] for i, j in _KM_PAIRS], axis=-1) * w


def from_kelvin_mandel(v: np.ndarray) -> np.ndarray:
    """(..., 6) -> (..., 3, 3) symmetric."""
    v = np.asarray(v)
    out = np.zeros(v.shape[:-1] + (3, 3), dtype=v.dtype)
    for k, (i, j) in enumerate(_KM_PAIRS):
        val = v[..., k] if i == j else v[..., k] / SQRT2
        out[..., i, j] = val
        out[..., j, i] = val
    return out


def km_basis() -> np.ndarray:
    """(6, 3, 3): the symmetric matrices whose coordinates are the unit vectors."""
    return from_kelvin_mandel(np.eye(6))


def km_rotation(rot: np.ndarray) -> np.ndarray:
    """Q(R), (..., 6, 6), with v(R S R^T) = Q(R) v(S); orthogonal for orthogonal R."""
    rot = np.asarray(rot)
    e = km_basis()  # (6, 3, 3)
    moved = np.einsum("...ab,jbc,...dc->...jad", rot, e, rot)  # (..., 6, 3, 3)
    return np.swapaxes(kelvin_mandel(moved), -1, -2)  # column j = v(R E_j R^T)


def random_rotations(n: int, rng: np.random.Generator, reflections: bool = False) -> np.ndarray:
    """(n, 3, 3) Haar-random elements of SO(3) (of O(3) when ``reflections``)."""
    a = rng.standard_normal((n, 3, 3))
    q, r = np.linalg.qr(a)
    q = q * np.sign(np.diagonal(r, axis1=1, axis2=2))[:, None, :]
    q[np.linalg.det(q) < 0, :, 0] *= -1.0  # (n, 3, 3) in SO(3)
    if reflections:  # -R has det -1: half of the draws become improper
        q[rng.random(n) < 0.5] *= -1.0
    return q


# -- shapes -----------------------------------------------------------------------------------
def _rejection(rng, n: int, box: np.ndarray, inside) -> np.ndarray:
    out = np.empty((0, 3))
    while out.shape[0] < n:
        cand = rng.uniform(-box, box, size=(2 * n + 16, 3))
        out = np.concatenate([out, cand[inside(cand)]])
    return out[:n]


def sample_shape(family: str, ext: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """n points uniform in the solid, in its body frame (centre at 0). ``ext`` = (a, b, c):
    semi-axes (ellipsoid), half-extents (box), cross-section semi-axes and half-height
    (cylinder, axis z), or (major radius R, tube radius r, unused) for the torus (axis z)."""
    a, b, c = (float(t) for t in ext)
    if family == "ellipsoid":
        return _rejection(rng, n, np.array([a, b, c]),
                          lambda p: ((p / np.array([a, b, c])) ** 2).sum(1) <= 1)
    if family == "box":
        return rng.uniform(-1.0, 1.0, size=(n, 3)) * np.array([a, b, c])
    if family == "cylinder":
        return _rejection(rng, n, np.array([a, b, c]),
                          lambda p: (p[:, 0] / a) ** 2 + (p[:, 1] / b) ** 2 <= 1)
    if family == "torus":
        big, tube = a, b
        return _rejection(rng, n, np.array([big + tube, big + tube, tube]),
                          lambda p: (np.hypot(p[:, 0], p[:, 1]) - big) ** 2 + p[:, 2] ** 2
                          <= tube ** 2)
    raise ValueError(f"unknown family {family!r}")


def inertia_body(family: str, ext: np.ndarray) -> np.ndarray:
    """Principal moments per unit mass of the continuous solid, (3,) about x, y, z."""
    a, b, c = (float(t) for t in ext)
    if family == "ellipsoid":  # I_xx = (b^2 + c^2)/5
        return np.array([b * b + c * c, a * a + c * c, a * a + b * b]) / 5.0
    if family == "box":  # half-extents: I_xx = ((2b)^2 + (2c)^2)/12
        return np.array([b * b + c * c, a * a + c * c, a * a + b * b]) / 3.0
    if family == "cylinder":  # elliptic disc (a, b) x height 2c
        return np.array([b * b / 4 + c * c / 3, a * a / 4 + c * c / 3, (a * a + b * b) / 4])
    if family == "torus":  # solid torus: I_zz = R^2 + 3r^2/4, I_xx = R^2/2 + 5r^2/8
        big, tube = a, b
        side = big * big / 2 + 5 * tube * tube / 8
        return np.array([side, side, big * big + 0.75 * tube * tube])
    raise ValueError(f"unknown family {family!r}")


def second_moment(points: np.ndarray) -> np.ndarray:
    """(..., N, 3) -> (..., 3, 3) mean of r r^T about the centroid."""
    r = points - points.mean(axis=-2, keepdims=True)
    return np.einsum("...ni,...nj->...ij", r, r) / points.shape[-2]


def point_inertia(points: np.ndarray) -> np.ndarray:
    """Inertia per unit mass of equal point masses about their centroid: tr(M) I - M."""
    m = second_moment(points)
    return np.trace(m, axis1=-2, axis2=-1)[..., None, None] * np.eye(3) - m


def _sqrtm_spd(s: np.ndarray) -> np.ndarray:
    w, v = np.linalg.eigh(s)
    return (v * np.sqrt(np.maximum(w, 0.0))[..., None, :]) @ np.swapaxes(v, -1, -2)


@dataclass
class PointCloudTensors(Dataset):
    """Rotated solid primitives -> noisy inertia tensor; plus an OOD family and E(3) copies."""

    name: ClassVar[str] = "point_cloud_tensors"

    n_train: int = 300  # our choice: "a few hundred" clouds (paper: ModelNet40, ~9.8k meshes)
    n_test: int = 200  # our choice
    n_ood: int = 200  # our choice
    n_points: int = 32  # our choice, CPU budget (paper: ModelNet40 clouds, size not read)
    n_equiv: int = 50  # our choice: evaluation clouds also given as E(3)-moved copies
    ext_range: tuple = (0.5, 1.5)  # our choice: half-extents ~ U(0.5, 1.5)
    noise_rel: float = 0.1  # our choice: relative noise level
    family_noise: tuple = (0.5, 1.0, 1.5)  # our choice: tau_f / noise_rel (ellipsoid, box, cyl.)
    noise_df: float = 3.0  # our choice: t dof ("heavy-tailed errors", abstract); 0 = Gaussian
    ood_family: str = "torus"  # research note: an unseen primitive family
    ood_scale: float = 1.5  # research note: "plus scale shift"

    def _draw(self, n: int, families: tuple, rng: np.random.Generator, scale: float = 1.0):
        lo, hi = self.ext_range
        fam_idx = rng.integers(0, len(families), size=n)
        clouds = np.empty((n, self.n_points, 3))
        clean = np.empty((n, 3, 3))
        tau = np.empty(n)
        rots = random_rotations(n, rng)
        for i in range(n):
            fam = families[fam_idx[i]]
            ext = rng.uniform(lo, hi, size=3) * scale
            if fam == "torus":  # tube radius a fraction of the major radius
                ext = np.array([ext[0], ext[0] * rng.uniform(0.25, 0.5), 0.0])
            body = sample_shape(fam, ext, self.n_points, rng)  # (N, 3)
            clouds[i] = body @ rots[i].T
            clean[i] = (rots[i] * inertia_body(fam, ext)) @ rots[i].T
            k = FAMILIES.index(fam)
            tau[i] = self.noise_rel * (self.family_noise[k] if k < len(self.family_noise) else 1.0)
        return clouds, clean, tau

    def _noise(self, clean: np.ndarray, tau: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        n = clean.shape[0]
        a = rng.standard_normal((n, 3, 3))
        g = (a + np.swapaxes(a, 1, 2)) / 2.0  # (n, 3, 3), KM-isotropic, unit variance
        half = _sqrtm_spd(clean)
        e = half @ g @ half * tau[:, None, None]
        if self.noise_df > 0:
            w = rng.chisquare(self.noise_df, size=n)
            e *= np.sqrt(self.noise_df / w)[:, None, None]
        return e

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        train_fams = FAMILIES[:3]
        x_tr, i_tr, tau_tr = self._draw(self.n_train, train_fams, rng)
        y_tr = kelvin_mandel(i_tr + self._noise(i_tr, tau_tr, rng))

        x_id, i_id, tau_id = self._draw(self.n_test, train_fams, rng)
        x_ood, i_ood, tau_ood = self._draw(self.n_ood, (self.ood_family,), rng, self.ood_scale)
        x_ev = np.concatenate([x_id, x_ood])
        i_ev = np.concatenate([i_id, i_ood])
        tau_ev = np.concatenate([tau_id, tau_ood])
        is_ood = np.r_[np.zeros(self.n_test, bool), np.ones(self.n_ood, bool)]
        order = rng.permutation(x_ev.shape[0])
        x_ev, i_ev, tau_ev, is_ood = x_ev[order], i_ev[order], tau_ev[order], is_ood[order]
        y_ev = kelvin_mandel(i_ev + self._noise(i_ev, tau_ev, rng))

        m = min(self.n_equiv, x_ev.shape[0])
        g_rot = random_rotations(m, rng, reflections=True)  # (m, 3, 3) in O(3)
        shift = rng.normal(0.0, 1.0, size=(m, 1, 3))
        perm = np.argsort(rng.random((m, self.n_points)), axis=1)
        moved = np.take_along_axis(x_ev[:m], perm[:, :, None], axis=1)
        x_g = np.einsum("mij,mnj->mni", g_rot, moved) + shift  # (m, N, 3)

        data = {"x_train": x_tr, "y_train": y_tr, "x_test": x_ev, "x_test_g": x_g}
        truth = {"y_clean": kelvin_mandel(i_ev), "y_noisy": y_ev, "is_ood": is_ood,
                 "g_rot": g_rot, "tau": tau_ev}
        return Instance(data=data, truth=truth)
