"""Unit tests for dp_ridge: closed forms, sensitivity bounds on neighbouring datasets, eps -> inf."""
from __future__ import annotations

import math

import numpy as np
import pytest

from claimbench.baselines.output_perturbation import (LAMBDA_GRID, OutputPerturbation, filter_risk, gram_stats,
                                                      ridge_sensitivity, ridge_solve, theta_radius)
from claimbench.baselines.sufficient_statistics_perturbation import (SufficientStatisticsPerturbation,
                                                                     ssp_sensitivity)
from claimbench.datasets.gaussian_regression import GaussianRegression, clip_rows, clipped_gaussian_var
from claimbench.methods.dp_ridge import (ALPHA_GRID, C_GRID, DecoupledRidge, candidate_pairs,
                                         decoupled_sensitivity, floor_filter, floored_ridge)

# (alpha, c, kind): ridge (c = 0) under both bounds and active floors c > alpha.
CONFIGS = [(0.05, 0.0, "resolvent"), (0.5, 0.0, "resolvent"), (0.05, 0.0, "chaudhuri"), (0.5, 0.0, "chaudhuri"),
           (0.0, 0.05, "floor"), (0.01, 0.2, "floor"), (0.0, 0.5, "floor"), (0.1, 0.3, "floor"), (0.0, 2.0, "floor")]


def _bound(n, alpha, c, kind):
    if kind == "chaudhuri":
        return ridge_sensitivity(n, alpha, bound="chaudhuri")
    return decoupled_sensitivity(n, alpha, c)


def _replace(X, y, i, xn, yn):
    X2, y2 = X.copy(), y.copy()
    X2[i], y2[i] = xn, yn
    return X2, y2


def _unit(v):
    return v / np.linalg.norm(v)


def _random_dataset(rng, n, d):
    """Rows in the unit ball, many on the sphere, with a random spectrum (some nearly singular)."""
    scale = rng.uniform(0.01, 1.0, d) ** rng.uniform(0.5, 3)  # (d,)
    X = clip_rows(rng.standard_normal((n, d)) * scale, 1.0)
    on_sphere = rng.uniform(size=n) < 0.5
    X[on_sphere] = X[on_sphere] / np.maximum(np.linalg.norm(X[on_sphere], axis=1, keepdims=True), 1e-12)
    y = np.where(rng.uniform(size=n) < 0.5, np.sign(rng.standard_normal(n)), rng.uniform(-1, 1, n))
    return X, y


def test_ridge_closed_form_matches_lstsq_on_augmented_system():
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((40, 5)), rng.standard_normal(40)
    for lam in (1e-3, 0.1, 2.0):
        n, d = X.shape
        A = np.vstack([X / math.sqrt(n), math.sqrt(lam) * np.eye(d)])  # (n + d, d)
        rhs = np.concatenate([y / math.sqrt(n), np.zeros(d)])
        ref = np.linalg.lstsq(A, rhs, rcond=None)[0]
        assert np.allclose(ridge_solve(X, y, lam), ref, atol=1e-12)
        assert np.allclose(floored_ridge(X, y, lam, 0.0), ref, atol=1e-12)


def test_floor_is_inactive_below_the_spectrum_and_total_above_it():
    rng = np.random.default_rng(1)
    X, y = rng.standard_normal((50, 4)) / 3, rng.uniform(-1, 1, 50)
    S, b = gram_stats(X, y)
    lmin, lmax = np.linalg.eigvalsh(S)[[0, -1]]
    alpha = 0.02
    assert np.allclose(floored_ridge(X, y, alpha, alpha + 0.99 * lmin), ridge_solve(X, y, alpha), atol=1e-13)
    c = alpha + 1.01 * lmax  # every eigenvalue floored: H = cI
    assert np.allclose(floored_ridge(X, y, alpha, c), b / c, atol=1e-13)


def test_eigenvalue_floor_is_frobenius_nonexpansive():
    # The lemma behind the sqrt(2) B_x^2 / n term: flooring = projection onto {M >= cI}.
    rng = np.random.default_rng(2)
    for _ in range(200):
        A, B = (rng.standard_normal((5, 5)) for _ in range(2))
        A, B = A + A.T, B + B.T
        c = rng.uniform(-1, 2)

        def floor(M):
            ev, U = np.linalg.eigh(M)
            return (U * np.maximum(ev, c)) @ U.T

        assert np.linalg.norm(floor(A) - floor(B)) <= np.linalg.norm(A - B) + 1e-12


def test_theta_radius_bounds_the_estimator_and_is_attained():
    rng = np.random.default_rng(3)
    for alpha, c, _ in CONFIGS:
        R = theta_radius(1.0, 1.0, alpha, c)
        seen = 0.0
        for _ in range(100):
            X, y = _random_dataset(rng, int(rng.integers(2, 30)), 3)
            seen = max(seen, np.linalg.norm(floored_ridge(X, y, alpha, c)))
        assert seen <= R * (1 + 1e-12)
        # One row x = sqrt(l*) e_1 with y = 1 and zeros elsewhere, n = 1: S = l* e_1 e_1^T gives
        # ||theta|| = sqrt(l*) / h(l*), the supremum over l* in [0, 1] (a grid stands in for it).
        ls = np.linspace(1e-6, 1.0, 1001)
        best = max(np.linalg.norm(floored_ridge(np.array([[math.sqrt(l), 0.0]]), np.array([1.0]), alpha, c))
                   for l in ls)
        assert best <= R * (1 + 1e-12) and best >= 0.99 * min(R, 1.0 / max(alpha, c))


@pytest.mark.parametrize("alpha,c,kind", CONFIGS)
def test_sensitivity_bound_holds_on_random_and_adversarial_neighbours(alpha, c, kind):
    rng = np.random.default_rng(4)
    worst = 0.0
    for _ in range(50):
        n, d = int(rng.integers(2, 25)), int(rng.integers(1, 5))
        X, y = _random_dataset(rng, n, d)
        th = floored_ridge(X, y, alpha, c)
        S, _ = gram_stats(X, y)
        U = np.linalg.eigh(S)[1]
        cands = [(rng.integers(n), _unit(rng.standard_normal(d)) * rng.uniform() ** 0.3, rng.uniform(-1, 1))]
        for i in (0, int(np.argmax(np.abs(y - X @ th)))):
            for u in (U[:, 0], U[:, -1], _unit(th) if np.linalg.norm(th) > 0 else U[:, 0], _unit(X[i] + 1e-12)):
                for s in (1.0, -1.0):
                    for yn in (1.0, -1.0):
                        cands.append((i, s * u, yn))
        bound = _bound(n, alpha, c, kind)
        for i, xn, yn in cands:
            X2, y2 = _replace(X, y, i, xn, yn)
            worst = max(worst, np.linalg.norm(floored_ridge(X2, y2, alpha, c) - th) / bound)
    assert worst <= 1.0


@pytest.mark.parametrize("alpha,c,kind", CONFIGS)
def test_sensitivity_bound_is_valid_and_not_vacuous_on_a_worst_case_pair(alpha, c, kind):
    # Only one non-zero row, (e_1, +1) vs (e_1, -1): theta = +-e_1 / (n h) with h = max(1/n + alpha, c),
    # so the change 2 / (n h) approaches the leading 2 B_x B_y / (n m) term of the bound.
    n = 200
    X = np.zeros((n, 3))
    X[0, 0] = 1.0
    y = np.zeros(n)
    y[0] = 1.0
    X2, y2 = _replace(X, y, 0, X[0], -1.0)
    change = np.linalg.norm(floored_ridge(X, y, alpha, c) - floored_ridge(X2, y2, alpha, c))
    bound = _bound(n, alpha, c, kind)
    m = max(alpha, c)
    assert change <= bound
    assert change >= 0.95 * 2.0 / (n * m) / (1 + 1 / (n * m))
    assert change / bound >= 0.15  # the bound is within a small factor of a realised change


@pytest.mark.parametrize("alpha,c,kind", CONFIGS)
def test_sensitivity_bound_on_aligned_worst_cases(alpha, c, kind):
    # Every row sqrt(l) e_1 with y = 1 makes ||theta|| = sqrt(l) / h(l), up to the radius R; replacing
    # one row by (e_1, -1) moves b and S so that both terms of theta' - theta = H'^{-1}[db - dH theta] add.
    n = 200
    worst = 0.0
    for l in np.linspace(1e-3, 1.0, 120):
        X = np.zeros((n, 2))
        X[:, 0] = math.sqrt(l)
        y = np.ones(n)
        th = floored_ridge(X, y, alpha, c)
        for xn in (np.array([1.0, 0.0]), np.array([-1.0, 0.0]), np.array([0.0, 1.0])):
            for yn in (1.0, -1.0):
                X2, y2 = _replace(X, y, 0, xn, yn)
                worst = max(worst, np.linalg.norm(floored_ridge(X2, y2, alpha, c) - th) / _bound(n, alpha, c, kind))
    assert worst <= 1.0
    # Tightness: the radius term matters (a bound without it is violated here) and ours is within
    # a factor 2.2 of the realised change.
    assert worst >= (0.15 if kind == "chaudhuri" else 0.45)


def test_sensitivity_bound_survives_local_adversarial_search():
    from scipy.optimize import minimize

    n, d = 4, 2
    rng = np.random.default_rng(5)

    def ratio(p, alpha, c, kind):
        P = p.reshape(n + 1, d + 1)
        Xa = clip_rows(P[:, :d], 1.0)
        ya = np.tanh(P[:, d])
        X, y = Xa[:n], ya[:n]
        X2, y2 = _replace(X, y, 0, Xa[n], ya[n])
        return np.linalg.norm(floored_ridge(X, y, alpha, c) - floored_ridge(X2, y2, alpha, c)) / _bound(n, alpha, c, kind)

    for alpha, c, kind in [(0.5, 0.0, "resolvent"), (0.1, 0.3, "floor")]:
        best = 0.0
        for _ in range(1):
            res = minimize(lambda p: -ratio(p, alpha, c, kind), 2 * rng.standard_normal((n + 1) * (d + 1)),
                           method="Nelder-Mead", options={"maxiter": 400})
            best = max(best, -res.fun)
        assert best <= 1.0


def test_chaudhuri_bound_dominates_the_resolvent_bound():
    for n in (10, 1000):
        for lam in LAMBDA_GRID:
            assert ridge_sensitivity(n, lam, bound="resolvent") <= ridge_sensitivity(n, lam, bound="chaudhuri")
            assert decoupled_sensitivity(n, lam, 0.0) == ridge_sensitivity(n, lam, bound="resolvent")


def test_ssp_sensitivity_bound_holds():
    rng = np.random.default_rng(6)
    worst = 0.0
    for _ in range(300):
        n, d = int(rng.integers(2, 20)), int(rng.integers(1, 5))
        X, y = _random_dataset(rng, n, d)
        i = int(rng.integers(n))
        xn = _unit(rng.standard_normal(d)) if rng.uniform() < 0.5 else -X[i] / max(np.linalg.norm(X[i]), 1e-12)
        X2, y2 = _replace(X, y, i, xn, -y[i] if y[i] != 0 else 1.0)
        (S, b), (S2, b2) = gram_stats(X, y), gram_stats(X2, y2)
        change = math.sqrt(np.sum((S2 - S) ** 2) + np.sum((b2 - b) ** 2))
        worst = max(worst, change / ssp_sensitivity(n))
    assert worst <= 1.0


def _data(n=300, d=4, eps=1.0, seed=0):
    return GaussianRegression(n=n, d=d, eps=eps, n_pub=200, n_test=100).make(seed).data


def test_infinite_eps_releases_the_non_private_estimator():
    data = dict(_data(), eps=math.inf)
    X, y = data["X"], data["y"]
    out = DecoupledRidge(alphas=(0.1,), cs=(0.0,)).run(data, seed=1)
    assert out["sigma"] == 0.0 and np.array_equal(out["theta"], out["theta_hat"])
    assert np.allclose(out["theta"], ridge_solve(X, y, 0.1), atol=1e-12)
    out = DecoupledRidge().run(data, seed=1)
    assert np.allclose(out["theta"], floored_ridge(X, y, out["alpha"], out["c"]), atol=1e-12)
    out = OutputPerturbation(lambdas=(0.1,)).run(data, seed=1)
    assert np.allclose(out["theta"], ridge_solve(X, y, 0.1), atol=1e-12)
    out = SufficientStatisticsPerturbation().run(data, seed=1)
    assert np.allclose(out["theta"], np.linalg.lstsq(X, y, rcond=None)[0], atol=1e-10)


def test_large_eps_converges_to_the_non_private_estimator():
    X = _data()["X"]
    gaps = []
    for eps in (1.0, 100.0, 1e4):
        data = dict(_data(), eps=eps)
        out = DecoupledRidge(alphas=(0.1,), cs=(0.0,)).run(data, seed=1)
        gaps.append(np.linalg.norm(out["theta"] - ridge_solve(X, data["y"], 0.1)))
    # Same noise direction (same seed): the gap is sigma(eps) ||xi||, sigma ~ 1/sqrt(eps) for large eps.
    assert gaps[0] > gaps[1] > gaps[2] and gaps[2] < 0.02 * gaps[0]


def test_decoupled_grid_contains_every_single_lambda():
    pairs = set(candidate_pairs(ALPHA_GRID, C_GRID))
    assert all((lam, 0.0) in pairs for lam in LAMBDA_GRID)
    assert not any(0 < c <= a for a, c in pairs)  # c <= alpha duplicates ridge alpha


def test_methods_refuse_data_outside_the_bounds():
    data = dict(_data())
    data["X"] = data["X"] * 3
    with pytest.raises(ValueError):
        DecoupledRidge().run(data, seed=0)
    with pytest.raises(ValueError):
        OutputPerturbation().run(data, seed=0)


def test_clipped_gaussian_variance_matches_monte_carlo():
    rng = np.random.default_rng(7)
    z = np.clip(0.3 * rng.standard_normal(2_000_000), -0.4, 0.4)
    assert abs(clipped_gaussian_var(0.3, 0.4) - z.var()) < 3e-4
    assert clipped_gaussian_var(0.1, 100.0) == pytest.approx(0.01, rel=1e-12)


def test_risk_decomposition_matches_monte_carlo():
    rng = np.random.default_rng(8)
    n, d, s, sigma = 200, 3, 0.2, 0.05
    X = clip_rows(rng.standard_normal((n, d)) * [0.6, 0.3, 0.05], 1.0)
    theta = np.array([0.3, -0.2, 0.1])
    S = X.T @ X / n
    ev, U = np.linalg.eigh(S)
    for alpha, c in [(0.01, 0.0), (0.0, 0.05), (0.02, 0.1)]:
        h = floor_filter(ev, alpha, c)
        theory = filter_risk(ev, (U.T @ theta) ** 2, s * s, n, h, sigma)
        Y = X @ theta + s * rng.standard_normal((8000, n))  # (R, n)
        est = ((Y @ X / n) @ U / h) @ U.T + sigma * rng.standard_normal((8000, d))
        mc = np.mean(np.sum((est - theta) ** 2, axis=1))
        assert abs(mc - theory) / theory < 0.03


def test_dataset_respects_bounds_and_is_seeded():
    ds = GaussianRegression(n=500, d=5, kappa=100.0, n_pub=100, n_test=50)
    a, b = ds.make(3), ds.make(3)
    assert np.array_equal(a.data["X"], b.data["X"])
    for X, y in ((a.data["X"], a.data["y"]), (a.data["X_pub"], a.data["y_pub"])):
        assert np.linalg.norm(X, axis=1).max() <= 1 + 1e-12 and np.abs(y).max() <= 1
    assert a.data["delta"] == pytest.approx(500.0**-2)
    ev = np.linalg.eigvalsh(a.truth["second_moment"])
    assert 50 < ev[-1] / ev[0] < 200  # kappa survives the (rare) row clipping


def test_smoke_grid_runs_and_the_audit_passes():
    from claimbench.benchmarks.dp_ridge import BENCHMARK
    from claimbench.testing import run_grid_inline

    rows = run_grid_inline(BENCHMARK, "smoke")
    assert rows and all(r["status"] == "ok" for r in rows)
    for r in rows:
        m = r["metrics"]
        assert math.isfinite(m["est_mse"]) and math.isfinite(m["pred_mse"])
        assert m["sensitivity_ratio"] <= 1.0
        if m["theory_gap"] is not None:
            assert m["theory_gap"] < 0.15
