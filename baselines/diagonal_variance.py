"""Heteroscedastic Gaussian regression with a diagonal (or isotropic) predicted covariance,
trained by the Gaussian NLL (Nix & Weigend 1994; Lakshminarayanan et al., "Simple and Scalable
Predictive Uncertainty Estimation using Deep Ensembles", NeurIPS 2017, single member).

  diagonal:  Sigma(x) = diag(sigma_1^2(x), ..., sigma_d^2(x));
  isotropic: Sigma(x) = sigma^2(x) I  (``isotropic=True``).

Same network, optimiser and early stopping as baselines/cholesky_gaussian_nll.py (whose
``cov_form`` this fixes); correlations between tensor components are ignored, so neither form
can transform like a tensor covariance under rotations.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from claimbench.baselines.cholesky_gaussian_nll import CholeskyGaussianNLL


@dataclass
class DiagonalVariance(CholeskyGaussianNLL):
    """Per-coordinate variances (or one shared variance when ``isotropic``)."""

    name: ClassVar[str] = "diagonal_variance"

    isotropic: bool = False  # True: one variance for all coordinates

    def __post_init__(self) -> None:
        self.cov_form = "isotropic" if self.isotropic else "diagonal"
