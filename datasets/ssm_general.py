"""Random time-varying SSMs with full (N x N) state matrices, on both sides of the 1-SS condition.

One instance is h_t = A_t h_{t-1} + b_t x_t, y_t = c_t^T h_t (h_0 = 0) with A_t in R^{N x N},
b_t, c_t in R^N and a scalar input x_t, for t = 1..T. ``family`` picks the state matrices:

- ``diagonal``: A_t = diag(a_t), a_{t,n} ~ U(0.9, 1) (the paper's diagonal SSM, contribution (i)).
- ``rotation``: A_t = a_t R_t, a_t ~ U(0.9, 1), R_t a random orthogonal matrix (Haar): not
  diagonal, not simultaneously diagonalizable, but invertible at every step.
- ``reset``: diagonal as above, except A_t = 0 at the steps t = T/4, T/2, 3T/4 (state reset):
  singular state matrices whose kernel is block diagonal.
- ``lowrank``: A_t = U_t diag(s_t) V_t^T with U_t, V_t random orthogonal and s_t = (U(0.9, 1)
  x (N - 1), 0): every state matrix has rank N - 1 (non-diagonal and singular at every step).

``truth["y"]`` is the recurrence run in extended precision (np.longdouble), as in
ssm_sequences.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

FAMILIES = ("diagonal", "rotation", "reset", "lowrank")


def reference_recurrence_full(A: np.ndarray, B: np.ndarray, C: np.ndarray,
                              x: np.ndarray) -> np.ndarray:
    """y of the SSM with full state matrices, accumulated in np.longdouble; float64 out."""
    A_l = A.astype(np.longdouble)  # (T, N, N)
    B_l = B.astype(np.longdouble)  # (T, N)
    C_l = C.astype(np.longdouble)  # (T, N)
    x_l = x.astype(np.longdouble)  # (T,)
    h = np.zeros(B.shape[1], dtype=np.longdouble)  # (N,)
    y = np.empty(B.shape[0], dtype=np.longdouble)  # (T,)
    for t in range(B.shape[0]):
        h = A_l[t] @ h + B_l[t] * x_l[t]
        y[t] = np.dot(C_l[t], h)
    return y.astype(np.float64)


def _orthogonal(rng: np.random.Generator, N: int) -> np.ndarray:
    q, r = np.linalg.qr(rng.standard_normal((N, N)))  # (N, N)
    return q * np.sign(np.diag(r))  # sign fix: Haar-distributed


@dataclass
class GeneralSSMs(Dataset):
    name: ClassVar[str] = "ssm_general"
    T: int = 32  # sequence length (the kernel and its ranks cost ~T^4; small T suffices)
    N: int = 3  # state size
    family: str = "diagonal"  # one of FAMILIES
    a_lo: float = 0.9  # decays ~ U(a_lo, a_hi), as in ssm_sequences
    a_hi: float = 1.0

    def make(self, seed: int) -> Instance:
        if self.family not in FAMILIES:
            raise ValueError(f"family must be one of {FAMILIES}")
        if not 0.0 < self.a_lo < self.a_hi <= 1.0:
            raise ValueError("need 0 < a_lo < a_hi <= 1")
        rng = np.random.default_rng(seed)
        T, N = self.T, self.N
        if self.family in ("diagonal", "reset"):
            A = np.stack([np.diag(rng.uniform(self.a_lo, self.a_hi, N)) for _ in range(T)])
            if self.family == "reset":
                A[[T // 4, T // 2, 3 * T // 4]] = 0.0
        elif self.family == "rotation":
            A = np.stack([rng.uniform(self.a_lo, self.a_hi) * _orthogonal(rng, N)
                          for _ in range(T)])
        else:
            s = np.zeros(N)
            mats = []
            for _ in range(T):
                s[:N - 1] = rng.uniform(self.a_lo, self.a_hi, N - 1)
                mats.append(_orthogonal(rng, N) @ np.diag(s) @ _orthogonal(rng, N).T)
            A = np.stack(mats)
        # A: (T, N, N)
        B = rng.standard_normal((T, N))  # (T, N)
        C = rng.standard_normal((T, N))  # (T, N)
        x = rng.standard_normal(T)  # (T,)
        data = {"A": A, "B": B, "C": C, "x": x}
        truth = {"y": reference_recurrence_full(A, B, C, x), "N": N, "T": T,
                 "family": self.family}
        return Instance(data=data, truth=truth)
