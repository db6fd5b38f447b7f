"""Unit tests for the continual quadratic-network benchmark: cases with answers known by hand."""
from __future__ import annotations

import math

import numpy as np
import pytest

from claimbench.baselines.joint_training import JointTraining
from claimbench.benchmarks.continual_quadratic import BENCHMARK, REPLAY, WRONG_BOUND
from claimbench.datasets.xor_clusters import XORClusterTasks, orthonormal_means, sample_xor_task
from claimbench.methods.continual_quadratic import (ContinualQuadraticGD, delta_M_bound, error,
                                                    forgetting, forgetting_report, forward, gd,
                                                    init_weights, logistic, logistic_deriv, loss,
                                                    loss_and_grad, pooled_stages, quad_form,
                                                    second_layer, train_sequential)
from claimbench.testing import run_grid_inline


def _tasks(seed, d=10, K=2, n=60, sigma=1.0, mu_norm=3.0):
    rng = np.random.default_rng(seed)
    means = orthonormal_means(rng, d, K, mu_norm)
    return [sample_xor_task(rng, means[k], n, sigma) for k in range(K)], means


def test_gradient_matches_central_differences():
    rng = np.random.default_rng(0)
    X, y = _tasks(1)[0][0]
    m, d = 6, X.shape[1]
    a = second_layer(m)
    W = rng.standard_normal((m, d)) * 0.3
    _, grad = loss_and_grad(W, a, X, y)
    h = 1e-6
    num = np.zeros_like(W)
    for j in range(m):
        for i in range(d):
            E = np.zeros_like(W)
            E[j, i] = h
            num[j, i] = (loss(W + E, a, X, y) - loss(W - E, a, X, y)) / (2 * h)
    np.testing.assert_allclose(grad, num, rtol=1e-5, atol=1e-9)


def test_logistic_derivative_and_self_bound():
    z = np.linspace(-30, 30, 601)
    h = 1e-6
    np.testing.assert_allclose(logistic_deriv(z), (logistic(z + h) - logistic(z - h)) / (2 * h),
                               atol=1e-8)
    assert np.all(np.abs(logistic_deriv(z)) <= logistic(z) + 1e-15)  # |l'| <= l, used in (6a)


def test_hand_set_network_solves_noiseless_xor_exactly():
    # m = 2, w_1 = u_1, w_2 = u_2, a = (1/2, -1/2): f(x) = ((u_1.x)^2 - (u_2.x)^2) / 2, so
    # f(+-mu_1) = |mu|^2 / 2 and f(+-mu_2) = -|mu|^2 / 2.
    rng = np.random.default_rng(3)
    means = orthonormal_means(rng, 7, 1, 2.0)[0]  # (2, 7)
    W = means / 2.0
    a = second_layer(2)
    X, y = sample_xor_task(rng, means, 200, sigma=0.0)
    f, _ = forward(W, a, X)
    np.testing.assert_allclose(f, y * 2.0, rtol=1e-12)
    assert error(W, a, X, y) == 0.0
    np.testing.assert_allclose(quad_form(W, a), (np.outer(means[0], means[0])
                                                 - np.outer(means[1], means[1])) / 8.0, atol=1e-14)


def test_one_step_update_of_M_matches_eq_6a():
    (train, _) = _tasks(5)
    X, y = train[0]
    m = 8
    a = second_layer(m)
    W = init_weights(np.random.default_rng(0), m, X.shape[1], 1.0)
    eta = 0.3
    f, _ = forward(W, a, X)
    G = (X * (logistic_deriv(y * f) * y)[:, None]).T @ X / X.shape[0]  # (d, d)
    W1 = W - eta * loss_and_grad(W, a, X, y)[1]
    M, P = quad_form(W, a), W.T @ W / m**2
    want = M - 2 * eta * (G @ P + P @ G) + 4 * eta**2 / m**2 * G @ M @ G
    np.testing.assert_allclose(quad_form(W1, a), want, atol=1e-12)


def test_no_forgetting_when_later_data_is_orthogonal():
    # sigma = 0: task 2's inputs lie in span(mu_2.), so G_2 maps into that span and GD never
    # moves w_j . x' for x' in span(mu_1.): f on task 1 is untouched, forgetting is exactly 0.
    train, _ = _tasks(7, sigma=0.0)
    m = 10
    a = second_layer(m)
    W0 = init_weights(np.random.default_rng(1), m, 10, 0.5)
    res = train_sequential(train, W0, a, eta=0.5, T=300)
    f1, _ = forward(res["snapshots"][0], a, train[0][0])
    f2, _ = forward(res["snapshots"][1], a, train[0][0])
    np.testing.assert_allclose(f2, f1, atol=1e-10)
    assert abs(forgetting(res["snapshots"], a, train)[0]) < 1e-12
    assert res["losses"][1, -1] < 0.5 * res["losses"][1, 0]  # task 2 was learned meanwhile
    # Control: with noise the same protocol does forget.
    noisy, _ = _tasks(7, sigma=1.0)
    res = train_sequential(noisy, W0, a, eta=0.5, T=300)
    assert abs(forgetting(res["snapshots"], a, noisy)[0]) > 1e-3


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_forgetting_below_both_bounds(seed):
    train, means = _tasks(seed, K=3, n=80)
    rng = np.random.default_rng(seed + 10)
    test = [sample_xor_task(rng, means[k], 100, 1.0) for k in range(3)]
    m = 12
    a = second_layer(m)
    res = train_sequential(train, init_weights(rng, m, 10, 0.1), a, eta=0.5, T=150)
    for sets in (train, test):
        rep = forgetting_report(res["snapshots"], a, sets, train, res["losses"], res["wopt"], 0.5)
        assert np.all(rep["F"] <= rep["B_geom"]) and np.all(rep["B_geom"] <= rep["B"])
        assert np.all(rep["F"] > -1.0) and np.all(np.isfinite(rep["B"]))


def test_no_step_sum_mutant_drops_the_factor_T():
    rng = np.random.default_rng(3)
    R2, L, p = rng.uniform(1, 2, 2), rng.uniform(0, 1, (2, 50)), rng.uniform(0, 1, (2, 50))
    steps = 4.0 * 0.5 * R2[:, None] * L * p * (1.0 + 0.5 * R2[:, None] * L / 8)
    assert delta_M_bound(R2, L, p, 0.5, 8) == pytest.approx(steps.sum())
    assert delta_M_bound(R2, L, p, 0.5, 8, "no_step_sum") == pytest.approx(steps.sum() / 50)
    inst = XORClusterTasks(d=8, K=3, n=40, n_test=50, width=8, iters=30).make(0)
    ok, wrong = ContinualQuadraticGD().run(inst.data, 0), \
        ContinualQuadraticGD(mutant="no_step_sum").run(inst.data, 0)
    assert ok["train_forgetting"] == wrong["train_forgetting"]  # same GD runs
    assert wrong["bound_train"] < ok["bound_train"]


def test_cached_training_is_bit_for_bit_a_fresh_one(tmp_path, monkeypatch):
    """The wrong-bound mutant reuses the method's GD run through the array cache: a miss and a
    hit both return exactly what train_sequential computes afresh."""
    from claimbench.checkpoints import ENV_VAR

    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    inst = XORClusterTasks(d=8, K=3, n=40, n_test=50, width=8, iters=30).make(2)
    first = ContinualQuadraticGD().run(inst.data, 7)  # miss: trains and stores
    assert len(list((tmp_path / "samples").glob("*.npz"))) == 1
    again = ContinualQuadraticGD(mutant="no_step_sum").run(inst.data, 7)  # hit
    assert len(list((tmp_path / "samples").glob("*.npz"))) == 1
    W0 = init_weights(np.random.default_rng(7), 8, 8, 0.1)
    fresh = train_sequential(inst.data["train"], W0, second_layer(8), 0.5, 30)
    for out in (first, again):
        for k in range(3):
            np.testing.assert_array_equal(out["snapshots"][k], fresh["snapshots"][k])
        np.testing.assert_array_equal(out["losses"], fresh["losses"])
        np.testing.assert_array_equal(out["wopt"], fresh["wopt"])
    assert first["traces"] == again["traces"]


def test_replay_mutant_trains_each_stage_on_the_tasks_so_far():
    train, _ = _tasks(6, K=3, n=30)
    stages = pooled_stages(train)
    assert [X.shape[0] for X, _ in stages] == [30, 60, 90]
    np.testing.assert_array_equal(stages[2][0][30:60], train[1][0])
    np.testing.assert_array_equal(stages[2][1][60:], train[2][1])
    inst = XORClusterTasks(d=8, K=3, n=40, n_test=50, width=8, iters=30).make(1)
    seq = ContinualQuadraticGD().run(inst.data, 4)
    rep = ContinualQuadraticGD(mutant="replay").run(inst.data, 4)
    # stage 1 trains on task 1 alone in both, from the same initialisation: same iterate
    np.testing.assert_array_equal(rep["snapshots"][0], seq["snapshots"][0])
    assert not np.array_equal(rep["snapshots"][1], seq["snapshots"][1])
    # its stage-2 loss trace is the pooled loss of tasks 1-2 (the bound's L_t), at the start
    X12, y12 = pooled_stages(inst.data["train"])[1]
    assert rep["losses"][1, 0] == pytest.approx(loss(rep["snapshots"][0], rep["a"], X12, y12))


def test_gd_trace_records_loss_and_operator_norm():
    train, _ = _tasks(4)
    X, y = train[0]
    a = second_layer(4)
    W0 = init_weights(np.random.default_rng(0), 4, 10, 0.5)
    W, losses, wopt = gd(W0, a, X, y, 0.5, 3)
    assert losses[0] == pytest.approx(loss(W0, a, X, y))
    assert wopt[0] == pytest.approx(np.linalg.norm(W0, 2))
    assert losses[-1] < losses[0]


def test_dataset_means_labels_and_seeding():
    ds = XORClusterTasks(d=12, K=4, n=300, n_test=50, mu_norm=2.5)
    inst = ds.make(11)
    means = inst.truth["means"].reshape(-1, 12)  # (2K, d)
    np.testing.assert_allclose(means @ means.T, 2.5**2 * np.eye(8), atol=1e-10)
    X, y = inst.data["train"][2]
    assert X.shape == (300, 12) and set(np.unique(y)) == {-1.0, 1.0}
    assert abs(y.mean()) < 0.2
    assert inst.data["protocol"] == {"width": ds.width, "iters": ds.iters}
    np.testing.assert_array_equal(ds.make(11).data["train"][0][0], inst.data["train"][0][0])
    with pytest.raises(ValueError):
        XORClusterTasks(d=5, K=3).make(0)


def test_joint_training_fits_every_task():
    inst = XORClusterTasks(d=10, K=3, n=100, n_test=200, width=16, iters=300).make(2)
    out = JointTraining().run(inst.data, 0)
    errs = [error(out["W_final"], out["a"], X, y) for X, y in inst.truth["test"]]
    assert max(errs) < 0.1
    seq = ContinualQuadraticGD().run(inst.data, 0)
    np.testing.assert_array_equal(seq["a"], out["a"])


def test_smoke_grid_runs():
    rows = run_grid_inline(BENCHMARK, "smoke")
    assert rows and all(r["status"] == "ok" for r in rows)
    for r in rows:
        mets = r["metrics"]
        for name, v in mets.items():
            assert v is None or math.isfinite(v), name
        if r["cell"].method.label == "continual_quadratic_gd":
            assert mets["ratio_train"] <= 1.0 and mets["ratio_test"] <= 1.0
            assert mets["bound_test"] > 0
        elif r["cell"].method.label in (WRONG_BOUND, REPLAY):
            assert mets["bound_test"] > 0 and mets["test_forgetting"] is not None
        else:
            assert mets["test_forgetting"] is None and mets["final_avg_test_err"] is not None
