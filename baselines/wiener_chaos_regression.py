"""Wiener-chaos (Cameron-Martin) features of Brownian paths, and linear regression on them.

Features. For an orthonormal basis {m_k} of L2[0, T] and independent Brownian motions
beta_j (j < J), the Gaussian coordinates xi_{k,j} = int_0^T m_k(s) d beta_j(s) are i.i.d.
N(0, 1). The Wick-Hermite polynomials Xi_alpha = prod_i He_{alpha_i}(xi_i) / sqrt(alpha_i!)
(probabilists' Hermite He, multi-index alpha over the K*J coordinates) are orthonormal in
L2 of the noise, and {Xi_alpha : |alpha| <= P} spans the chaos of order <= P (Cameron-Martin).
Here m_1 = 1/sqrt(T), m_k(s) = sqrt(2/T) cos((k-1) pi s / T), and the stochastic integral is
the midpoint sum over the observed increments; on a uniform grid these discrete cosines are
exactly orthogonal (DCT-II), so the xi are exactly i.i.d. N(0, 1) for Brownian increments.

Baseline ``ChaosRegression``: ridge least squares of every output value (time, space point)
on [1, initial condition, Xi_alpha (1 <= |alpha| <= order)], linear in the initial condition
and in the chaos features (order 1: linear in the noise coordinates xi).
"""
from __future__ import annotations

import functools
import itertools
import math
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method


def cosine_basis(T: float, n_fine: int, K: int) -> np.ndarray:
    """(K, n_fine) basis m_k at the midpoints of the n_fine steps of [0, T]."""
    s = (np.arange(n_fine) + 0.5) * T / n_fine
    rows = [np.full(n_fine, 1.0 / np.sqrt(T))]
    rows += [np.sqrt(2.0 / T) * np.cos(k * np.pi * s / T) for k in range(1, K)]
    return np.stack(rows)


def gaussian_coordinates(dW: np.ndarray, T: float, K: int) -> np.ndarray:
    """(n, K * J) xi_{k,j} = sum_n m_k(s_n) dW_{n,j} from increments dW of shape (n, n_fine, J)."""
    m = cosine_basis(T, dW.shape[1], K)  # (K, n_fine)
    xi = np.einsum("kf,nfj->nkj", m, dW)  # (n, K, J)
    return xi.reshape(len(dW), -1)


@functools.cache
def multi_indices(d: int, order: int) -> tuple[tuple[int, ...], ...]:
    """All alpha in N^d with |alpha| <= order, ordered by degree (alpha = 0 first)."""
    out = []
    for deg in range(order + 1):
        for combo in itertools.combinations_with_replacement(range(d), deg):
            alpha = [0] * d
            for i in combo:
                alpha[i] += 1
            out.append(tuple(alpha))
    return tuple(out)


@functools.cache
def _factors(d: int, order: int) -> tuple[np.ndarray, np.ndarray]:
    """(n_alpha, order) coordinate and degree of each factor He_p(xi_i) of Xi_alpha, in
    coordinate order, padded with degree 0 (He_0 = 1, an exact 1.0)."""
    alphas = multi_indices(d, order)
    coord = np.zeros((len(alphas), max(order, 1)), dtype=int)
    degree = np.zeros_like(coord)
    for a, alpha in enumerate(alphas):
        for j, i in enumerate(np.flatnonzero(alpha)):
            coord[a, j], degree[a, j] = i, alpha[i]
    return coord, degree


def wick_hermite(xi: np.ndarray, order: int) -> np.ndarray:
    """(n, n_alpha) orthonormal Wick-Hermite features Xi_alpha(xi), |alpha| <= order."""
    from numpy.polynomial import hermite_e

    n, d = xi.shape
    # He_p(xi) / sqrt(p!) for every coordinate and degree p <= order
    table = np.stack([hermite_e.hermeval(xi, np.eye(order + 1)[p]) / math.sqrt(math.factorial(p))
                      for p in range(order + 1)], axis=-1)  # (n, d, order+1)
    coord, degree = _factors(d, order)  # (n_alpha, order) each
    feats = np.ones((n, len(coord)))
    for j in range(coord.shape[1]):  # factor by factor, in coordinate order
        feats *= table[:, coord[:, j], degree[:, j]]  # (n, n_alpha)
    return feats


def flat_inputs(x0: np.ndarray) -> np.ndarray:
    return x0.reshape(len(x0), -1)


@dataclass
class ChaosRegression(Method):
    name: ClassVar[str] = "chaos_regression"
    order: int = 1  # chaos order of the features (1: linear in the noise coordinates)
    n_basis: int = 8  # time basis functions per noise mode (the research note's K = 8)
    ridge: float = 1e-6  # ours: tiny, for conditioning only

    def _design(self, x0: np.ndarray, dW: np.ndarray, T: float) -> np.ndarray:
        xi = gaussian_coordinates(dW, T, self.n_basis)
        return np.concatenate([flat_inputs(x0), wick_hermite(xi, self.order)], axis=1)

    def run(self, data, seed):
        from sklearn.linear_model import Ridge

        t0 = time.process_time()
        spec = data["spec"]
        X = self._design(data["train_x0"], data["train_dW"], spec["T"])
        Y = data["train_paths"].reshape(len(X), -1)
        model = Ridge(alpha=self.ridge).fit(X, Y)
        shape = data["train_paths"].shape[1:]

        def predict(x0, dW):
            return model.predict(self._design(x0, dW, spec["T"])).reshape(len(x0), *shape)

        from claimbench.datasets.stochastic_equations import sample_noise
        from claimbench.grid import derive_seed

        rng = np.random.default_rng(derive_seed(seed, "law_noise"))
        law_x0 = np.repeat(data["law_ic"], data["n_law"], axis=0)
        law = predict(law_x0, sample_noise(spec, rng, len(law_x0)))
        return {"pred": predict(data["test_x0"], data["test_dW"]),
                "law_samples": law.reshape(len(data["law_ic"]), data["n_law"], *shape),
                "params": float(model.coef_.size + model.intercept_.size),
                "train_s": time.process_time() - t0}
