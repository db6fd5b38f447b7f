"""Synthetic two-embedding retrieval corpora: an expensive metric D and a distorted cheap proxy d.

A stand-in for the bi-metric setting of arXiv 2406.02891 (a large "expensive" text embedding such
as SFR-Embedding-Mistral against a tiny "proxy" one such as bge-micro), without the models:

* expensive vectors x in R^dim: a Gaussian mixture in a `latent_dim`-dimensional latent space
  mapped linearly into R^dim, plus a little isotropic ambient noise (embeddings have a low intrinsic
  dimension); D(q, x) = ||q - x||_2 (or the cosine distance), the metric whose top-k is the truth;
* proxy vectors y = W x + noise * s * eps in R^proxy_dim: a random Gaussian projection (which
  distorts distances as a cheaper, lower-dimensional model does) plus independent per-item noise
  (its mistakes); `noise` is the noise scale relative to the per-coordinate spread s of W x and is
  the distortion knob. d(q, x) = ||y_q - y_x||_2.

Queries are fresh draws from the same mixture. The truth holds the exact top-k under D (by brute
force), and two descriptions of how good the proxy is: the recall of the exact proxy top-k, and an
empirical distortion C = q99 / q01 of D/d over query-item pairs (the paper's theory assumes
d <= D <= C d for all pairs, up to scale; the tails of a random proxy make the all-pairs C
unbounded, so we report quantiles over each query's 50 true neighbours plus 50 random items).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

KINDS = ("l2", "cosine")


def pairwise_distances(A: np.ndarray, B: np.ndarray, kind: str = "l2") -> np.ndarray:
    """Dense distance matrix between the rows of A (n, p) and B (m, p)."""
    if kind == "cosine":
        An = A / np.linalg.norm(A, axis=1, keepdims=True)
        Bn = B / np.linalg.norm(B, axis=1, keepdims=True)
        return np.clip(1.0 - An @ Bn.T, 0.0, 2.0)  # (n, m)
    if kind == "l2":
        sq = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2.0 * (A @ B.T)  # (n, m)
        return np.sqrt(np.maximum(sq, 0.0))
    raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")


def exact_topk(dist: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k smallest entries of each row, sorted by (distance, index)."""
    part = np.argpartition(dist, k - 1, axis=1)[:, :k]  # (m, k)
    rows = np.arange(dist.shape[0])[:, None]
    order = np.lexsort((part, dist[rows, part]), axis=1)  # ties broken by index: deterministic
    return part[rows, order]


@dataclass
class BimetricEmbeddings(Dataset):
    name: ClassVar[str] = "bimetric_embeddings"

    n: int = 20000  # corpus size; research note's plan (paper: BEIR corpora of 3.6k to 8.8M docs)
    n_queries: int = 300  # research note's plan
    dim: int = 256  # expensive embedding dimension; research note's plan (Mistral: 4096)
    proxy_dim: int = 32  # proxy embedding dimension; research note's plan (bge-micro: 384)
    latent_dim: int = 16  # intrinsic dimension; our choice (paper silent)
    n_clusters: int = 20  # topics of the corpus; our choice (paper silent)
    cluster_spread: float = 2.0  # distance of cluster centres in units of the within-cluster std; ours
    ambient_noise: float = 0.1  # isotropic noise off the latent subspace, relative; our choice
    noise: float = 0.5  # proxy's per-item noise relative to its signal spread: the distortion knob; ours
    metric: str = "l2"  # D is the exact L2 distance on the expensive vectors (note: cosine; same ranking on a sphere)
    k: int = 10  # top-10: recall@10 and NDCG@10 (paper, Fig. 1)

    def _points(self, rng: np.random.Generator, centres: np.ndarray, A: np.ndarray, m: int) -> np.ndarray:
        labels = rng.integers(0, self.n_clusters, size=m)
        z = centres[labels] + rng.standard_normal((m, self.latent_dim))  # (m, latent_dim)
        x = z @ A  # (m, dim)
        return x + self.ambient_noise * rng.standard_normal((m, self.dim))

    def make(self, seed: int) -> Instance:
        if self.metric not in KINDS:
            raise ValueError(f"metric must be one of {KINDS}, got {self.metric!r}")
        rng = np.random.default_rng(seed)
        centres = self.cluster_spread * rng.standard_normal((self.n_clusters, self.latent_dim))
        A = rng.standard_normal((self.latent_dim, self.dim)) / np.sqrt(self.latent_dim)  # unit gain per coordinate
        base = self._points(rng, centres, A, self.n)  # (n, dim)
        queries = self._points(rng, centres, A, self.n_queries)  # (M, dim)

        W = rng.standard_normal((self.dim, self.proxy_dim)) / np.sqrt(self.proxy_dim)  # (dim, proxy_dim)
        pb, pq = base @ W, queries @ W
        scale = float(pb.std(axis=0).mean())  # per-coordinate spread of the projected signal
        pb = pb + self.noise * scale * rng.standard_normal(pb.shape)  # (n, proxy_dim)
        pq = pq + self.noise * scale * rng.standard_normal(pq.shape)  # (M, proxy_dim)

        D = pairwise_distances(queries, base, self.metric)  # (M, n) expensive, for the truth only
        d = pairwise_distances(pq, pb, "l2")  # (M, n) proxy
        knn = exact_topk(D, self.k)  # (M, k)
        proxy_knn = exact_topk(d, self.k)  # (M, k)
        proxy_recall = float(np.mean([len(set(a) & set(b)) / self.k for a, b in zip(knn, proxy_knn)]))

        near = exact_topk(D, min(50, self.n))  # (M, 50)
        rand = rng.integers(0, self.n, size=(self.n_queries, min(50, self.n)))  # (M, 50)
        cols = np.hstack([near, rand])  # (M, 100)
        rows = np.arange(self.n_queries)[:, None]
        ratio = D[rows, cols] / np.maximum(d[rows, cols], 1e-12)
        C = float(np.quantile(ratio, 0.99) / np.quantile(ratio, 0.01))

        data = {"base": base, "queries": queries, "proxy_base": pb, "proxy_queries": pq,
                "metric": self.metric, "proxy_metric": "l2", "k": self.k}
        truth = {"knn": knn, "distortion_C": C, "proxy_recall": proxy_recall}
        return Instance(data=data, truth=truth)
