"""The tiny character LM as a generated language: ``tiny:charlm`` (the toolkit's 3-layer
character transformer trained on CPython's help topics) read at context one, and the
held-out help-topic text as human text.

``charlm_chain(spec)`` is the first-order chain P[a] = softmax(logits([a])) of the trained
model (its next-character distribution after each single character; pi0 after a newline):
every keyed sampler and ideal mechanism then runs on exact next-token distributions at the
cost of a table lookup, instead of one forward pass per candidate token (the block-aligned
sampler draws thousands of candidate blocks per block). ``DocsText`` samples windows of the
held-out split (real human text, never seen by the model's training windows).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from claimbench.datasets.markov_languages import MarkovLM


def _softmax(L: np.ndarray) -> np.ndarray:
    P = np.exp(L - L.max(-1, keepdims=True))
    return P / P.sum(-1, keepdims=True)


@lru_cache(maxsize=2)
def charlm_chain(spec: str = "tiny:charlm") -> MarkovLM:
    from claimbench.models import load_model

    tm = load_model(spec)
    vocab = tm.vocab
    L = np.stack([tm.logits([a]) for a in range(len(vocab))])  # (V, V)
    start = tm.logits([vocab.index("\n")]) if "\n" in vocab else L.mean(0)  # (V,)
    return MarkovLM(pi0=_softmax(start), P=_softmax(L))


@dataclass
class DocsText:
    """Human text: windows of the held-out split of the help topics, as character ids."""

    ids: np.ndarray  # (T,)

    def sample(self, count: int, length: int, rng: np.random.Generator,
               first: np.ndarray | None = None) -> np.ndarray:
        starts = rng.integers(0, len(self.ids) - length, count)
        return self.ids[starts[:, None] + np.arange(length)[None, :]]  # (count, length)


@lru_cache(maxsize=2)
def docs_text(spec: str = "tiny:charlm") -> DocsText:
    from claimbench.datasets import python_docs_text
    from claimbench.models import load_model

    vocab = load_model(spec).vocab
    index = {c: i for i, c in enumerate(vocab)}
    _, val = python_docs_text.split_text()
    unk = len(vocab) - 1
    return DocsText(ids=np.array([index.get(c, unk) for c in val], dtype=np.int64))
