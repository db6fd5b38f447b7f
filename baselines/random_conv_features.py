"""Frozen random convolutional features of DNA (a randomly initialised, untrained 1-D CNN used as
an embedding model; width is its "scale" axis).

x = one-hot(s) in R^{L x 4}; a bank of W filters w_j in R^{K x 4} with entries N(0, 1/(4K)) and
biases b_j ~ N(0, 0.1^2), all drawn from ``seed``;
    h_{t,j} = relu(<w_j, x[t:t+K]> + b_j),     phi(s) = [mean_t h_{t,:}, max_t h_{t,:}] in R^{2W}.
Frozen parameters: 4 K W + W.
"""
from __future__ import annotations

import numpy as np


def one_hot(X: np.ndarray) -> np.ndarray:
    return np.eye(4)[np.asarray(X, dtype=np.int64)]  # (n, L, 4)


def conv_params(width: int, kernel: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    Wt = rng.standard_normal((kernel * 4, width)) / np.sqrt(4 * kernel)  # (4K, W)
    b = 0.1 * rng.standard_normal(width)  # (W,)
    return Wt, b


def random_conv_features(X: np.ndarray, width: int, kernel: int = 9, seed: int = 0,
                         chunk: int = 256) -> np.ndarray:
    """(n, 2 width) mean- and max-pooled ReLU responses of a random conv layer."""
    Wt, b = conv_params(width, kernel, seed)
    out = []
    for s in range(0, len(X), chunk):
        oh = one_hot(X[s:s + chunk])  # (c, L, 4)
        win = np.lib.stride_tricks.sliding_window_view(oh, kernel, axis=1)  # (c, L-K+1, 4, K)
        win = win.transpose(0, 1, 3, 2).reshape(oh.shape[0], -1, kernel * 4)  # (c, T, 4K)
        h = np.maximum(win @ Wt + b, 0.0)  # (c, T, W)
        out.append(np.concatenate([h.mean(axis=1), h.max(axis=1)], axis=1))  # (c, 2W)
    return np.concatenate(out, axis=0)


def n_params(width: int, kernel: int = 9) -> int:
    return 4 * kernel * width + width
