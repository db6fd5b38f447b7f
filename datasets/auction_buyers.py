"""Single additive buyer with i.i.d. U[0,1] values for n goods (the classical monopoly setting).

Used by: gcf_layer (arXiv 2509.04477, auction experiments on U[0,1]^d types).
``data`` holds the training sample a mechanism learns from; ``truth`` holds a fresh test sample
on which every mechanism's revenue is evaluated with the buyer's utility-maximising choice.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance


@dataclass
class UniformAdditiveBuyer(Dataset):
    name: ClassVar[str] = "uniform_buyer"
    task: ClassVar[str] = "auction"
    n_goods: int = 2
    n_train: int = 10_000  # gconvex scripts/mech_design.py: max_samples = 10_000
    n_test: int = 200_000  # our choice: fresh evaluation sample (SE of revenue ~ 1e-3)

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        train = rng.random((self.n_train, self.n_goods))  # (N_train, n)
        test = rng.random((self.n_test, self.n_goods))  # (N_test, n)
        return Instance(
            data={"values": train, "n_goods": self.n_goods},
            truth={"test_values": test, "n_goods": self.n_goods},
        )
