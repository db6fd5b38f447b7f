"""Cheap hyper-parameter tuning surfaces: validation error of a model over a grid of two
hyper-parameters, precomputed once and interpolated, so a black-box solver can query
"tuning" at any point of the box for the price of a table look-up.

:func:`kernel_ridge_surface` — RBF kernel ridge regression on scikit-learn's diabetes data
(bundled, no download): validation MSE / Var(y_val) over log10(alpha) x log10(gamma), on a
seeded 2/3 - 1/3 train/validation split. For each gamma one eigendecomposition of the train
kernel gives the whole alpha row: (K + alpha I)^-1 y = U diag(1/(lam + alpha)) U^T y.

:func:`surface_eval` maps the box [-5, 5]^2 linearly onto the grid and interpolates
bilinearly (values outside the box are clamped to its edge).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

BOX = 5.0


@lru_cache(maxsize=16)
def kernel_ridge_surface(seed: int, n_grid: int = 15, log_alpha=(-6.0, 1.0),
                         log_gamma=(-3.0, 1.0)) -> dict:
    from sklearn.datasets import load_diabetes

    X, y = load_diabetes(return_X_y=True)
    X = (X - X.mean(0)) / X.std(0)
    y = (y - y.mean()) / y.std()
    rng = np.random.default_rng(seed)
    idx = rng.permutation(len(y))
    n_tr = 2 * len(y) // 3
    tr, va = idx[:n_tr], idx[n_tr:]
    sq = lambda A, B: np.sum(A**2, 1)[:, None] + np.sum(B**2, 1)[None, :] - 2 * A @ B.T
    d_tr, d_va = sq(X[tr], X[tr]), sq(X[va], X[tr])  # (m, m), (v, m)
    alphas = 10.0 ** np.linspace(*log_alpha, n_grid)
    gammas = 10.0 ** np.linspace(*log_gamma, n_grid)
    y_tr, y_va = y[tr] - y[tr].mean(), y[va] - y[tr].mean()
    err = np.empty((n_grid, n_grid))  # (alpha, gamma)
    for j, g in enumerate(gammas):
        lam, U = np.linalg.eigh(np.exp(-g * d_tr))
        uty = U.T @ y_tr  # (m,)
        K_va = np.exp(-g * d_va)  # (v, m)
        for i, a in enumerate(alphas):
            coef = U @ (uty / (np.maximum(lam, 0.0) + a))
            err[i, j] = np.mean((K_va @ coef - y_va) ** 2) / np.var(y_va)
    return {"values": err, "log_alpha": tuple(log_alpha), "log_gamma": tuple(log_gamma)}


def surface_eval(values, X) -> np.ndarray:
    """Bilinear interpolation of a (g, g) grid laid over the box [-5, 5]^2."""
    X = np.atleast_2d(np.asarray(X, dtype=float))  # (n, 2)
    g0, g1 = values.shape
    u = (np.clip(X, -BOX, BOX) + BOX) / (2 * BOX)  # (n, 2) in [0, 1]
    fi, fj = u[:, 0] * (g0 - 1), u[:, 1] * (g1 - 1)
    i0 = np.minimum(np.floor(fi).astype(int), g0 - 2)
    j0 = np.minimum(np.floor(fj).astype(int), g1 - 2)
    ti, tj = fi - i0, fj - j0
    v = values
    return ((1 - ti) * (1 - tj) * v[i0, j0] + ti * (1 - tj) * v[i0 + 1, j0]
            + (1 - ti) * tj * v[i0, j0 + 1] + ti * tj * v[i0 + 1, j0 + 1])
