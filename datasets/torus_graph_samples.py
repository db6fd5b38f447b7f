"""Samples from torus graphs with a known sparse coupling, drawn by Gibbs sampling.

A torus graph on d angles theta in [-pi, pi)^d has density p(theta) ∝ exp(sum phi * S(theta)),
with phi and S(theta) of shape (d, d, 2): entry [i, j] holds (cos A_ij, sin A_ij) where the
angle matrix is A_ii = theta_i, A_ij = theta_i + theta_j for i < j (sum coupling) and
A_ij = theta_j - theta_i for i > j (difference coupling). This is the layout of the authors'
code (jackgoffinet/torus-graphs, src/stats.py): 2 d^2 free parameters, d single-angle terms
and d(d-1)/2 pairs with 4 coupling parameters each.

With z = exp(i theta) the log-density is Re(sum_k a_k z_k + sum_{u<v} P_uv z_u z_v
+ sum_{i>j} Q_ij z_j conj(z_i)), a = phi_kk0 - i phi_kk1 and likewise P, Q. Each full
conditional is von Mises: log p = Re(c_k z_k) + const in theta_k with
c = a + Psym z + Ql^T conj(z) + conj(Ql z), so theta_k | rest ~ VM(-arg c_k, |c_k|).
The same c gives the score d log p / d theta_k = -Im(c_k z_k).

True phi follows the authors' synthetic experiment (experiments/ssm_synthetic_heatmaps.py,
``get_random_phi``): i.i.d. Gaussian entries, each kept with probability ``keep_p`` except the
diagonal (always kept). ``coupling`` scales the off-diagonal entries (1.0 = the authors').

Mixing: with standard-normal couplings the density is rugged and the chains do not equilibrate
across its modes within tens of sweeps (at d = 16..128 the averaged statistics of 50-sweep and
300-sweep chains differ by 3-6 rough standard errors, rms over the statistics). Score matching
uses only local (score) information, and on these samples the exact estimator's error falls
like 1/n (one phi, d = 16, 50 sweeps: MSE 0.30, 0.061, 0.018 at n = 2k, 8k, 32k), so the
samples serve the estimator comparison. The authors' HMC draws (consecutive states of one
chain) are not guaranteed to mix across modes either.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance


def complex_params(phi: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """phi (d, d, 2) -> (a (d,), Psym (d, d) symmetric zero-diagonal, Ql (d, d) strictly lower)."""
    w = phi[..., 0] - 1j * phi[..., 1]  # (d, d)
    upper = np.triu(w, 1)  # (d, d)
    return np.diag(w).copy(), upper + upper.T, np.tril(w, -1)


def conditional_coeffs(Z: np.ndarray, a: np.ndarray, Psym: np.ndarray,
                       Ql: np.ndarray) -> np.ndarray:
    """c (n, d): log p = Re(c_k z_k) + terms free of theta_k, for every sample and every k."""
    return a + Z @ Psym + np.conj(Z) @ Ql + np.conj(Z @ Ql.T)


def score(X: np.ndarray, phi: np.ndarray) -> np.ndarray:
    """grad_theta log p(theta) (n, d) = J_S(theta)^T phi for each row of X (n, d)."""
    a, Psym, Ql = complex_params(phi)
    Z = np.exp(1j * X)  # (n, d)
    return -np.imag(conditional_coeffs(Z, a, Psym, Ql) * Z)


def angle_matrix(x: np.ndarray) -> np.ndarray:
    """A (..., d, d): A_ii = x_i, A_ij = x_i + x_j (i < j), A_ij = x_j - x_i (i > j)."""
    d = x.shape[-1]
    xi, xj = x[..., :, None], x[..., None, :]  # (..., d, 1), (..., 1, d)
    iu = np.triu(np.ones((d, d), dtype=bool), 1)
    il = np.tril(np.ones((d, d), dtype=bool), -1)
    A = np.where(iu, xi + xj, np.where(il, xj - xi, 0.0))  # (..., d, d)
    return A + np.eye(d) * x[..., :, None]


def suff_stats(x: np.ndarray) -> np.ndarray:
    """S (..., d, d, 2): (cos A, sin A) for the angle matrix A of x (..., d)."""
    A = angle_matrix(x)
    return np.stack([np.cos(A), np.sin(A)], axis=-1)


def log_density_unnorm(x: np.ndarray, phi: np.ndarray) -> np.ndarray:
    """phi . S(x) for x (..., d); the unnormalized log-density."""
    return np.einsum("...ijc,ijc->...", suff_stats(x), phi)


def random_phi(d: int, rng: np.random.Generator, keep_p: float = 0.5,
               coupling: float = 1.0) -> np.ndarray:
    """Sparse Gaussian phi (d, d, 2); diagonal always kept (authors' get_random_phi)."""
    phi = rng.standard_normal((d, d, 2))  # (d, d, 2)
    keep = rng.random((d, d, 2)) < keep_p  # (d, d, 2)
    keep[np.arange(d), np.arange(d)] = True
    off = ~np.eye(d, dtype=bool)[..., None]  # (d, d, 1)
    return phi * keep * np.where(off, coupling, 1.0)


def gibbs_sample(phi: np.ndarray, n: int, sweeps: int, rng: np.random.Generator) -> np.ndarray:
    """n independent chains from uniform starts, systematic-scan Gibbs; last state of each.

    Returns X (n, d) in [-pi, pi). One sweep updates every angle once from its von Mises
    full conditional; the chains run side by side, so one sweep costs O(n d^2).
    """
    d = phi.shape[0]
    a, Psym, Ql = complex_params(phi)
    # c_k = a_k + Z Psym[:, k] + conj(Z) (Ql[:, k] + conj(Ql[k, :])); rows = columns, contiguous
    # (a strided complex matvec is ~100x slower in numpy).
    P_cols = np.ascontiguousarray(Psym.T)  # (d, d)
    R_cols = np.ascontiguousarray((Ql + np.conj(Ql.T)).T)  # (d, d)
    X = rng.uniform(-np.pi, np.pi, size=(n, d))  # (n, d)
    Z = np.exp(1j * X)  # (n, d)
    Zc = np.conj(Z)  # (n, d)
    for _ in range(sweeps):
        for k in range(d):
            c = a[k] + Z @ P_cols[k] + Zc @ R_cols[k]  # (n,)
            x = rng.vonmises(-np.angle(c), np.abs(c))  # (n,)
            X[:, k] = x
            cs, sn = np.cos(x), np.sin(x)
            Z[:, k] = cs + 1j * sn
            Zc[:, k] = cs - 1j * sn
    return X


@dataclass
class TorusGraphSamples(Dataset):
    name: ClassVar[str] = "torus_graph_samples"
    d: int = 16  # number of angles; the authors' heatmap sweeps d = floor(1.3^k), k = 4..27
    n: int = 1000  # samples; the authors' heatmap sweeps n = floor(1.5^k), k = 6..29
    keep_p: float = 0.5  # keep probability of phi entries (authors' get_random_phi, p=0.5)
    coupling: float = 1.0  # std of off-diagonal entries (authors': standard normal, 1.0)
    # Gibbs sweeps per chain (one chain per sample, so samples are independent). Our choice:
    # the authors use HMC (blackjax) with 1000 warm-up steps; see the module note on mixing.
    sweeps: int = 50

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        phi = random_phi(self.d, rng, self.keep_p, self.coupling)  # (d, d, 2)
        X = gibbs_sample(phi, self.n, self.sweeps, rng)  # (n, d)
        return Instance(data={"X": X}, truth={"phi": phi})
