"""The noiseless BBOB test functions (Hansen, Finck, Ros, Auger 2009), vectorised in numpy.

``bbob_function(fid, dim, instance)`` returns a :class:`BBOBFunction`: call it on a
population ``X`` of shape ``(N, dim)`` (or one point of shape ``(dim,)``) to get the
objective values; ``x_opt`` and ``f_opt`` are the optimum and its value.

Implemented: f1-f20, f23, f24 (22 of the 24 functions; Gallagher's f21/f22 are absent).
Instances follow COCO's ``bbob`` legacy generator (the ``bbob2009`` uniform / Gaussian
generator seeded with ``fid + 10000 * instance``, the Gram-Schmidt rotations, the
rounded Cauchy-like ``f_opt``), so ``bbob_function(f, d, i)`` is meant to be the same
function as COCO's / IOHprofiler's instance ``i``; the tests pin values computed with
the ``ioh`` package (0.4.2) at instance 1 and 2.

Standard transformations (Hansen et al. 2009, Sec. 0.2):
* ``t_osz`` -- the oscillation map applied coordinate-wise;
* ``t_asy(beta)`` -- ``x_i -> x_i^(1 + beta * i/(D-1) * sqrt(x_i))`` for ``x_i > 0``;
* ``lam(alpha)`` -- the diagonal ``alpha^(0.5 * i/(D-1))`` (condition number ``alpha``);
* ``R``, ``Q`` -- random orthogonal matrices; ``f_pen`` -- the boundary penalty.

:class:`BBOBTask` is a seeded :class:`Dataset` of one problem instance (the search
domain is ``[-5, 5]^dim`` as in COCO): ``data`` holds the black box, ``truth`` the optimum.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

IMPLEMENTED = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 23, 24)
NAMES = {
    1: "sphere", 2: "ellipsoid", 3: "rastrigin", 4: "bueche_rastrigin", 5: "linear_slope",
    6: "attractive_sector", 7: "step_ellipsoid", 8: "rosenbrock", 9: "rosenbrock_rotated",
    10: "ellipsoid_rotated", 11: "discus", 12: "bent_cigar", 13: "sharp_ridge",
    14: "different_powers", 15: "rastrigin_rotated", 16: "weierstrass", 17: "schaffers_f7",
    18: "schaffers_f7_ill", 19: "griewank_rosenbrock", 20: "schwefel", 23: "katsuura",
    24: "lunacek_bi_rastrigin",
}
GROUPS = {  # the five BBOB function groups, restricted to the implemented ids
    "separable": (1, 2, 3, 4, 5),
    "low_conditioning": (6, 7, 8, 9),
    "high_conditioning": (10, 11, 12, 13, 14),
    "multimodal_global": (15, 16, 17, 18, 19),
    "multimodal_weak": (20, 23, 24),
}
LOWER, UPPER = -5.0, 5.0  # BBOB search domain


# -- COCO's legacy instance generator --------------------------------------------------------
def legacy_uniform(n: int, seed: int) -> np.ndarray:
    """``n`` uniforms in (0, 1) from the bbob2009 shuffled Park-Miller generator."""
    seed = max(1, abs(int(seed)))
    a, m, q, r = 16807, 2147483647, 127773, 2836

    def nxt(s: int) -> int:
        s = a * (s - (s // q) * q) - r * (s // q)
        return s + m if s < 0 else s

    table = [0] * 32
    for i in range(39, -1, -1):
        seed = nxt(seed)
        if i < 32:
            table[i] = seed
    cur = table[0]
    out = np.empty(n)
    for i in range(n):
        seed = nxt(seed)
        j = cur // 67108865
        cur = table[j]
        table[j] = seed
        out[i] = cur / 2.147483647e9 or 1e-99
    return out


def legacy_gauss(n: int, seed: int) -> np.ndarray:
    """``n`` standard normals (Box-Muller on ``legacy_uniform(2 n)``)."""
    u = legacy_uniform(2 * n, seed)
    g = np.sqrt(-2.0 * np.log(u[:n])) * np.cos(2.0 * math.pi * u[n:])
    g[g == 0.0] = 1e-99
    return g


def legacy_rotation(dim: int, seed: int) -> np.ndarray:
    """Orthogonal ``(dim, dim)`` matrix: Gram-Schmidt on the columns of a Gaussian matrix."""
    B = legacy_gauss(dim * dim, seed).reshape(dim, dim).T.copy()  # B[i, j] = g[j * dim + i]
    for i in range(dim):
        for j in range(i):
            B[:, i] -= (B[:, i] @ B[:, j]) * B[:, j]
        B[:, i] /= math.sqrt(B[:, i] @ B[:, i])
    return B


def legacy_xopt(dim: int, seed: int) -> np.ndarray:
    x = 8.0 * np.floor(1e4 * legacy_uniform(dim, seed)) / 1e4 - 4.0  # (dim,)
    x[x == 0.0] = -1e-5
    return x


def legacy_fopt(fid: int, instance: int) -> float:
    base = {4: 3, 18: 17}.get(fid, fid)  # f4 and f18 share f3's / f17's random stream
    s = base + 10000 * instance
    g1, g2 = legacy_gauss(1, s)[0], legacy_gauss(1, s + 1)[0]
    return float(min(1000.0, max(-1000.0, math.floor(1e4 * g1 / g2 + 0.5) / 100.0)))


# -- transformations -------------------------------------------------------------------------
def t_osz(x: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore"):
        xh = np.where(x != 0.0, np.log(np.abs(x)), 0.0)
    c1 = np.where(x > 0.0, 10.0, 5.5)
    c2 = np.where(x > 0.0, 7.9, 3.1)
    return np.sign(x) * np.exp(xh + 0.049 * (np.sin(c1 * xh) + np.sin(c2 * xh)))


def t_asy(x: np.ndarray, beta: float) -> np.ndarray:
    d = x.shape[-1]
    e = 1.0 + beta * np.arange(d) / (d - 1) * np.sqrt(np.maximum(x, 0.0))  # (..., d)
    return np.where(x > 0.0, np.abs(x) ** e, x)


def lam(alpha: float, dim: int) -> np.ndarray:
    """Diagonal of Lambda^alpha."""
    return alpha ** (0.5 * np.arange(dim) / (dim - 1))


def f_pen(x: np.ndarray) -> np.ndarray:
    return np.sum(np.maximum(0.0, np.abs(x) - 5.0) ** 2, axis=-1)


def _rastrigin(z: np.ndarray) -> np.ndarray:
    d = z.shape[-1]
    return 10.0 * (d - np.sum(np.cos(2.0 * math.pi * z), axis=-1)) + np.sum(z * z, axis=-1)


def _rosenbrock(z: np.ndarray) -> np.ndarray:
    a, b = z[..., :-1], z[..., 1:]
    return np.sum(100.0 * (a * a - b) ** 2 + (a - 1.0) ** 2, axis=-1)


# -- the functions -----------------------------------------------------------------------------
@dataclass
class BBOBFunction:
    """One instance of one BBOB function: ``f(X)`` for ``X`` of shape ``(N, dim)`` or ``(dim,)``."""

    fid: int
    dim: int
    instance: int
    x_opt: np.ndarray
    f_opt: float
    raw: Callable[[np.ndarray], np.ndarray]  # (N, dim) -> (N,), f_opt excluded
    n_evals: int = 0

    @property
    def name(self) -> str:
        return NAMES[self.fid]

    @property
    def bounds(self) -> tuple[float, float]:
        return LOWER, UPPER

    def __call__(self, X: np.ndarray) -> np.ndarray | float:
        X = np.asarray(X, dtype=float)
        single = X.ndim == 1
        X2 = X[None, :] if single else X
        if X2.shape[-1] != self.dim:
            raise ValueError(f"f{self.fid}: expected dim {self.dim}, got {X2.shape[-1]}")
        self.n_evals += X2.shape[0]
        y = self.raw(X2) + self.f_opt  # (N,)
        return float(y[0]) if single else y

    def black_box(self) -> "BlackBox":
        return BlackBox(self)


class BlackBox:
    """What an optimizer may see of a problem: values, the dimension and the domain."""

    def __init__(self, f: BBOBFunction):
        self._f = f
        self.dim = f.dim
        self.bounds = f.bounds

    @property
    def n_evals(self) -> int:
        return self._f.n_evals

    def __call__(self, X: np.ndarray) -> np.ndarray | float:
        return self._f(X)


def bbob_function(fid: int, dim: int, instance: int = 1) -> BBOBFunction:
    """Build BBOB function ``fid`` in dimension ``dim`` (>= 2), COCO instance ``instance``."""
    if fid not in IMPLEMENTED:
        raise ValueError(f"BBOB f{fid} not implemented (have {IMPLEMENTED})")
    if dim < 2:
        raise ValueError("BBOB functions need dim >= 2")
    d, inst = int(dim), int(instance)
    seed = fid + 10000 * inst
    fopt = legacy_fopt(fid, inst)
    xo = legacy_xopt(d, seed)  # (d,) the usual shift, overridden below where it differs
    # COCO's two rotations (built only where used): rot1 from seed + 10^6, rot2 from seed
    rot1 = lambda: legacy_rotation(d, seed + 1000000)  # noqa: E731
    rot2 = lambda: legacy_rotation(d, seed)  # noqa: E731
    idx = np.arange(d)
    x_opt = xo

    if fid == 1:
        raw = lambda X: np.sum((X - xo) ** 2, axis=-1)  # noqa: E731
    elif fid == 2:
        w = 10.0 ** (6.0 * idx / (d - 1))
        raw = lambda X: t_osz(X - xo) ** 2 @ w  # noqa: E731
    elif fid == 3:
        L = lam(10.0, d)
        raw = lambda X: _rastrigin(L * t_asy(t_osz(X - xo), 0.2))  # noqa: E731
    elif fid == 4:
        xo = legacy_xopt(d, 3 + 10000 * inst)
        xo[0::2] = np.abs(xo[0::2])
        x_opt = xo
        s = 10.0 ** (0.5 * idx / (d - 1))
        odd = (idx % 2 == 0)  # 1-based odd coordinates

        def raw(X):
            z = t_osz(X - xo)
            z = z * np.where((z > 0.0) & odd, 10.0 * s, s)
            return _rastrigin(z) + 100.0 * f_pen(X)
    elif fid == 5:
        x_opt = np.where(xo >= 0.0, 5.0, -5.0)
        s = np.sign(x_opt) * 10.0 ** (idx / (d - 1))

        def raw(X):
            z = np.where(X * x_opt < 25.0, X, x_opt)
            return np.sum(5.0 * np.abs(s) - s * z, axis=-1)
    elif fid == 6:
        M = rot1() @ (lam(10.0, d)[:, None] * rot2())

        def raw(X):
            z = (X - xo) @ M.T
            z = np.where(z * xo > 0.0, 100.0 * z, z)
            return t_osz(np.sum(z * z, axis=-1)) ** 0.9
    elif fid == 7:
        inner, outer, L = rot2(), rot1(), lam(10.0, d)
        w = 10.0 ** (2.0 * idx / (d - 1))

        def raw(X):
            zh = L * ((X - xo) @ inner.T)
            zt = np.where(np.abs(zh) > 0.5, np.floor(0.5 + zh), np.floor(0.5 + 10.0 * zh) / 10.0)
            z = zt @ outer.T
            return 0.1 * np.maximum(np.abs(zh[..., 0]) / 1e4, z * z @ w) + f_pen(X)
    elif fid == 8:
        xo = 0.75 * xo
        x_opt = xo
        c = max(1.0, math.sqrt(d) / 8.0)
        raw = lambda X: _rosenbrock(c * (X - xo) + 1.0)  # noqa: E731
    elif fid in (9, 19):
        Rm = rot2()  # COCO rotates f9/f19 with the un-offset seed
        c = max(1.0, math.sqrt(d) / 8.0)
        x_opt = Rm.T @ np.full(d, 0.5 / c)  # c R x + 1/2 = 1
        if fid == 9:
            raw = lambda X: _rosenbrock(c * X @ Rm.T + 0.5)  # noqa: E731
        else:
            def raw(X):
                z = c * X @ Rm.T + 0.5
                a, b = z[..., :-1], z[..., 1:]
                s = 100.0 * (a * a - b) ** 2 + (a - 1.0) ** 2
                return 10.0 / (d - 1) * np.sum(s / 4000.0 - np.cos(s), axis=-1) + 10.0
    elif fid == 10:
        Rm = rot1()
        w = 10.0 ** (6.0 * idx / (d - 1))
        raw = lambda X: t_osz((X - xo) @ Rm.T) ** 2 @ w  # noqa: E731
    elif fid == 11:
        Rm = rot1()
        w = np.ones(d)
        w[0] = 1e6
        raw = lambda X: t_osz((X - xo) @ Rm.T) ** 2 @ w  # noqa: E731
    elif fid == 12:
        xo = legacy_xopt(d, seed + 1000000)
        x_opt = xo
        Rm = rot1()
        w = np.full(d, 1e6)
        w[0] = 1.0
        raw = lambda X: (t_asy((X - xo) @ Rm.T, 0.5) @ Rm.T) ** 2 @ w  # noqa: E731
    elif fid == 13:
        M = rot1() @ (lam(10.0, d)[:, None] * rot2())

        def raw(X):
            z = (X - xo) @ M.T
            return z[..., 0] ** 2 + 100.0 * np.sqrt(np.sum(z[..., 1:] ** 2, axis=-1))
    elif fid == 14:
        Rm = rot1()
        e = 2.0 + 4.0 * idx / (d - 1)
        raw = lambda X: np.sqrt(np.sum(np.abs((X - xo) @ Rm.T) ** e, axis=-1))  # noqa: E731
    elif fid == 15:
        Rm, Qm = rot1(), rot2()
        M = Rm @ (lam(10.0, d)[:, None] * Qm)
        raw = lambda X: _rastrigin(t_asy(t_osz((X - xo) @ Rm.T), 0.2) @ M.T)  # noqa: E731
    elif fid == 16:
        Rm, Qm = rot1(), rot2()
        M = Rm @ (lam(0.01, d)[:, None] * Qm)
        k = np.arange(12)
        amp, freq = 0.5 ** k, 3.0 ** k
        f0 = float(np.sum(amp * np.cos(math.pi * freq)))

        def raw(X):
            z = t_osz((X - xo) @ Rm.T) @ M.T  # (N, d)
            s = np.cos(2.0 * math.pi * (z[..., None] + 0.5) * freq) @ amp  # (N, d)
            return 10.0 * (np.mean(s, axis=-1) - f0) ** 3 + 10.0 / d * f_pen(X)
    elif fid in (17, 18):
        if fid == 18:
            seed = 17 + 10000 * inst
            xo = legacy_xopt(d, seed)
            x_opt = xo
        Rm, Qm = legacy_rotation(d, seed + 1000000), legacy_rotation(d, seed)
        L = lam(10.0 if fid == 17 else 1000.0, d)

        def raw(X):
            z = L * (t_asy((X - xo) @ Rm.T, 0.5) @ Qm.T)
            s = np.sqrt(z[..., :-1] ** 2 + z[..., 1:] ** 2)  # (N, d-1)
            v = np.mean(np.sqrt(s) + np.sqrt(s) * np.sin(50.0 * s ** 0.2) ** 2, axis=-1)
            return v * v + 10.0 * f_pen(X)
    elif fid == 20:
        sign = np.where(legacy_uniform(d, seed) - 0.5 < 0.0, -1.0, 1.0)
        x_opt = 0.5 * 4.2096874633 * sign
        two_opt = 2.0 * np.abs(x_opt)
        L = lam(10.0, d)

        def raw(X):
            xh = 2.0 * sign * X
            zh = xh.copy()
            zh[..., 1:] += 0.25 * (xh[..., :-1] - two_opt[:-1])
            z = 100.0 * (L * (zh - two_opt) + two_opt)
            v = -np.sum(z * np.sin(np.sqrt(np.abs(z))), axis=-1) / (100.0 * d)
            return v + 4.189828872724339 + 100.0 * f_pen(z / 100.0)
    elif fid == 23:
        M = rot1() @ (lam(100.0, d)[:, None] * rot2())
        pw = 2.0 ** np.arange(1, 33)  # (32,)
        i1 = np.arange(1, d + 1)

        def raw(X):
            z = (X - xo) @ M.T
            t = z[..., None] * pw  # (N, d, 32)
            inner = np.sum(np.abs(t - np.floor(t + 0.5)) / pw, axis=-1)  # (N, d)
            prod = np.prod((1.0 + i1 * inner) ** (10.0 / d ** 1.2), axis=-1)
            return 10.0 / d ** 2 * (prod - 1.0) + f_pen(X)
    else:  # fid == 24
        mu0, dd = 2.5, 1.0
        s = 1.0 - 1.0 / (2.0 * math.sqrt(d + 20.0) - 8.2)
        mu1 = -math.sqrt((mu0 ** 2 - dd) / s)
        sign = np.where(legacy_gauss(d, seed) < 0.0, -1.0, 1.0)
        x_opt = 0.5 * mu0 * sign
        M = rot1() @ (lam(100.0, d)[:, None] * rot2())

        def raw(X):
            xh = 2.0 * sign * X
            z = (xh - mu0) @ M.T
            a = np.sum((xh - mu0) ** 2, axis=-1)
            b = dd * d + s * np.sum((xh - mu1) ** 2, axis=-1)
            return (np.minimum(a, b) + 10.0 * (d - np.sum(np.cos(2.0 * math.pi * z), axis=-1))
                    + 1e4 * f_pen(X))

    return BBOBFunction(fid, d, inst, np.asarray(x_opt, dtype=float), fopt, raw)


def instance_of(seed: int, n_instances: int = 100000) -> int:
    """A COCO instance id (1..n_instances) from a 63-bit seed."""
    return 1 + int(seed) % n_instances


def log10_gap(f_best: float, f_opt: float, floor: float = 1e-8) -> float:
    """log10 of the optimality gap, floored at COCO's final target 1e-8."""
    gap = float(f_best) - float(f_opt)
    return math.log10(max(gap, floor)) if math.isfinite(gap) else math.log10(1e12)


@dataclass
class BBOBTask(Dataset):
    """One BBOB problem instance: ``data`` = {"f", "dim", "lower", "upper", "budget"}."""

    name: ClassVar[str] = "bbob"
    fid: int = 1  # BBOB function id
    dim: int = 10  # problem dimension
    budget_per_dim: int = 1000  # evaluation budget / dim; our choice (COCO runs use 10^2..10^6 x dim)

    def make(self, seed: int) -> Instance:
        f = bbob_function(self.fid, self.dim, instance_of(seed))
        data = {"f": f.black_box(), "dim": self.dim, "lower": LOWER, "upper": UPPER,
                "budget": self.budget_per_dim * self.dim}
        return Instance(data=data, truth={"f_opt": f.f_opt, "x_opt": f.x_opt, "fid": self.fid,
                                          "instance": f.instance})
