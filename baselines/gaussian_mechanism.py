"""The analytic Gaussian mechanism (Balle & Wang, ICML 2018, "Improving the Gaussian
Mechanism for Differential Privacy: Analytical Calibration and Optimal Denoising", Thm 8).

Adding N(0, sigma^2 I_T) noise to a query of l2-sensitivity Delta is (eps, delta)-DP iff

    delta >= Phi(Delta / (2 sigma) - eps sigma / Delta) - e^eps Phi(-Delta / (2 sigma) - eps sigma / Delta),

and that bound is exact (it is the hockey-stick divergence of the two shifted Gaussians).
The calibration solves it for the smallest sigma by a bracketing root finder on log sigma
(Balle & Wang's Algorithm 1 reaches the same sigma through a change of variables).

Composition: k Gaussian mechanisms with noise sigma compose *exactly* to one Gaussian
mechanism with noise sigma / sqrt(k) (the privacy-loss variable is N(mu, 2 mu), mu = Delta^2 /
(2 sigma^2), and these add), so tight k-fold calibration is sigma_k = sqrt(k) sigma_1.
Sequential (basic) composition calibrates each run to (eps / k, delta / k).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.sequential_composition import split_budget


def gaussian_delta(eps: float | np.ndarray, sigma: float | np.ndarray, sensitivity: float = 1.0):
    """Exact delta(eps) of the Gaussian mechanism (Balle & Wang 2018, Thm 8)."""
    from scipy.special import log_ndtr, ndtr

    eps = np.asarray(eps, dtype=float)
    s = np.asarray(sigma, dtype=float) / sensitivity
    a = 0.5 / s - eps * s
    b = -0.5 / s - eps * s
    # e^eps Phi(b) through logs: e^eps overflows long before the product does.
    out = ndtr(a) - np.exp(eps + log_ndtr(b))
    return np.maximum(out, 0.0) if out.ndim else max(float(out), 0.0)


def analytic_gaussian_sigma(eps: float, delta: float, sensitivity: float = 1.0) -> float:
    """Smallest sigma with gaussian_delta(eps, sigma) <= delta (Balle & Wang 2018)."""
    from scipy.optimize import brentq

    if not (eps >= 0 and 0 < delta < 1):
        raise ValueError("need eps >= 0 and 0 < delta < 1")

    def gap(log_s: float) -> float:
        return math.log(max(gaussian_delta(eps, math.exp(log_s)), 1e-300)) - math.log(delta)

    lo, hi = -8.0, 8.0
    while gap(lo) < 0:
        lo -= 8.0
    while gap(hi) > 0:
        hi += 8.0
    return sensitivity * math.exp(brentq(gap, lo, hi, xtol=1e-14, rtol=1e-14))


def gaussian_sigma_composed(eps: float, delta: float, k: int, composition: str = "tight",
                            sensitivity: float = 1.0) -> float:
    """Per-invocation sigma so that k invocations are jointly (eps, delta)-DP."""
    if composition == "tight":
        return math.sqrt(k) * analytic_gaussian_sigma(eps, delta, sensitivity)
    if composition == "sequential":
        e, d = split_budget(eps, delta, k)
        return analytic_gaussian_sigma(e, d, sensitivity)
    raise ValueError(f"unknown composition {composition!r}")


@dataclass
class GaussianMechanism(Method):
    """Analytic Gaussian mechanism; outputs the per-invocation MSE E||X||^2 = T sigma^2."""

    name: ClassVar[str] = "gaussian"
    composition: str = "tight"  # "tight" (exact, closed form) or "sequential" (eps/k, delta/k)

    def applies_to(self, dataset) -> str | None:
        if self.composition == "sequential" and getattr(dataset, "k", 1) == 1:
            return "one invocation: sequential and tight composition coincide"
        return None

    def run(self, data, seed: int) -> dict:
        t0 = time.perf_counter()
        k = int(data.get("k", 1))
        sigma = gaussian_sigma_composed(data["eps"], data["delta"], k, self.composition,
                                        data.get("sensitivity", 1.0))
        elapsed = time.perf_counter() - t0
        return {"mse": data["T"] * sigma**2, "sigma": sigma, "time_s": elapsed}
