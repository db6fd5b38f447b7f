"""Generated languages with known next-token distributions: a random first-order Markov chain
over V tokens (Dirichlet rows) or the uniform distribution, plus an independent "human" chain.

A language is a :class:`MarkovLM` (start distribution pi0 (V,), transition matrix P (V, V)):
``next_probs`` gives the exact next-token distribution of any batch of contexts (only the last
token matters), which is all a keyed sampler needs, and ``sample`` draws unwatermarked text.
``language="uniform"`` is the setting of the paper's positive result (every token uniform);
``language="markov"`` rows are Dirichlet(``concentration``) so the entropy rate is a few bits
per token (about 3.4 bits at V = 64, concentration 0.1; every row at least 2 bits).
``language="charlm"`` is the toolkit's tiny character LM read at context one, with held-out
documentation text as the human text (``datasets/charlm_chain.py``; V is then the model's).

The instance carries the model, a "human" chain (drawn independently, same family) and the
query protocol (how many issued responses, their length, the block length and the attribution
threshold ell). It has no truth of its own: the ground truth of attribution is the ideal
mechanism applied to the ledger a method issues (``methods/ideal_attribution.py``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

LANGUAGES = ("markov", "uniform", "charlm")


@dataclass
class MarkovLM:
    """A first-order Markov language model over ``V`` tokens."""

    pi0: np.ndarray  # (V,)
    P: np.ndarray  # (V, V) row = next-token distribution after that token

    @property
    def V(self) -> int:
        return int(self.P.shape[0])

    def next_probs(self, ctx: np.ndarray) -> np.ndarray:
        """Next-token distributions after each row of ``ctx`` (N, t); t = 0 means the start."""
        ctx = np.asarray(ctx)
        if ctx.ndim == 1 or ctx.shape[1] == 0:
            return np.broadcast_to(self.pi0, (ctx.shape[0], self.V))  # (N, V)
        return self.P[ctx[:, -1]]  # (N, V)

    def table(self) -> tuple[np.ndarray, np.ndarray]:
        """``guide_table(P)``, built once per P: the block-aligned sampler calls ``sample`` a
        few hundred times per cell, and rebuilding the (V, 4V) guide each time was half its CPU.
        Keyed on the array object (and a copy of its values), so a replaced or edited P rebuilds."""
        cached = self.__dict__.get("_table")
        if cached is None or cached[0] is not self.P or not np.array_equal(cached[1], self.P):
            cached = (self.P, self.P.copy(), guide_table(self.P))
            self.__dict__["_table"] = cached
        return cached[2]

    def entropy_rate_bits(self) -> float:
        """Entropy rate of the chain under its stationary distribution (bits per token)."""
        w, vecs = np.linalg.eig(self.P.T)
        st = np.abs(np.real(vecs[:, np.argmin(np.abs(w - 1))]))
        st = st / st.sum()  # (V,)
        h = -(self.P * np.log2(np.where(self.P > 0, self.P, 1.0))).sum(1)  # (V,)
        return float(st @ h)

    def sample(self, count: int, length: int, rng: np.random.Generator,
               first: np.ndarray | None = None) -> np.ndarray:
        """``count`` unwatermarked sequences of ``length`` tokens (count, length); ``first`` (count,)
        are previous tokens to continue from (None: start from pi0)."""
        out = np.empty((count, length), dtype=np.int64)
        table = self.table()
        prev = first
        for t in range(length):
            if prev is None:
                out[:, t] = draw(np.broadcast_to(np.cumsum(self.pi0), (count, self.V)), rng)
            else:
                out[:, t] = draw_rows(self.P, prev, rng, table)
            prev = out[:, t]
        return out


def draw(cdf: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One inverse-CDF draw per row of ``cdf`` (N, V) -> (N,)."""
    u = rng.random(cdf.shape[0])[:, None]  # (N, 1)
    return np.minimum((u >= cdf).sum(1), cdf.shape[1] - 1)  # (N,)


def guide_table(P: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row CDFs C (V, V) and a guide table (V, 4V): guide[r, j] = first token with C[r] > j/4V
    (Chen & Asau's guide-table inverse-CDF sampler)."""
    C = np.cumsum(P, axis=1)  # (V, V)
    C[:, -1] = 1.0
    K = 4 * P.shape[1]
    grid = np.arange(K) / K  # (K,)
    guide = (C[:, None, :] <= grid[None, :, None]).sum(-1)  # (V, K)
    return C, np.minimum(guide, P.shape[1] - 1)


def draw_rows(P: np.ndarray, prev: np.ndarray, rng: np.random.Generator,
              table: tuple | None = None) -> np.ndarray:
    """Exact next tokens after ``prev`` (N,) under transition matrix ``P`` (V, V): start at the
    guide-table entry of u and step up while C[prev, idx] <= u (under one step on average)."""
    C, guide = guide_table(P) if table is None else table
    prev = np.asarray(prev, dtype=np.int64)
    u = rng.random(prev.shape[0])  # (N,)
    idx = guide[prev, (u * guide.shape[1]).astype(np.int64)]  # (N,)
    need = np.flatnonzero(C[prev, idx] <= u)
    while need.size:
        idx[need] += 1
        need = need[C[prev[need], idx[need]] <= u[need]]
    return idx


def random_chain(rng: np.random.Generator, V: int, concentration: float) -> MarkovLM:
    P = rng.dirichlet(np.full(V, concentration), size=V)  # (V, V)
    pi0 = rng.dirichlet(np.full(V, concentration))  # (V,)
    return MarkovLM(pi0=pi0, P=P)


def uniform_chain(V: int) -> MarkovLM:
    return MarkovLM(pi0=np.full(V, 1.0 / V), P=np.full((V, V), 1.0 / V))


@dataclass
class MarkovLanguage(Dataset):
    """A generated language model, a human chain and the attribution query protocol."""

    name: ClassVar[str] = "markov_language"
    language: str = "markov"  # "markov" | "uniform" (the paper's positive setting) | "charlm"
    V: int = 64  # research note: a bigram/HMM over 64 tokens
    concentration: float = 0.1  # ours: Dirichlet rows, ~3.4 bits/token, every row >= 2 bits
    n_responses: int = 8  # ours: transcripts issued into the ledger
    n_regen: int = 4  # ours: watermarked responses generated but never issued
    response_len: int = 64  # ours: tokens per response (8 blocks of 8)
    block: int = 8  # ours: block length b of the block-aligned scheme and mechanism
    ell: int = 8  # ours: M1 attributes strings holding an issued substring of >= ell tokens
    n_queries: int = 48  # ours: queries per string type

    def make(self, seed: int) -> Instance:
        if self.language not in LANGUAGES:
            raise ValueError(f"language {self.language!r} not in {LANGUAGES}")
        rng = np.random.default_rng(seed)
        if self.language == "charlm":
            from claimbench.datasets.charlm_chain import charlm_chain, docs_text

            lm, human = charlm_chain(), docs_text()
        else:
            lm = (random_chain(rng, self.V, self.concentration) if self.language == "markov"
                  else uniform_chain(self.V))
            human = random_chain(rng, self.V, self.concentration)
        protocol = dict(n_responses=self.n_responses, n_regen=self.n_regen,
                        response_len=self.response_len, block=self.block, ell=self.ell,
                        n_queries=self.n_queries)
        return Instance(data={"lm": lm, "human": human, "protocol": protocol},
                        truth={"entropy_bits": lm.entropy_rate_bits()})
