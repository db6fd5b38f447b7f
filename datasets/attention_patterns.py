"""Synthetic queries, keys and values whose attention has a planted "vertical + slash" structure.

Long-context attention maps of real LLMs are dominated by a few patterns (MInference, Jiang et
al. 2024; FlexPrefill, XAttention): *sinks* (the first tokens), *vertical* lines (a few heavy
keys every query attends to), a *local window* and *slash* lines (a fixed offset i - j).
Here each pattern lives in its own coordinates of q and k, so the logit of (i, j) is a sum of
known parts (before the 1/sqrt(d) scaling, which the generator pre-multiplies away):

* sink:      ``sink``      if j < n_sinks;
* vertical:  ``vertical``  if j is one of the head's planted heavy keys (random, seeded);
* window:    ``window`` * mean_m cos(w_m (i - j)), frequencies w_m ~ U(0, pi / window_width):
             a peak of width ~window_width at the diagonal;
* slash:     ``slash`` * mean_m cos(w_m (i - j - offset_h)): the same peak shifted to the
             head's offset (``slash_offsets[h % len]``);
* noise:     the remaining coordinates are Gaussian, giving N(0, noise^2) logit noise.

Values are standard Gaussian. ``truth`` names the planted keys, so a benchmark can score
recall of heavy keys; methods see only q, k, v.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance


@dataclass
class VerticalSlashAttention(Dataset):
    name: ClassVar[str] = "vertical_slash_attention"
    context: int = 2048  # T, queries = keys (prefill)
    n_heads: int = 4
    head_dim: int = 64  # d; needs 2 + 4 n_freq coordinates for the patterns, the rest is noise
    n_sinks: int = 4
    vertical_per_1k: float = 8.0  # planted heavy keys per 1024 tokens (scattered uniformly)
    window_width: int = 32
    slash_offsets: tuple = (64, 256, 512, 1024)
    n_freq: int = 12  # cosine frequencies per positional pattern
    sink: float = 6.0  # logit boosts (nats)
    vertical: float = 4.0
    window: float = 5.0
    slash: float = 4.0
    noise: float = 1.0
    value_dim: int = 64

    def __post_init__(self) -> None:
        need = 2 + 4 * self.n_freq
        if self.head_dim < need + 1:
            raise ValueError(f"head_dim={self.head_dim} leaves no noise coordinates: the patterns "
                             f"use 2 + 4 n_freq = {need}; use head_dim > {need} or fewer n_freq")
        if self.context < 2 or self.n_heads < 1:
            raise ValueError(f"context={self.context}, n_heads={self.n_heads}: need context >= 2, n_heads >= 1")

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        T, H, d, M = self.context, self.n_heads, self.head_dim, self.n_freq
        pos = np.arange(T, dtype=np.float64)
        q = np.zeros((H, T, d))
        k = np.zeros((H, T, d))
        n_vert = max(1, int(round(self.vertical_per_1k * T / 1024)))
        verticals, offsets = [], []
        for h in range(H):
            q[h, :, 0], k[h, : self.n_sinks, 0] = 1.0, self.sink
            heavy = np.sort(rng.choice(np.arange(self.n_sinks, T), size=n_vert, replace=False))
            q[h, :, 1], k[h, heavy, 1] = 1.0, self.vertical
            verticals.append(heavy.tolist())
            off = int(self.slash_offsets[h % len(self.slash_offsets)]) if self.slash_offsets else 0
            offsets.append(off)
            for c0, strength, shift in ((2, self.window, 0), (2 + 2 * M, self.slash, off)):
                w = rng.uniform(0.0, np.pi / self.window_width, size=M)  # (M,)
                qa, ka = np.outer(pos - shift, w), np.outer(pos, w)  # (T, M)
                # cos(a) cos(b) + sin(a) sin(b) = cos(a - b), averaged over the M frequencies
                q[h, :, c0:c0 + 2 * M:2], q[h, :, c0 + 1:c0 + 2 * M:2] = np.cos(qa), np.sin(qa)
                k[h, :, c0:c0 + 2 * M:2] = strength * np.cos(ka) / M
                k[h, :, c0 + 1:c0 + 2 * M:2] = strength * np.sin(ka) / M
            rest = d - (2 + 4 * M)
            q[h, :, 2 + 4 * M:] = rng.standard_normal((T, rest)) / rest ** 0.25
            k[h, :, 2 + 4 * M:] = self.noise * rng.standard_normal((T, rest)) / rest ** 0.25
        q *= np.sqrt(d)  # attention divides by sqrt(d); the logits above are then exact
        v = rng.standard_normal((H, T, self.value_dim))
        data = {"q": q.astype(np.float32), "k": k.astype(np.float32), "v": v.astype(np.float32),
                "source": "synthetic"}
        truth = {"sinks": list(range(self.n_sinks)), "vertical": verticals, "slash_offsets": offsets,
                 "window_width": self.window_width}
        return Instance(data=data, truth=truth)
