"""Sufficient statistics perturbation (SSP) for linear regression.

Vu & Slavkovic (2009); Dwork et al. (2014, "Analyze Gauss"); Wang (UAI 2018, "Revisiting
differentially private linear regression", SSP / AdaSSP). Release the second moments with one
Gaussian mechanism and solve ridge on the noisy statistics (post-processing):

    v = (diag S, sqrt(2) offdiag_upper S, b),  S = X^T X / n,  b = X^T y / n,
    ||v' - v||^2 = ||S' - S||_F^2 + ||b' - b||^2 <= (2 B_x^4 + 4 B_x^2 B_y^2) / n^2,            (1)
    S~ = S + E (E symmetric: N(0, sigma^2) diagonal, N(0, sigma^2 / 2) off the diagonal),
    b~ = b + N(0, sigma^2 I),  theta = (P_+(S~) + lam I)^{-1} b~,                              (2)

with P_+ the projection onto the PSD cone and lam = sigma (sqrt(2d) + sqrt(2 ln(1/delta))), about the
operator norm of E with high probability (AdaSSP's rule for lam without its private
lambda_min estimate, which would spend part of the budget). Noise: the analytic Gaussian mechanism.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.gaussian_mechanism import analytic_gaussian_sigma
from claimbench.baselines.output_perturbation import check_bounds, gram_stats


def ssp_sensitivity(n: int, bx: float = 1.0, by: float = 1.0) -> float:
    """Eq. (1): L2 sensitivity of (S, b) in the Frobenius-isometric coordinates v."""
    return math.sqrt(2.0 * bx**4 + 4.0 * bx**2 * by**2) / n


@dataclass
class SufficientStatisticsPerturbation(Method):
    name: ClassVar[str] = "ssp"
    lam_scale: float = 1.0  # multiplies the noise-level ridge of Eq. (2) (our choice: 1)

    def run(self, data, seed: int) -> dict:
        X, y = data["X"], data["y"]
        n, d = X.shape
        bx, by, eps, delta = data["bx"], data["by"], data["eps"], data["delta"]
        check_bounds(X, y, bx, by)
        t0 = time.perf_counter()
        rng = np.random.default_rng(seed)
        sens = ssp_sensitivity(n, bx, by)
        sigma = 0.0 if math.isinf(eps) else analytic_gaussian_sigma(eps, delta, sens)
        S, b = gram_stats(X, y)
        G = rng.standard_normal((d, d))  # (d, d)
        E = sigma * (np.triu(G, 1) + np.triu(G, 1).T) / math.sqrt(2) + sigma * np.diag(np.diag(G))
        S_t = S + E
        b_t = b + sigma * rng.standard_normal(d)
        ev, U = np.linalg.eigh(S_t)
        lam = self.lam_scale * sigma * (math.sqrt(2 * d) + math.sqrt(2 * math.log(1 / delta)))
        h = np.maximum(ev, 0.0) + lam
        h = np.maximum(h, 1e-12)  # lam = 0 only without noise; keep the solve defined
        theta = U @ ((U.T @ b_t) / h)
        elapsed = time.perf_counter() - t0
        return {"theta": theta, "sigma": sigma, "lam": lam, "sensitivity": sens, "time_s": elapsed}
