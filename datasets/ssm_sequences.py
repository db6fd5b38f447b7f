"""Random inputs and parameters of a single-channel selective (time-varying) diagonal SSM.

One instance is a sequence of length T with, at every step t, a decay vector
a_t in (0, 1)^N (the diagonal of A_t), input/output projections b_t, c_t in R^N and a
scalar input x_t. With ``scalar=True`` every a_t is a scalar times the identity
(a_{t,n} = a_t for all n), the case of Dao & Gu's original SSD.

``truth["y"]`` is the output of the recurrence h_t = diag(a_t) h_{t-1} + b_t x_t,
y_t = c_t^T h_t run in extended precision (np.longdouble: 80-bit on x86-64), so the
reference is more accurate than any float64 method that is compared against it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance


def reference_recurrence(a: np.ndarray, B: np.ndarray, C: np.ndarray, x: np.ndarray) -> np.ndarray:
    """y of the diagonal SSM, accumulated in np.longdouble; returned as float64."""
    a_l = a.astype(np.longdouble)  # (T, N)
    B_l = B.astype(np.longdouble)  # (T, N)
    C_l = C.astype(np.longdouble)  # (T, N)
    x_l = x.astype(np.longdouble)  # (T,)
    h = np.zeros(a.shape[1], dtype=np.longdouble)  # (N,)
    y = np.empty(a.shape[0], dtype=np.longdouble)  # (T,)
    for t in range(a.shape[0]):
        h = a_l[t] * h + B_l[t] * x_l[t]
        y[t] = np.dot(C_l[t], h)
    return y.astype(np.float64)


@dataclass
class SSMSequences(Dataset):
    name: ClassVar[str] = "ssm_sequences"
    T: int = 256  # sequence length; the note's plan sweeps T in {64, 256, 1024}
    N: int = 16  # state size; the note's plan sweeps N in {1, 4, 16}
    scalar: bool = False  # True: A_t = a_t I (scalar SSM, Dao & Gu's SSD case)
    # a ~ U(a_lo, a_hi): paper only asks a_t in (0, 1); our choice keeps a memory of about
    # 20 steps so that information crosses the chunk boundaries of the chunked algorithm.
    a_lo: float = 0.9
    a_hi: float = 1.0

    def make(self, seed: int) -> Instance:
        if not 0.0 <= self.a_lo < self.a_hi <= 1.0:
            raise ValueError("need 0 <= a_lo < a_hi <= 1")
        rng = np.random.default_rng(seed)
        width = 1 if self.scalar else self.N
        a = rng.uniform(self.a_lo, self.a_hi, size=(self.T, width))  # (T, 1) or (T, N)
        # uniform() may return a_lo exactly; keep a strictly positive so log(a) is finite.
        a = np.clip(a, np.finfo(np.float64).tiny, None)
        a = np.broadcast_to(a, (self.T, self.N)).copy()  # (T, N)
        B = rng.standard_normal((self.T, self.N))  # (T, N)
        C = rng.standard_normal((self.T, self.N))  # (T, N)
        x = rng.standard_normal(self.T)  # (T,)
        data = {"a": a, "B": B, "C": C, "x": x, "scalar": self.scalar}
        truth = {"y": reference_recurrence(a, B, C, x), "N": self.N, "T": self.T}
        return Instance(data=data, truth=truth)
