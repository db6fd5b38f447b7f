"""The bisimulation metric of a finite MDP as a Kantorovich fixed point (Ferns, Panangaden &
Precup, UAI 2004, "Metrics for finite Markov decision processes").

    d(s, t) = max_a [ c_R |R(s, a) - R(t, a)| + c_T W_d(P(s, a), P(t, a)) ],

W_d the Kantorovich (Wasserstein-1) distance with ground metric d, computed exactly by POT's
network simplex (``ot.emd``'s solver, called directly) on the union of the two supports. With
c_R = 1, c_T = gamma the fixed point bounds optimal values: |V*(s) - V*(t)| <= d(s, t) (Ferns
et al. 2004).
Solved by strategy iteration over the couplings (see ``bisimulation_metric``), exact up to
round-off; the stopping rule is a Bellman residual below tol.

``FernsBisimulationMetric`` computes it on the concrete MDP directly (no abstraction): the
reference the compositional method of ``methods/behavioral_abstraction.py`` is compared with.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from claimbench.api import Method


def transport_problem(p: np.ndarray, q: np.ndarray):
    """The parts of W_D(p, q)'s transport LP that do not depend on D, prepared exactly as
    ``ot.emd`` prepares dense numpy input (normalise on the union of the supports, rescale q to
    p's mass, drop zero-mass rows/columns): computed once per (s, t, a), not once per
    fixed-point iteration. Returns (idx, masses of p and q on the solver's rows and columns,
    those rows and columns within idx, or None when no row or column is dropped)."""
    idx = np.flatnonzero((p > 0) | (q > 0))
    pp, qq = p[idx] / p[idx].sum(), q[idx] / q[idx].sum()
    qq = qq * pp.sum() / qq.sum()  # as ot.emd: equal masses
    rows, cols = np.flatnonzero(pp != 0), np.flatnonzero(qq != 0)
    if len(rows) == len(idx) and len(cols) == len(idx):
        return idx, pp, qq, None
    return idx, pp[rows], qq[cols], (rows, cols)


def solve_transport(problem, D: np.ndarray):
    """W_D and the optimal plan over idx x idx of a :func:`transport_problem`.

    Calls POT's network simplex ``emd_c`` directly with the inputs ``ot.emd`` would pass it:
    the same plan bit for bit, without ``ot.emd``'s backend dispatch, marginal assertion and
    dual-potential post-processing (which nothing here reads); those were ~70% of the metric's
    CPU, as the LP is solved O(n^2 |A|) times per fixed-point iteration."""
    from ot.lp.emd_wrap import check_result, emd_c

    idx, a, b, sub = problem
    Dk = D[idx[:, None], idx]  # (k, k)
    if sub is None:
        G, _, _, _, code = emd_c(a, b, Dk, 100000, 1, None, None)
    else:
        rows, cols = sub
        Gs, _, _, _, code = emd_c(a, b, Dk[rows[:, None], cols], 100000, 1, None, None)
        G = np.zeros(Dk.shape)  # (k, k)
        G[rows[:, None], cols] = Gs
    check_result(code)
    return float(np.sum(G * Dk)), G


def kantorovich_plan(p: np.ndarray, q: np.ndarray, D: np.ndarray):
    """W_D(p, q) and an optimal coupling, by an exact transport LP (POT network simplex) on the
    union of the supports. Returns (value, support indices idx, plan over idx x idx)."""
    problem = transport_problem(p, q)
    w, G = solve_transport(problem, D)
    return w, problem[0], G


def kantorovich(p: np.ndarray, q: np.ndarray, D: np.ndarray) -> float:
    return kantorovich_plan(p, q, D)[0]


def bisimulation_metric(R: np.ndarray, P: np.ndarray, c_R: float = 1.0, c_T: float = 0.9,
                        tol: float = 1e-12, max_iter: int = 200) -> tuple[np.ndarray, int]:
    """Ferns et al.'s fixed point d = F(d). R: (n, A), P: (n, A, n). Returns (d (n, n), outer
    iterations). c_T = 0 is the one-step reward distance (no Kantorovich term).

    Strategy iteration for the coupling (minimising) player, started above the fixed point at
    d_0 = span(R) c_R / (1 - c_T) off the diagonal: given d_j, the optimal couplings Pi_j of
    every (s, t, a) are fixed and d_{j+1} solves d = max_a [r_a + c_T Pi_{j,a} d] exactly
    (policy iteration over the action with linear solves on the pair space). Since
    F_{Pi_j} >= F and F_{Pi_j}(d_j) = F(d_j) <= d_j, the iterates decrease monotonically to the
    fixed point; it stops when the Bellman residual |F(d_j) - d_j| is below tol."""
    n, A = R.shape
    dR = c_R * np.abs(R[:, None, :] - R[None, :, :])  # (n, n, A)
    if c_T == 0:
        return dR.max(axis=2), 1
    iu, ju = np.triu_indices(n, 1)
    m = len(iu)
    pair = np.full((n, n), -1)
    pair[iu, ju] = np.arange(m)
    pair[ju, iu] = np.arange(m)
    r = dR[iu, ju]  # (m, A)
    span = R.max() - R.min()
    d = (c_R * span / (1 - c_T) + 1.0) * (1 - np.eye(n))  # (n, n), above the fixed point
    problems = [[transport_problem(P[iu[k], a], P[ju[k], a]) for a in range(A)] for k in range(m)]
    for it in range(1, max_iter + 1):
        M = np.zeros((A, m, m))  # couplings as rows over pairs
        Fd = np.zeros((m, A))
        for k in range(m):
            for a in range(A):
                w, G = solve_transport(problems[k][a], d)
                idx = problems[k][a][0]
                Fd[k, a] = r[k, a] + c_T * w
                u, v = np.nonzero(G)
                off = idx[u] != idx[v]
                np.add.at(M[a, k], pair[idx[u[off]], idx[v[off]]], G[u[off], v[off]])
        F = np.zeros((n, n))
        F[iu, ju] = Fd.max(axis=1)
        F = F + F.T
        if np.abs(F - d).max() < tol:
            return F, it
        alpha = Fd.argmax(axis=1)
        for _ in range(100):  # policy iteration over actions, couplings fixed
            rows = np.arange(m)
            x = np.linalg.solve(np.eye(m) - c_T * M[alpha, rows], r[rows, alpha])  # (m,)
            Q = r + c_T * np.einsum("amp,p->ma", M, x)  # (m, A)
            best = Q.argmax(axis=1)
            better = Q[rows, best] > Q[rows, alpha] + 1e-13
            if not better.any():
                break
            alpha = np.where(better, best, alpha)
        d = np.zeros((n, n))
        d[iu, ju] = x
        d = d + d.T
    raise RuntimeError("bisimulation metric did not converge")


@dataclass
class FernsBisimulationMetric(Method):
    """The bisimulation metric on the concrete MDP; its V* by policy iteration (identity map)."""

    name = "ferns_metric"
    tol: float = 1e-12  # ours: Bellman residual at stop (far below the 1e-8 check)
    max_states: int = 40  # ours: O(n^2 |A|) transport LPs per iteration on the CPU

    def applies_to(self, dataset) -> str | None:
        n = getattr(dataset, "n_states", 0)
        return None if n <= self.max_states else f"n_states {n} > max_states {self.max_states}"

    def run(self, data, seed):
        from claimbench.datasets.finite_mdps import optimal_values

        R, P, gamma = data["R"], data["P"], data["gamma"]
        d, iters = bisimulation_metric(R, P, 1.0, gamma, self.tol)
        V, _ = optimal_values(R, P, gamma)
        n = R.shape[0]
        return {"phi": np.arange(n), "V_abs": V, "d": d, "bound": 0.0,
                "n_abstract": n, "metric_iters": iters}
