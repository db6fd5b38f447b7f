"""Unit tests for shapleig: ESP vs naive EIG, exact Shapley values, estimators on known games."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from claimbench.baselines.kernel_shap import KernelSHAP, shapley_kernel_weight, solve_constrained_wls
from claimbench.baselines.leverage_shap import LeverageSHAP, leverage_pair_counts
from claimbench.baselines.permutation_sampling_shapley import PermutationSampling
from claimbench.benchmarks.shapleig import BENCHMARK
from claimbench.datasets.cooperative_games import (AdditiveInteractionGame, BudgetExceeded, CostlyGame,
                                                   DataValuation, RetrainFeatureImportance, coalition_matrix,
                                                   exact_shapley, soum_values)
from claimbench.methods.shapleig import (ShaplEIG, eig_naive, eig_scores, esp_cross, esp_prior, hamming_kernel,
                                         naive_prior_cross)


def _game(table, budget):
    p = int(round(math.log2(len(table))))
    return CostlyGame("test", p, budget, np.asarray(table, float))


def _shapley_by_definition(v, p):
    """phi_i as the average marginal contribution over all p! orderings."""
    phi = np.zeros(p)
    for order in itertools.permutations(range(p)):
        mask = 0
        for i in order:
            phi[i] += v[mask | (1 << i)] - v[mask]
            mask |= 1 << i
    return phi / math.factorial(p)


# -- ground truth -----------------------------------------------------------------------
def test_exact_shapley_of_additive_game_is_its_weights():
    w = np.array([0.3, -1.2, 2.0, 0.7, 0.0])
    v = coalition_matrix(5) @ w + 4.0  # an offset v(empty) = 4 must not matter
    assert np.allclose(exact_shapley(v), w)


def test_exact_shapley_matches_permutation_definition_and_soum_closed_form():
    rng = np.random.default_rng(0)
    p = 4
    v = rng.standard_normal(2**p)
    assert np.allclose(exact_shapley(v), _shapley_by_definition(v, p))
    # unanimity game on T: each member of T gets c / |T|
    v = soum_values(p, np.zeros(p), [np.array([0, 2, 3])], np.array([3.0]))
    assert np.allclose(exact_shapley(v), [1.0, 0.0, 1.0, 1.0])


@pytest.mark.parametrize("make", [lambda: AdditiveInteractionGame(p=5, budget_factor=2).make(3),
                                  lambda: RetrainFeatureImportance(p=4, budget_factor=2).make(1),
                                  lambda: DataValuation(p=4, budget_factor=2).make(2)])
def test_games_satisfy_efficiency_and_budget(make):
    inst = make()
    phi, t = inst.truth["phi"], inst.truth
    assert phi.sum() == pytest.approx(t["v_full"] - t["v_empty"], abs=1e-10)
    game = inst.data
    assert game.budget == 2 * game.n_players
    s = game.session()
    s(np.ones((game.budget, game.n_players), bool))
    with pytest.raises(BudgetExceeded):
        s(np.zeros((1, game.n_players), bool))


# -- ESP computation --------------------------------------------------------------------
@pytest.mark.parametrize("p", [2, 3, 4, 5])
def test_esp_prior_and_cross_equal_naive_sums(p):
    rng = np.random.default_rng(p)
    Z = coalition_matrix(p)
    for r in (0.3, rng.uniform(0.05, 0.95, p)):  # shared and per-player kernel factors
        prior, cross = naive_prior_cross(r, p, Z)
        assert np.allclose(esp_prior(r, p), prior, atol=1e-13)
        assert np.allclose(esp_cross(r, Z), cross, atol=1e-13)


@pytest.mark.parametrize("p", [3, 4, 5])
def test_esp_eig_equals_naive_exponential_eig(p):
    rng = np.random.default_rng(10 + p)
    Z = coalition_matrix(p)
    r = rng.uniform(0.1, 0.9, p)
    for t, lam in [(0, 1e-2), (2, 1e-3), (5, 1e-4)]:
        D = Z[rng.choice(2**p, size=t, replace=False)]
        B = esp_cross(r, D).T if t else np.zeros((p, 0))
        fast = eig_scores(esp_prior(r, p), B, hamming_kernel(D, D, r), lam, esp_cross(r, Z), hamming_kernel(D, Z, r))
        assert np.allclose(fast, eig_naive(r, p, lam, D, Z), rtol=1e-7, atol=1e-9)


def test_eig_of_an_observed_coalition_is_small():
    p, lam, r = 4, 1e-6, 0.4
    Z = coalition_matrix(p)
    D = Z[[0, 15, 3]]
    eig = eig_scores(esp_prior(r, p), esp_cross(r, D).T, hamming_kernel(D, D, r), lam, esp_cross(r, Z),
                     hamming_kernel(D, Z, r))
    assert eig[3] < 1e-3 < eig[[1, 2, 4, 8]].min()


# -- estimators -------------------------------------------------------------------------
def test_kernel_shap_regression_with_all_coalitions_is_exact():
    rng = np.random.default_rng(1)
    p = 6
    v = rng.standard_normal(2**p)
    Z = coalition_matrix(p)[1:-1]
    w = shapley_kernel_weight(p, Z.sum(axis=1))
    assert np.allclose(solve_constrained_wls(Z, v[1:-1], w, v[0], v[-1]), exact_shapley(v))


def test_leverage_shap_with_full_budget_is_exact():
    rng = np.random.default_rng(2)
    for p in (5, 6):
        v = rng.standard_normal(2**p)
        out = LeverageSHAP().run(_game(v, 2**p), seed=0)
        assert out["n_evals"] == 2**p
        assert np.allclose(out["phi"], exact_shapley(v))


def test_leverage_counts_are_equal_per_size():
    counts = leverage_pair_counts(8, 12, np.random.default_rng(0))  # 24 coalitions over 7 sizes
    per_size = {s: c * (2 if s == 4 else 1) for s, c in counts.items()}
    assert sum(counts.values()) == 12 and max(per_size.values()) - min(per_size.values()) <= 2


def test_permutation_sampling_is_exact_on_additive_games_and_respects_budget():
    w = np.array([1.0, -2.0, 0.5, 3.0])
    v = coalition_matrix(4) @ w
    out = PermutationSampling().run(_game(v, 11), seed=0)
    assert out["n_permutations"] == 3 and out["n_evals"] == 11
    assert np.allclose(out["phi"], w)


@pytest.mark.parametrize("method", [ShaplEIG(), ShaplEIG(selection="random"), KernelSHAP(), LeverageSHAP(),
                                    PermutationSampling()])
def test_estimators_are_efficient_and_within_budget(method):
    inst = AdditiveInteractionGame(p=5, budget_factor=2).make(0)
    out = method.run(inst.data, seed=0)
    assert out["n_evals"] <= inst.data.budget
    assert np.sum(out["phi"]) == pytest.approx(inst.truth["v_full"] - inst.truth["v_empty"], abs=1e-3)


def test_shapleig_with_every_coalition_recovers_exact_values():
    inst = RetrainFeatureImportance(p=4, budget_factor=4).make(0)  # budget 16 = 2^4
    out = ShaplEIG(lam_grid=(1e-8,), lam_default=1e-8).run(inst.data, seed=0)  # near-interpolating GP
    assert out["n_evals"] == 16
    assert np.allclose(out["phi"], inst.truth["phi"], atol=1e-5 * np.abs(inst.truth["phi"]).max())


def test_smoke_grid_runs():
    from claimbench.testing import run_grid_inline

    rows = run_grid_inline(BENCHMARK, "smoke")
    assert rows and all(r["status"] == "ok" for r in rows)
    for r in rows:
        assert np.isfinite(r["metrics"]["mse"]) and r["metrics"]["n_evals"] <= 8


def test_closed_form_ridge_matches_sklearn():
    from sklearn.linear_model import Ridge

    from claimbench.datasets.cooperative_games import ridge_fit_predict

    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((40, 3)), rng.standard_normal(40)
    Xte = rng.standard_normal((7, 3))
    assert np.allclose(ridge_fit_predict(X, y, Xte, 2.0), Ridge(alpha=2.0).fit(X, y).predict(Xte))


def test_data_valuation_values_match_a_plain_sklearn_refit():
    from sklearn.datasets import load_breast_cancer
    from sklearn.tree import DecisionTreeClassifier

    ds = DataValuation(p=3, group_size=5, noisy_frac=0.0, n_test=50)
    table = ds.make(4).data._table
    X, y = load_breast_cancer(return_X_y=True)
    perm = np.random.default_rng(4).permutation(len(y))
    tr, te = perm[:10], perm[15:65]  # groups 0 and 1 = coalition bitmask 3
    model = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X[tr], y[tr])
    assert table[3] == pytest.approx(np.mean(model.predict(X[te]) == y[te]))
