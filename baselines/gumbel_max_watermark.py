"""Gumbel-max (exponential-minimum) keyed sampling watermark: Aaronson (2022, "My AI safety
lecture for UT Effective Altruism"; Aaronson & Kirchner), analysed by Fernandez et al. 2023
("Three Bricks to Consolidate Watermarks for LLMs", arXiv 2308.00113); the same sampler is
Kuditipudi et al.'s exponential minimum sampling (arXiv 2307.15593) with a context key.

Sampling: the previous ``context`` tokens and the key give pseudorandom r_v in (0, 1) for every
token v; the next token is argmax_v r_v^(1 / p_v) (= argmax log(r_v) / p_v), an exact sample of
p when the r_v are uniform (the Gumbel-max trick), deterministic given key and context.
Detection: over the scored tokens t >= context of a string, with repeated (context, token)
pairs scored once (Fernandez et al.), S = sum_t -log(1 - r_{x_t}) is Gamma(T, 1) without the
watermark; watermarked when the Gamma tail P(Gamma(T, 1) >= S) < alpha. The first ``context``
tokens of a response are sampled without watermark.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.baselines.keyed_prf import prf, prf_uniform
from claimbench.baselines.watermark_protocol import WatermarkScheme
from claimbench.datasets.markov_languages import draw


def context_uniforms(key: int, ctx: np.ndarray, V: int) -> np.ndarray:
    """r[i, v] = U(key, ctx[i], v) for every row of ctx (N, h) and token v -> (N, V)."""
    N, h = ctx.shape
    cols = np.concatenate([np.repeat(ctx, V, axis=0), np.tile(np.arange(V), N)[:, None]], 1)
    return prf_uniform(key, cols).reshape(N, V)  # (N, V)


def gumbel_pvalues(key: int, X: np.ndarray, context: int) -> np.ndarray:
    """Gamma-tail p-values of the rows of X (N, L) -> (N,)."""
    from scipy.special import gammaincc

    N, L = X.shape
    win = np.lib.stride_tricks.sliding_window_view(X, context + 1, axis=1)  # (N, L-h, h+1)
    flat = win.reshape(-1, context + 1)
    r = prf_uniform(key, flat).reshape(N, -1)  # (N, L-h)
    ident = prf(0, flat).reshape(N, -1)  # (N, L-h) unkeyed identity of each (context, token)
    p = np.empty(N)
    for i in range(N):
        _, first = np.unique(ident[i], return_index=True)
        s = -np.log1p(-r[i, first]).sum()
        p[i] = gammaincc(len(first), s)  # P(Gamma(T, 1) >= s)
    return p


@dataclass
class GumbelMaxWatermark(WatermarkScheme):
    name: ClassVar[str] = "gumbel_max"
    context: int = 3  # ours: tokens hashed into the key (h = 1 cycles a first-order chain)
    alpha: float = 3.17e-5  # ours: the one-sided level of the green list's z > 4

    def generate(self, lm, key, count, length, rng):
        out = np.empty((count, length), dtype=np.int64)
        for t in range(length):
            p = lm.next_probs(out[:, :t])  # (count, V)
            if t < self.context:
                out[:, t] = draw(np.cumsum(p, axis=1), rng)
                continue
            r = context_uniforms(key, out[:, t - self.context:t], lm.V)  # (count, V)
            with np.errstate(divide="ignore"):
                score = np.where(p > 0, np.log(r) / p, -np.inf)  # (count, V)
            out[:, t] = np.argmax(score, axis=1)
        return out

    def detect(self, key, X, ledger, vocab):
        return gumbel_pvalues(key, X, self.context) < self.alpha
