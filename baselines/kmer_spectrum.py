"""k-mer spectrum featuriser: the frequency of every k-mer of a DNA sequence (alignment-free,
no parameters; the classical baseline of sequence classification).

For a sequence s over {0,1,2,3} of length L, phi_k(s)[w] = #{t : s[t:t+k] = w} / (L - k + 1) for
every w in {0..3}^k (4**k features), the k-mer read as a base-4 integer, first base most
significant. ``spectrum(X, ks)`` concatenates several k.
"""
from __future__ import annotations

import numpy as np


def kmer_index(X: np.ndarray, k: int) -> np.ndarray:
    """(n, L-k+1) base-4 index of every k-mer window of X (n, L)."""
    X = np.asarray(X, dtype=np.int64)
    n, L = X.shape
    idx = np.zeros((n, L - k + 1), dtype=np.int64)
    for j in range(k):
        idx = idx * 4 + X[:, j:L - k + 1 + j]
    return idx


def kmer_counts(X: np.ndarray, k: int, normalise: bool = True) -> np.ndarray:
    """(n, 4**k) k-mer counts (frequencies when ``normalise``) of the sequences X (n, L)."""
    idx = kmer_index(X, k)  # (n, W)
    n, W = idx.shape
    flat = idx + (np.arange(n) * 4 ** k)[:, None]  # (n, W), row-offset indices
    counts = np.bincount(flat.ravel(), minlength=n * 4 ** k).reshape(n, 4 ** k)
    return counts / W if normalise else counts.astype(float)


def spectrum(X: np.ndarray, ks=(1, 2, 3)) -> np.ndarray:
    return np.concatenate([kmer_counts(X, k) for k in ks], axis=1)
