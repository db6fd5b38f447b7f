"""A known generalized convex function (GCF) and its gradient, sampled on a box, for checking
universal approximation of a GCF and of its gradient by finite layers of growing size.

Used by: gcf_layer (arXiv 2509.04477, Theorems 5.1 and 5.2: the finitely Y-convex layer and
its gradient are universal approximators of GCFs and their gradients).

Target (``target="quadratic_menu"``): kernel k(x, y) = <x, y>, X = Y = [0, 1]^n, and
    f(x) = sup_{y in Y} [ <x, y> - |y|^2 / 2 ] = |x|^2 / 2,   grad f(x) = x.
It is the utility of an additive buyer with values x facing the continuum menu of lotteries
{(y, price |y|^2 / 2) : y in [0, 1]^n}, so it is Y-convex (the supremum is attained at y = x in
Y) and not finitely Y-convex: no finite menu represents it exactly, and its gradient takes a
continuum of values, so a finite layer's function and gradient errors can only fall as its menu
grows. ``data`` holds training points and their function values only (no gradients); ``truth``
holds a fresh test sample with values and gradients.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance


def quadratic_menu(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """f(x) = |x|^2 / 2 and its gradient x, row-wise."""
    return 0.5 * (x * x).sum(axis=1), x.copy()  # (N,), (N, n)


TARGETS = {"quadratic_menu": quadratic_menu}


@dataclass
class KnownGCF(Dataset):
    name: ClassVar[str] = "known_gcf"
    task: ClassVar[str] = "gcf_fit"
    target: str = "quadratic_menu"
    n_goods: int = 2  # dimension of X = Y = [0, 1]^n
    n_train: int = 1000  # our choice: points with function values a layer is fitted to
    n_test: int = 20_000  # our choice: fresh points where errors are measured

    def make(self, seed: int) -> Instance:
        if self.target not in TARGETS:
            raise ValueError(f"unknown target {self.target!r}")
        fn = TARGETS[self.target]
        rng = np.random.default_rng(seed)
        x = rng.random((self.n_train, self.n_goods))  # (N_train, n)
        xt = rng.random((self.n_test, self.n_goods))  # (N_test, n)
        f, _ = fn(x)
        ft, gt = fn(xt)
        return Instance(
            data={"x": x, "f": f, "n_goods": self.n_goods},
            truth={"x_test": xt, "f_test": ft, "grad_test": gt},
        )
