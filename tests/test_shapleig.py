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
                                                   DataValuation, RetrainFeatureImportance, coalition_index,
                                                   coalition_matrix, exact_shapley, soum_values)
from claimbench.methods.shapleig import (ShaplEIG, eig_naive, eig_scores, eig_ties, esp_cross, esp_prior,
                                         hamming_kernel, naive_prior_cross)


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


@pytest.mark.parametrize("method", [KernelSHAP(), LeverageSHAP(), PermutationSampling()])
def test_baselines_are_efficient_and_within_budget(method):
    # Efficient by construction: KernelSHAP and LeverageSHAP solve under the constraint
    # sum(phi) = v(N) - v(empty); permutation sampling's marginal contributions telescope.
    inst = AdditiveInteractionGame(p=5, budget_factor=2).make(0)
    out = method.run(inst.data, seed=0)
    assert out["n_evals"] <= inst.data.budget
    assert np.sum(out["phi"]) == pytest.approx(inst.truth["v_full"] - inst.truth["v_empty"], abs=1e-9)


class _Recorder:
    """A game that records the coalitions a method evaluates, in order."""

    def __init__(self, game):
        self._game, self.Z = game, []

    def __getattr__(self, name):
        return getattr(self._game, name)

    def session(self):
        sess, rec = self._game.session(), self

        class _Session:
            def __getattr__(self, name):
                return getattr(sess, name)

            def __call__(self, Z):
                rec.Z.append(np.atleast_2d(np.asarray(Z, bool)))
                return sess(Z)

        return _Session()

    def coalitions(self) -> np.ndarray:
        return np.vstack(self.Z)


_EFFICIENCY_GAMES = [lambda: AdditiveInteractionGame(p=5, budget_factor=2).make(0),  # issue 27's game
                     lambda: RetrainFeatureImportance(p=6, budget_factor=2).make(1),
                     lambda: DataValuation(p=6, budget_factor=1).make(2)]
_EFFICIENCY_IDS = ["additive_p5", "retrain_p6", "data_valuation_p6"]


@pytest.mark.parametrize("make", _EFFICIENCY_GAMES, ids=_EFFICIENCY_IDS)
@pytest.mark.parametrize("method", [ShaplEIG(), ShaplEIG(selection="random"),
                                    ShaplEIG(lam_grid=(1e-2,), lam_default=1e-2)],  # a smoothing GP
                         ids=["eig", "random", "eig_lam1e-2"])
def test_shapleig_efficiency_gap_is_the_models(method, make):
    """ShaplEIG is not efficient by construction (methods/shapleig.py, eq. 2): the posterior mean
    of phi sums to mu(N) - mu(empty), and at an observed coalition the posterior mean is
    mu = y - lam * alpha with alpha = (R + lam I)^{-1} (y - mean(y)), so
        gap = sum(phi) - (v(N) - v(empty)) = -lam * (alpha_N - alpha_empty)             (identity)
        |gap| <= lam * ||e_N - e_empty|| * ||(R + lam I)^{-1}|| * ||y - mean(y)||
              = sqrt(2) * lam * ||y - mean(y)|| / (lambda_min(R) + lam)                 (bound)
    for the fitted (r, lam) on whatever coalitions were chosen. The identity is checked to the
    round-off of a backward-stable solve, 100 eps * (cond(R + lam I) ||y - mean(y)|| + scale of
    the sums); a fixed tolerance (1e-3 before issue 27) held only on paths that end at a small
    lam: the same game gives a gap of 2e-6 or 0.018 depending on the lam the fit ends at."""
    inst = make()
    game = _Recorder(inst.data)
    out = method.run(game, seed=0)
    assert out["n_evals"] <= inst.data.budget
    Z = game.coalitions()
    y = inst.data._table[coalition_index(Z)]
    yc = y - y.mean()
    lam = out["lam"]
    G = hamming_kernel(Z, Z, out["r"]) + lam * np.eye(len(y))
    alpha = np.linalg.solve(G, yc)
    i_full, i_empty = int(np.flatnonzero(Z.all(axis=1))[0]), int(np.flatnonzero(~Z.any(axis=1))[0])
    gap = float(np.sum(out["phi"])) - (inst.truth["v_full"] - inst.truth["v_empty"])
    eps = np.finfo(float).eps
    roundoff = 100 * eps * (np.linalg.cond(G) * np.linalg.norm(yc) + np.sum(np.abs(out["phi"]))
                            + abs(inst.truth["v_full"]) + abs(inst.truth["v_empty"]))
    assert abs(gap - (-lam * (alpha[i_full] - alpha[i_empty]))) <= roundoff
    mu_min = max(float(np.linalg.eigvalsh(G)[0]) - lam, 0.0)
    assert abs(gap) <= np.sqrt(2) * lam * np.linalg.norm(yc) / (mu_min + lam) + roundoff


@pytest.mark.parametrize("p", [4, 5, 6, 8])
def test_symmetric_coalitions_tie_in_eig_selection(p):
    """After the initial design {empty, N}, the isotropic kernel makes the EIG depend only on
    |S|, and a coalition and its complement score the same: the argmax is a whole class
    {|S| = k or p - k}, exactly. Round-off separates its members (by 5e-11 nats at lam = 1e-6,
    differently on each BLAS); the tie set must be the whole class, whatever the last bits."""
    Z = coalition_matrix(p)
    D, C = Z[[0, -1]], Z[1:-1]
    size = C.sum(axis=1)
    for r in ShaplEIG.r_grid:
        for lam in ShaplEIG.lam_grid:
            scores = eig_scores(esp_prior(r, p), esp_cross(r, D).T, hamming_kernel(D, D, r), lam,
                                esp_cross(r, C), hamming_kernel(D, C, r))
            k = int(size[np.argmax(scores)])
            assert set(eig_ties(scores, lam).tolist()) == set(np.flatnonzero((size == k) | (size == p - k)).tolist())


def _perturbed(f, delta, rng, symmetric=False):
    def g(*args):
        X = f(*args)
        E = rng.standard_normal(X.shape)
        return X * (1 + delta * ((E + E.T) / 2 if symmetric else E))
    return g


@pytest.mark.parametrize("make", _EFFICIENCY_GAMES[:2], ids=_EFFICIENCY_IDS[:2])
@pytest.mark.parametrize("selection", ["eig", "random"])
def test_shapleig_is_stable_under_last_bit_perturbations(selection, make, monkeypatch):
    """No choice of the estimator depends on the last bits of a BLAS (issue 27): perturbing the
    game's values by 1e-12 relative, or the kernel matrices K and the ESP sums A K, A K A^T by
    1e-13 relative (hundreds of ulps, beyond any summation-order difference at these sizes),
    leaves the evaluated coalitions and the fitted (r, lam) unchanged and moves phi by round-off.
    Before the fix, a 1e-15 perturbation changed the path on every EIG run of the quick grid."""
    import claimbench.methods.shapleig as shapleig_module

    inst = make()

    def run(game):
        rec = _Recorder(game)
        out = ShaplEIG(selection=selection).run(rec, seed=0)
        return coalition_index(rec.coalitions()).tolist(), (out["r"], out["lam"]), np.asarray(out["phi"])

    path, hyper, phi = run(inst.data)
    g = inst.data
    for k in range(3):
        rng = np.random.default_rng(k)
        table = g._table * (1 + 1e-12 * rng.standard_normal(g._table.shape))
        runs = [run(CostlyGame(g.name, g.n_players, g.budget, table))]
        with monkeypatch.context() as m:
            m.setattr(shapleig_module, "hamming_kernel", _perturbed(hamming_kernel, 1e-13, rng))
            m.setattr(shapleig_module, "esp_cross", _perturbed(esp_cross, 1e-13, rng))
            m.setattr(shapleig_module, "esp_prior", _perturbed(esp_prior, 1e-13, rng, symmetric=True))
            runs.append(run(g))
        for path_k, hyper_k, phi_k in runs:
            assert path_k == path and hyper_k == hyper
            assert np.allclose(phi_k, phi, rtol=0, atol=1e-8 * np.abs(phi).max())


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
