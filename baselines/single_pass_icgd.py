"""Single-pass in-context gradient descent (Wu et al., ICML 2025, "Transformers are Deep
Optimizers: Provable In-Context Learning for Deep Model Training", arXiv:2411.16549): a
(2N + 4) L-layer transformer over the n example tokens simulates L GD steps of an N-layer ReLU
network in one forward pass.

Layout (our reading of the abstract: every token carries the whole state, so every layer
processes everything): token i holds [x_i; 1], y_i, its activations H_1..H_{N-1} (with the ones
row), its output f_i, its back-propagated signals delta_1..delta_N and a copy of all N weight
matrices; width D = (d + 1) + 1 + (N - 1)(w + 1) + 1 + sum_l w_l + sum_l |W_l|.

Per GD step the simulator applies N forward layers and N backward layers (token-wise), and the
gradient sum_i delta_i H_{i}^T / n through uniform softmax attention over the n tokens (zero
scores), then the update to every token's copy. The cost is counted as Wu et al.'s depth,
(2N + 4) layers per step, each a full attention over the n tokens at width D: n^2 (2D + 2D)
multiply-adds per layer (scores and values at full width). We do not construct their weights
(the ReLU-attention approximations of products), only the layout and its attention count;
the arithmetic is exact, so the outputs equal GD.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method


def token_width(d: int, shapes: list[tuple[int, int]]) -> int:
    N = len(shapes)
    acts = sum(s[0] + 1 for s in shapes[:-1]) + 1  # hidden activations + output
    return (d + 1) + 1 + acts + sum(s[0] for s in shapes) + sum(a * b for a, b in shapes)


def single_pass(data: dict) -> dict:
    X, y, W0, lr, L = data["X"], data["y"], data["W0"], data["lr"], int(data["L"])
    n, d = X.shape
    N = len(W0)
    copies = [np.repeat(W[None], n, axis=0) for W in W0]  # each (n, out, in + 1)
    H0 = np.hstack([X, np.ones((n, 1))])  # (n, d + 1)
    uniform = np.full((n, n), 1.0 / n)  # softmax of zero scores
    for _ in range(L):
        acts = [H0]
        for l in range(N):
            Z = np.einsum("nij,nj->ni", copies[l], acts[-1])  # (n, out)
            acts.append(Z if l == N - 1 else np.hstack([np.maximum(Z, 0.0), np.ones((n, 1))]))
        delta = acts[-1] - y[:, None]  # (n, 1); the 1/n comes from the uniform attention
        grads = [None] * N
        for l in range(N - 1, -1, -1):
            grads[l] = delta[:, :, None] * acts[l][:, None, :]  # (n, out, in + 1) per token
            if l > 0:
                back = np.einsum("nij,ni->nj", copies[l][:, :, :-1], delta)  # (n, in)
                delta = back * (acts[l][:, :-1] > 0)
        for l in range(N):
            G = (uniform @ grads[l].reshape(n, -1)).reshape(grads[l].shape)  # (n, out, in + 1)
            copies[l] = copies[l] - lr * G
    shapes = [W.shape for W in W0]
    D = token_width(d, shapes)
    layers = (2 * N + 4) * L
    return {"weights": [c[0] for c in copies], "n_layers": float(layers), "width": float(D),
            "attn_pairs": float(layers * n * n), "attn_flops": float(layers * n * n * 4 * D)}


@dataclass
class SinglePassICGD(Method):
    name: ClassVar[str] = "wu_single_pass"

    def applies_to(self, dataset) -> str | None:
        return None if getattr(dataset, "name", "") == "icgd_mlp_regression" else \
            "needs an N-layer network regression prompt"

    def run(self, data, seed: int) -> dict:
        t0 = time.perf_counter()
        out = single_pass(data)
        out["wall_s"] = time.perf_counter() - t0
        return out
