"""BM25 retrieval over a small corpus of tokenised passages (Robertson & Zaragoza, 2009).

A thin wrapper around the maintained ``rank_bm25`` package (``BM25Okapi``, k1 = 1.5, b = 0.75,
its defaults) that returns the top-k passage ids with a deterministic tie-break (lower id first),
counts calls, and caches the last result per query (an unchanged query is not re-scored: the
SARDI code's ``_retrieve`` does the same). Passages and queries are lists of words; callers
decide the tokenisation (here token ids written as words).
"""
from __future__ import annotations

import numpy as np


class BM25Retriever:
    def __init__(self, docs: list[list[str]], k1: float = 1.5, b: float = 0.75) -> None:
        from rank_bm25 import BM25Okapi

        self.n_docs = len(docs)
        self.bm25 = BM25Okapi(docs, k1=k1, b=b)
        self.calls = 0  # queries actually scored

    def scores(self, query: list[str]) -> np.ndarray:
        return np.asarray(self.bm25.get_scores(list(query)), dtype=float)  # (n_docs,)

    def top_k(self, query: list[str], k: int, exclude=()) -> np.ndarray:
        """Ids of the k best passages for ``query`` (ties: lower id first), skipping ``exclude``."""
        self.calls += 1
        s = self.scores(query)
        if len(exclude):
            s[np.asarray(list(exclude), dtype=int)] = -np.inf
        order = np.lexsort((np.arange(self.n_docs), -s))  # by score desc, then id
        return order[:k]


def words(tokens) -> list[str]:
    """Token ids as BM25 words."""
    return [f"t{int(t)}" for t in tokens]


def dedup(ws: list[str]) -> list[str]:
    """Drop repeated words, keeping first occurrences (SARDI code: rag_deduplicate_query)."""
    return list(dict.fromkeys(ws))
