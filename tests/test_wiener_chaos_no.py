"""Tests of the stochastic-equation generators (closed forms), the Wiener-chaos features, the
chaos regression baseline, and WCE-NO against its mutants."""
import math

import numpy as np
import pytest

from claimbench.baselines.wiener_chaos_regression import (ChaosRegression, cosine_basis,
                                                          gaussian_coordinates, multi_indices,
                                                          wick_hermite)
from claimbench.datasets.stochastic_equations import (StochasticEquations, gbm_moments,
                                                      obs_times, ou_moments, sample_noise, solve,
                                                      solve_fine, spec_of)
from claimbench.methods.wiener_chaos_no import WCENO, chaos_features, mmd2_gaussian


# -- generators against closed forms -----------------------------------------------------------
def test_ou_marginal_moments_match_closed_form():
    spec = spec_of("ou")
    rng = np.random.default_rng(0)
    n, x0 = 40000, 0.3
    paths = solve(spec, np.full(n, x0), sample_noise(spec, rng, n))  # (n, n_obs)
    mean, var = ou_moments(x0, obs_times(spec), spec["theta"], spec["mu"], spec["sigma"])
    se = np.sqrt(var / n)
    assert np.all(np.abs(paths.mean(0) - mean) < 5 * se)
    # exact-in-law transition: variance error is Monte Carlo only (rel. s.e. sqrt(2/n) ~ 0.7%)
    np.testing.assert_allclose(paths.var(0), var, rtol=0.04)


def test_gbm_marginal_moments_match_closed_form():
    spec = spec_of("gbm")
    rng = np.random.default_rng(1)
    n, x0 = 40000, 1.2
    paths = solve(spec, np.full(n, x0), sample_noise(spec, rng, n))
    t = obs_times(spec)
    mean, var = gbm_moments(x0, t, spec["mu"], spec["sigma"])
    np.testing.assert_allclose(paths.mean(0), mean, rtol=0.02)
    np.testing.assert_allclose(paths.var(0), var, rtol=0.1)
    # log X_t is exactly Gaussian: N(log x0 + (mu - sigma^2/2) t, sigma^2 t)
    logs = np.log(paths)
    np.testing.assert_allclose(logs.mean(0), np.log(x0) + (spec["mu"] - spec["sigma"] ** 2 / 2) * t,
                               atol=5 * spec["sigma"] / np.sqrt(n) + 1e-3)
    np.testing.assert_allclose(logs.var(0), spec["sigma"] ** 2 * t, rtol=0.04)


def _refine(dW_fine: np.ndarray, factor: int) -> np.ndarray:
    n, f, j = dW_fine.shape
    return dW_fine.reshape(n, f // factor, factor, j).sum(2)


def test_gbm_is_the_exact_path_solution_and_euler_maruyama_converges_to_it():
    spec = spec_of("gbm")
    rng = np.random.default_rng(2)
    n, sub = 200, 64
    fine = sample_noise({**spec, "n_fine": spec["n_fine"] * sub}, rng, n)  # (n, 64*64, 1)
    dW = _refine(fine, sub)  # the same Brownian path on the generator's grid
    x0 = np.full(n, 0.9)
    exact = solve_fine(spec, x0, dW)[:, -1]
    W_T = fine[..., 0].sum(1)
    np.testing.assert_allclose(exact, x0 * np.exp((spec["mu"] - spec["sigma"] ** 2 / 2) * spec["T"]
                                                  + spec["sigma"] * W_T), rtol=1e-10)

    def euler(inc):
        x = x0.copy()
        dt = spec["T"] / inc.shape[1]
        for k in range(inc.shape[1]):
            x = x + spec["mu"] * x * dt + spec["sigma"] * x * inc[:, k, 0]
        return x

    err_coarse = np.mean(np.abs(euler(dW) - exact))
    err_fine = np.mean(np.abs(euler(fine) - exact))
    assert err_fine < err_coarse / 4 and err_fine < 0.01


def test_ou_path_matches_the_exact_solution_given_the_same_brownian_path():
    spec = spec_of("ou")
    rng = np.random.default_rng(3)
    n, sub = 200, 64
    fine = sample_noise({**spec, "n_fine": spec["n_fine"] * sub}, rng, n)
    x0 = rng.uniform(0, 2, n)
    th, mu, s, T = spec["theta"], spec["mu"], spec["sigma"], spec["T"]
    # exact solution X_T = mu + (x0 - mu) e^{-theta T} + sigma int_0^T e^{-theta (T - s)} dW_s,
    # the stochastic integral as a sum over 4096 sub-steps (left points)
    s_left = np.arange(fine.shape[1]) * T / fine.shape[1]
    exact = mu + (x0 - mu) * np.exp(-th * T) + s * fine[..., 0] @ np.exp(-th * (T - s_left))
    errs = [np.mean(np.abs(solve_fine({**spec, "n_fine": spec["n_fine"] * f}, x0,
                                      _refine(fine, sub // f))[:, -1] - exact)) for f in (1, 8)]
    assert errs[0] < 0.02 and errs[1] < errs[0] / 3


def test_phi41_without_noise_follows_the_reaction_ode_for_a_constant_field():
    from scipy.integrate import solve_ivp

    spec = {**spec_of("phi41"), "n_fine": 400, "n_obs": 5}
    u0 = np.full((1, spec["n_x"]), 0.2)
    dW = np.zeros((1, spec["n_fine"], spec["n_modes"]))
    u = solve(spec, u0, dW)[0]  # (n_obs, n_x): stays spatially constant
    assert np.ptp(u, axis=1).max() < 1e-12
    ref = solve_ivp(lambda t, y: 3 * y - y**3, (0, spec["T"]), [0.2], t_eval=obs_times(spec),
                    rtol=1e-10, atol=1e-12).y[0]
    np.testing.assert_allclose(u[:, 0], ref, rtol=0.02)


def test_dataset_is_seeded_and_grouped():
    a = StochasticEquations(equation="phi41", n_train_ic=3, paths_per_ic=2, n_test_ic=2,
                            test_paths_per_ic=2, n_law=4).make(7)
    b = StochasticEquations(equation="phi41", n_train_ic=3, paths_per_ic=2, n_test_ic=2,
                            test_paths_per_ic=2, n_law=4).make(7)
    np.testing.assert_array_equal(a.truth["test_paths"], b.truth["test_paths"])
    assert a.data["train_paths"].shape == (6, 5, 16)
    assert a.truth["law_paths"].shape == (2, 4, 5, 16)
    np.testing.assert_array_equal(a.data["train_x0"][0], a.data["train_x0"][1])
    assert "test_paths" not in a.data


# -- chaos features ---------------------------------------------------------------------------
def test_cosine_basis_is_exactly_orthonormal_on_the_grid():
    T, n = 0.7, 40
    m = cosine_basis(T, n, 8)
    np.testing.assert_allclose(m @ m.T * (T / n), np.eye(8), atol=1e-12)


def test_wick_hermite_features_are_orthonormal():
    from numpy.polynomial.hermite_e import hermegauss

    d, order = 2, 3
    assert len(multi_indices(d, order)) == math.comb(d + order, order)
    # tensor Gauss-Hermite(e) quadrature, exact for the degree-6 products: E[Xi_a Xi_b] = delta
    z, w = hermegauss(6)
    w = w / w.sum()
    Z = np.stack(np.meshgrid(z, z, indexing="ij"), -1).reshape(-1, 2)
    W = np.outer(w, w).ravel()
    F = wick_hermite(Z, order)
    np.testing.assert_allclose(F.T @ (W[:, None] * F), np.eye(F.shape[1]), atol=1e-10)



def test_wick_hermite_equals_the_product_over_each_multi_index():
    from numpy.polynomial.hermite_e import hermeval

    xi = np.random.default_rng(8).standard_normal((20, 4)) * 2
    for order in (0, 1, 2, 3):
        F = wick_hermite(xi, order)
        for a, alpha in enumerate(multi_indices(4, order)):
            ref = np.ones(len(xi))
            for i, p in enumerate(alpha):  # coordinate order, as the features are documented
                if p:  # He_p / sqrt(p!)
                    he = hermeval(xi[:, i], np.eye(order + 1)[p])
                    ref *= he / math.sqrt(math.factorial(p))
            np.testing.assert_array_equal(F[:, a], ref)


def test_mode_matmul_is_the_per_mode_product():
    import torch

    from claimbench.baselines.fourier_neural_operator import mode_matmul

    g = torch.Generator().manual_seed(0)
    for modes in ((8,), (3, 5)):
        xf = torch.randn(6, 4, *modes, dtype=torch.cfloat, generator=g)
        w = torch.randn(4, 7, *modes, dtype=torch.cfloat, generator=g)
        sub = "xy"[:len(modes)]
        ref = torch.einsum(f"bi{sub},io{sub}->bo{sub}", xf, w)
        torch.testing.assert_close(mode_matmul(xf, w), ref, rtol=1e-6, atol=1e-6)

def test_gaussian_coordinates_of_brownian_increments_are_standard_normal():
    spec = spec_of("phi41")
    dW = sample_noise(spec, np.random.default_rng(5), 50000)
    xi = gaussian_coordinates(dW, spec["T"], 4)  # (n, 4 * n_modes)
    np.testing.assert_allclose(np.cov(xi.T), np.eye(xi.shape[1]), atol=0.03)


def test_order_one_chaos_regression_with_a_full_basis_recovers_ou_exactly():
    # With K = n_fine cosines the coordinates span every increment, and OU is affine in the
    # initial value and the increments with time-dependent coefficients: the fit is exact.
    inst = StochasticEquations(equation="ou", n_train_ic=40, paths_per_ic=8, n_test_ic=4,
                               test_paths_per_ic=4, n_law=8).make(0)
    out = ChaosRegression(order=1, n_basis=inst.data["spec"]["n_fine"]).run(inst.data, 0)
    y = inst.truth["test_paths"]
    assert np.linalg.norm(out["pred"] - y) / np.linalg.norm(y) < 1e-6


def test_k_truncated_regression_on_ou_attains_the_closed_form_floor():
    # OU is mu + decay (x0 - mu) + A dW; on the first K cosine coordinates xi = M dW (identity
    # covariance), the best predictor leaves var_t = dt ||A_t||^2 - ||dt A_t M^T||^2 per time:
    # the temporal truncation floor of issue 28's K sweep.
    spec = spec_of("ou")
    n_fine, dt, K = spec["n_fine"], spec["T"] / spec["n_fine"], 8
    mu = spec["mu"]
    A = (solve(spec, np.full(n_fine, mu), np.eye(n_fine)[:, :, None]) - mu).T  # (n_obs, n_fine)
    M = cosine_basis(spec["T"], n_fine, K)  # (K, n_fine)
    floor = dt * np.sum(A**2) - np.sum((dt * A @ M.T) ** 2)
    inst = StochasticEquations(equation="ou", n_train_ic=250, paths_per_ic=16, n_test_ic=100,
                               test_paths_per_ic=40, n_law=2).make(3)
    out = ChaosRegression(order=1, n_basis=K).run(inst.data, 0)
    mse = np.mean(np.sum((out["pred"] - inst.truth["test_paths"]) ** 2, axis=1))
    assert floor > 0.01 * dt * np.sum(A**2)  # K = 8 truncates a visible share of the variance
    assert mse == pytest.approx(floor, rel=0.05)


# -- WCE-NO and its mutants -------------------------------------------------------------------
def test_mutant_features():
    rng = np.random.default_rng(6)
    xi = rng.standard_normal((10, 3))
    full = chaos_features(xi, 2, "", rng)
    assert chaos_features(xi, 2, "no_noise", rng).shape == (10, 1)
    dec = chaos_features(xi, 2, "decoupled_order2", rng)
    degree = np.array([sum(a) for a in multi_indices(3, 2)])
    np.testing.assert_array_equal(dec[:, degree <= 1], full[:, degree <= 1])
    assert not np.allclose(dec[:, degree == 2], full[:, degree == 2])


def test_mmd_separates_distributions():
    import torch

    g = torch.Generator().manual_seed(0)
    x = torch.randn(1, 64, 3, generator=g)
    y = torch.randn(1, 64, 3, generator=g)
    assert float(mmd2_gaussian(x, y)[0]) < float(mmd2_gaussian(x + 1.5, y)[0]) / 5


@pytest.fixture(scope="module")
def gbm_small():
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # the worker default; more threads only contend on a shared box
    yield StochasticEquations(equation="gbm", n_train_ic=16, paths_per_ic=16, n_test_ic=4,
                              test_paths_per_ic=8, n_law=64).make(11)
    torch.set_num_threads(threads)


def test_wce_no_learns_gbm_and_beats_its_no_noise_mutant(gbm_small):
    y = gbm_small.truth["test_paths"]
    err = {}
    for mutant in ("", "no_noise"):
        out = WCENO(steps=250, mutant=mutant).run(gbm_small.data, 0)
        err[mutant] = np.linalg.norm(out["pred"] - y) / np.linalg.norm(y)
        if mutant == "no_noise":
            assert np.allclose(out["law_samples"].std(1), 0, atol=1e-5)
    assert err[""] < 0.5 * err["no_noise"], err


def test_wce_no_is_deterministic_given_the_seed(gbm_small):
    a = WCENO(steps=5, training="unpaired").run(gbm_small.data, 3)
    b = WCENO(steps=5, training="unpaired").run(gbm_small.data, 3)
    np.testing.assert_array_equal(a["pred"], b["pred"])
