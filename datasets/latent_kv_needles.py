"""Multi-head latent attention (MLA) decoding with a shared latent KV and head-specific needles.

In MLA (DeepSeek-V2/V3) every query head reads the same compressed latent cache c_j (d_c wide);
with the key/value up-projections absorbed into the query and output projections, decoding is
attention of H per-head queries q_h (d_c wide) over the shared latents: K = V = c. The logit of
head h and key j is q_h . c_j / sqrt(d_c); the generator pre-multiplies sqrt(d_c) away and plants
each part of the logit in its own latent coordinates (as ``attention_patterns`` does); with
``rotate`` (off by default) one random rotation of the latent space keeps every logit but mixes
the coordinates, so a per-coordinate page bound (Quest) can no longer read the plant off one axis:

* needles:   ``n_needles`` keys at random positions, each attended by ``needle_heads`` heads
             drawn at random (not aligned to any head tile), logit boost
             ``needle_logit * exp(needle_spread * N(0, 1))`` per (needle, head);
* shared:    ``n_shared`` keys every head attends (position 0, an attention sink, plus random
             positions), boost ``shared_logit * exp(needle_spread * N(0, 1))`` per head;
* local:     the last ``local_window`` keys, boost ``local_logit`` for every head (recency);
* salience:  a per-key score shared by all heads, ``salience * Exp(1)`` (heavy right tail: the
             attention weight exp(logit) is Pareto-tailed), weighted per head by U(0.5, 1.5);
* noise:     the remaining coordinates are Gaussian: N(0, noise^2) head-specific logit noise.

Queries: ``n_query`` decoding tokens per head (multi-token prediction; the planted parts are the
same for every token, the noise is drawn per token). Values are the latents themselves (K = V).
``budget_frac`` is the attention-compute budget of this decoding step (fraction of dense
compute), part of the data so that every method of a cell runs at the same budget.
``calib`` holds ``n_calib`` further decoding steps from the same distribution (other needles,
other positions) for a method's offline tuning; ``truth`` lists the planted (head, key) pairs
and the planted tokens' own latent directions (``answer_dirs``: the needles', then the shared
keys'), which read an attention output as a retrieval answer (its most-attended planted token).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance
from claimbench.grid import derive_seed


@dataclass
class LatentKVNeedles(Dataset):
    name: ClassVar[str] = "latent_kv_needles"
    context: int = 4096  # N cached tokens (research note: 4-16k)
    latent_dim: int = 64  # d_c (research note: 64; DeepSeek-V3 uses 512)
    n_heads: int = 32  # H query heads sharing the latent (research note: 16-64)
    n_query: int = 2  # decoding tokens per step (MTP depth 1, as in DeepSeek-V3)
    n_needles: int = 16  # ours
    needle_heads: int = 4  # heads attending each needle (ours: 1/8 of the heads)
    needle_logit: float = 9.0  # ours: above log N ~ 8.3, so one needle holds a large share
    needle_spread: float = 0.25  # ours: lognormal spread of the boosts
    n_shared: int = 4  # ours: sink + 3 keys every head attends
    shared_logit: float = 6.0  # ours
    local_window: int = 32  # ours
    local_logit: float = 3.0  # ours
    salience: float = 0.8  # ours: Exp(1) scale of the shared per-key score
    noise: float = 1.0  # ours: std of the head-specific logit noise
    # ours: planted parts stay on their own latent axes, the "outlier channels" that make Quest's
    # per-channel page bounds informative in real LLMs; a random rotation of this 64-d latent
    # leaves the bound uninformative (on one instance, per-head top-8 Quest pages held 6% of
    # the needles, against 97% unrotated)
    rotate: bool = False
    budget_frac: float = 0.1  # attention compute budget / dense compute
    n_calib: int = 2  # calibration decoding steps for offline tuning (ours)

    def __post_init__(self) -> None:
        planted = self.n_needles + self.n_shared + 2
        if self.latent_dim < planted + 8:
            raise ValueError(f"latent_dim={self.latent_dim} leaves too few noise coordinates: "
                             f"the plant uses n_needles + n_shared + 2 = {planted}")
        if not 1 <= self.needle_heads <= self.n_heads:
            raise ValueError(f"needle_heads={self.needle_heads} must be in [1, n_heads={self.n_heads}]")
        if self.context < self.n_needles + self.n_shared + self.local_window + 1:
            raise ValueError(f"context={self.context} too short for the planted keys")
        if not 0.0 < self.budget_frac <= 1.0:
            raise ValueError(f"budget_frac={self.budget_frac} must be in (0, 1]")

    def _step(self, rng: np.random.Generator) -> tuple[dict, dict]:
        N, H, T, d = self.context, self.n_heads, self.n_query, self.latent_dim
        nn_, ns = self.n_needles, self.n_shared
        noise_dims = d - (nn_ + ns + 2)
        c = np.zeros((N, d))
        # planted coordinates: [needles | shared | local | salience | noise...]
        free = np.arange(1, N - self.local_window)
        picks = rng.choice(free, size=nn_ + ns - 1, replace=False)
        needle_pos = np.sort(picks[:nn_])
        shared_pos = np.sort(np.concatenate([[0], picks[nn_:]])).astype(int)
        c[needle_pos, np.arange(nn_)] = 1.0
        c[shared_pos, nn_ + np.arange(ns)] = 1.0
        c[N - self.local_window:, nn_ + ns] = 1.0
        c[:, nn_ + ns + 1] = self.salience * rng.exponential(1.0, N)
        c[:, nn_ + ns + 2:] = rng.standard_normal((N, noise_dims)) / np.sqrt(noise_dims)

        r = np.zeros((H, T, d))  # logit(h, t, j) = r[h, t] . c[j]
        heads = np.stack([rng.choice(H, size=self.needle_heads, replace=False) for _ in range(nn_)])
        boost = self.needle_logit * np.exp(self.needle_spread * rng.standard_normal(heads.shape))
        for n in range(nn_):
            r[heads[n], :, n] = boost[n][:, None]
        r[:, :, nn_:nn_ + ns] = (self.shared_logit
                                 * np.exp(self.needle_spread * rng.standard_normal((H, 1, ns))))
        r[:, :, nn_ + ns] = self.local_logit
        r[:, :, nn_ + ns + 1] = rng.uniform(0.5, 1.5, (H, 1))
        r[:, :, nn_ + ns + 2:] = self.noise * rng.standard_normal((H, T, noise_dims))
        # the planted tokens' own latent directions (needles, then shared keys): an output's
        # projection on one is exactly the attention probability of that token
        dirs = np.eye(d)[:nn_ + ns]  # (nn + ns, d)
        if self.rotate:
            rot, _ = np.linalg.qr(rng.standard_normal((d, d)))  # (d, d) orthogonal
            c, r, dirs = c @ rot, r @ rot, dirs @ rot
        q = (r * np.sqrt(d)).astype(np.float32)  # (H, T, d): the 1/sqrt(d) scaling cancels
        lat = np.broadcast_to(c.astype(np.float32), (H, N, d)).copy()  # (H, N, d) shared latent
        pairs = np.stack([heads.ravel(), np.repeat(needle_pos, self.needle_heads)], axis=1)
        return ({"q": q, "k": lat, "v": lat},
                {"needle_pairs": pairs.astype(np.int64), "needle_pos": needle_pos,
                 "shared_pos": shared_pos, "answer_dirs": dirs})

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        data, truth = self._step(rng)
        calib = []
        for i in range(self.n_calib):
            cdata, _ = self._step(np.random.default_rng(derive_seed("calib", seed, i)))
            calib.append({"q": cdata["q"], "k": cdata["k"][:1]})  # (1, N, d): the latent once
        data.update(budget_frac=float(self.budget_frac), calib=calib, n_heads=self.n_heads)
        return Instance(data=data, truth=truth)
