"""Synthetic source + context token sets of in-context (ICL) editing, as one DiT attention layer sees them.

ICL video editing (EditVerse, Ditto, LIVEditor) concatenates the tokens of the video being
edited (*source*) with *context* tokens (reference frames, instruction) and runs full
bidirectional attention over both. This generator plants the two properties ISA
(arXiv 2605.04569) builds on, with known parameters:

* Tokens come in contiguous *segments* (an object or region in raster order), random lengths
  in [seg_min, seg_max]; a token's embedding is its segment's unit centre plus isotropic noise
  of norm ~``noise``, so a key block is nearly constant inside a segment and not across a
  segment boundary.
* Context: a fraction ``relevant_frac`` of its segments copy the centre of a random source
  segment (reference content the edit needs); the rest are *distractors* with fresh centres
  and a logit penalty ``context_bias`` (nats): context is less salient than source, and only a
  few context blocks matter.
* Query sharpness: token i's query is beta_i times its own (normalised) embedding, with
  beta_i log-normal (median ``beta_median``, log-sd ``beta_sigma``): sharp queries concentrate
  on their own segment and its copies, flat ones spread over everything.

The logit of (i, j) is beta_i <x_i / |x_i|, x_j> + bias_j (the generator pre-multiplies q by
sqrt(d), which attention divides out). Values are a random linear map of the embedding plus
noise. Per head, everything is drawn afresh. Layout: source tokens first, then context.
``data["n_source"]`` tells methods where the context starts (the DiT knows its own layout);
``truth`` holds the segment structure and the betas, for metrics only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance


def _segments(rng, n: int, lo: int, hi: int) -> np.ndarray:
    """Segment id of each of n tokens, segment lengths uniform in [lo, hi]."""
    ids, s = [], 0
    while len(ids) < n:
        ids.extend([s] * int(rng.integers(lo, hi + 1)))
        s += 1
    return np.asarray(ids[:n])


def _unit(rng, m: int, d: int) -> np.ndarray:
    x = rng.standard_normal((m, d))
    return x / np.linalg.norm(x, axis=1, keepdims=True)


@dataclass
class InContextEditingTokens(Dataset):
    name: ClassVar[str] = "in_context_editing_tokens"
    n_source: int = 1024  # source (edited video) tokens; ours, the paper has 5K-50K per half
    n_context: int = 1024  # context tokens: ICL concatenates halves of equal length (paper, Sec. 1)
    n_heads: int = 4
    head_dim: int = 32
    value_dim: int = 32
    seg_min: int = 16  # segment lengths (tokens), ours
    seg_max: int = 64
    noise: float = 0.5  # norm of the within-segment key noise relative to the unit centre, ours
    relevant_frac: float = 0.2  # context segments that copy a source segment, ours
    context_bias: float = 2.0  # logit penalty of distractor context keys (nats), ours
    beta_median: float = 4.0  # median query sharpness (logit scale), ours
    beta_sigma: float = 0.5  # log-sd of query sharpness, ours
    value_noise: float = 0.5  # per-token value noise, ours

    def __post_init__(self) -> None:
        if self.n_source < 1 or self.n_context < 0 or self.head_dim < 3:
            raise ValueError(f"n_source={self.n_source}, n_context={self.n_context}, "
                             f"head_dim={self.head_dim}: need n_source >= 1, n_context >= 0, head_dim >= 3")
        if not 1 <= self.seg_min <= self.seg_max:
            raise ValueError(f"segment lengths [{self.seg_min}, {self.seg_max}] are empty")

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        ns, nc, H = self.n_source, self.n_context, self.n_heads
        N, e = ns + nc, self.head_dim - 1  # coordinate 0 carries the context bias
        q = np.zeros((H, N, self.head_dim))
        k = np.zeros((H, N, self.head_dim))
        v = np.zeros((H, N, self.value_dim))
        betas, relevant_tokens = np.zeros((H, N)), []
        for h in range(H):
            src_seg = _segments(rng, ns, self.seg_min, self.seg_max)  # (ns,)
            ctx_seg = _segments(rng, nc, self.seg_min, self.seg_max) if nc else np.zeros(0, int)
            n_src_seg = src_seg.max() + 1
            n_ctx_seg = ctx_seg.max() + 1 if nc else 0
            centres = np.concatenate([_unit(rng, n_src_seg, e), _unit(rng, n_ctx_seg, e)])  # (S, e)
            relevant = rng.random(n_ctx_seg) < self.relevant_frac  # (n_ctx_seg,)
            copies = rng.integers(0, n_src_seg, size=n_ctx_seg)
            centres[n_src_seg:][relevant] = centres[copies[relevant]]
            seg = np.concatenate([src_seg, ctx_seg + n_src_seg])  # (N,)
            x = centres[seg] + self.noise * rng.standard_normal((N, e)) / np.sqrt(e)  # (N, e)
            is_distractor = np.concatenate([np.zeros(ns, bool), ~relevant[ctx_seg]])  # (N,)
            beta = self.beta_median * np.exp(self.beta_sigma * rng.standard_normal(N))  # (N,)
            q[h, :, 0] = 1.0
            q[h, :, 1:] = beta[:, None] * x / np.linalg.norm(x, axis=1, keepdims=True)
            k[h, :, 0] = -self.context_bias * is_distractor
            k[h, :, 1:] = x
            w = rng.standard_normal((e, self.value_dim)) / np.sqrt(e)  # (e, dv)
            v[h] = x @ w + self.value_noise * rng.standard_normal((N, self.value_dim))
            betas[h] = beta
            relevant_tokens.append(np.flatnonzero(~is_distractor[ns:]) + ns)
        q *= np.sqrt(self.head_dim)  # attention divides by sqrt(d); the logits above are then exact
        data = {"q": q.astype(np.float32), "k": k.astype(np.float32), "v": v.astype(np.float32),
                "n_source": ns, "source": "synthetic_icl"}
        truth = {"n_source": ns, "beta": betas, "relevant_context": [r.tolist() for r in relevant_tokens]}
        return Instance(data=data, truth=truth)
