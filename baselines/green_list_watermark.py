"""Green-list (soft red-list) watermark: Kirchenbauer, Geiping, Wen, Katz, Miers, Goldstein,
"A Watermark for Large Language Models", ICML 2023 (arXiv 2301.10226).

Sampling: the previous token h seeds a pseudorandom split of the vocabulary into a green list
G(h) of gamma*V tokens and a red list; the logits of green tokens get + delta before sampling:
    p_wm(v | h) propto p(v | h) * exp(delta * [v in G(h)]).
Detection (one-proportion z-test): over the T = L - 1 tokens of a string that have a previous
token, with |s|_G green tokens, z = (|s|_G - gamma T) / sqrt(T gamma (1 - gamma)); watermarked
when z > z_threshold. The first token of a response (no previous token here: no prompt) is
sampled without watermark.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.baselines.keyed_prf import prf
from claimbench.baselines.watermark_protocol import WatermarkScheme
from claimbench.datasets.markov_languages import draw


def green_matrix(key: int, V: int, gamma: float) -> np.ndarray:
    """G[h, v] = whether v is green after h: the gamma*V smallest keyed hashes of (h, v) -> (V, V)."""
    pairs = np.stack(np.meshgrid(np.arange(V), np.arange(V), indexing="ij"), -1).reshape(-1, 2)
    h = prf(key, pairs).reshape(V, V)  # (V, V)
    ranks = np.argsort(np.argsort(h, axis=1), axis=1)  # (V, V)
    return ranks < int(round(gamma * V))


def green_z(G: np.ndarray, X: np.ndarray, gamma: float) -> np.ndarray:
    """z-scores of the rows of X (N, L) under green matrix G -> (N,)."""
    g = G[X[:, :-1], X[:, 1:]].sum(1)  # (N,)
    T = X.shape[1] - 1
    return (g - gamma * T) / np.sqrt(T * gamma * (1 - gamma))


@dataclass
class GreenListWatermark(WatermarkScheme):
    name: ClassVar[str] = "green_list"
    gamma: float = 0.25  # Kirchenbauer et al. 2023, main experiments (gamma = 0.25)
    delta: float = 2.0  # Kirchenbauer et al. 2023, main experiments (delta = 2.0)
    z_threshold: float = 4.0  # Kirchenbauer et al. 2023, Sec. 2-3: z > 4

    def generate(self, lm, key, count, length, rng):
        G = green_matrix(key, lm.V, self.gamma)
        out = np.empty((count, length), dtype=np.int64)
        for t in range(length):
            p = lm.next_probs(out[:, :t])  # (count, V)
            if t > 0:
                p = p * np.exp(self.delta * G[out[:, t - 1]])  # (count, V)
                p = p / p.sum(1, keepdims=True)
            out[:, t] = draw(np.cumsum(p, axis=1), rng)
        return out

    def detect(self, key, X, ledger, vocab):
        return green_z(green_matrix(key, vocab, self.gamma), X, self.gamma) > self.z_threshold
