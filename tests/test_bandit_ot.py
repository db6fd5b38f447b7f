"""Unit tests for bandit optimal transport: known answers on tiny instances, then the smoke grid."""
from __future__ import annotations

import math

import numpy as np
import pytest

ot = pytest.importorskip("ot")

from claimbench.baselines.random_coupling import CouplingSampler, RandomCoupling  # noqa: E402
from claimbench.benchmarks.bandit_ot import BENCHMARK  # noqa: E402
from claimbench.datasets.bandit_transport import BanditTransport, regret_curve  # noqa: E402
from claimbench.methods.bandit_ot import (RidgeState, coordinates, cost_matrix,  # noqa: E402
                                          coupling_basis, entropic_plan, exact_ot,
                                          optimistic_coupling, ridge_estimate)


def _marginals(n, m, seed=0):
    rng = np.random.default_rng(seed)
    mu = 0.5 / n + 0.5 * rng.dirichlet(np.ones(n))
    nu = 0.5 / m + 0.5 * rng.dirichlet(np.ones(m))
    return mu, nu, np.sort(rng.random(n)), np.sort(rng.random(m)), rng


def test_basis_is_orthonormal_and_pairs_cost_with_coupling():
    mu, nu, x, y, rng = _marginals(4, 3)
    E = coupling_basis(mu, nu, x, y, None)  # (12, 12): full basis
    w = np.outer(mu, nu).ravel()
    assert np.allclose(E.T @ (w[:, None] * E), np.eye(12), atol=1e-10)
    c = rng.random((4, 3))
    theta = E.T @ (w * c.ravel())  # <c, e_k>_{L2(mu x nu)}
    plan = ot.emd(mu, nu, rng.random((4, 3)))
    assert coordinates(E, plan) @ theta == pytest.approx(np.sum(c * plan), abs=1e-12)
    assert np.allclose(cost_matrix(E, theta, (4, 3)), c, atol=1e-10)


def test_exact_ot_is_pots_emd_bit_for_bit():
    # the lean call (issue 27) must return ot.emd's plan and centred duals exactly
    rng = np.random.default_rng(5)
    for n, m in [(4, 4), (16, 16), (3, 7), (9, 2)]:
        mu, nu, _, _, _ = _marginals(n, m, seed=int(rng.integers(1000)))
        for C in (rng.random((n, m)), rng.standard_normal((n, m)) ** 3, np.zeros((n, m))):
            ref, log = ot.emd(mu, nu, C, log=True)
            plan, u, v = exact_ot(mu, nu, C)
            assert np.array_equal(plan, ref)
            assert np.array_equal(u, log["u"]) and np.array_equal(v, log["v"])


def test_ridge_recovers_known_linear_cost():
    mu, nu, x, y, rng = _marginals(3, 3, seed=1)
    E = coupling_basis(mu, nu, x, y, None)
    w = np.outer(mu, nu).ravel()
    c = rng.random((3, 3))
    theta = E.T @ (w * c.ravel())
    sampler = CouplingSampler(mu, nu, rng)
    A = np.array([coordinates(E, sampler.draw(5)) for _ in range(400)])  # (400, 9)
    y_clean = A @ theta
    # Noiseless, tiny ridge. Couplings share their marginals, so <c, pi> only identifies c up
    # to f(x) + g(y): the estimate must agree with c after double centring, and in every
    # prediction.
    est = cost_matrix(E, ridge_estimate(A, y_clean, lam=1e-9), (3, 3))

    def centred(m):
        return m - m.mean(axis=0, keepdims=True) - m.mean(axis=1, keepdims=True) + m.mean()

    assert np.allclose(centred(est), centred(c), atol=1e-4)
    fresh = sampler.draw(20)
    assert np.sum(est * fresh) == pytest.approx(np.sum(c * fresh), abs=1e-5)
    assert np.allclose(ot.emd(mu, nu, est), ot.emd(mu, nu, c), atol=1e-9)
    # The online Sherman-Morrison form agrees with the batch form, with noise and lam = 1.
    noisy = y_clean + 0.01 * rng.standard_normal(len(y_clean))
    state = RidgeState(9, 1.0)
    for a, v in zip(A, noisy):
        state.update(a, v)
    assert np.allclose(state.theta(), ridge_estimate(A, noisy, 1.0), atol=1e-8)
    sign, logdet = np.linalg.slogdet(np.eye(9) + A.T @ A)
    assert state.logdet == pytest.approx(logdet, rel=1e-9)


def test_zero_width_optimistic_coupling_is_exact_ot():
    mu, nu, x, y, rng = _marginals(5, 4, seed=2)
    E = coupling_basis(mu, nu, x, y, None)
    c = rng.random((5, 4))
    theta = E.T @ (np.outer(mu, nu).ravel() * c.ravel())
    Vinv = np.eye(E.shape[1])
    starts = [np.outer(mu, nu)]
    plan = optimistic_coupling(mu, nu, E, theta, Vinv, beta=0.0, eps=0.0, starts=starts)
    assert np.allclose(plan, ot.emd(mu, nu, c), atol=1e-10)
    # eps -> 0 (no width): the entropic plan tends to the exact plan (unique for random costs).
    plan_eps = optimistic_coupling(mu, nu, E, theta, Vinv, beta=0.0, eps=1e-4, starts=starts)
    assert np.abs(plan_eps - ot.emd(mu, nu, c)).max() < 1e-6


@pytest.mark.parametrize("eps", [0.5, 0.1, 0.03])
def test_newton_entropic_plan_matches_pot_sinkhorn(eps):
    mu, nu, x, y, rng = _marginals(6, 5, seed=3)
    C = 2 * rng.random((6, 5))
    ref = ot.sinkhorn(mu, nu, C, eps, numItermax=200000, stopThr=1e-13)
    assert np.allclose(entropic_plan(mu, nu, C, eps, "newton"), ref, atol=1e-8)
    assert np.allclose(entropic_plan(mu, nu, C, eps, "sinkhorn"), ref, atol=1e-7)


def test_optimism_beats_greedy_objective():
    # With positive width the optimistic objective at the returned plan is at most that of the
    # greedy plan (which is one of the starts).
    from claimbench.methods.bandit_ot import optimistic_objective

    mu, nu, x, y, rng = _marginals(4, 4, seed=4)
    E = coupling_basis(mu, nu, x, y, None)
    theta = rng.standard_normal(16) * 0.3
    Vinv = np.linalg.inv(np.eye(16) + 5 * np.cov(rng.standard_normal((16, 40))))
    greedy = entropic_plan(mu, nu, cost_matrix(E, theta, (4, 4)), 0.0)
    plan = optimistic_coupling(mu, nu, E, theta, Vinv, 0.5, 0.01, [greedy], mm_iters=5)
    f = lambda p: optimistic_objective(p, mu, nu, E, theta, Vinv, 0.5, 0.01)  # noqa: E731
    assert f(plan) <= f(greedy) + 1e-12
    assert np.allclose(plan.sum(1), mu) and np.allclose(plan.sum(0), nu)


def test_random_coupling_has_marginals_and_spreads():
    mu, nu, *_ , rng = _marginals(4, 5, seed=5)
    sampler = CouplingSampler(mu, nu, rng)
    draws = np.array([sampler.draw(3).copy() for _ in range(2000)])  # (2000, 4, 5)
    assert draws.min() >= 0
    assert np.allclose(draws.sum(axis=2), mu, atol=1e-12)
    assert np.allclose(draws.sum(axis=1), nu, atol=1e-12)
    # Uniform on the polytope: not stuck at the start, and every entry varies.
    assert draws.std(axis=0).min() > 1e-3


def test_regret_of_random_coupling_is_linear_and_of_exact_ot_zero():
    inst = BanditTransport(n=3, cost="rough", T=300).make(0)
    out = RandomCoupling().run(inst.data, 0)
    t, R = regret_curve(inst.truth, out)
    assert t[-1] == 300 and R[-1] > 0
    # Replaying the optimal plan has zero regret: the metric plumbing is consistent.
    plan = inst.truth["ot_plan"]
    fake = {"checkpoints": [1, 2], "cum_plans": [plan.tolist(), (2 * plan).tolist()]}
    assert np.allclose(regret_curve(inst.truth, fake)[1], 0.0, atol=1e-12)


def test_dataset_costs_in_unit_interval_and_seeded():
    for cost in ("smooth", "rough"):
        a = BanditTransport(n=4, cost=cost, T=50).make(7)
        b = BanditTransport(n=4, cost=cost, T=50).make(7)
        assert np.array_equal(a.truth["cost"], b.truth["cost"])
        assert a.truth["cost"].min() >= 0 and a.truth["cost"].max() <= 1
        assert math.isclose(a.data.mu.sum(), 1.0) and math.isclose(a.data.nu.sum(), 1.0)
        assert a.data.pull(3, a.truth["ot_plan"]) == b.data.pull(3, b.truth["ot_plan"])


def test_smoke_grid_runs():
    from claimbench.testing import run_grid_inline

    rows = run_grid_inline(BENCHMARK, "smoke")
    skipped = [r for r in rows if r["status"] != "ok"]
    # the growing basis is capped at the 4-atom support: the default config's full basis
    assert rows and all(r["cell"].method.label == "oful_ot[basis=horizon]" for r in skipped)
    for r in rows:
        if r["status"] != "ok":
            continue
        m = r["metrics"]
        assert m["regret_T"] is not None and math.isfinite(m["regret_T"])
        assert m["regret_T"] >= -1e-9


def test_horizon_basis_size_follows_series_regression_rule():
    from claimbench.methods.bandit_ot import basis_per_axis, horizon_basis_size

    # K(T) = ceil(T^(1/(2s+2))): exact powers stay put, one more round needs one more cosine.
    assert horizon_basis_size(16, 1.0) == 2 and horizon_basis_size(17, 1.0) == 3
    assert horizon_basis_size(4096, 1.0) == 8 and horizon_basis_size(8000, 1.0) == 10
    assert horizon_basis_size(1000, 0.5) == 10  # s = 1/2: T^(1/3)
    assert basis_per_axis(8000, "fixed", 4, 1.0) == 4
    with pytest.raises(ValueError):
        basis_per_axis(10, "grow", 4, 1.0)


def test_oful_basis_grows_with_horizon_and_is_capped_at_the_support():
    from claimbench.methods.bandit_ot import OptimisticEntropicOT

    small = BanditTransport(n=16, cost="smooth", T=81).make(0)  # K = 3: D = 9
    assert OptimisticEntropicOT(basis="horizon").run(small.data, 0)["dim"] == 9
    assert OptimisticEntropicOT().run(small.data, 0)["dim"] == 16  # default: fixed K = 4
    capped = BanditTransport(n=3, cost="rough", T=300).make(0)  # K(300) = 5 > n = 3: full basis
    assert OptimisticEntropicOT(basis="horizon", max_basis=None).run(capped.data, 0)["dim"] == 9
    # with n <= max_basis the horizon config would repeat the default one: not applicable
    assert OptimisticEntropicOT(basis="horizon").applies_to(BanditTransport(n=4)) is not None
    assert OptimisticEntropicOT(basis="horizon").applies_to(BanditTransport(n=16)) is None


def test_trajectory_bound_ratio_on_a_known_play():
    from claimbench.benchmarks.bandit_ot import _bound_ratio

    inst = BanditTransport(n=3, cost="rough", T=100).make(1)
    mu, nu = inst.data.mu, inst.data.nu
    prod = np.outer(mu, nu)
    gap = float(np.sum(inst.truth["cost"] * prod) - inst.truth["ot_value"])  # regret per round
    cum = [(t * prod).tolist() for t in (10, 100)]
    # Two blocks: 40 rounds at min(1, 2 * 1 * 0.1 + 0) = 0.2, 60 at min(1, 2 * 2 * 0.5 + 0.1
    # log 3) = 1 (capped at the cost's range).
    blocks = [[40, 1.0, 0.1, 0.0], [60, 2.0, 0.5, 0.1]]
    out = {"checkpoints": [10, 100], "cum_plans": cum, "bound_blocks": blocks}
    expect = max(10 * gap / 2.0, 100 * gap / (40 * 0.2 + 60 * 1.0))
    assert _bound_ratio(inst, out) == pytest.approx(expect, rel=1e-12)
    assert _bound_ratio(inst, {"checkpoints": [10], "cum_plans": cum[:1]}) is None


def test_bound_blocks_cover_the_horizon():
    from claimbench.baselines.greedy_plugin_ot import GreedyPluginOT
    from claimbench.methods.bandit_ot import OptimisticEntropicOT

    inst = BanditTransport(n=3, cost="smooth", T=200).make(2)
    for method in (OptimisticEntropicOT(), GreedyPluginOT()):
        b = np.asarray(method.run(inst.data, 0)["bound_blocks"])  # (B, 4)
        assert b[:, 0].sum() == 200 and (b[:, 1:3] > 0).all()
