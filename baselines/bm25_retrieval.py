"""BM25 retrieval over a small corpus of tokenised passages (Robertson & Zaragoza, 2009).

A thin wrapper around the maintained ``rank_bm25`` package (``BM25Okapi``, k1 = 1.5, b = 0.75,
its defaults) that returns the top-k passage ids with a deterministic tie-break (lower id first),
counts calls, and caches the last result per query (an unchanged query is not re-scored: the
SARDI code's ``_retrieve`` does the same). Passages and queries are lists of words; callers
decide the tokenisation (here token ids written as words).

Scoring is ``BM25Okapi.get_scores``'s formula evaluated from its own index (idf, avgdl, document
lengths and term frequencies), with each query word's term-frequency row read from a dense
(vocabulary, documents) table built once instead of the package's per-word Python loop over
every document's dict (that loop was about half the CPU of the SARDI reader's 20000-question
training set, which scores ~18000 queries). The arithmetic is the package's, in the same order
and dtypes (int64 frequencies, float64 scores, one ``+=`` per query word, repeated words
included), so the scores are bit-for-bit equal; ``tests/test_sardi.py`` compares them with
``get_scores`` on generated corpora.
"""
from __future__ import annotations

import numpy as np


class BM25Retriever:
    def __init__(self, docs: list[list[str]], k1: float = 1.5, b: float = 0.75) -> None:
        from rank_bm25 import BM25Okapi

        self.n_docs = len(docs)
        self.bm25 = bm = BM25Okapi(docs, k1=k1, b=b)
        self.calls = 0  # queries actually scored
        # rank_bm25's index as arrays: word -> row of term frequencies (n_words, n_docs) int64
        self.row = {w: i for i, w in enumerate(bm.idf)}
        self.tf = np.zeros((len(self.row) + 1, self.n_docs), dtype=np.int64)  # last row: unseen
        for j, freqs in enumerate(bm.doc_freqs):
            for w, f in freqs.items():
                self.tf[self.row[w], j] = f
        # the length-normalised denominator term, as get_scores computes it per word
        doc_len = np.array(bm.doc_len)
        self.norm = bm.k1 * (1 - bm.b + bm.b * doc_len / bm.avgdl)  # (n_docs,)

    def scores(self, query: list[str]) -> np.ndarray:
        """``BM25Okapi.get_scores(query)``, bit for bit (see the module docstring)."""
        bm, unseen = self.bm25, len(self.row)
        score = np.zeros(bm.corpus_size)  # (n_docs,)
        for q in query:
            q_freq = self.tf[self.row.get(q, unseen)]  # (n_docs,) int64
            score += (bm.idf.get(q) or 0) * (q_freq * (bm.k1 + 1) / (q_freq + self.norm))
        return score

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
