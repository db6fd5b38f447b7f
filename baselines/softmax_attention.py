"""Causal (masked) softmax attention, single head: y = softmax(mask(Q K^T * scale)) V.

Reference: Vaswani et al., "Attention Is All You Need" (2017), with the causal mask of
autoregressive decoding. Cost O(T^2 d_k).

The data dict names which arrays play queries, keys and values (``q_field`` / ``k_field`` /
``v_field``). Defaults follow the SSD correspondence of Dao & Gu (2024): C <-> Q, B <-> K,
x <-> V, so the baseline sees exactly the inputs of a state-space model with d_k = N.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method


def causal_softmax_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray,
                             scale: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Output and the row-stochastic, lower-triangular attention matrix P."""
    T, d = q.shape
    s = 1.0 / np.sqrt(d) if scale is None else scale
    S = (q @ k.T) * s  # (T, T)
    S[np.triu_indices(T, 1)] = -np.inf
    S -= S.max(axis=1, keepdims=True)  # the diagonal is always finite, so every row max is too
    P = np.exp(S)  # (T, T)
    P /= P.sum(axis=1, keepdims=True)
    return P @ v, P


@dataclass
class CausalSoftmaxAttention(Method):
    name: ClassVar[str] = "softmax_attention"
    scale: float | None = None  # None: 1/sqrt(d_k), the standard scaling (Vaswani et al. 2017)
    q_field: str = "C"  # Dao & Gu (2024) SSD correspondence C <-> Q
    k_field: str = "B"  # B <-> K
    v_field: str = "x"  # x <-> V
    repeats: int = 5  # our choice: min over repeats for the runtimes (wall and CPU)
    matrix_max_T: int = 128  # our choice: return P (for rank analysis) up to this length

    def run(self, data, seed):
        q, k, v = data[self.q_field], data[self.k_field], data[self.v_field]
        wall = cpu = float("inf")
        for _ in range(max(1, self.repeats)):
            w0, c0 = time.perf_counter(), time.process_time()
            y, P = causal_softmax_attention(q, k, v, self.scale)
            c1, w1 = time.process_time(), time.perf_counter()
            wall, cpu = min(wall, w1 - w0), min(cpu, c1 - c0)
        out = {"y": y, "time_s": wall, "cpu_s": cpu, "form": "softmax"}
        if q.shape[0] <= self.matrix_max_T:
            out["M"] = P
        return out
