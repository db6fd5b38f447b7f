"""Euclidean projection onto the probability simplex and its generalized Jacobian.

Shared by game solvers that work on simplex products (semi-smooth Newton,
projected optimistic gradient, Douglas-Rachford splitting).

* Projection: the sort-and-threshold algorithm (Held, Wolfe & Crowder 1974;
  Duchi et al. 2008): ``P(v) = max(v - tau, 0)`` with ``tau`` chosen so the
  result sums to one.
* Generalized Jacobian: P is piecewise affine. On the support ``S = {i: v_i > tau}``
  it moves ``v_S`` along the hyperplane ``1^T p = 1``, so one element of the
  Clarke Jacobian is ``D = diag(s) - s s^T / |S|`` with ``s`` the support
  indicator (the derivative wherever the support is locally constant).
"""
from __future__ import annotations

import functools

import numpy as np


@functools.cache
def _counts(n: int) -> np.ndarray:
    """1, ..., n (int64, read-only), made once per size: game solvers project every iteration."""
    k = np.arange(1, n + 1)
    k.flags.writeable = False
    return k


def simplex_threshold(v: np.ndarray) -> float:
    """The shift ``tau`` with ``sum(max(v - tau, 0)) == 1``."""
    # ndarray.sort and add.accumulate are what np.sort / np.cumsum call, without their Python
    # wrappers (a large share of a small projection's CPU); the values are the same.
    u = np.array(v)
    u.sort()
    u = u[::-1]  # (n,) descending
    css = np.add.accumulate(u) - 1.0  # (n,)
    # The last index where the sorted entry stays above the running threshold.
    rho = np.nonzero(u - css / _counts(v.size) > 0)[0][-1]
    return float(css[rho] / (rho + 1))


def project_simplex(v: np.ndarray) -> np.ndarray:
    """Euclidean projection of ``v`` onto {p >= 0, sum(p) = 1}."""
    v = np.asarray(v, dtype=float)
    return np.maximum(v - simplex_threshold(v), 0.0)


def project_simplex_support(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The projection and the boolean support mask ``v > tau`` (used for the Jacobian)."""
    v = np.asarray(v, dtype=float)
    p = v - simplex_threshold(v)
    support = p > 0
    return np.where(support, p, 0.0), support


def simplex_jacobian_from_support(support: np.ndarray) -> np.ndarray:
    """``diag(s) - s s^T / |s|``: the Jacobian of the projection on a fixed support."""
    s = support.astype(float)  # (n,)
    k = max(int(support.sum()), 1)
    return np.diag(s) - np.outer(s, s) / k  # (n, n)


def simplex_projection_jacobian(v: np.ndarray) -> np.ndarray:
    """One element of the generalized (Clarke) Jacobian of ``project_simplex`` at ``v``."""
    _, support = project_simplex_support(v)
    return simplex_jacobian_from_support(support)
