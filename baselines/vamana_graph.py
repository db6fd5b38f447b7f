"""Vamana (DiskANN) proximity graph, greedy beam search and quota-limited search, any metric.

Graph (Subramanya et al., NeurIPS 2019). RobustPrune(p, pool, alpha, R): repeatedly keep the pool's
closest surviving candidate p* as an out-neighbour of p and drop every candidate c with
alpha * dist(p*, c) <= dist(p, c); at most R are kept, closest first. The build, vectorised:
1. every node's pool = its `L_build` exact nearest neighbours plus R uniformly random points (the
   random R-regular graph Vamana starts from), pruned with RobustPrune; with L_build=None the pool is
   all points: the "slow preprocessing" version analysed by Indyk & Xu (NeurIPS 2023) and by the
   bi-metric paper's DiskANN theorem;
2. reverse edges, as in Vamana: each node's pool becomes its out- plus in-neighbours, pruned again
   with RobustPrune where it holds more than R.
The entry point is the medoid (the point closest to the mean), as in DiskANN.

Searches (metric = a call-counting object, so query-time distance evaluations are counted exactly):
* `beam_search`: DiskANN GreedySearch with beam width L; stops when the L best seen are expanded.
* `quota_search`: best-first search that stops after `quota` evaluations (the bi-metric code's
  `greedy_search_quota`): expand the closest unexpanded evaluated node, evaluate its unseen
  out-neighbours (the last batch truncated to the quota), return the k best evaluated.

The baseline `VamanaSearch` builds the graph with one metric and answers queries with the same
metric under a quota; with metric="expensive" it is the paper's "single-metric" reference (its
build needs O(n^2) expensive evaluations, done offline and reported separately as build_D_calls).

Deviations from diskannpy: the candidate pools are exact nearest neighbours (plus random points)
computed in one batch, instead of the nodes visited by a greedy search while points are inserted one
at a time in two passes (alpha = 1, then alpha); the build is deterministic given `seed`.
"""
from __future__ import annotations

import hashlib
import heapq
import time
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from claimbench.api import Method


_ROWS: dict = {}  # (content of base and queries) -> {query: its L2 distances to every item}


class CountingMetric:
    """Distances from query `qi` to base items `ids`; `calls` counts every (query, item) evaluation.

    L2: a query's distances to all items are computed at its first call, row by row with the arithmetic
    of a call on a subset (the same bits: einsum reduces each row on its own), and kept per content of
    base and queries, so the methods of one instance share them and a call is a lookup. `calls` still
    counts the items asked for. Cosine keeps the per-call product (a matrix-vector product over a subset
    may round differently from one over all items).
    """

    def __init__(self, base: np.ndarray, queries: np.ndarray, kind: str = "l2"):
        if kind == "cosine":
            base = base / np.linalg.norm(base, axis=1, keepdims=True)
            queries = queries / np.linalg.norm(queries, axis=1, keepdims=True)
        elif kind != "l2":
            raise ValueError(f"unknown metric kind {kind!r}")
        self.base, self.queries, self.kind = base, queries, kind
        self.calls = 0
        self._rows = None
        if kind == "l2":
            h = hashlib.blake2b(digest_size=16)
            for a in (base, queries):
                a = np.ascontiguousarray(a)
                h.update(repr((a.dtype.str, a.shape)).encode())
                h.update(a.tobytes())
            self._rows = _ROWS.pop(h.hexdigest(), {})
            _ROWS[h.hexdigest()] = self._rows  # most recent last
            while len(_ROWS) > 2:
                _ROWS.pop(next(iter(_ROWS)))

    def __call__(self, qi: int, ids: np.ndarray) -> np.ndarray:
        ids = np.asarray(ids, dtype=np.intp)
        self.calls += int(ids.size)
        if self.kind == "cosine":
            return 1.0 - self.base[ids] @ self.queries[qi]
        row = self._rows.get(qi)
        if row is None:
            diff = self.base - self.queries[qi]  # (n, dim)
            row = self._rows[qi] = np.sqrt(np.einsum("ij,ij->i", diff, diff))
        return row[ids]


class _Space:
    """Vectors of one metric (float32) and batched distances; a dense n x n table when n is small."""

    DENSE_MAX = 6000  # up to this n the (n, n) float32 table (<= 144 MB) replaces per-step arithmetic

    def __init__(self, vectors: np.ndarray, kind: str):
        V = np.asarray(vectors, dtype=np.float32)
        if kind == "cosine":
            V = V / np.linalg.norm(V, axis=1, keepdims=True)
        elif kind != "l2":
            raise ValueError(f"unknown metric kind {kind!r}")
        self.V, self.kind, self.sq = V, kind, (V * V).sum(1)  # sq: (n,)
        n = V.shape[0]
        self.Dm = self._rows(np.arange(n)) if n <= self.DENSE_MAX else None  # (n, n) or None

    def _rows(self, rows: np.ndarray) -> np.ndarray:
        dots = self.V[rows] @ self.V.T
        if self.kind == "cosine":
            return 1.0 - dots
        return np.sqrt(np.maximum(self.sq[rows, None] + self.sq[None, :] - 2.0 * dots, 0.0))

    def to_all(self, rows: np.ndarray) -> np.ndarray:
        """(B, n) distances from `rows` to every point."""
        return self.Dm[rows] if self.Dm is not None else self._rows(rows)

    def gather(self, cand: np.ndarray):
        """What `to_sets` needs about candidate sets cand (B, m) (ids >= 0)."""
        return None if self.Dm is not None else (self.V[cand], self.sq[cand])  # (B, m, dim), (B, m)

    def to_sets(self, a: np.ndarray, cand: np.ndarray, gathered=None) -> np.ndarray:
        """(B, m) distances from points a (B,) to the sets cand (B, m) (ids >= 0)."""
        if self.Dm is not None:
            return self.Dm[a[:, None], cand]
        Vb, sqb = self.gather(cand) if gathered is None else gathered
        dots = np.einsum("bmd,bd->bm", Vb, self.V[a])
        if self.kind == "cosine":
            return 1.0 - dots
        return np.sqrt(np.maximum(self.sq[a, None] + sqb - 2.0 * dots, 0.0))


def robust_prune(space: _Space, cand: np.ndarray, cd: np.ndarray, R: int, alpha: float) -> np.ndarray:
    """RobustPrune of many nodes at once.

    cand (B, m): candidate ids (-1 = padding), cd (B, m): their distances to the node being pruned.
    Repeatedly keep the closest surviving candidate p* and drop every c with alpha * d(p*, c) <= d(p, c);
    at most R kept. Returns (B, R) out-neighbours in the order chosen (closest first), -1 padded.
    """
    B = cand.shape[0]
    r = np.arange(B)
    safe = np.maximum(cand, 0)
    gathered = space.gather(safe)
    alive = (cand >= 0) & np.isfinite(cd)
    out = np.full((B, R), -1, dtype=np.int64)
    for t in range(R):
        pos = np.argmin(np.where(alive, cd, np.inf), axis=1)  # (B,)
        has = alive[r, pos]
        if not has.any():
            break
        out[has, t] = cand[r, pos][has]
        alive[r, pos] = False
        dj = space.to_sets(safe[r, pos], safe, gathered)  # (B, m) d(p*, c)
        alive &= ~(alpha * dj <= cd)
        alive[~has] = False
    return out


def smallest_k(Db: np.ndarray, k: int) -> np.ndarray:
    """Column indices of the k smallest entries of each row (exact; unordered).

    A threshold from a strided column sample preselects about 3k columns per row, so that the
    exact selection runs on a small matrix; rows where the threshold keeps fewer than k fall back
    to the whole row.
    """
    B, n = Db.shape
    if n <= 16 * k:
        return np.argpartition(Db, k - 1, axis=1)[:, :k]
    cols = np.linspace(0, n - 1, max(8 * k, 1024)).astype(np.int64)  # (s,)
    kk = min(cols.size - 1, int(np.ceil(3 * k * cols.size / n)))
    thr = np.partition(Db[:, cols], kk, axis=1)[:, kk:kk + 1]  # (B, 1)
    mask = Db <= thr
    short = mask.sum(axis=1) < k
    mask[short] = True
    rr, cc = np.divmod(np.flatnonzero(mask), n)  # np.nonzero's pairs, row-major, 3x faster
    counts = np.bincount(rr, minlength=B)
    pos = np.arange(rr.size) - np.concatenate([[0], np.cumsum(counts)[:-1]])[rr]
    sub = np.full((B, int(counts.max())), -1, dtype=np.int64)
    sub_d = np.full(sub.shape, np.inf, dtype=Db.dtype)
    sub[rr, pos] = cc
    sub_d[rr, pos] = Db[rr, cc]
    pick = np.argpartition(sub_d, k - 1, axis=1)[:, :k]
    return np.take_along_axis(sub, pick, axis=1)


def _candidates(space: _Space, rows: np.ndarray, L_build: int | None, n_far: int, rng) -> tuple:
    """Candidate pools: the L_build exact nearest plus n_far random points (all points if L_build is None)."""
    n = space.V.shape[0]
    r = np.arange(rows.size)
    Db = space.to_all(rows)  # (B, n)
    Db[r, rows] = np.inf
    if L_build is None or L_build + n_far >= n - 1:
        cand = np.broadcast_to(np.arange(n), Db.shape).copy()
        cand[r, rows] = -1
        return cand, Db
    near = smallest_k(Db, L_build)  # (B, L_build) exact nearest
    near_d = Db[r[:, None], near]
    far = rng.integers(0, n, size=(rows.size, n_far))  # (B, n_far) Vamana's random initial neighbours
    far_d = Db[r[:, None], far]
    dup = ~np.isfinite(far_d) | (far_d <= near_d.max(axis=1, keepdims=True))  # self, or already near
    far = np.where(dup, -1, far)
    far_d = np.where(dup, np.inf, far_d)
    return np.hstack([near, far]), np.hstack([near_d, far_d])


def _pad_groups(keys: np.ndarray, vals: np.ndarray, n: int) -> np.ndarray:
    """Group `vals` by `keys` (both (E,)) into an (n, max group size) matrix padded with -1."""
    order = np.lexsort((vals, keys))
    keys, vals = keys[order], vals[order]
    counts = np.bincount(keys, minlength=n)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    col = np.arange(keys.size) - starts[keys]
    out = np.full((n, max(1, int(counts.max()))), -1, dtype=np.int64)
    out[keys, col] = vals
    return out


@dataclass
class VamanaIndex:
    graph: list  # out-neighbour arrays, closest first
    start: int  # medoid entry point
    build_time_s: float
    build_calls: int  # pairwise distance evaluations of the exact candidate pools, n(n-1)/2 (offline)


_CACHE: dict = {}


def build_vamana(vectors: np.ndarray, kind: str = "l2", R: int = 64, alpha: float = 1.2,
                 L_build: int | None = 125, seed: int = 0, block: int = 256) -> VamanaIndex:
    """Vamana graph on `vectors` (see the module docstring); cached per (content, parameters) in a process."""
    vectors = np.ascontiguousarray(vectors)
    key = (hashlib.blake2b(vectors.tobytes(), digest_size=16).hexdigest(), vectors.shape, kind, R, alpha,
           L_build, seed)
    if key in _CACHE:
        return _CACHE[key]
    t0 = time.perf_counter()
    space = _Space(vectors, kind)
    n = vectors.shape[0]
    rng = np.random.default_rng(seed)
    # 1. RobustPrune of each node's candidate pool
    out = np.full((n, R), -1, dtype=np.int64)
    for b0 in range(0, n, block):
        rows = np.arange(b0, min(n, b0 + block))
        cand, cd = _candidates(space, rows, L_build, R, rng)
        out[rows] = robust_prune(space, cand, cd, R, alpha)
    # 2. reverse edges: node q's pool becomes out(q) + in(q), pruned again where it exceeds R
    src = np.repeat(np.arange(n), R)
    dst = out.ravel()
    ok = dst >= 0
    src, dst = src[ok], dst[ok]
    keys = np.concatenate([src, dst])
    vals = np.concatenate([dst, src])
    pair = np.sort(keys * n + vals)
    pair = pair[np.concatenate([[True], pair[1:] != pair[:-1]])]  # distinct (node, candidate) pairs
    pools = _pad_groups(pair // n, pair % n, n)  # (n, m) distinct out + in neighbours
    sizes = (pools >= 0).sum(1)
    graph: list = [None] * n
    by_size = np.argsort(sizes, kind="stable")  # similar pool sizes share a block: little padding
    for b0 in range(0, n, block):
        rows = by_size[b0:b0 + block]
        m = int(sizes[rows].max())
        cand = pools[rows, :m]
        cd = np.where(cand >= 0, space.to_sets(rows, np.maximum(cand, 0)), np.inf)  # (B, m)
        if m <= R:  # nothing to prune: keep the pool, closest first
            order = np.argsort(cd, axis=1, kind="stable")
            kept = np.take_along_axis(cand, order, axis=1)
        else:
            kept = robust_prune(space, cand, cd, R, alpha)
        for i, row in enumerate(rows):
            graph[row] = kept[i][kept[i] >= 0]
    mean = space.V.mean(axis=0)  # entry point: the medoid, i.e. the point closest to the mean
    start = int(np.argmax(space.V @ mean) if kind == "cosine" else np.argmin(np.linalg.norm(space.V - mean, axis=1)))
    index = VamanaIndex(graph, start, time.perf_counter() - t0, n * (n - 1) // 2)
    if len(_CACHE) > 4:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = index
    return index


def reachable(graph: list, start: int) -> np.ndarray:
    """Nodes reachable from `start` along out-edges (breadth-first), in visiting order."""
    seen = np.zeros(len(graph), dtype=bool)
    seen[start] = True
    order, frontier = [np.array([start])], np.array([start])
    while frontier.size:
        nb = np.unique(np.concatenate([graph[p] for p in frontier]))
        nb = nb[~seen[nb]]
        seen[nb] = True
        order.append(nb)
        frontier = nb
    return np.concatenate(order)


def beam_search(metric, qi: int, graph: list, start, L: int) -> tuple[np.ndarray, np.ndarray]:
    """GreedySearch with beam L from `start` (int or ids); returns the final beam, closest first."""
    n = len(graph)
    seen = np.zeros(n, dtype=bool)
    ids = np.unique(np.atleast_1d(np.asarray(start, dtype=np.int64)))
    seen[ids] = True
    d = metric(qi, ids)
    order = np.argsort(d, kind="stable")[:L]
    ids, d = ids[order], d[order]
    done = np.zeros(ids.size, dtype=bool)  # expanded flags, aligned with the beam
    while not done.all():
        pos = int(np.argmin(done))  # closest unexpanded
        done[pos] = True
        nb = graph[ids[pos]]
        nb = nb[~seen[nb]]
        if nb.size == 0:
            continue
        seen[nb] = True
        dn = metric(qi, nb)
        o = np.argsort(dn, kind="stable")
        nb, dn = nb[o], dn[o]
        at = np.searchsorted(d, dn, side="right")  # merge keeps the beam sorted
        ids, d = np.insert(ids, at, nb)[:L], np.insert(d, at, dn)[:L]
        done = np.insert(done, at, False)[:L]
    return ids, d


def full_beam(metric, qi: int, graph: list, start: int, reach: np.ndarray | None = None):
    """beam_search with L >= n in one step: it evaluates and returns every reachable node, sorted.

    Same output and the same number of metric calls as the loop (each reachable node is evaluated
    once and the beam keeps all of them), without the Python loop.
    """
    reach = reachable(graph, start) if reach is None else reach
    d = metric(qi, reach)
    order = np.lexsort((reach, d))
    return reach[order], d[order]


_ADJ: dict = {}  # id(graph) -> (graph, its out-neighbours as Python lists)


def adjacency(graph: list) -> list:
    """`graph` as lists of ints (kept for the last few graphs): the search loop below walks them faster
    than small arrays."""
    hit = _ADJ.get(id(graph))
    if hit is None or hit[0] is not graph:
        hit = _ADJ[id(graph)] = (graph, [np.asarray(g).tolist() for g in graph])
        while len(_ADJ) > 4:
            _ADJ.pop(next(iter(_ADJ)))
    return hit[1]


def quota_search(metric, qi: int, graph: list, seeds, quota: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Best-first search spending at most `quota` metric evaluations; the k best evaluated, closest first."""
    seeds = np.atleast_1d(np.asarray(seeds, dtype=np.int64))
    _, first = np.unique(seeds, return_index=True)
    seeds = seeds[np.sort(first)][:quota]  # distinct, in the given order
    adj = adjacency(graph)
    seen = bytearray(len(graph))
    ids = seeds.tolist()
    for s in ids:
        seen[s] = 1
    d0 = metric(qi, seeds)
    dist = d0.tolist()
    used = len(ids)
    heap = list(zip(dist, ids))
    heapq.heapify(heap)
    while used < quota and heap:
        _, p = heapq.heappop(heap)
        nb = [x for x in adj[p] if not seen[x]][: quota - used]
        if not nb:
            continue
        for x in nb:
            seen[x] = 1
        dn = metric(qi, nb).tolist()
        used += len(nb)
        for item in zip(dn, nb):
            heapq.heappush(heap, item)
        ids += nb
        dist += dn
    ids, d = np.array(ids, dtype=np.int64), np.array(dist, dtype=d0.dtype)
    order = np.lexsort((ids, d))[:k]
    return ids[order], d[order]


def pad_rows(rows: list, k: int, fill) -> np.ndarray:
    """Stack per-query results into (M, k), padding short ones (fewer than k items reachable)."""
    out = np.full((len(rows), k), fill, dtype=np.asarray(rows[0]).dtype if rows else float)
    for i, r in enumerate(rows):
        out[i, : len(r)] = r[:k]
    return out


def quota_summary(ids: list, dists: list, D_calls: list, d_calls: list, k: int) -> dict:
    """One operating point: returned ids (M, k) (-1 = none), mean calls per query of both metrics."""
    ids, dists = pad_rows(ids, k, -1), pad_rows([np.asarray(x, float) for x in dists], k, np.nan)
    return {"ids": ids, "dist": dists, "D_calls": float(np.mean(D_calls)), "d_calls": float(np.mean(d_calls)),
            "max_D_calls": int(np.max(D_calls))}


def dist_trace(by_quota: dict) -> dict:
    """Mean distance of the returned k under the expensive metric against expensive calls (truth-free)."""
    qs = sorted(by_quota)
    return {"x": [by_quota[q]["D_calls"] for q in qs], "y": [float(np.nanmean(by_quota[q]["dist"])) for q in qs]}


QUOTAS = (10, 20, 30, 40, 50, 60, 80, 100, 120, 150, 200, 250, 300, 400)  # the paper code's Q2 list up to 400


@dataclass
class VamanaSearch(Method):
    """A graph built and searched with one metric (default: the expensive one, 'single-metric')."""

    name: ClassVar[str] = "vamana"

    metric: str = "expensive"  # "expensive" (paper's single-metric) or "proxy"
    R: int = 64  # max out-degree; authors' code default --graph_degree 64
    alpha: float = 1.2  # vamana-config.yaml run group used by the code (vamana_125_64_1-2)
    L_build: int = 125  # candidate pool size; same group's l_build
    quotas: tuple = field(default=QUOTAS)  # metric-call budgets per query; paper code's list

    def run(self, data: dict, seed: int) -> dict:
        if self.metric == "expensive":
            base, queries, kind = data["base"], data["queries"], data["metric"]
        elif self.metric == "proxy":
            base, queries, kind = data["proxy_base"], data["proxy_queries"], data["proxy_metric"]
        else:
            raise ValueError(f"metric must be 'expensive' or 'proxy', got {self.metric!r}")
        k = int(data["k"])
        index = build_vamana(base, kind, self.R, self.alpha, self.L_build)
        metric = CountingMetric(base, queries, kind)
        t0 = time.perf_counter()
        by_quota = {}
        for Q in self.quotas:
            out_ids, out_d, calls = [], [], []
            for qi in range(queries.shape[0]):
                before = metric.calls
                ids, d = quota_search(metric, qi, index.graph, index.start, int(Q), k)
                calls.append(metric.calls - before)
                out_ids.append(ids)
                out_d.append(d)
            zeros = [0] * len(calls)
            D_calls, d_calls = (calls, zeros) if self.metric == "expensive" else (zeros, calls)
            by_quota[int(Q)] = quota_summary(out_ids, out_d, D_calls, d_calls, k)
        out = {"by_quota": by_quota, "query_time_s": time.perf_counter() - t0,
               "build_time_s": index.build_time_s,
               "build_D_calls": index.build_calls if self.metric == "expensive" else 0,
               "mean_degree": float(np.mean([len(g) for g in index.graph]))}
        if self.metric == "expensive":
            out["traces"] = {"topk_dist_vs_D_calls": dist_trace(by_quota)}
        return out
