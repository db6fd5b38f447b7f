"""Output perturbation for ridge regression with one regularisation parameter.

Chaudhuri, Monteleoni & Sarwate, "Differentially Private Empirical Risk Minimization", JMLR 2011
(Sec. 3, Algorithm 1; Corollary 8): release theta_hat_lam + N(0, sigma^2 I), where

    theta_hat_lam = argmin (1/2n) sum_i (y_i - x_i^T theta)^2 + (lam/2) ||theta||^2
                  = (S + lam I)^{-1} b,        S = X^T X / n,  b = X^T y / n.          (1)

Rows satisfy ||x|| <= B_x and |y| <= B_y; neighbours differ by replacing one row. One lam both
sets the bias of (1) and, through strong convexity, its L2 sensitivity. Two sensitivity bounds:

  "chaudhuri": Delta = 2 L / (n lam), L = B_x (B_y + B_x R) the Lipschitz constant of the squared
      loss on the ball ||theta|| <= R = B_y / sqrt(lam) that contains (1)                    (2)
      (objective at theta = 0 is at most B_y^2 / 2).
  "resolvent": from theta' - theta = A'^{-1}[(b' - b) - (A' - A) theta], A = S + lam I:
      Delta = (2 B_x B_y + B_x^2 R) / (n lam),  ||x'x'^T - x x^T||_op <= B_x^2,          (3)
      R = B_y sup_{0 <= l <= B_x^2} sqrt(l) / (l + lam)  (b^T S^+ b <= B_y^2), capped by B_x B_y / lam.
      This is the decoupled bound of methods/dp_ridge.py at c <= alpha, so comparing the two
      isolates the decoupling from the sharper analysis.

Noise: the analytic Gaussian mechanism (baselines/gaussian_mechanism.py), sigma linear in Delta.

Tuning of lam (shared with methods/dp_ridge.py, never looks at the truth):
  "plugin": minimise the risk decomposition bias^2 + variance + d sigma^2 of a spectral filter h
      with plug-in values from a public pilot sample (eigenpairs of its Gram matrix, debiased
      signal energy per eigendirection, residual variance). The private data are not touched,
      so the release stays (eps, delta)-DP.                                                  (4)
  "validation": minimise the public validation error of the release averaged over the DP noise,
      (1/m)||y_v - X_v theta_hat||^2 + sigma^2 tr(X_v^T X_v)/m. It reads theta_hat, so the
      selection itself is not privacy-accounted (as in most simulation studies).             (5)
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.gaussian_mechanism import analytic_gaussian_sigma

# Default candidate grid: log-spaced over the range where Gram eigenvalues of ||x|| <= 1 rows live.
LAMBDA_GRID = tuple(float(v) for v in np.logspace(-4, 0, 17))  # our choice: paper silent


def gram_stats(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n = X.shape[0]
    return X.T @ X / n, X.T @ y / n  # (d, d), (d,)


def ridge_solve(X: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    """Eq. (1) in closed form."""
    S, b = gram_stats(X, y)
    return np.linalg.solve(S + lam * np.eye(S.shape[0]), b)


def filter_solve(evals: np.ndarray, evecs: np.ndarray, b: np.ndarray, h: np.ndarray) -> np.ndarray:
    """theta = U diag(1/h) U^T b for a spectral filter h (ridge: h = evals + lam)."""
    return evecs @ ((evecs.T @ b) / h)


def theta_radius(bx: float, by: float, alpha: float, c: float) -> float:
    """sup ||(floor_c(S + alpha I))^{-1} b|| over datasets with ||x|| <= bx, |y| <= by.

    With h(l) = max(l + alpha, c): ||theta||^2 = sum_j (u_j^T b)^2 / h_j^2 <= (b^T S^+ b) max_l l / h(l)^2
    and b^T S^+ b = ||P_X y||^2 / n <= by^2. On [0, c - alpha] sqrt(l)/c increases; beyond it
    sqrt(l)/(l + alpha) peaks at l = alpha; l ranges over [0, bx^2].
    """
    top = bx * bx
    lo = min(max(c - alpha, 0.0), top)
    cands = {lo, min(max(alpha, lo), top), top}
    best = max(math.sqrt(l) / max(l + alpha, c) for l in cands)
    m = max(alpha, c)
    return min(by * best, bx * by / m)


def ridge_sensitivity(n: int, lam: float, bx: float = 1.0, by: float = 1.0,
                      bound: str = "resolvent") -> float:
    """L2 sensitivity of Eq. (1) under replace-one neighbours: Eq. (2) or Eq. (3)."""
    if lam <= 0:
        raise ValueError("output perturbation needs lam > 0")
    if bound == "chaudhuri":
        lip = bx * (by + bx * by / math.sqrt(lam))
        return 2.0 * lip / (n * lam)
    if bound == "resolvent":
        return (2.0 * bx * by + bx * bx * theta_radius(bx, by, lam, 0.0)) / (n * lam)
    raise ValueError(f"unknown bound {bound!r}")


def unit_sigma(eps: float, delta: float) -> float:
    """Noise scale at unit sensitivity; 0 when eps is infinite (no privacy)."""
    return 0.0 if math.isinf(eps) else analytic_gaussian_sigma(eps, delta, 1.0)


@dataclass
class Pilot:
    """Plug-in quantities from a public sample: eigenpairs, signal energy per direction, noise."""

    evals: np.ndarray  # (d,)
    evecs: np.ndarray  # (d, d)
    energy: np.ndarray  # (d,) debiased (u_j^T theta*)^2
    noise_var: float


def pilot_estimates(X: np.ndarray, y: np.ndarray) -> Pilot:
    m, d = X.shape
    S, b = gram_stats(X, y)
    evals, evecs = np.linalg.eigh(S)
    evals = np.maximum(evals, 0.0)
    keep = evals > 1e-12 * max(evals.max(), 1e-300)
    coef = np.zeros(d)
    coef[keep] = (evecs.T @ b)[keep] / evals[keep]  # OLS in the eigenbasis
    resid = y - X @ (evecs @ coef)
    s2 = float(resid @ resid / max(m - int(keep.sum()), 1))
    energy = np.zeros(d)
    # E (u_j^T theta_ols)^2 = (u_j^T theta*)^2 + s^2 / (m l_j): remove the OLS variance.
    energy[keep] = np.maximum(coef[keep] ** 2 - s2 / (m * evals[keep]), 0.0)
    return Pilot(evals, evecs, energy, s2)


def filter_risk(evals: np.ndarray, energy: np.ndarray, noise_var: float, n: int, h: np.ndarray,
                sigma: float) -> float:
    """Eq. (4): bias^2 + variance + DP variance of theta = U diag(1/h) U^T b, fixed design."""
    bias2 = float(np.sum((1.0 - evals / h) ** 2 * energy))
    var = noise_var / n * float(np.sum(evals / h**2))
    return bias2 + var + evals.size * sigma**2


def validation_score(Xv: np.ndarray, yv: np.ndarray, theta: np.ndarray, sigma: float) -> float:
    """Eq. (5): validation MSE of theta + N(0, sigma^2 I) in expectation over the noise."""
    r = yv - Xv @ theta
    return float(r @ r + sigma**2 * np.sum(Xv * Xv)) / Xv.shape[0]


def check_bounds(X: np.ndarray, y: np.ndarray, bx: float, by: float) -> None:
    # The sensitivity bound is void if a row escapes the assumed domain: fail loudly.
    if np.max(np.linalg.norm(X, axis=1)) > bx * (1 + 1e-9) or np.max(np.abs(y)) > by * (1 + 1e-9):
        raise ValueError("data violate ||x|| <= B_x, |y| <= B_y: clip before releasing")


@dataclass
class OutputPerturbation(Method):
    """Chaudhuri et al. (2011) ridge output perturbation, one lam for bias and sensitivity."""

    name: ClassVar[str] = "output_perturbation"
    bound: str = "chaudhuri"  # Eq. (2), Chaudhuri et al. 2011; "resolvent" = Eq. (3)
    tuning: str = "plugin"  # Eq. (4); "validation" = Eq. (5)
    lambdas: tuple = LAMBDA_GRID  # our choice: paper silent

    def run(self, data, seed: int) -> dict:
        X, y = data["X"], data["y"]
        n, d = X.shape
        bx, by, eps, delta = data["bx"], data["by"], data["eps"], data["delta"]
        check_bounds(X, y, bx, by)
        t0 = time.perf_counter()
        s_unit = unit_sigma(eps, delta)
        lams = np.asarray(self.lambdas, dtype=float)
        sigmas = np.array([s_unit * ridge_sensitivity(n, l, bx, by, self.bound) for l in lams])
        if self.tuning == "plugin":
            p = pilot_estimates(data["X_pub"], data["y_pub"])
            scores = [filter_risk(p.evals, p.energy, p.noise_var, n, p.evals + l, s)
                      for l, s in zip(lams, sigmas)]
        elif self.tuning == "validation":
            S, b = gram_stats(X, y)
            ev, U = np.linalg.eigh(S)
            scores = [validation_score(data["X_pub"], data["y_pub"], filter_solve(ev, U, b, ev + l), s)
                      for l, s in zip(lams, sigmas)]
        else:
            raise ValueError(f"unknown tuning {self.tuning!r}")
        k = int(np.argmin(scores))
        lam, sigma = float(lams[k]), float(sigmas[k])
        theta_hat = ridge_solve(X, y, lam)
        noise = np.random.default_rng(seed).standard_normal(d)
        theta = theta_hat + sigma * noise
        elapsed = time.perf_counter() - t0
        return {"theta": theta, "theta_hat": theta_hat, "alpha": lam, "c": 0.0, "sigma": sigma,
                "sensitivity": sigma / s_unit if s_unit > 0 else ridge_sensitivity(n, lam, bx, by, self.bound),
                "cand_alpha": [float(v) for v in lams], "cand_c": [0.0] * len(lams),
                "cand_sigma": [float(v) for v in sigmas], "time_s": elapsed}
