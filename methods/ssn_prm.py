"""Semi-smooth Newton (SSN) on the Douglas-Rachford residual of a matrix game, and its
hybrid with Predictive Regret Matching+ (PRM+).

Paper: David Yang, Yuan Gao, Tianyi Lin, Christian Kroer, "A Direct Second-Order Method
for Solving Two-Player Zero-Sum Games", arXiv 2512.12910 (v1, Dec 2025),
https://arxiv.org/abs/2512.12910. Only the abstract and public summaries could be read
here; the equations below are our reconstruction of the construction they name
(Douglas-Rachford-style splitting solved by SSN, hybrid with PRM+).

Implemented (numbering ours):
 (1) Saddle problem min_{x in Δn} max_{y in Δm} x^T A y as the monotone inclusion
     0 ∈ M z + N_Z(z), z = (x, y), Z = Δn × Δm, M = [[0, A], [-A^T, 0]] (skew).
 (2) Douglas-Rachford splitting with P = Π_Z (the resolvent of N_Z) and
     J = (I + γM)^{-1}: w+ = w + J(2P(w) - w) - P(w); a fixed point w* gives the
     equilibrium z* = P(w*), and conversely w* = z* - γ M z* (the "lifted" point).
 (3) Residual R(w) = P(w) - J(2P(w) - w); SSN solves R(w) = 0.
 (4) Generalized Jacobian V = D - J(2D - I), D = blockdiag of simplex-projection
     Jacobians (diag(s) - s s^T/|s| on the support s).
 (5) Regularized Newton step (V + μ_k I) d = -R(w_k), μ_k = κ ||R(w_k)||. We solve the
     equivalent system premultiplied by K = I + γM, which needs no inverse:
     ((1 + μ)I - D + γ M D + μγ M) d = -(w - P(w) + γ M P(w)).
 (6) Backtracking on ||R||: accept w + αd when ||R(w + αd)|| <= (1 - σα)||R(w)||,
     α = 1, 1/2, ...; when no α is accepted, take one DRS step (2) instead, which
     never increases ||R|| (the DRS operator is firmly nonexpansive).
 (7) Hybrid: run PRM+ (alternation, linear averaging) until the duality gap of its
     point is <= switch_gap; lift that point by (2) and run SSN for at most
     ssn_max_iters steps; if SSN has not reached the tolerance (or its line search
     failed), resume PRM+ from where it stopped, with switch_gap reduced tenfold.

Deviations:
 1. The splitting, the Newton system, μ_k, the line search, the DRS safeguard and the
    switching rule are reconstructions from the abstract's description (the paper's
    Algorithm boxes were not available); constants are our choices, named below.
 2. γ = 1/||A||_2 (our choice: makes ||γM|| = 1).
 3. The Newton system is solved densely (LU, O((n+m)^3) per step); the paper may
    exploit the active-set structure. Fine at the sizes here (n + m <= 800).
 4. The hybrid's fallback keeps PRM+'s own state (no restart from the SSN point).
 5. Iterations of the hybrid count PRM+ iterations and Newton/DRS steps alike; its work
    (issue 29) does not: every solver counts products with A, and a Newton step adds its
    dense assembly, LU and solve as multiply-adds / nm (datasets/matrix_games.py). Runs stop
    at a cap on that work (``max_work``), so what they reach does not depend on the machine;
    the paper's experiments compare wall times (abstract: "speedups"), our cost model is ours.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.regret_matching import RegretMatchingState
from claimbench.baselines.simplex import project_simplex_support
from claimbench.datasets.matrix_games import (GapTrace, dense_products, duality_gap,
                                              norm2_products)


def _norm(v: np.ndarray) -> float:
    """||v||_2 of a real vector, as np.linalg.norm computes it (sqrt of v.v; the same value)
    without its argument handling: it runs once or more per DRS/SSN step."""
    return math.sqrt(v.dot(v))


class DouglasRachfordGame:
    """The operators P, J, R of (2)-(3) and the Newton system (5) for one game."""

    def __init__(self, A: np.ndarray, gamma: float):
        from scipy.linalg import cho_factor, get_lapack_funcs

        self.A, self.gamma = A, gamma
        self.n, self.m = A.shape
        # (I + γM)^{-1} by the Schur complement S = I + γ² A A^T (SPD).
        self.S = cho_factor(np.eye(self.n) + gamma**2 * (A @ A.T))
        # LAPACK's potrs, the routine scipy's cho_solve calls, bound once: resolvent() runs a
        # few times per DRS/SSN step and cho_solve's per-call checks and look-ups were a
        # large share of its CPU (the same routine on the same arrays: identical values)
        self._potrs = get_lapack_funcs(("potrs",), (self.S[0],))[0]
        self._resolvent_work = 2 + dense_products(2.0 * self.n ** 2, A)
        # Work in products with A (datasets/matrix_games.py): ||A||_2 for γ, A A^T, Cholesky.
        self.products = (norm2_products(A) + self.n
                         + dense_products(self.n ** 3 / 3.0, A))

    def project(self, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        px, sx = project_simplex_support(w[: self.n])
        py, sy = project_simplex_support(w[self.n:])
        return np.concatenate([px, py]), np.concatenate([sx, sy])

    def apply_M(self, z: np.ndarray) -> np.ndarray:
        x, y = z[: self.n], z[self.n:]
        self.products += 2
        return np.concatenate([self.A @ y, -(self.A.T @ x)])

    def resolvent(self, v: np.ndarray) -> np.ndarray:
        """J v = (I + γM)^{-1} v."""
        a, b = v[: self.n], v[self.n:]
        self.products += self._resolvent_work  # two products, two triangular solves
        rhs = a - self.gamma * (self.A @ b)
        u, info = self._potrs(self.S[0], rhs, lower=self.S[1], overwrite_b=False)
        if info != 0 or not np.isfinite(np.add.reduce(u)):
            # a non-finite right-hand side (or a LAPACK error): cho_solve's checks raise
            from scipy.linalg import cho_solve

            u = cho_solve(self.S, rhs)
        return np.concatenate([u, b + self.gamma * (self.A.T @ u)])

    def residual(self, w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """R(w), P(w) and the support mask of P(w)."""
        z, supp = self.project(w)
        return z - self.resolvent(2.0 * z - w), z, supp

    def gap(self, z: np.ndarray) -> float:
        self.products += 2
        return duality_gap(self.A, z[: self.n], z[self.n:])

    def newton_direction(self, w: np.ndarray, z: np.ndarray, supp: np.ndarray, mu: float) -> np.ndarray:
        from scipy.linalg import lu_factor, lu_solve

        n, m, g, A = self.n, self.m, self.gamma, self.A
        N = n + m
        # Work: A s_y, A^T s_x and the two masked copies of A (about 4 products), the N x N
        # assembly, LU (N^3 / 3 multiply-adds) and its solve (N^2); apply_M counts itself.
        self.products += 4 + dense_products(N ** 2 + N ** 3 / 3.0 + N ** 2, A)
        sx, sy = supp[:n].astype(float), supp[n:].astype(float)
        # M D = [[0, A Dy], [-A^T Dx, 0]] with D = diag(s) - s s^T/|s| per block.
        ADy = (A - (A @ sy)[:, None] / max(sy.sum(), 1.0)) * sy[None, :]  # (n, m)
        AtDx = (A.T - (A.T @ sx)[:, None] / max(sx.sum(), 1.0)) * sx[None, :]  # (m, n)
        H = np.zeros((N, N))
        H[:n, :n] = -(np.diag(sx) - np.outer(sx, sx) / max(sx.sum(), 1.0))
        H[n:, n:] = -(np.diag(sy) - np.outer(sy, sy) / max(sy.sum(), 1.0))
        H[:n, n:] = g * ADy + mu * g * A
        H[n:, :n] = -g * AtDx - mu * g * A.T
        H[np.diag_indices(N)] += 1.0 + mu
        rhs = -(w - z + g * self.apply_M(z))  # -(I + γM) R(w)
        return lu_solve(lu_factor(H, check_finite=False), rhs, check_finite=False)


def ssn_solve(game: DouglasRachfordGame, w: np.ndarray, trace: GapTrace, it0: int, *,
              tol_gap: float, max_iters: int, max_time_s: float, kappa: float, sigma: float,
              max_backtracks: int, stop_on_failure: bool, max_work: float = float("inf"),
              base_work: float = 0.0) -> dict:
    """Iterate (5)-(6) from ``w``. Returns the final w, z, counters and the residual history.

    ``trace.work`` is ``base_work`` (products spent outside ``game``) plus ``game.products``.
    """
    R, z, supp = game.residual(w)
    r = _norm(R)
    best_z, best_gap = z, game.gap(z)
    residuals, it, failed = [r], it0, False
    for _ in range(max_iters):
        trace.work = base_work + game.products
        if (best_gap <= tol_gap or r == 0.0 or trace.elapsed() >= max_time_s
                or trace.work >= max_work):
            break
        d = game.newton_direction(w, z, supp, kappa * r)
        alpha, accepted = 1.0, False
        for _ in range(max_backtracks + 1):
            w_new = w + alpha * d
            R_new, z_new, supp_new = game.residual(w_new)
            r_new = _norm(R_new)
            if r_new <= (1.0 - sigma * alpha) * r:
                accepted = True
                break
            alpha *= 0.5
        if not accepted:
            failed = True
            if stop_on_failure:
                break
            w_new = w - R  # DRS safeguard step (2)
            R_new, z_new, supp_new = game.residual(w_new)
            r_new = _norm(R_new)
        it += 1
        w, R, z, supp, r = w_new, R_new, z_new, supp_new, r_new
        residuals.append(r)
        gap = game.gap(z)
        if gap < best_gap:
            best_z, best_gap = z, gap
        trace.work = base_work + game.products
        trace.record(best_gap, it)
    return {"w": w, "z": best_z, "gap": best_gap, "iters": it, "residuals": residuals, "failed": failed}


def _tail_ratio(residuals: list[float]) -> float | None:
    """||R(w_K)|| / ||R(w_{K-1})|| at the last step of the final SSN (or DRS) phase.

    Superlinear convergence means this ratio tends to 0 as the tolerance shrinks;
    a linear-rate method keeps it near its contraction factor (close to 1).
    None when the phase took no step.
    """
    if len(residuals) < 2 or residuals[-2] <= 0.0:
        return None
    return residuals[-1] / residuals[-2]


def _with_residual_trace(out: dict, residuals: list[float]) -> dict:
    """Attach ||R|| against the step index of the final SSN/DRS phase (last 200 steps)."""
    tail = residuals[-200:]
    if tail:
        first = len(residuals) - len(tail)
        out["traces"]["residual_vs_step"] = {"x": [float(first + k) for k in range(len(tail))],
                                             "y": [float(r) for r in tail]}
    out["ssn_steps"] = len(residuals) - 1 if residuals else 0
    return out


@dataclass
class SemismoothNewton(Method):
    """SSN (5)-(6) on the DRS residual, from the lifted uniform strategy pair."""

    name: ClassVar[str] = "ssn"
    gamma_scale: float = 1.0  # γ = gamma_scale / ||A||_2 (our choice; paper value not retrieved)
    kappa: float = 1.0  # μ_k = κ ||R(w_k)|| (reconstruction: μ_k ∝ ||R||; constant our choice)
    sigma: float = 1e-4  # sufficient-decrease constant of the line search (our choice)
    max_backtracks: int = 8  # halvings before the DRS safeguard step (our choice)
    newton: bool = True  # False: plain DRS fixed-point iteration (2), a linear-rate control
    tol_gap: float = 1e-10  # stop at this duality gap (our choice; high-precision regime)
    max_iters: int = 100_000  # iteration cap (our choice)
    max_time_s: float = 5.0  # wall-time cap (our choice)
    max_work: float = float("inf")  # cap in products with A (matrix_games; our choice per grid)

    def run(self, data, seed: int) -> dict:
        A = data["A"]
        n, m = A.shape
        trace = GapTrace()
        game = DouglasRachfordGame(A, self.gamma_scale / np.linalg.norm(A, 2))
        z0 = np.concatenate([np.full(n, 1.0 / n), np.full(m, 1.0 / m)])
        w0 = z0 - game.gamma * game.apply_M(z0)
        g0 = game.gap(z0)
        trace.work = game.products
        trace.record(g0, 0)
        if self.newton:
            res = ssn_solve(game, w0, trace, 0, tol_gap=self.tol_gap, max_iters=self.max_iters,
                            max_time_s=self.max_time_s, kappa=self.kappa, sigma=self.sigma,
                            max_backtracks=self.max_backtracks, stop_on_failure=False,
                            max_work=self.max_work)
        else:
            res = drs_solve(game, w0, trace, tol_gap=self.tol_gap, max_iters=self.max_iters,
                            max_time_s=self.max_time_s, max_work=self.max_work)
        z = res["z"]
        out = trace.outputs(z[:n], z[n:], res["iters"], self.max_time_s, self.max_iters,
                            tail_residual_ratio=_tail_ratio(res["residuals"]))
        return _with_residual_trace(out, res["residuals"])


def drs_solve(game: DouglasRachfordGame, w: np.ndarray, trace: GapTrace, *, tol_gap: float,
              max_iters: int, max_time_s: float, max_work: float = float("inf")) -> dict:
    """Plain DRS (2): w <- w - R(w)."""
    R, z, _ = game.residual(w)
    best_z, best_gap = z, game.gap(z)
    residuals, it = [_norm(R)], 0
    while (it < max_iters and best_gap > tol_gap and trace.elapsed() < max_time_s
           and game.products < max_work):
        w = w - R
        R, z, _ = game.residual(w)
        it += 1
        residuals.append(_norm(R))
        gap = game.gap(z)
        if gap < best_gap:
            best_z, best_gap = z, gap
        trace.work = game.products
        trace.record(best_gap, it)
    return {"w": w, "z": best_z, "gap": best_gap, "iters": it, "residuals": residuals}


@dataclass
class HybridPRMSSN(Method):
    """PRM+ for global progress, SSN near the equilibrium, PRM+ again if SSN stalls (7)."""

    name: ClassVar[str] = "hybrid_prm_ssn"
    switch_gap: float = 1e-3  # first switch when the PRM+ gap is below this (our choice; rule unverified)
    ssn_max_iters: int = 20  # Newton steps per SSN attempt before falling back (our choice)
    gamma_scale: float = 1.0  # as SemismoothNewton
    kappa: float = 1.0  # as SemismoothNewton
    sigma: float = 1e-4  # as SemismoothNewton
    max_backtracks: int = 8  # as SemismoothNewton
    prm_point: str = "average"  # PRM+ point SSN starts from: average | last | best (paper: linear avg)
    tol_gap: float = 1e-10  # as SemismoothNewton
    max_iters: int = 1_000_000  # iteration cap, PRM+ and Newton steps together (our choice)
    max_time_s: float = 5.0  # wall-time cap (our choice)
    max_work: float = float("inf")  # cap in products with A, PRM+ and SSN together (our choice)

    def run(self, data, seed: int) -> dict:
        A = data["A"]
        n, m = A.shape
        trace = GapTrace()
        game = DouglasRachfordGame(A, self.gamma_scale / np.linalg.norm(A, 2))
        prm = RegretMatchingState(A, predictive=True, alternation=True, averaging="linear")
        self._last = self.prm_point == "last"
        switch, it, attempts = self.switch_gap, 0, 0
        ssn_best = (float("inf"), None)  # best SSN point of the failed attempts
        final_residuals: list[float] = []
        use_prm = True
        while (it < self.max_iters and trace.elapsed() < self.max_time_s
               and trace.work < self.max_work):
            gap = self._prm_gap(prm, prm.step())
            it += 1
            trace.work = prm.products + game.products
            use_prm = gap <= ssn_best[0]
            trace.record(min(gap, ssn_best[0]), it)  # gap of the point run() would return now
            if min(gap, ssn_best[0]) <= self.tol_gap:
                break
            if gap > switch:
                continue
            attempts += 1
            z_prm = self._prm_point(prm)
            w0 = z_prm - game.gamma * game.apply_M(z_prm)  # lift (2)
            res = ssn_solve(game, w0, trace, it, tol_gap=self.tol_gap, max_iters=self.ssn_max_iters,
                            max_time_s=self.max_time_s, kappa=self.kappa, sigma=self.sigma,
                            max_backtracks=self.max_backtracks, stop_on_failure=True,
                            max_work=self.max_work, base_work=prm.products)
            it = res["iters"]
            if res["gap"] < ssn_best[0]:
                ssn_best = (res["gap"], res["z"])
            use_prm = gap <= ssn_best[0]
            if ssn_best[0] <= self.tol_gap:
                final_residuals = res["residuals"]
                break
            switch *= 0.1
        if use_prm or ssn_best[1] is None:
            z = self._prm_point(prm)
        else:
            z = ssn_best[1]
        x, y = z[:n], z[n:]
        out = trace.outputs(x, y, it, self.max_time_s, self.max_iters,
                            tail_residual_ratio=_tail_ratio(final_residuals),
                            ssn_attempts=attempts, prm_iters=prm.t)
        return _with_residual_trace(out, final_residuals)

    def _use_last(self, prm: RegretMatchingState, gap_avg: float) -> bool:
        return self.prm_point == "last" or (self.prm_point == "best" and prm.last_gap < gap_avg)

    def _prm_gap(self, prm: RegretMatchingState, gap_avg: float) -> float:
        self._last = self._use_last(prm, gap_avg)
        return prm.last_gap if self._last else gap_avg

    def _prm_point(self, prm: RegretMatchingState) -> np.ndarray:
        """The PRM+ point whose gap ``_prm_gap`` last returned."""
        if self._last:
            return np.concatenate([prm.x, prm.y])
        return np.concatenate(prm.point())
