"""Privacy regimes: the "data" of noise-calibration benchmarks.

An instance is a target guarantee, not a data set: k invocations of an additive-noise
mechanism on a T-dimensional query of l2-sensitivity `sensitivity` must be jointly
(eps, delta)-DP. Instances are deterministic (the seed is ignored). The truth holds the
analytic Gaussian mechanism's reference (Balle & Wang 2018), composed exactly over k
invocations, against which metrics measure MSE reductions and calibration errors.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from claimbench.api import Dataset, Instance
from claimbench.baselines.gaussian_mechanism import gaussian_sigma_composed


@dataclass
class PrivacyRegime(Dataset):
    name: ClassVar[str] = "privacy_regime"
    eps: float = 0.5  # our choice: the paper's Fig. 2 regime could not be retrieved
    delta: float = 1e-2  # our choice: same
    T: int = 2  # query dimension
    k: int = 1  # number of composed invocations (1 = one-shot, Fig. 2; > 1 = Fig. 3)
    sensitivity: float = 1.0  # l2-sensitivity; MSEs scale with its square

    def make(self, seed: int) -> Instance:
        sigma = gaussian_sigma_composed(self.eps, self.delta, self.k, "tight", self.sensitivity)
        data = {"eps": self.eps, "delta": self.delta, "T": self.T, "k": self.k, "sensitivity": self.sensitivity}
        truth = {"gauss_sigma": sigma, "gauss_mse": self.T * sigma**2}
        return Instance(data=data, truth=truth)
