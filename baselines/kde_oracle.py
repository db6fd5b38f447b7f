"""An instrumented sampling KDE oracle for Gaussian kernel matrices.

Kernel-matrix algorithms of the "KDE query" model (Backurs-Indyk-Musco-Wagner ICML 2021;
Shah-Silwal-Xu arXiv 2510.02540) touch K = [k(x_i, x_j)], k(x, y) = exp(-||x - y||^2 / h^2),
only through queries "estimate sum_j w_j k(x_i, x_j) for a query point x_i and a weighted
point set w >= 0". This module answers such queries by importance sampling and counts every
kernel evaluation it would make; the algorithms' cost is that count.

Estimator (one query i, weights w with support S and total W = sum_j w_j): draw m indices
J_1..J_m i.i.d. with P(J = j) = w_j / W and return W * mean_k k(x_i, x_{J_k}). It is unbiased,
and since 0 < k <= 1 its relative variance is at most 1 / (m mu_i), mu_i = (K w)_i / W the
query's (weighted) density: m = c / (eps^2 mu) samples give relative standard error <= eps
(the p = 1 "random sampling" KDE, cost 1 / (mu eps^2)). When m >= |S| the oracle evaluates the
|S| terms exactly instead (|S| evaluations), so "all samples" returns the exact sum.

Adaptive queries (density unknown) use the standard geometric search: at levels mu = 1, 1/2,
1/4, ... draw c_locate / mu samples and stop at the first level whose estimate is >= mu (or at a
known lower bound `floor` on the density); then draw a *fresh* sample of c_est / (eps^2 mu)
for the answer, so that the answer is unbiased given the level.

Simulation shortcut (counting stays exact): when m >= clt_min, the mean of m i.i.d. draws is
replaced by a normal draw with the same mean and variance (computed exactly from the cached
kernel row and its square); below clt_min the draws are made for real. The count is m either
way. This keeps the benchmark fast while leaving each estimate unbiased with the exact
variance of the sampling estimator. The kernel matrix itself is cached (built once per point
set, not counted): it is the oracle's backing store, read only through counted queries.
"""
from __future__ import annotations

import math

import numpy as np


def gaussian_kernel(x: np.ndarray, y: np.ndarray, bandwidth: float) -> np.ndarray:
    """k(x, y) = exp(-||x - y||^2 / h^2) for all pairs."""
    sq = (np.sum(x * x, axis=1)[:, None] + np.sum(y * y, axis=1)[None, :] - 2.0 * (x @ y.T))  # (nx, ny)
    np.maximum(sq, 0.0, out=sq)
    return np.exp(-sq / bandwidth**2)


def _search_right(cdf: np.ndarray, u: np.ndarray, guide: np.ndarray, max_steps: int = 8) -> np.ndarray:
    """np.searchsorted(cdf, u, side="right"), the count of entries <= u, for a sorted cdf on
    [0, 1]: start at the count at the start of u's guide bucket (guide[b] = the count at
    b / len(guide)) and step to the exact count in a few vectorised steps, instead of one binary
    search per key (the oracle's largest cost); np.searchsorted itself where the cdf is too uneven
    for a few steps to reach it. Exact either way."""
    s = cdf.size
    idx = guide[np.clip((u * guide.size).astype(np.intp), 0, guide.size - 1)]
    for _ in range(max_steps):  # up while the entry at idx is still <= u
        up = idx < s
        up[up] = cdf[idx[up]] <= u[up]
        if not up.any():
            break
        idx += up
    else:
        return np.searchsorted(cdf, u, side="right")
    for _ in range(max_steps):  # down while the entry below idx is > u (a guide start past u)
        down = idx > 0
        down[down] = cdf[idx[down] - 1] > u[down]
        if not down.any():
            return idx
        idx -= down
    return np.searchsorted(cdf, u, side="right")


class SamplingKDE:
    """Sampling KDE oracle over points x (n, d) with an evaluation counter `evals`."""

    def __init__(self, points: np.ndarray, bandwidth: float, seed: int = 0, kernel: np.ndarray | None = None,
                 c_locate: float = 4.0, c_est: float = 1.0, clt_min: int = 32):
        self.n = int(points.shape[0])
        # float32 storage halves the memory traffic of the uncounted arithmetic; kernel values are in (0, 1]
        self._K = np.asarray(gaussian_kernel(points, points, bandwidth) if kernel is None else kernel,
                             dtype=np.float32)  # (n, n)
        self._K2 = None  # K * K, built on first use (second moments for the CLT shortcut)
        self.rng = np.random.default_rng(seed)
        self.c_locate = c_locate  # our choice: locate phase stops once ~4 "hits" expected
        self.c_est = c_est  # our choice: relative standard error eps per query
        self.clt_min = clt_min
        self.evals = 0

    # ----------------------------------------------------------------- exact access (counted)
    def exact_sums(self, rows: np.ndarray, w: np.ndarray) -> np.ndarray:
        """(K w)[rows] exactly: |rows| * |supp w| evaluations."""
        supp_size = int(np.count_nonzero(w))
        self.evals += rows.size * supp_size
        return self._rows_times(rows, w)

    def _rows_times(self, rows: np.ndarray, w: np.ndarray) -> np.ndarray:
        # Uncounted arithmetic on the backing store; callers count.
        w32 = w.astype(np.float32)
        if rows.size == self.n and rows[0] == 0 and np.all(np.diff(rows) == 1):
            return (self._K @ w32).astype(float)
        return (self._K[rows] @ w32).astype(float)

    def block(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """Entries K[rows, cols]: |rows| * |cols| evaluations."""
        self.evals += rows.size * cols.size
        return self._K[np.ix_(rows, cols)].astype(float)

    # ----------------------------------------------------------------- sampled access (counted)
    def _moments(self, rows: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Mean and second moment of the importance-sampling draw W k(x_i, x_J) (not counted:
        used only to simulate the mean of many draws, see the module docstring)."""
        if self._K2 is None:
            self._K2 = self._K * self._K
        W = float(w.sum())
        mean = self._rows_times(rows, w)  # (q,)
        full = rows.size == self.n and rows[0] == 0 and np.all(np.diff(rows) == 1)
        w32 = w.astype(np.float32)
        second = W * ((self._K2 @ w32) if full else (self._K2[rows] @ w32)).astype(float)  # (q,)
        return mean, second

    def estimate(self, rows: np.ndarray, w: np.ndarray, m: np.ndarray,
                 moments: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
        """Unbiased estimates of (K w)[rows] from m[i] importance samples each (exact when m >= |S|)."""
        rows = np.asarray(rows)
        m = np.broadcast_to(np.asarray(m, dtype=np.int64), rows.shape)
        supp = np.flatnonzero(w)
        s, W = supp.size, float(w.sum())
        out = np.empty(rows.size)
        exact = m >= s
        self.evals += int(np.minimum(m, s).sum())
        if exact.any():
            out[exact] = moments[0][exact] if moments is not None else self._rows_times(rows[exact], w)
        small = ~exact & (m < self.clt_min)
        if small.any():
            cdf = np.cumsum(w[supp]) / W  # (s,)
            guide = np.searchsorted(cdf, np.arange(s) / s, side="right")  # (s,) start of each 1/s bucket
            for mm in np.unique(m[small]):
                sel = np.flatnonzero(small & (m == mm))
                u = self.rng.random((sel.size, int(mm)))
                j = supp[np.minimum(_search_right(cdf, u, guide), s - 1)]  # (q_sel, mm)
                # flat gather: the same entries as _K[rows[sel][:, None], j], without 2-d fancy indexing
                flat = rows[sel][:, None] * self.n + j  # (q_sel, mm)
                out[sel] = W * self._K.reshape(-1)[flat].mean(axis=1, dtype=float)
        big = ~exact & (m >= self.clt_min)
        if big.any():
            if moments is None:
                mean, second = self._moments(rows[big], w)
            else:
                mean, second = moments[0][big], moments[1][big]
            var = np.maximum(second - mean**2, 0.0)
            out[big] = mean + np.sqrt(var / m[big]) * self.rng.standard_normal(int(big.sum()))
        return out

    def samples_for(self, eps: float, mu: float) -> int:
        """Samples per query for relative standard error eps at density mu: c_est / (eps^2 mu)."""
        return int(math.ceil(self.c_est / (eps**2 * mu)))

    def query(self, rows: np.ndarray, w: np.ndarray, eps: float, floor: np.ndarray | float = 0.0) -> np.ndarray:
        """Adaptive (1 +- eps)-relative estimates of (K w)[rows]; `floor` lower-bounds mu_i = (K w)_i / W."""
        rows = np.asarray(rows)
        q = rows.size
        supp_size = int(np.count_nonzero(w))
        W = float(w.sum())
        floor = np.broadcast_to(np.asarray(floor, dtype=float), (q,))
        out = np.empty(q)
        if q == 0:
            return out
        if self.samples_for(eps, 1.0) >= supp_size:  # even at full density: cheaper to sum exactly
            return self.exact_sums(rows, w)
        moments = self._moments(rows, w)
        active = np.arange(q)
        mu = 1.0
        while active.size:
            m_est = self.samples_for(eps, mu)
            m_loc = int(math.ceil(self.c_locate / mu))
            if m_est >= supp_size or m_loc >= supp_size:  # exact for the rest
                self.evals += active.size * supp_size
                out[active] = moments[0][active]
                break
            loc = self.estimate(rows[active], w, np.full(active.size, m_loc),
                                (moments[0][active], moments[1][active]))
            done = (loc >= mu * W) | (0.5 * mu < floor[active])
            fin = active[done]
            if fin.size:
                out[fin] = self.estimate(rows[fin], w, np.full(fin.size, m_est), (moments[0][fin], moments[1][fin]))
            active = active[~done]
            mu *= 0.5
        return out
