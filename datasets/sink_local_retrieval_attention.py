"""Synthetic q, k, v whose causal attention is block-sparse: sinks, a local window and a fixed set
of scattered heavy (retrieval) keys, with the rest of the context holding a fixed small share.

Long-context attention of real LLMs is sparse, and more so for longer inputs (PBS-Attn's
abstract: "the attention matrix is often sparse, particularly for long sequences"; MInference,
StreamingLLM, H2O): most of a query's mass sits on the first tokens (sinks), a local window and
a few heavy keys that many queries share (vertical lines / heavy hitters). Each part lives in its
own coordinates of q and k, so the logit of (i, j) is a sum of known parts (the generator
pre-multiplies the 1/sqrt(d) scaling away):

* sink:       ``sink``      if j < n_sinks;
* window:     ``window`` * mean_m cos(w_m (i - j)), w_m ~ U(0, pi / window_width);
* retrieval:  ``retrieval`` if j is one of the head's ``n_retrieval`` heavy keys (uniform over
              the non-sink positions, seeded; a count, not a rate, so they do not multiply with
              the length);
* noise:      N(0, noise^2) on every pair (Gaussian coordinates);
* background: ``-c_i`` on every key that is neither a sink nor a heavy key, with c_i set per
              query so that, in expectation over the noise, those keys hold ``background_share``
              of query i's causal mass. The window is not counted as planted mass when c_i is
              set (a conservative choice: the background share is then at most the target).

Values are standard Gaussian. ``truth`` names the planted keys; methods see only q, k, v.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance


@dataclass
class SinkLocalRetrievalAttention(Dataset):
    name: ClassVar[str] = "sink_local_retrieval_attention"
    context: int = 8192  # T, queries = keys (prefill)
    n_heads: int = 2
    head_dim: int = 64  # needs 2 + 2 n_freq coordinates for the patterns, the rest is noise
    n_sinks: int = 4
    n_retrieval: int = 32  # heavy keys per head (old vertical_slash rate, 8 per 1k, at 4k)
    window_width: int = 32
    n_freq: int = 12
    sink: float = 6.0  # logit boosts (nats), as attention_patterns.VerticalSlashAttention
    retrieval: float = 4.0
    window: float = 5.0
    noise: float = 1.0
    background_share: float = 0.05  # expected mass off sinks and heavy keys, per query
    value_dim: int = 64

    def __post_init__(self) -> None:
        rest = self.head_dim - (3 + 2 * self.n_freq)
        if rest < 1:
            raise ValueError(f"head_dim={self.head_dim} leaves no noise coordinates (patterns use "
                             f"{3 + 2 * self.n_freq})")
        if not 0.0 < self.background_share < 1.0:
            raise ValueError(f"background_share={self.background_share} must lie in (0, 1)")
        if self.context <= self.n_sinks + self.n_retrieval:
            raise ValueError(f"context={self.context} too short for {self.n_sinks} sinks and "
                             f"{self.n_retrieval} heavy keys")

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        T, H, d, M = self.context, self.n_heads, self.head_dim, self.n_freq
        pos = np.arange(T, dtype=np.float64)
        q = np.zeros((H, T, d))
        k = np.zeros((H, T, d))
        rest = d - (3 + 2 * M)
        heavy_all = []
        for h in range(H):
            q[h, :, 0], k[h, : self.n_sinks, 0] = 1.0, self.sink
            heavy = np.sort(rng.choice(np.arange(self.n_sinks, T), size=self.n_retrieval, replace=False))
            q[h, :, 1], k[h, heavy, 1] = 1.0, self.retrieval
            heavy_all.append(heavy.tolist())
            w = rng.uniform(0.0, np.pi / self.window_width, size=M)  # (M,)
            ang = np.outer(pos, w)  # (T, M)
            # cos(a) cos(b) + sin(a) sin(b) = cos(a - b), averaged over the M frequencies
            q[h, :, 3:3 + 2 * M:2], q[h, :, 4:3 + 2 * M:2] = np.cos(ang), np.sin(ang)
            k[h, :, 3:3 + 2 * M:2] = self.window * np.cos(ang) / M
            k[h, :, 4:3 + 2 * M:2] = self.window * np.sin(ang) / M
            q[h, :, 3 + 2 * M:] = rng.standard_normal((T, rest)) / rest ** 0.25
            k[h, :, 3 + 2 * M:] = self.noise * rng.standard_normal((T, rest)) / rest ** 0.25
            # background offset: sum over visible background keys of E[exp(noise)] e^{-c_i}
            # = share / (1 - share) * (planted mass visible to i)
            planted = np.zeros(T, dtype=bool)
            planted[: self.n_sinks], planted[heavy] = True, True
            n_bg = np.cumsum(~planted)  # (T,) background keys at or before i
            pm = np.cumsum(np.where(np.arange(T) < self.n_sinks, np.exp(self.sink), 0.0)
                           + np.where(np.isin(np.arange(T), heavy), np.exp(self.retrieval), 0.0))
            pm = pm * np.exp(self.noise ** 2 / 2)  # (T,) expected planted mass visible to i
            share = self.background_share / (1 - self.background_share)
            bg = n_bg * np.exp(self.noise ** 2 / 2)
            q[h, :, 2] = np.log(np.maximum(bg, 1e-12) / np.maximum(share * pm, 1e-12))  # c_i
            k[h, ~planted, 2] = -1.0
        q *= np.sqrt(d)  # attention divides by sqrt(d); the logits above are then exact
        v = rng.standard_normal((H, T, self.value_dim))
        data = {"q": q.astype(np.float32), "k": k.astype(np.float32), "v": v.astype(np.float32),
                "source": "synthetic"}
        truth = {"sinks": list(range(self.n_sinks)), "retrieval": heavy_all,
                 "window_width": self.window_width}
        return Instance(data=data, truth=truth)
