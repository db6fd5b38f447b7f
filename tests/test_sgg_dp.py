"""Unit tests for sgg_dp: SGG privacy calibration, PLD composition, Gaussian / Laplace references."""
from __future__ import annotations

import math

import numpy as np
import pytest

from claimbench.baselines.gaussian_mechanism import (analytic_gaussian_sigma, gaussian_delta,
                                                     gaussian_sigma_composed)
from claimbench.baselines.privacy_accounting import (compose, convolve, gaussian_pld_survival, hockey_stick,
                                                     hockey_stick_discrete, pld_from_survival)
from claimbench.baselines.sequential_composition import composed_budget, split_budget
from claimbench.methods.sgg_dp import (Quadrature, _loss, calibrate_sgg, sample_sgg, search_sgg, sgg_delta,
                                       sgg_mse, sgg_pld)

SIGMA_UNIT = 1 / math.sqrt(2)  # SGG with p=2, a=0, beta=1 is N(0, I/2)
COARSE = Quadrature(n_panels=24, n_per=8, n_theta=16)  # enough for the PLD's survival function


def test_gaussian_delta_matches_direct_integral():
    from scipy.integrate import quad

    def pdf(x, m, s):
        return math.exp(-0.5 * ((x - m) / s) ** 2) / (s * math.sqrt(2 * math.pi))

    for eps, sigma in [(0.5, 1.0), (1.0, 3.0), (2.0, 0.7)]:
        # P-density exceeds e^eps times the Q-density exactly for x < 1/2 - eps sigma^2.
        direct, _ = quad(lambda x: pdf(x, 0, sigma) - math.exp(eps) * pdf(x, 1, sigma),
                         -np.inf, 0.5 - eps * sigma**2, epsabs=1e-15, epsrel=1e-10)
        assert gaussian_delta(eps, sigma) == pytest.approx(direct, rel=1e-6, abs=1e-13)


def test_analytic_gaussian_sigma_round_trip_and_beats_classical():
    for eps, delta in [(0.1, 1e-5), (0.5, 1e-3), (0.9, 1e-8)]:
        s = analytic_gaussian_sigma(eps, delta)
        assert gaussian_delta(eps, s) == pytest.approx(delta, rel=1e-8)
        assert s < math.sqrt(2 * math.log(1.25 / delta)) / eps  # classical bound, valid for eps < 1


@pytest.mark.parametrize("T", [1, 2, 5, 20])
def test_sgg_gaussian_member_delta_equals_balle_wang(T):
    for eps, shift in [(0.5, 0.3), (1.0, 0.2), (2.0, 0.5)]:
        assert sgg_delta(eps, shift, 0.0, 2.0, T) == pytest.approx(gaussian_delta(eps, SIGMA_UNIT / shift),
                                                                   rel=2e-3)


def test_gaussian_calibration_relative_error_below_1e3():
    for T, eps, delta in [(2, 0.5, 1e-2), (3, 1.0, 1e-5), (10, 2.0, 1e-3)]:
        mse = calibrate_sgg(eps, delta, T, 0.0, 2.0)["mse"]
        assert abs(mse / (T * analytic_gaussian_sigma(eps, delta) ** 2) - 1) < 1e-3


def test_laplace_one_dimension_closed_form():
    # T=1, p=1, alpha=0, beta=1 is Laplace(1); shifted by D: delta(eps) = 1 - exp((eps - D) / 2).
    for eps, shift in [(0.5, 1.0), (1.0, 2.0), (0.2, 0.6)]:
        assert sgg_delta(eps, shift, 0.0, 1.0, 1) == pytest.approx(1 - math.exp((eps - shift) / 2), rel=5e-3)
    assert sgg_delta(1.0, 0.9, 0.0, 1.0, 1) == 0.0  # pure eps-DP once the shift is at most eps


def test_l2_mechanism_is_pure_dp():
    # |  ||x|| - ||x - v||  | <= ||v||: the l2 mechanism with beta = eps is eps-DP in any dimension.
    for T in (2, 5):
        assert sgg_delta(1.0, 0.999, 0.0, 1.0, T) == 0.0
        assert sgg_delta(1.0, 1.2, 0.0, 1.0, T) > 0.0


def test_mse_formula_matches_monte_carlo():
    rng = np.random.default_rng(0)
    for alpha, p, beta, T in [(1.0, 2.0, 0.5, 2), (4.0, 1.0, 2.0, 5), (0.7, 1.4, 1.0, 2)]:
        x = sample_sgg(alpha, p, beta, T, 200_000, rng)
        sq = np.sum(x**2, axis=1)
        assert np.mean(sq) == pytest.approx(sgg_mse(alpha, p, beta), abs=4 * sq.std() / math.sqrt(sq.size))
    # Gaussian member: E||X||^2 = T sigma^2 with beta = 1 / (2 sigma^2).
    assert sgg_mse(2.0, 2.0, 1 / (2 * 1.5**2)) == pytest.approx(3 * 1.5**2)


@pytest.mark.parametrize("T,a,p,shift,eps", [(2, 0.5, 1.0, 1.5, 1.0), (3, -0.5, 1.5, 1.0, 0.5),
                                             (2, 1.0, 0.75, 1.0, 0.5)])
def test_delta_matches_monte_carlo(T, a, p, shift, eps):
    rng = np.random.default_rng(1)
    x = sample_sgg(T - 1 + a, p, 1.0, T, 400_000, rng)
    y = x.copy()
    y[:, 0] -= shift
    g = np.maximum(0.0, -np.expm1(eps - _loss(np.linalg.norm(x, axis=1), np.linalg.norm(y, axis=1), a, p)))
    assert sgg_delta(eps, shift, a, p, T) == pytest.approx(g.mean(), abs=4 * g.std() / math.sqrt(g.size))


def test_delta_increases_with_shift_for_radially_decreasing_noise():
    shifts = np.geomspace(0.05, 3.0, 12)
    for a, p, T in [(0.0, 1.0, 2), (-0.3, 1.5, 3), (0.0, 2.0, 5)]:
        d = [sgg_delta(0.5, s, a, p, T) for s in shifts]
        assert np.all(np.diff(d) >= -1e-12)


def test_pld_composition_of_gaussians_is_gaussian_with_sigma_over_sqrt_k():
    sigma, eps = 2.0, 1.0
    mu = 1 / (2 * sigma**2)
    sd = math.sqrt(2 * mu)
    for k in (1, 4, 16):
        pld = pld_from_survival(gaussian_pld_survival(mu), mu - 12 * sd, mu + 12 * sd, 4000)
        d = hockey_stick(compose(pld, k), eps)
        exact = gaussian_delta(eps, sigma / math.sqrt(k))
        assert exact <= d <= exact * 1.05  # rounding losses up can only over-estimate delta


def test_convolve_two_plds_equals_two_fold_composition():
    pld = pld_from_survival(gaussian_pld_survival(0.1), -2.0, 2.5, 900)
    a, b = convolve(pld, pld), compose(pld, 2)
    assert a.l0 == pytest.approx(b.l0) and np.allclose(a.pmf, b.pmf, atol=1e-12)
    assert hockey_stick(a, 0.3) == pytest.approx(hockey_stick(b, 0.3), rel=1e-9)


def test_sgg_pld_composition_gaussian_member_and_calibration():
    shift, eps, k = 0.15, 1.0, 8
    d = hockey_stick(compose(sgg_pld(shift, 0.0, 2.0, 2, h=1e-3 * eps / k, quad=COARSE), k), eps)
    assert d == pytest.approx(gaussian_delta(eps, SIGMA_UNIT / (shift * math.sqrt(k))), rel=2e-2)
    mse = calibrate_sgg(1.0, 1e-5, 2, 0.0, 2.0, k=4, composition="tight", quad=COARSE)["mse"]
    ref = 2 * gaussian_sigma_composed(1.0, 1e-5, 4, "tight") ** 2
    assert 0 < mse / ref - 1 < 1e-2  # pessimistic rounding: slightly conservative, never optimistic


def test_one_shot_pld_matches_direct_delta_for_l2():
    shift, eps = 1.3, 1.0
    d_pld = hockey_stick(sgg_pld(shift, 0.0, 1.0, 3, h=5e-4, quad=COARSE), eps)
    assert d_pld == pytest.approx(sgg_delta(eps, shift, 0.0, 1.0, 3), rel=2e-2)


def test_sequential_composition_and_discrete_hockey_stick():
    assert split_budget(1.0, 1e-5, 4) == (0.25, 2.5e-6)
    assert composed_budget(0.25, 2.5e-6, 4) == (1.0, 1e-5)
    e0 = 0.7  # randomised response is exactly e0-DP
    p = np.array([math.exp(e0), 1.0]) / (1 + math.exp(e0))
    assert hockey_stick_discrete(p, p[::-1], e0) == pytest.approx(0.0, abs=1e-15)
    assert hockey_stick_discrete(p, p[::-1], 0.0) == pytest.approx(p[0] - p[1])
    assert gaussian_sigma_composed(1.0, 1e-5, 9, "tight") == pytest.approx(3 * analytic_gaussian_sigma(1.0, 1e-5))


def test_pure_sequential_foil_is_the_pure_dp_scale_and_noisier_than_sequential():
    # Each of k invocations at (eps/k, 0): beta = k / eps, so MSE = T (T + 1) (k / eps)^2 (l2 member).
    for T, eps, k in [(2, 0.5, 2), (3, 1.0, 8)]:
        pure = calibrate_sgg(eps, 1e-5, T, 0.0, 1.0, k, "pure_sequential", COARSE)["mse"]
        assert pure == pytest.approx(T * (T + 1) * (k / eps) ** 2, rel=1e-12)
        # delta > 0 lets the sequential calibration use a larger shift: strictly less noise.
        assert calibrate_sgg(eps, 1e-5, T, 0.0, 1.0, k, "sequential", COARSE)["mse"] < pure
    with pytest.raises(ValueError):
        calibrate_sgg(1.0, 1e-5, 2, 0.0, 2.0, 4, "pure_sequential", COARSE)  # Gaussian: unbounded loss


def test_search_is_no_worse_than_its_gaussian_and_l2_members():
    res = search_sgg(0.5, 1e-2, 2, (0.0,), (1.0, 2.0), refine=True, max_refine_evals=10)
    members = {(a, p): m for a, p, m in res["grid"]}
    assert res["mse"] <= min(members[(0.0, 1.0)], members[(0.0, 2.0)])


def test_smoke_grid_runs():
    from claimbench.benchmarks.sgg_dp import BENCHMARK
    from claimbench.testing import run_grid_inline

    rows = run_grid_inline(BENCHMARK, "smoke")
    ok = [r for r in rows if r["status"] == "ok"]
    assert len(ok) >= 8
    for r in ok:
        for name, v in r["metrics"].items():
            assert v is None or math.isfinite(v), name
        assert r["outputs"]["mse"] > 0


def test_premise_gaussian_delta_by_quadrature_known_answers():
    from scipy.stats import norm

    from claimbench.benchmarks.sgg_dp import gaussian_delta_by_quadrature

    # eps = 0: delta is the total variation distance 2 Phi(1 / (2 sigma)) - 1.
    for sigma in (0.4, 1.0, 5.0):
        assert gaussian_delta_by_quadrature(0.0, sigma) == pytest.approx(2 * norm.cdf(0.5 / sigma) - 1, rel=1e-9)
    assert gaussian_delta_by_quadrature(0.5, 1e-3) == pytest.approx(1.0, rel=1e-9)  # tiny noise: no privacy


def test_premise_gauss_metric_detects_miscalibration():
    from claimbench.api import Instance
    from claimbench.benchmarks.sgg_dp import _gauss_delta_relerr

    eps, delta, k = 0.7, 1e-3, 4  # not a grid regime
    inst = Instance(data={"eps": eps, "delta": delta, "T": 3, "k": k, "sensitivity": 1.0}, truth={})
    sigma = gaussian_sigma_composed(eps, delta, k, "tight")
    assert _gauss_delta_relerr(inst, {"sigma": sigma}) < 1e-8
    assert _gauss_delta_relerr(inst, {"sigma": 0.98 * sigma}) > 1e-2  # too little noise: delta too large
    assert _gauss_delta_relerr(inst, {"mse": 1.0}) is None


def test_premise_l2_delta_by_survival_laplace_and_calibration():
    from claimbench.api import Instance
    from claimbench.benchmarks.sgg_dp import _l2_delta_relerr, l2_delta_by_survival

    # T = 1: the l2 mechanism is Laplace(1); delta(eps) = 1 - exp((eps - shift) / 2) for eps < shift.
    for eps, shift in [(0.5, 1.0), (1.0, 3.0)]:
        assert l2_delta_by_survival(eps, shift, 1) == pytest.approx(1 - math.exp((eps - shift) / 2), rel=1e-3)
    assert l2_delta_by_survival(2.0, 1.5, 3) == 0.0  # pure eps-DP once eps >= shift
    eps, delta, T = 0.7, 1e-3, 3  # not a grid regime
    cal = calibrate_sgg(eps, delta, T, 0.0, 1.0)
    inst = Instance(data={"eps": eps, "delta": delta, "T": T, "k": 1, "sensitivity": 1.0}, truth={})
    out = {"beta": cal["beta"], "a": 0.0, "p": 1.0}
    assert _l2_delta_relerr(inst, out) < 1e-2
    assert _l2_delta_relerr(inst, dict(out, beta=1.05 * cal["beta"])) > 1e-2  # shift 5 % too large
    assert _l2_delta_relerr(inst, dict(out, p=2.0)) is None
