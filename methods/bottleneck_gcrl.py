"""Laplacian key points (spectral bottlenecks) as subgoals for offline goal-conditioned RL.

Paper: "Don't Guess the Future, Find the Bottleneck: Spectral Subgoals for Offline
Goal-Conditioned RL", ICLR 2026 submission, OpenReview https://openreview.net/forum?id=wVBVa09JVV
(read: the abstract, through the project's research note; no code found, body not read).

Algorithm implemented (the note's steps 1-5):
1. State graph from the offline data: the undirected graph of observed transitions; its
   normalised Laplacian L = I - D^-1/2 W D^-1/2; the k eigenvectors of the smallest eigenvalues
   (scipy ``eigsh`` on D^-1/2 W D^-1/2, largest algebraic), rows normalised, k-means into k
   regions (spectral clustering, Ng-Jordan-Weiss).
2. Dataset transitions whose endpoints lie in different regions cross a boundary; both endpoints
   are key-point candidates, grouped by the (unordered) pair of regions crossed.
3. One representative per region pair crossed at least ``min_crossings`` times: the medoid of
   its candidates under the dataset distance (weighted by how often each was a candidate).
4. G_KP: directed edges between key points that a dataset trajectory joins within ``horizon``
   steps (``baselines/tabular_gcrl.SubgoalGraph``).
5. Test time: shortest path on G_KP with start and goal attached; the next key point is the
   subgoal of the shared low-level controller (``baselines/tabular_gcrl.GCValue``).

Deviations:
1. Tabular grid mazes (``datasets/grid_mazes.py``) instead of AntMaze / Kitchen; the low level is
   a noisy dataset-graph distance (a model of a learned GC value, see the baselines module),
   not a trained GCIQL/HIQL network.
2. The state graph uses the dataset's transitions only, no kNN edges: in a grid, nearest
   neighbours in coordinates would join cells across walls.
3. k (number of regions) is chosen by the largest eigengap among the first ``k_max`` eigenvalues
   (ours; the note proposes k = #rooms, which would hand the method the maze's layout). The
   heuristic is sensitive to k_max on small graphs: on four rooms (~100 states) k_max = 50 finds
   a larger gap deep in the intra-room spectrum (k ~ 20) where k_max = 30 found k = 4. k_max = 50
   was set so that the full grid's 36-room mazes can be segmented.
4. Hyperparameters (min_crossings, horizon, k_max, sigma) are ours; the paper's were not read.
5. The eigenvectors come from scipy's ``eigsh`` (ARPACK) when fewer than a quarter of them are
   wanted; on small graphs (four rooms: ~100 states, 51 eigenpairs) or when ARPACK does not
   converge, from the dense ``scipy.linalg.eigh`` (same eigenpairs, exact solver).

Mutants for foils (field ``mutant``; "" is the method above):
- ``random_kp``: as many key points as the method finds, drawn uniformly from the visited
  states (steps 1-3, the spectral bottleneck search, removed).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.tabular_gcrl import GCValue, SubgoalGraph, evaluate
from claimbench.grid import derive_seed


def spectral_regions(value: GCValue, k_max: int, seed: int, k: int = 0) -> tuple[np.ndarray, int]:
    """Region label per visited state (compact index) and the number of regions."""
    from scipy.sparse import diags
    from scipy.linalg import eigh
    from scipy.sparse.linalg import ArpackNoConvergence, eigsh
    from sklearn.cluster import KMeans

    w = value.adj + value.adj.T
    w.data[:] = 1.0  # binary symmetric adjacency (n, n)
    deg = np.asarray(w.sum(axis=1)).ravel()
    dinv = diags(1.0 / np.sqrt(np.maximum(deg, 1e-12)))
    m = dinv @ w @ dinv  # I - L_sym
    n = m.shape[0]
    n_eig = min(k_max + 1, n - 1)
    vals = None
    if n_eig < n // 4:  # ARPACK is reliable only for a few eigenpairs of a larger matrix
        v0 = np.random.default_rng(derive_seed("eigsh", seed)).standard_normal(n)
        try:
            vals, vecs = eigsh(m, k=n_eig, which="LA", v0=v0)
        except ArpackNoConvergence:
            vals = None
    if vals is None:  # small graph, or no convergence: dense symmetric solver (Deviation 5)
        vals, vecs = eigh(m.toarray(), subset_by_index=[n - n_eig, n - 1])
    order = np.argsort(-vals)
    lam = 1.0 - vals[order]  # Laplacian eigenvalues, ascending
    vecs = vecs[:, order]
    if k <= 0:
        k = int(np.argmax(np.diff(lam[: k_max + 1]))) + 1  # largest gap after the k-th
        k = max(k, 2)
    u = vecs[:, :k]  # (n, k)
    u = u / np.maximum(np.linalg.norm(u, axis=1, keepdims=True), 1e-12)
    labels = KMeans(n_clusters=k, n_init=10,
                    random_state=derive_seed("spectral_kmeans", seed) % 2**31).fit_predict(u)
    return labels, k


def bottleneck_keypoints(value: GCValue, cells: np.ndarray, labels: np.ndarray,
                         min_crossings: int) -> list[int]:
    """Steps 2-3: one medoid per region pair crossed by the dataset (cells, not indices)."""
    src, dst = value.index[cells[:, :-1]].ravel(), value.index[cells[:, 1:]].ravel()
    cross = labels[src] != labels[dst]
    groups: dict[tuple, dict[int, int]] = {}
    for a, b in zip(src[cross], dst[cross]):
        key = tuple(sorted((int(labels[a]), int(labels[b]))))
        cnt = groups.setdefault(key, {})
        for s in (int(a), int(b)):
            cnt[s] = cnt.get(s, 0) + 1
    sym = np.minimum(value.D, value.D.T)  # (n, n) dataset distance, either direction
    kps = []
    for key in sorted(groups):
        cnt = groups[key]
        if sum(cnt.values()) < 2 * min_crossings:  # two candidates per crossing
            continue
        cand = np.array(sorted(cnt))
        wts = np.array([cnt[c] for c in cand], dtype=float)
        sub = np.where(np.isfinite(sym[np.ix_(cand, cand)]), sym[np.ix_(cand, cand)], 1e6)
        kps.append(int(value.states[cand[np.argmin(sub @ wts)]]))
    return kps


@dataclass
class LaplacianKeypoints(Method):
    name: ClassVar[str] = "laplacian_kp"
    sigma: float = 0.05  # ours: value-estimate noise, shared with the baselines
    k_max: int = 50  # ours: eigenvalues searched for the eigengap (Deviation 3); > 36 rooms
    min_crossings: int = 3  # ours: region pairs crossed fewer times are noise
    horizon: int = 15  # ours: G_KP edge / attachment horizon, as the k-means graph baseline
    mutant: str = ""  # "" = the paper's method; "random_kp" (see module docstring)

    def run(self, data, seed):
        v = GCValue(data["cells"], data["actions"], data["side"] ** 2, self.sigma, seed)
        labels, k = spectral_regions(v, self.k_max, seed)
        kps = bottleneck_keypoints(v, data["cells"], labels, self.min_crossings)
        if self.mutant == "random_kp":
            rng = np.random.default_rng(derive_seed("random_kp", seed))
            kps = [int(c) for c in rng.choice(v.states, size=len(kps), replace=False)]
        elif self.mutant:
            raise ValueError(f"unknown mutant {self.mutant!r}")
        out = evaluate(data, v, SubgoalGraph(kps, data["cells"], v, self.horizon), seed)
        out.update(keypoints=kps, n_regions=float(k), n_keypoints=float(len(kps)))
        return out
