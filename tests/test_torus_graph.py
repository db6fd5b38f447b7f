"""Unit tests for the torus-graph benchmark: closed forms, brute-force Jacobians, tiny instances."""
from __future__ import annotations

import numpy as np
import pytest

from claimbench.baselines.exact_score_matching import (ExactScoreMatching, flat_index, gamma_hat,
                                                       gamma_mb)
from claimbench.benchmarks.torus_graph import BENCHMARK
from claimbench.datasets.torus_graph_samples import (TorusGraphSamples, complex_params,
                                                     conditional_coeffs, gibbs_sample,
                                                     log_density_unnorm, random_phi, score,
                                                     suff_stats)
from claimbench.methods.torus_graph import (StochasticScoreMatching, diagonal_grad, h_hat,
                                           minibatch_grad, sm_objective)


def _fd_jacobian(x: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """J (2d^2, d) = dS/dtheta at one point, by central differences of suff_stats."""
    d = x.size
    J = np.empty((2 * d * d, d))
    for k in range(d):
        e = np.zeros(d)
        e[k] = eps
        J[:, k] = ((suff_stats(x + e) - suff_stats(x - e)) / (2 * eps)).ravel()
    return J


def _brute(X: np.ndarray):
    """Gamma = mean J J^T and H = -mean Laplacian(S), both by finite differences."""
    n, d = X.shape
    G = sum(_fd_jacobian(x) @ _fd_jacobian(x).T for x in X) / n
    eps = 1e-4
    lap = np.zeros((d, d, 2))
    for x in X:
        for k in range(d):
            e = np.zeros(d)
            e[k] = eps
            lap += (suff_stats(x + e) - 2 * suff_stats(x) + suff_stats(x - e)) / eps ** 2
    return G, (-lap / n).ravel()


# -- model: statistics, score, conditionals -----------------------------------------------------
def test_angle_layout_by_hand():
    x = np.array([0.1, 0.2, 0.4])
    S = suff_stats(x)
    A = np.arctan2(S[..., 1], S[..., 0])
    want = np.array([[0.1, 0.3, 0.5], [-0.1, 0.2, 0.6], [-0.3, -0.2, 0.4]])  # below: x_j - x_i
    np.testing.assert_allclose(A, want, atol=1e-12)


def test_score_is_gradient_of_log_density():
    rng = np.random.default_rng(0)
    phi = random_phi(5, rng)
    X = rng.uniform(-np.pi, np.pi, (4, 5))
    fd = np.empty_like(X)
    for k in range(5):
        e = np.zeros(5)
        e[k] = 1e-6
        fd[:, k] = (log_density_unnorm(X + e, phi) - log_density_unnorm(X - e, phi)) / 2e-6
    np.testing.assert_allclose(score(X, phi), fd, atol=1e-7)


def test_full_conditional_is_von_mises():
    rng = np.random.default_rng(1)
    phi = random_phi(4, rng)
    X = rng.uniform(-np.pi, np.pi, (6, 4))
    a, P, Q = complex_params(phi)
    Z = np.exp(1j * X)
    C = conditional_coeffs(Z, a, P, Q)
    for k in range(4):
        X2 = X.copy()
        X2[:, k] = rng.uniform(-np.pi, np.pi, 6)
        lhs = log_density_unnorm(X2, phi) - log_density_unnorm(X, phi)
        rhs = np.real(C[:, k] * (np.exp(1j * X2[:, k]) - Z[:, k]))
        np.testing.assert_allclose(lhs, rhs, atol=1e-12)


def test_gibbs_one_angle_matches_von_mises_moments():
    from scipy.special import iv

    kappa, mu = 2.0, 0.7
    phi = np.array([[[kappa * np.cos(mu), kappa * np.sin(mu)]]])
    X = gibbs_sample(phi, 40000, 1, np.random.default_rng(2))
    m = np.mean(np.exp(1j * X[:, 0]))
    np.testing.assert_allclose(abs(m), iv(1, kappa) / iv(0, kappa), atol=0.01)
    assert abs(np.angle(m) - mu) < 0.02


# -- score-matching pieces against brute force --------------------------------------------------
def test_gamma_and_h_match_finite_difference_jacobians():
    rng = np.random.default_rng(3)
    X = rng.uniform(-np.pi, np.pi, (5, 4))
    G, H = _brute(X)
    np.testing.assert_allclose(gamma_hat(X), G, atol=1e-8)
    np.testing.assert_allclose(h_hat(X).ravel(), H, atol=1e-5)


def test_minibatch_grad_is_gamma_phi_minus_h_and_matches_loss_differences():
    rng = np.random.default_rng(4)
    X = rng.uniform(-np.pi, np.pi, (7, 4))
    phi = rng.standard_normal((4, 4, 2))
    H = h_hat(X)
    loss, g = minibatch_grad(X, phi, H)
    G = gamma_hat(X)
    np.testing.assert_allclose(g.ravel(), G @ phi.ravel() - H.ravel(), atol=1e-10)
    np.testing.assert_allclose(loss, -phi.ravel() @ H.ravel() + 0.5 * phi.ravel() @ G @ phi.ravel(),
                               atol=1e-10)
    # with the group lasso, against central differences of the penalised loss
    fd = np.empty(phi.size)
    for r in range(phi.size):
        e = np.zeros(phi.size)
        e[r] = 1e-6
        e = e.reshape(phi.shape)
        up, down = minibatch_grad(X, phi + e, H, 0.3)[0], minibatch_grad(X, phi - e, H, 0.3)[0]
        fd[r] = (up - down) / 2e-6
    np.testing.assert_allclose(minibatch_grad(X, phi, H, 0.3)[1].ravel(), fd, atol=1e-6)


def test_stochastic_gradient_is_unbiased():
    rng = np.random.default_rng(5)
    X = rng.uniform(-np.pi, np.pi, (48, 5))
    phi = rng.standard_normal((5, 5, 2))
    H = h_hat(X)
    full = minibatch_grad(X, phi, H, 0.01)[1]
    # every equal-size batch of a partition: their mean is the full gradient exactly
    perm = rng.permutation(48).reshape(6, 8)
    parts = np.mean([minibatch_grad(X[p], phi, H, 0.01)[1] for p in perm], axis=0)
    np.testing.assert_allclose(parts, full, atol=1e-10)
    # batches drawn with replacement (as SSM draws them): Monte Carlo mean within 4 std errors
    draws = np.array([minibatch_grad(X[rng.integers(0, 48, 8)], phi, H, 0.01)[1]
                      for _ in range(1500)])
    se = draws.std(axis=0) / np.sqrt(len(draws))
    assert np.all(np.abs(draws.mean(axis=0) - full) < 4 * se + 1e-12)


# -- estimators on known answers ----------------------------------------------------------------
def test_exact_score_matching_von_mises_population_closed_form():
    # d = 1, phi = kappa (cos mu, sin mu). Population Gamma = E[(sin^2, -sin cos; ., cos^2)]
    # and H = A(kappa) (cos mu, sin mu), A = I1/I0; the solve must return kappa exactly.
    from scipy.special import iv

    kappa, mu = 1.7, -0.4
    A1, A2 = iv(1, kappa) / iv(0, kappa), iv(2, kappa) / iv(0, kappa)
    c2, s2 = np.cos(2 * mu), np.sin(2 * mu)
    G = 0.5 * np.array([[1 - A2 * c2, -A2 * s2], [-A2 * s2, 1 + A2 * c2]])
    H = A1 * np.array([np.cos(mu), np.sin(mu)])
    np.testing.assert_allclose(np.linalg.solve(G, H), kappa * np.array([np.cos(mu), np.sin(mu)]),
                               rtol=1e-12)


@pytest.mark.parametrize("method", [ExactScoreMatching(), StochasticScoreMatching()])
def test_score_matching_recovers_von_mises_concentration(method):
    kappa, mu = 2.0, 0.7
    X = np.random.default_rng(6).vonmises(mu, kappa, size=(50000, 1))
    phi = method.run({"X": X}, 0)["phi"][0, 0]
    assert abs(np.hypot(*phi) - kappa) < 0.06
    assert abs(np.arctan2(phi[1], phi[0]) - mu) < 0.02


def test_exact_recovers_tiny_torus_graph():
    rng = np.random.default_rng(7)
    phi = random_phi(3, rng, keep_p=1.0, coupling=0.5)
    X = gibbs_sample(phi, 40000, 20, rng)
    est = ExactScoreMatching().run({"X": X}, 0)["phi"]
    assert np.max(np.abs(est - phi)) < 0.08


def test_ssm_reaches_the_exact_minimiser_on_a_small_problem():
    rng = np.random.default_rng(8)
    phi = random_phi(3, rng, keep_p=1.0, coupling=0.5)
    X = gibbs_sample(phi, 5000, 20, rng)
    exact = ExactScoreMatching().run({"X": X}, 0)["phi"]
    ssm = StochasticScoreMatching(l1_reg=0.0, dtype="float64", batch_size=1000,
                                  n_iter=3000).run({"X": X}, 1)
    assert np.max(np.abs(ssm["phi"] - exact)) < 0.05
    gap = sm_objective(X, ssm["phi"]) - sm_objective(X, exact)
    assert 0.0 <= gap < 1e-3 * abs(sm_objective(X, exact))
    assert ssm["iter_cpu_s"] > 0 and len(ssm["traces"]["loss_vs_iter"]["x"]) > 10


def test_exact_declines_above_its_memory_budget():
    assert gamma_mb(48) < 256 < gamma_mb(64)
    m = ExactScoreMatching()
    assert m.applies_to(TorusGraphSamples(d=48)) is None
    assert "budget" in m.applies_to(TorusGraphSamples(d=64))


def test_no_coupling_mutant_is_ssm_restricted_to_the_diagonal():
    rng = np.random.default_rng(8)
    X = rng.uniform(-np.pi, np.pi, (40, 5))
    phi = rng.standard_normal((5, 5, 2)) * np.eye(5)[..., None]  # couplings 0
    H, Z = h_hat(X), np.exp(1j * X)
    loss, g = minibatch_grad(X, phi, H, 0.01)  # the group lasso is 0 at zero couplings
    loss_d, g_d = diagonal_grad(Z, phi, H)
    diag = np.arange(5)
    assert loss_d == pytest.approx(loss, abs=1e-12)
    np.testing.assert_allclose(g_d[diag, diag], g[diag, diag], atol=1e-12)
    assert not g_d[~np.eye(5, dtype=bool)].any()
    data = TorusGraphSamples(d=5, n=200, sweeps=5).make(0).data
    out = StochasticScoreMatching(n_iter=50, mutant="no_coupling").run(data, 0)
    assert not out["phi"][~np.eye(5, dtype=bool)].any() and np.all(np.isfinite(out["phi"]))
    with pytest.raises(ValueError):
        StochasticScoreMatching(mutant="nope").run(data, 0)


def _plain_ssm(X: np.ndarray, m: StochasticScoreMatching, seed: int) -> tuple:
    """SSM as first written (issue 27 reference): complex_params sums, the loss at every step,
    Adam on the whole phi (couplings included for the mutant, their gradient 0)."""
    n, d = X.shape
    rng, H = np.random.default_rng(seed), h_hat(X)
    Zall = np.exp(1j * X).astype(np.complex64)
    phi = np.full((d, d, 2), m.init) * (np.eye(d)[..., None] if m.mutant else 1.0)
    mom, var, losses = np.zeros_like(phi), np.zeros_like(phi), []
    for t in range(1, m.n_iter + 1):
        Z = Zall[rng.integers(0, n, size=m.batch_size)]  # (B, d)
        if m.mutant:
            loss, g = diagonal_grad(Z, phi, H)
        else:
            a, Psym, Ql = complex_params(phi)
            ZZ = np.concatenate([Z, np.conj(Z)], axis=1)
            K = np.concatenate([Psym, Ql + np.conj(Ql.T)], axis=0).astype(Z.dtype)
            V = -np.imag((ZZ @ K + a.astype(Z.dtype)) * Z)
            W = Z * V
            M = ZZ.T @ W
            T = np.triu(M[:d] + M[:d].T, 1) + np.tril(M[d:] - np.conj(M[d:].T), -1)
            T[np.diag_indices(d)] = W.sum(axis=0)
            g = np.stack([-T.imag, T.real], axis=-1) / m.batch_size - H
            gn = np.sqrt(np.sum(phi ** 2, -1) + np.sum(phi ** 2, -1).T) * (1 - np.eye(d))
            loss = float(-np.sum(phi * H) + 0.5 * np.mean(np.sum(V.astype(np.float64) ** 2, 1))
                         + m.l1_reg * np.sum(np.tril(gn, -1)))
            g = g + m.l1_reg * phi * np.where(gn > 0, 1.0 / np.maximum(gn, 1e-12), 0.0)[..., None]
        mom = m.beta1 * mom + (1.0 - m.beta1) * g
        var = m.beta2 * var + (1.0 - m.beta2) * g * g
        phi = phi - m.lr * (mom / (1.0 - m.beta1 ** t)) / (
            np.sqrt(var / (1.0 - m.beta2 ** t)) + m.eps)
        if t % m.trace_every == 0 or t == 1:
            losses.append(loss)
    return phi, losses


@pytest.mark.parametrize("mutant,block", [("", 100), ("no_coupling", 100), ("", 16),
                                          ("no_coupling", 16)])
def test_fast_ssm_loop_equals_the_plain_one_bit_for_bit(mutant, block):
    # issue 27: selected (not summed) triangles, the loss only where traced, Adam in place and
    # on the diagonal alone for the mutant, and minibatch indices drawn a
    # timing block at a time (block 16: 4 blocks, the last partial) must not change a single
    # bit of phi or of the trace
    X = TorusGraphSamples(d=7, n=150, sweeps=4).make(2).data["X"]
    m = StochasticScoreMatching(n_iter=60, batch_size=32, trace_every=7, mutant=mutant,
                                timing_block=block)
    phi, losses = _plain_ssm(X, m, 5)
    out = m.run({"X": X}, 5)
    np.testing.assert_array_equal(out["phi"], phi)
    assert out["traces"]["loss_vs_iter"]["y"] == losses


def _gamma_where_form(X: np.ndarray) -> np.ndarray:
    """gamma_hat as first written (issue 27 round 3 reference): E by nested np.where."""
    n, d = X.shape
    Z, others = np.exp(1j * X), np.arange(d)
    G = np.zeros((2 * d * d, 2 * d * d))
    for k in range(d):
        zk = Z[:, k : k + 1]
        E_row = np.where(others > k, zk * Z, np.where(others < k, Z * np.conj(zk), zk))
        rest = others[others != k]
        E_col = np.where(rest < k, Z[:, rest] * zk, np.conj(Z[:, rest]) * zk)
        E = np.concatenate([E_row * np.where(others < k, -1.0, 1.0), E_col], axis=1)
        D = np.empty((n, 2 * (2 * d - 1)))
        D[:, 0::2], D[:, 1::2] = -E.imag, E.real
        idx = np.concatenate([flat_index(k, others, d), flat_index(rest, k, d)]).ravel()
        G[np.ix_(idx, idx)] += D.T @ D / n
    return G


def test_gamma_is_the_where_form_bit_for_bit_and_exactly_symmetric():
    # the exact solve passes Gamma.T to LAPACK (column-major, no transposing copy): that is the
    # same matrix only if Gamma is symmetric to the last bit
    X = TorusGraphSamples(d=9, n=400, sweeps=3).make(1).data["X"]
    G = gamma_hat(X)
    assert G.tobytes() == _gamma_where_form(X).tobytes()
    np.testing.assert_array_equal(G, G.T)


def test_dataset_is_seeded_and_sparse():
    ds = TorusGraphSamples(d=6, n=50, sweeps=3)
    a, b = ds.make(0), ds.make(0)
    np.testing.assert_array_equal(a.data["X"], b.data["X"])
    phi = a.truth["phi"]
    assert a.data["X"].shape == (50, 6) and phi.shape == (6, 6, 2)
    assert np.all(np.diag(phi[..., 0]) != 0)
    assert 0 < np.mean(phi == 0) < 1


def test_smoke_grid_runs():
    from claimbench.testing import run_grid_inline

    rows = run_grid_inline(BENCHMARK, "smoke")
    assert rows
    for row in rows:
        label = row["cell"].method.label
        if label == "exact_sm_tiny_budget":  # 0.001 MiB: below Gamma's 0.008 MiB at d = 4
            assert row["status"] == "not_applicable"
            continue
        assert row["status"] == "ok"
        m = row["metrics"]
        assert m["finite_fit"] == 1.0 and np.isfinite(m["coupling_mse"])
        assert 0.0 <= m["pseudo_r2"] <= 1.0


def test_repeated_timings_keep_the_fit_and_report_the_fastest_pass():
    """Issue 14: timing_repeats / timing blocks change only the reported times, not phi."""
    inst = TorusGraphSamples(d=5, n=300, sweeps=5).make(0)
    one = ExactScoreMatching().run(inst.data, 0)
    three = ExactScoreMatching(timing_repeats=3).run(inst.data, 0)
    np.testing.assert_array_equal(one["phi"], three["phi"])
    assert three["solve_cpu_min_s"] <= three["solve_cpu_s"] + 1e-12
    assert three["cpu_min_s"] == pytest.approx(three["form_cpu_min_s"] + three["solve_cpu_min_s"])
    ssm = StochasticScoreMatching(n_iter=250, batch_size=32).run(inst.data, 0)
    assert 0 < ssm["iter_cpu_min_s"] <= ssm["iter_cpu_s"] * 1.5
    assert ssm["cpu_min_s"] > 0
