"""Helmholtz's equation on the unit square with zero Dirichlet data, solved exactly in the sine basis.

Problem: Delta u + k2 u = a on (0, 1)^2, u = 0 on the boundary, k2 = 1: the equation of PISD's
code (deeplearningmethods/PISD, scripts/generate_helmholtz_f.py: the residual it guides with and
reports is Delta u - a + u, on the unit square, L = 1), which uses DiffusionPDE's Helmholtz data.

Same fields, grid, source distribution and tasks as datasets/poisson_dirichlet.py (one
generator, see there); only the solution differs: since (Delta + k2) sin(j pi x) sin(k pi y) =
(k2 - pi^2 (j^2 + k^2)) (.), the exact solution is u_jk = c_jk / (k2 - pi^2 (j^2 + k^2)) mode
by mode (no resonance: k2 < 2 pi^2, the smallest eigenvalue of -Delta). The instance's data carry
``k2`` (the equation, which every solver is given; not the truth).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.datasets.poisson_dirichlet import PoissonDirichlet, sine_basis, wavenumber_sq


def helmholtz_fields(c: np.ndarray, k2: float) -> tuple[np.ndarray, np.ndarray]:
    """Sine coefficients c (..., n, n) of a -> grid values of a and of u, (Delta + k2) u = a."""
    n = c.shape[-1]
    lam = k2 - np.pi ** 2 * wavenumber_sq(n)  # (n, n): eigenvalues of Delta + k2
    if np.any(np.abs(lam) < 1e-9):
        raise ValueError(f"k2 = {k2} is an eigenvalue of -Delta: no unique solution")
    b = sine_basis(n)  # (n, n)
    a = np.einsum("ji,...jk,kl->...il", b, c, b)  # (..., n, n)
    u = np.einsum("ji,...jk,kl->...il", b, c / lam, b)  # (..., n, n)
    return a, u


@dataclass
class HelmholtzDirichlet(PoissonDirichlet):
    """Random sources and exact solutions of Delta u + k2 u = a, zero boundary values."""

    name: ClassVar[str] = "helmholtz_dirichlet"
    k2: float = 1.0  # PISD's code (generate_helmholtz_f.py: residual Delta u - a + u), k = 1

    def _sample(self, rng, count: int) -> tuple[np.ndarray, np.ndarray]:
        std = wavenumber_sq(self.n) ** (-self.s / 2)  # (n, n)
        c = rng.standard_normal((count, self.n, self.n)) * std  # (count, n, n)
        return helmholtz_fields(c, self.k2)

    def make(self, seed: int):
        inst = super().make(seed)
        inst.data["k2"] = float(self.k2)
        return inst
