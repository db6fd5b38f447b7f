"""Spherical Generalized Gamma (SGG) mechanisms for differential privacy.

Paper: Yu Wei, Alexander Bienstock, Antigoni Polychroniadou, "Asymptotic Optimality of the
High-Dimensional Gaussian Mechanism and Improved Low-Dimensional Mechanisms for Differential
Privacy", ICML 2026. arXiv 2606.08681, https://arxiv.org/abs/2606.08681.
Read (re-audit of 2026-12-06, issue 29): the stored copy of arxiv.org/html/2606.08681v1 (the search
tool's `pages` corpus), which gives the abstract and the opening of Sec. 1 (Introduction) only, up
to "The standard way to achieve DP in this setting is by using the s[...]"; ten queries aimed at its
later sections (contributions, Sec. 3 / Thm 3.1 / Lemma 3.3, the SGG family, Algorithm 7, Fig. 2's
caption and regime, Fig. 3, Table 2) returned that same opening or other papers. Not read:
Secs. 2 onward, Fig. 2, Fig. 3, Table 2, Algorithm 7's statement. Items 1-6 below come from our
research note (../shared/papers/sgg_dp.md) and the abstract, not from the paper's body.

Implemented (numbering used in the code comments):
1. SGG noise (the paper's family): X = R U in R^T, U uniform on S^{T-1}, radial density
       f_R(r) = p beta^{(alpha+1)/p} / Gamma((alpha+1)/p) * r^alpha exp(-beta r^p).
   Gaussian = (p=2, alpha=T-1); l2 mechanism of Joseph et al. (ICML 2025) = (p=1, alpha=T-1).
   We write alpha = T - 1 + a: a = 0 keeps the density of X proportional to exp(-beta ||x||^p),
   a < 0 makes it unbounded at the origin, a > 0 makes it vanish there.
2. MSE: E||X||^2 = Gamma((alpha+3)/p) / (beta^{2/p} Gamma((alpha+1)/p)).
3. Privacy of spherically symmetric additive noise (Lemma 3.3's rotation symmetry: only the
   length of the sensitivity shift matters):
       delta(eps) = E_X[(1 - e^{eps - L(X)})_+],   L(x) = ln f(x) - ln f(x - Delta e_1),
   a 2-D integral in (r, theta) = (||x||, angle to e_1). With rho = ||x - Delta e_1||,
   L > l iff rho^p - a ln rho > l + r^p - a ln r. Outer part (rho beyond a root, closed form for
   a = 0, bisection otherwise): a polar cap theta in [theta*(r), pi], Gauss-Legendre in theta
   with weight sin^{T-2}; radial expectation by composite Gauss-Legendre in z = logit F_R(r).
   Inner part (a > 0 only, where f(x - Delta e_1) -> 0): a small ball around Delta e_1,
   integrated in polar coordinates centred there.
4. Calibration by scale invariance: with beta = 1 find the largest shift Delta* whose delta is
   at most the target (Brent on ln Delta; for a > 0 delta is not monotone in the shift and the
   first crossing is taken after an upward scan); at unit sensitivity beta = Delta*^p and
   MSE = E[R_1^2] / Delta*^2.
5. Least-MSE member for (eps, delta, T): grid over (a, p), then Nelder-Mead in (a, ln p).
6. Tight composition (Algorithm 7): survival function of the privacy loss at grid points,
   P(L > l) = E_R[P(U in cap)] with closed-form cap probabilities (regularised incomplete beta),
   discretised with losses rounded up (an upper bound on delta), convolved k times by FFT, and
   delta read off as the hockey-stick divergence (baselines/privacy_accounting.py).

Deviations:
1. Only the abstract and the opening of the introduction could be read (see Read above). Fig. 2's
   (eps, delta) regime, sensitivity and members, Table 2, the exact statement of Algorithm 7 and
   the paper's (alpha, p) search range are unknown; items 3-6 are reconstructions from the
   research note and the abstract, and the (a, p) search box is our choice. The numbers 15.0 /
   12.6 / 10.5 % at T = 2 / 3 / 5 that c2-c4 use are not the paper's words: 15 % ("up to")
   is a third-party summary's (papernotes.org), 12.6 and 10.5 % are our note's, unverified.
2. Radial quadrature: composite Gauss-Legendre in logit-quantile coordinates, not the paper's
   generalised Gauss-Laguerre rule (same integral; ours resolves both tails and the kinks that
   (.)_+ and the cap boundaries create).
3. For a > 0, delta is not monotone in the shift length; we calibrate to the first crossing of
   the target, i.e. to sup over shifts ||v|| <= Delta, found on a factor-2 scan (a bump narrower
   than that scan would be missed). For a <= 0 delta increases with the shift (checked in tests).
4. X and -X have the same law, so both orders of the neighbouring pair give the same delta and
   one hockey-stick divergence is computed.
5. Algorithm 7's discretisation step is ours: h = h_rel eps / k with h_rel = 2e-3, so k-fold
   rounding moves the loss by at most 0.2% of eps (about 0.2% of MSE on the Gaussian member).
6. Fig. 2's regime and members (issue 14, answered here, not fixed): an independent computation
   reported landing within a point of the paper's 15.0 / 12.6 / 10.5 % in another (eps, delta)
   regime with members the paper names. The regime and the named members must come from the
   paper's text and figure, and these could not be read: the stored copies of arXiv 2606.08681
   (arxiv.org/html, papernotes) give the abstract and the opening of the introduction only
   (searched again on 2026-12-06 for Fig. 2's caption, regime and members: not found), and
   no author code exists. Choosing the regime by matching the three numbers would fit the check
   to its answer, so the benchmark keeps its declared reconstruction (best member over an eps
   sweep at delta in {1e-2, 1e-5}, gain over the better of Gaussian and l2); c2-c4 say so in
   their notes. To do once the body is readable: take Fig. 2's (eps, delta) and named (alpha, p)
   members from its caption/text and add them as a grid regime and SGGMechanism configs.
   Lead, not adopted (third-party, unverified against the paper): the public reproduction
   MachineLearning-Nerd/icml26-gaussian-mechanism-sgg-dp (space/pages/current/claim4/page.md,
   claim6/page.md), citing "arXiv:2606.08681v1, Figure 2 and Section 4.3", gives Fig. 2's regime
   as eps = delta = 0.1, T = 2-5, reduction over the Gaussian (not over the better of Gaussian
   and l2, our reading); it lists members (alpha, p) = (1, 4), (2, 4.5), (3.5, 6) at T = 2, 3, 5
   (whether Fig. 2 names them it does not say), and its "judged" values are 15.0 / 12.6 /
   10.5 %, the numbers our note carries; and it gives Fig. 3's regime
   as the l2 mechanism at T = 10, (eps, delta) = (1, 1e-5), k in {2, 4, 8, 16, 32} (ours: T = 2).

Mutants and configs for foils (not the paper's method; SGGSearch(mutant="") is the method above):
- "sphere_off_by_one": the privacy integral of item 3 takes the polar angle's law on S^T
  (weight sin^{T-1}) instead of S^{T-1} (sin^{T-2}), an off-by-one in the sphere's dimension.
  The shift's component along the noise looks smaller than it is, so delta is underestimated
  and every member is under-noised (MSE too small by about T / (T + 1) for the Gaussian).
- SGGMechanism(composition="pure_sequential") (c7's foil; l2 member only): each of the k
  invocations is calibrated to its pure-DP guarantee (eps / k, 0) (beta = k / eps at unit
  sensitivity) and composed sequentially: a valid but untight composition, which ignores both
  delta and the joint privacy loss that Algorithm 7 accounts for.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.gaussian_mechanism import analytic_gaussian_sigma
from claimbench.baselines.privacy_accounting import PLD, compose, hockey_stick, pld_from_survival
from claimbench.baselines.sequential_composition import split_budget


# ----------------------------------------------------------------------------- basics
def sgg_mse(alpha: float, p: float, beta: float = 1.0) -> float:
    """E||X||^2 of SGG noise (item 2)."""
    from scipy.special import gammaln

    return math.exp(gammaln((alpha + 3) / p) - gammaln((alpha + 1) / p)) / beta ** (2.0 / p)


def sample_sgg(alpha: float, p: float, beta: float, T: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """n draws of SGG noise in R^T: R^p ~ Gamma((alpha+1)/p, 1/beta), U uniform on the sphere."""
    s = rng.gamma((alpha + 1) / p, 1.0 / beta, size=n)  # (n,)
    u = rng.standard_normal((n, T))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    return s[:, None] ** (1.0 / p) * u  # (n, T)


@lru_cache(maxsize=16)
def _leggauss(n: int) -> tuple[np.ndarray, np.ndarray]:
    return np.polynomial.legendre.leggauss(n)


@lru_cache(maxsize=256)
def _radial_nodes(alpha: float, p: float, n_panels: int, n_per: int, z_lo: float = -40.0, z_hi: float = 42.0):
    """Nodes r_i and weights of E[g(R)] for R with unit-beta SGG radial law (item 3).

    Composite Gauss-Legendre in z = logit F_R(r): both tails are resolved (the lower one matters
    when alpha < T - 1 and the density of X is unbounded at the origin).
    """
    from scipy.special import expit, gammainccinv, gammaincinv

    shape = (alpha + 1) / p
    x, w = _leggauss(n_per)
    edges = np.linspace(z_lo, z_hi, n_panels + 1)
    half = 0.5 * np.diff(edges)
    z = (edges[:-1, None] + half[:, None] * (x[None, :] + 1.0)).ravel()  # (n_r,)
    q, q_up = expit(z), expit(-z)
    wz = (half[:, None] * w[None, :]).ravel() * q * q_up
    # Upper-tail inverse keeps precision where 1 - q underflows.
    s = np.where(z > 0, gammainccinv(shape, q_up), gammaincinv(shape, q))
    r = np.maximum(s, 1e-300) ** (1.0 / p)
    return r, wz / wz.sum()


def _log_norm_sphere(T: int) -> float:
    """ln of int_0^pi sin^{T-2}(theta) d theta."""
    from scipy.special import gammaln

    return 0.5 * math.log(math.pi) + gammaln((T - 1) / 2) - gammaln(T / 2)


def _outer_root(c: np.ndarray, a: float, p: float) -> np.ndarray:
    """rho2 such that {rho > rho2} is the outer part of {phi(rho) > c}, phi = rho^p - a ln rho.

    L > level iff phi(||x - shift e_1||) > c(r) = level + r^p - a ln r. For a <= 0 phi is
    increasing and this is the whole level set; for a > 0 phi is convex in ln rho with its
    minimum at rho_m and the inner part (rho < rho_m) is integrated by _near_region.
    rho2 = 0 means every rho qualifies.
    """
    c = np.asarray(c, dtype=float)
    if a == 0.0:
        pos = np.maximum(c, 0.0)
        return pos if p == 1.0 else np.sqrt(pos) if p == 2.0 else pos ** (1.0 / p)

    def phi(u):
        return np.exp(np.minimum(p * u, 700.0)) - a * u

    if a < 0:  # phi increasing in u = ln rho from -inf to inf
        lo = -(np.abs(c) + 1.0) / abs(a)  # phi(lo) <= -|c|
        hi = np.log(np.abs(c) + 2.0) / p + 1.0  # phi(hi) > |c| + 2
        some = np.ones(c.shape, dtype=bool)
    else:
        u_m = math.log(a / p) / p
        some = c > a / p - a * u_m  # otherwise phi > c everywhere
        lo = np.full_like(c, u_m)
        hi = np.full_like(c, u_m + 1.0)
        for _ in range(80):
            short = some & (phi(hi) < c)
            if not short.any():
                break
            hi = np.where(short, u_m + 2.0 * (hi - u_m), hi)
    for _ in range(64):  # phi(lo) <= c < phi(hi) on the increasing branch
        mid = 0.5 * (lo + hi)
        up = phi(mid) > c
        hi = np.where(up, mid, hi)
        lo = np.where(up, lo, mid)
    return np.where(some, np.exp(0.5 * (lo + hi)), 0.0)


def _cos_from_rho(r: np.ndarray, rho: np.ndarray, shift: float) -> np.ndarray:
    """cos(theta) at which ||x - shift e_1|| = rho for ||x|| = r (clipped to [-1, 1])."""
    with np.errstate(over="ignore", invalid="ignore"):
        t = (r * r + shift * shift - rho * rho) / (2.0 * r * shift)
    # rho = inf gives -inf (clipped to -1); no other non-finite values arise for r, shift > 0.
    return np.clip(t, -1.0, 1.0)


def _loss(r: np.ndarray, rho: np.ndarray, a: float, p: float) -> np.ndarray:
    """Privacy loss ln f(x) - ln f(x - shift e_1) at ||x|| = r, ||x - shift e_1|| = rho (beta = 1)."""
    rho = np.maximum(rho, 1e-300)
    out = rho**p - r**p
    if a != 0.0:
        out = out + a * (np.log(r) - np.log(rho))
    return out


@dataclass(frozen=True)
class Quadrature:
    """Resolution of the 2-D privacy integral (item 3)."""

    n_panels: int = 96  # our choice: radial panels in logit-quantile coordinates
    n_per: int = 8  # our choice: Gauss-Legendre nodes per radial panel
    n_theta: int = 32  # our choice: Gauss-Legendre nodes per polar cap


def _polar_nodes(T: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """cos(psi) nodes and weights of the law of the first coordinate of U ~ Unif(S^{T-1})."""
    if T == 1:
        return np.array([1.0, -1.0]), np.array([0.5, 0.5])
    x, w = _leggauss(n)
    psi = 0.5 * math.pi * (x + 1.0)
    wt = 0.5 * math.pi * w * np.exp((T - 2) * np.log(np.sin(psi)) - _log_norm_sphere(T))
    return np.cos(psi), wt


def _near_region(levels: np.ndarray, shift: float, a: float, p: float, T: int, quad: "Quadrature",
                 loss_weight: bool, polar_T: int | None = None) -> np.ndarray:
    """a > 0 only: the part of {L > level} around the shifted centre, where f(x - shift e_1) -> 0.

    Integrated in polar coordinates (rho, psi) centred at shift e_1, which resolve the small
    ball that the (r, theta) rule would miss. It is the inner branch rho < rho_m of the level
    set (rho_m = argmin of rho^p - a ln rho), disjoint from the outer cap of sgg_delta.
    Returns, per level, the integral of (1 - e^{level - L}) (loss_weight) or of 1.
    """
    from scipy.special import gammaln

    levels = np.atleast_1d(np.asarray(levels, dtype=float))[None, :]  # (1, m)
    shape = (T + a) / p
    rho_m = (a / p) ** (1.0 / p)
    phi_m = a / p - a * math.log(rho_m)
    cpsi, wpsi = _polar_nodes(T if polar_T is None else polar_T, quad.n_theta)
    cpsi = cpsi[:, None]  # (n_psi, 1)

    def loss_at(u):
        rho = np.exp(u)
        r = np.sqrt(np.maximum(shift * shift + 2.0 * shift * rho * cpsi + rho * rho, 1e-300))
        return _loss(r, rho, a, p)

    u_hi = np.full((cpsi.shape[0], levels.shape[1]), math.log(rho_m))
    u_lo = u_hi - 1.0
    for _ in range(60):
        low = loss_at(u_lo) <= levels
        if not low.any():
            break
        u_lo = np.where(low, u_hi - 2.0 * (u_hi - u_lo), u_lo)
    inside_all = loss_at(u_hi) > levels
    lo, hi = u_lo, u_hi.copy()
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        up = loss_at(mid) > levels
        lo = np.where(up, mid, lo)
        hi = np.where(up, hi, mid)
    rho_star = np.where(inside_all, rho_m, np.exp(0.5 * (lo + hi)))  # (n_psi, m)

    x, w = _leggauss(quad.n_theta)
    rho = rho_star[..., None] * 0.5 * (x + 1.0)  # (n_psi, m, n_rho)
    c3 = cpsi[..., None]
    r = np.sqrt(np.maximum(shift * shift + 2.0 * shift * rho * c3 + rho * rho, 1e-300))
    lev = levels[..., None]
    loss = _loss(r, rho, a, p)
    log_dens = math.log(p) - gammaln(shape) + a * np.log(r) - r**p + (T - 1) * np.log(np.maximum(rho, 1e-300))
    ok = (loss > lev) & (lev + r**p - a * np.log(r) > phi_m)  # not already counted by the outer cap
    f = np.maximum(-np.expm1(lev - loss), 0.0) if loss_weight else 1.0
    inner = np.sum(np.exp(log_dens) * f * ok * w, axis=-1) * 0.5 * rho_star  # (n_psi, m)
    return wpsi @ inner  # (m,)


class SGGDelta:
    """delta(eps) of unit-beta SGG noise in R^T as a function of the shift (item 3).

    The cap boundaries in rho = ||x - shift e_1|| depend on (eps, r) only, so they are solved
    once here and every call (one per shift tried by the calibration) reuses them.
    """

    def __init__(self, eps: float, a: float, p: float, T: int, quad: "Quadrature", polar_offset: int = 0):
        self.eps, self.a, self.p, self.T, self.quad = eps, a, p, T, quad
        self.polar_T = T + polar_offset  # dimension of the angle's law: T (polar_offset != 0: mutant only)
        self.r, self.wr = _radial_nodes(T - 1 + a, p, quad.n_panels, quad.n_per)
        c = eps + self.r**p - (a * np.log(self.r) if a != 0.0 else 0.0)
        self.rho2 = _outer_root(c, a, p)

    def __call__(self, shift: float) -> float:
        eps, a, p, T, quad, r, wr = self.eps, self.a, self.p, self.T, self.quad, self.r, self.wr
        near = (float(_near_region(np.array([eps]), shift, a, p, T, quad, True, self.polar_T)[0])
                if a > 0 else 0.0)
        if T == 1:
            # The outer branch only: for a > 0 the inner one is in `near`.
            total = np.zeros_like(r)
            for rho in (np.abs(r - shift), r + shift):
                outer = (rho > self.rho2) if a > 0 else True
                total += 0.5 * np.maximum(-np.expm1(eps - _loss(r, rho, a, p)), 0.0) * outer
            return float(np.dot(wr, total)) + near
        x, w = _leggauss(quad.n_theta)
        lo = np.arccos(_cos_from_rho(r, self.rho2, shift))  # outer cap: theta in [lo, pi]
        half = 0.5 * (math.pi - lo)  # (n_r,)
        live = half > 0
        total = np.zeros_like(r)
        if live.any():
            th = lo[live, None] + half[live, None] * (x[None, :] + 1.0)  # (n_live, n_theta)
            rr = r[live, None]
            rho = np.sqrt(np.maximum(rr * rr - 2.0 * rr * shift * np.cos(th) + shift * shift, 0.0))
            g = np.maximum(-np.expm1(eps - _loss(rr, rho, a, p)), 0.0)
            with np.errstate(divide="ignore"):
                wt = np.exp((self.polar_T - 2) * np.log(np.sin(th)) - _log_norm_sphere(self.polar_T))
            total[live] = half[live] * np.sum(g * wt * w[None, :], axis=1)
        return float(np.dot(wr, total)) + near


def sgg_delta(eps: float, shift: float, a: float, p: float, T: int, quad: Quadrature = Quadrature()) -> float:
    """delta(eps) of unit-beta SGG noise in R^T against a neighbour shifted by `shift` (item 3)."""
    return SGGDelta(eps, a, p, T, quad)(shift)


def _cap_prob(t: np.ndarray, T: int) -> np.ndarray:
    """P(U_1 < t) for U uniform on S^{T-1}, T >= 2: (1 + U_1) / 2 ~ Beta((T-1)/2, (T-1)/2)."""
    from scipy.special import betainc

    if T == 2:
        return np.arccos(-t) / math.pi
    if T == 3:
        return 0.5 * (1.0 + t)
    return betainc(0.5 * (T - 1), 0.5 * (T - 1), 0.5 * (1.0 + t))


def sgg_loss_survival(shift: float, a: float, p: float, T: int, quad: Quadrature = Quadrature()):
    """S(l) = P(L > l) of the privacy loss of unit-beta SGG noise, vectorised in l (item 6)."""
    alpha = T - 1 + a
    r, wr = _radial_nodes(alpha, p, quad.n_panels, quad.n_per)

    def survival(levels: np.ndarray) -> np.ndarray:
        levels = np.atleast_1d(np.asarray(levels, dtype=float))
        c = levels[None, :] + (r**p - (a * np.log(r) if a != 0.0 else 0.0))[:, None]  # (n_r, m)
        rho2 = _outer_root(c, a, p)
        rr = r[:, None]
        if T == 1:
            prob = np.zeros_like(c)
            for rho in (np.abs(rr - shift), rr + shift):
                prob += 0.5 * (rho > rho2)
        else:
            prob = _cap_prob(_cos_from_rho(rr, rho2, shift), T)  # P(cos theta < t2): outer cap
        out = wr @ prob  # (m,)
        if a > 0:
            out = out + _near_region(levels, shift, a, p, T, quad, False)
        return out

    return survival


def sgg_pld(shift: float, a: float, p: float, T: int, h: float, tail: float = 1e-14, max_bins: int = 40000,
            quad: Quadrature = Quadrature()) -> PLD:
    """Discretised privacy-loss distribution of one SGG invocation (Algorithm 7, steps 1-2).

    The grid spans the [tail, 1 - tail] quantiles of L with spacing about h (at most max_bins).
    """
    surv = sgg_loss_survival(shift, a, p, T, quad)
    bounded = a == 0.0 and p <= 1.0  # |r'^p - r^p| <= shift^p
    lo, hi = (-shift**p, shift**p) if bounded else (-(shift**p + 1.0), shift**p + 1.0)
    while not bounded and surv(hi)[0] > tail:
        hi *= 2.0
    while not bounded and surv(lo)[0] < 1.0 - tail:
        lo *= 2.0
    # Shrink the range to the [tail, 1 - tail] quantiles, to 1/400 of its width.
    levels = np.linspace(lo, hi, 401)
    s = surv(levels)
    l_min = levels[max(int(np.searchsorted(-s, -(1.0 - tail), side="right")) - 1, 0)]
    l_max = levels[min(int(np.searchsorted(-s, -tail, side="left")), levels.size - 1)]
    n_bins = int(min(max_bins, max(200, math.ceil((l_max - l_min) / h))))
    return pld_from_survival(surv, l_min, l_max, n_bins)


# ----------------------------------------------------------------------------- calibration
def _solve_shift(delta_of_shift, target: float, monotone: bool = True, start: float = 1.0) -> float:
    """Largest shift s* with sup_{s <= s*} delta(s) <= target.

    monotone: delta increases with the shift (radially non-increasing densities), so the one
    root is found by Brent. Otherwise (a > 0: the density vanishes at the origin and delta is
    not monotone in the shift) the shift grid is scanned upwards by factors of 2 from far
    below the noise scale and Brent refines the *first* crossing.
    """
    from scipy.optimize import brentq

    def gap(log_s):
        return math.log(max(delta_of_shift(math.exp(log_s)), 1e-300)) - math.log(target)

    if monotone:
        lo, hi = math.log(start) - 0.5, math.log(start) + 0.5
        for _ in range(60):
            if gap(lo) < 0:
                break
            lo -= 1.5
        for _ in range(60):
            if gap(hi) > 0:
                break
            hi += 1.5
    else:
        lo = math.log(start) - 10 * math.log(2.0)
        if gap(lo) >= 0:
            raise ValueError("delta exceeds the target even for tiny shifts")
        for _ in range(80):
            hi = lo + math.log(2.0)
            if gap(hi) > 0:
                break
            lo = hi
    return math.exp(brentq(gap, lo, hi, xtol=1e-7, rtol=1e-12))


def calibrate_sgg(eps: float, delta: float, T: int, a: float, p: float, k: int = 1,
                  composition: str = "tight", quad: Quadrature = Quadrature(), h_rel: float = 2e-3,
                  polar_offset: int = 0) -> dict:
    """beta and MSE of SGG(alpha = T - 1 + a, p) at unit l2-sensitivity (items 4 and 6).

    k > 1: the k invocations are jointly (eps, delta)-DP, by tight PLD composition or by
    sequential composition (each run at (eps / k, delta / k)); "pure_sequential" (a foil, l2
    member only) runs each at (eps / k, 0), the pure-DP guarantee, composed sequentially.
    """
    alpha = T - 1 + a
    monotone = a <= 0.0
    # Starting guess: the shift a Gaussian of the same per-coordinate scale tolerates.
    scale = math.sqrt(sgg_mse(alpha, p) / T)
    if composition == "pure_sequential":  # foil only (c7): each invocation at (eps / k, 0)
        if a != 0.0 or p != 1.0:
            raise ValueError("pure_sequential: only the l2 member (a=0, p=1) has a bounded privacy loss")
        # | ||x|| - ||x - v|| | <= ||v||: with beta = 1 the l2 mechanism is ||v||-DP, so shift = eps / k.
        shift = split_budget(eps, delta, k)[0]
    elif k == 1 or composition == "sequential":
        e, d = split_budget(eps, delta, k)
        start = scale / analytic_gaussian_sigma(e, d)
        shift = _solve_shift(SGGDelta(e, a, p, T, quad, polar_offset), d, monotone, start)
    elif composition == "tight":
        start = scale / (math.sqrt(k) * analytic_gaussian_sigma(eps, delta))
        h = h_rel * eps / k  # rounding up shifts the k-fold loss by at most k h = h_rel eps
        pld_quad = Quadrature(n_panels=max(quad.n_panels // 2, 16), n_per=quad.n_per, n_theta=quad.n_theta)
        shift = _solve_shift(lambda s: hockey_stick(compose(sgg_pld(s, a, p, T, h, quad=pld_quad), k), eps),
                             delta, monotone, start)
    else:
        raise ValueError(f"unknown composition {composition!r}")
    return {"beta": shift**p, "shift": shift, "mse": sgg_mse(alpha, p) / shift**2, "alpha": alpha, "p": p}


def search_sgg(eps: float, delta: float, T: int, a_grid, p_grid, refine: bool = True,
               quad: Quadrature = Quadrature(), max_refine_evals: int = 60, polar_offset: int = 0) -> dict:
    """Least-MSE SGG member for one-shot (eps, delta) in R^T (item 5)."""
    from scipy.optimize import minimize

    cache: dict = {}

    def mse(a: float, p: float) -> float:
        key = (round(a, 10), round(p, 10))
        if key not in cache:
            if a <= -T + 0.05 or p <= 0.05:  # alpha > -1 keeps R integrable
                cache[key] = math.inf
            else:
                try:
                    cache[key] = calibrate_sgg(eps, delta, T, a, p, quad=quad, polar_offset=polar_offset)["mse"]
                except (ValueError, OverflowError, FloatingPointError):  # no admissible scale found
                    cache[key] = math.inf
        return cache[key]

    grid = [(a, p, mse(a, p)) for a in a_grid for p in p_grid if a > -T + 0.05]
    a0, p0, best = min(grid, key=lambda t: t[2])
    if refine:
        res = minimize(lambda z: mse(z[0], math.exp(z[1])), x0=[a0, math.log(p0)], method="Nelder-Mead",
                       options={"maxfev": max_refine_evals, "xatol": 1e-3, "fatol": best * 1e-5,
                                "initial_simplex": [[a0, math.log(p0)], [a0 + 0.25, math.log(p0)],
                                                    [a0, math.log(p0) + 0.15]]})
        if res.fun < best:
            a0, p0, best = float(res.x[0]), float(math.exp(res.x[1])), float(res.fun)
    return {"a": a0, "alpha": T - 1 + a0, "p": p0, "mse": best, "n_evals": len(cache),
            "grid": [(a, p, m) for a, p, m in grid]}


# ----------------------------------------------------------------------------- methods
def _resolution(n_panels: int, n_theta: int) -> Quadrature:
    return Quadrature(n_panels=n_panels, n_per=8, n_theta=n_theta)


@dataclass
class SGGMechanism(Method):
    """One SGG member, alpha = T - 1 + a; calibrated for k jointly (eps, delta)-DP invocations.

    Defaults are the l2 mechanism (p = 1, a = 0); (p = 2, a = 0) is the Gaussian mechanism.
    """

    name: ClassVar[str] = "sgg"
    a: float = 0.0  # alpha - (T - 1); 0 for both the Gaussian and the l2 mechanism (paper Sec. on SGG)
    p: float = 1.0  # 1 = l2 mechanism (Joseph et al. 2025), 2 = Gaussian
    composition: str = "tight"  # "tight" = Algorithm 7 (PLD + FFT); "sequential" = (eps/k, delta/k)
    # each; "pure_sequential" = (eps/k, 0) each (foil only, l2 member: see the header's foils)
    h_rel: float = 2e-3  # our choice: PLD grid step = h_rel * eps / k (losses rounded up)
    n_panels: int = 48  # our choice: radial quadrature panels (x 8 nodes)
    n_theta: int = 24  # our choice: polar quadrature nodes per cap

    def applies_to(self, dataset) -> str | None:
        if self.composition in ("sequential", "pure_sequential") and getattr(dataset, "k", 1) == 1:
            return "one invocation: sequential and tight composition coincide"
        return None

    def run(self, data, seed: int) -> dict:
        quad = _resolution(self.n_panels, self.n_theta)
        k, sens2 = int(data.get("k", 1)), data.get("sensitivity", 1.0) ** 2
        t0 = time.perf_counter()
        cal = calibrate_sgg(data["eps"], data["delta"], data["T"], self.a, self.p, k, self.composition, quad,
                            self.h_rel)
        elapsed = time.perf_counter() - t0
        out = {"mse": cal["mse"] * sens2, "alpha": cal["alpha"], "a": self.a, "p": self.p,
               "beta": cal["beta"] / data.get("sensitivity", 1.0) ** self.p, "time_s": elapsed}
        if self.a == 0.0 and self.p == 2.0:
            out["gauss_member_mse"] = out["mse"]
        if self.a == 0.0 and self.p == 1.0:
            out["l2_mse"] = out["mse"]
        if k > 1 and self.composition == "tight":
            seq = calibrate_sgg(data["eps"], data["delta"], data["T"], self.a, self.p, k, "sequential", quad)
            out["mse_sequential"] = seq["mse"] * sens2
        elif k > 1:  # sequential composition is its own reference: composition_gain = 1
            out["mse_sequential"] = out["mse"]
        return out


@dataclass
class SGGSearch(Method):
    """The least-MSE SGG member for one-shot (eps, delta)-DP in R^T (item 5; paper Fig. 2)."""

    name: ClassVar[str] = "sgg_best"
    # Search box in (a, p); must contain (0, 1) = l2 and (0, 2) = Gaussian. Our choice: paper's box unknown.
    a_grid: tuple = (-0.5, -0.25, 0.0, 0.5)
    p_grid: tuple = (1.0, 1.5, 2.0)
    refine_evals: int = 40  # our choice: Nelder-Mead calibrations after the grid
    n_panels: int = 48  # our choice: radial quadrature panels (x 8 nodes)
    n_theta: int = 24  # our choice: polar quadrature nodes per cap
    mutant: str = ""  # foil only: "sphere_off_by_one" (see the header); "" = the paper's method

    def applies_to(self, dataset) -> str | None:
        if getattr(dataset, "k", 1) != 1:
            return "the (alpha, p) search is for one invocation (Fig. 2)"
        return None

    def run(self, data, seed: int) -> dict:
        if self.mutant not in ("", "sphere_off_by_one"):
            raise ValueError(f"unknown mutant {self.mutant!r}")
        quad = _resolution(self.n_panels, self.n_theta)
        sens2 = data.get("sensitivity", 1.0) ** 2
        t0 = time.perf_counter()
        res = search_sgg(data["eps"], data["delta"], data["T"], self.a_grid, self.p_grid,
                         refine=self.refine_evals > 0, quad=quad, max_refine_evals=self.refine_evals,
                         polar_offset=1 if self.mutant == "sphere_off_by_one" else 0)
        elapsed = time.perf_counter() - t0
        member = {(a, p): m for a, p, m in res["grid"]}
        return {"mse": res["mse"] * sens2, "a": res["a"], "alpha": res["alpha"], "p": res["p"],
                "l2_mse": member[(0.0, 1.0)] * sens2, "gauss_member_mse": member[(0.0, 2.0)] * sens2,
                "n_calibrations": res["n_evals"], "time_s": elapsed,
                "traces": {"mse_vs_p_at_a0": {"x": [p for (a, p) in member if a == 0.0],
                                              "y": [m * sens2 for (a, p), m in member.items() if a == 0.0]}}}
