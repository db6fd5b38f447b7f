"""Unit tests for the local-redundancy benchmark: cases whose answer is known in closed form."""
from __future__ import annotations

import numpy as np
import pytest

from claimbench.api import Instance
from claimbench.baselines.plasticity_measures import (DeadUnitFraction, WeightNorm,
                                                      dormant_fraction, effective_rank,
                                                      hidden_activations)
from claimbench.benchmarks.local_redundancy import (BENCHMARK, _selection_quality, _spearman,
                                                    _weight_norm_rho)
from claimbench.datasets.plasticity_checkpoints import (grad, init_mlp, layers, loss,
                                                        n_params, per_example_sq_grad_norms,
                                                        softmax)
from claimbench.methods.local_redundancy import (LocalRedundancy, local_redundancy,
                                                 synthetic_memorization_task)
from claimbench.optim import Adam
from claimbench.testing import run_grid_inline


@pytest.mark.parametrize("activation", ["relu", "tanh"])
def test_mlp_gradient_matches_central_differences(activation):
    rng = np.random.default_rng(0)
    sizes = (5, 4, 3, 3)
    theta = init_mlp(rng, sizes, activation) + 0.1 * rng.standard_normal(n_params(sizes))
    X, y = rng.standard_normal((7, 5)), rng.integers(0, 3, 7)
    g = grad(theta, sizes, X, y, activation)
    h, num = 1e-6, np.zeros_like(theta)
    for i in range(theta.size):
        e = np.zeros_like(theta)
        e[i] = h
        num[i] = (loss(theta + e, sizes, X, y, activation)
                  - loss(theta - e, sizes, X, y, activation)) / (2 * h)
    np.testing.assert_allclose(g, num, rtol=1e-5, atol=1e-8)


def test_per_example_norms_equal_single_example_gradients():
    rng = np.random.default_rng(1)
    sizes = (6, 5, 4)
    theta = init_mlp(rng, sizes)
    X, y = rng.standard_normal((9, 6)), rng.integers(0, 4, 9)
    direct = [np.sum(grad(theta, sizes, X[i:i + 1], y[i:i + 1]) ** 2) for i in range(9)]
    np.testing.assert_allclose(per_example_sq_grad_norms(theta, sizes, X, y), direct, rtol=1e-10)


def test_local_redundancy_of_a_linear_model_is_its_closed_form():
    # Linear softmax model f(x) = W^T x + b: grad_W l = x (p - e_y)^T, grad_b l = p - e_y, so
    # ||grad l||^2 = ||p - e_y||^2 (||x||^2 + 1) for every pair.
    rng = np.random.default_rng(2)
    d, C = 8, 5
    sizes = (d, C)
    theta = rng.standard_normal(n_params(sizes))
    X, y = synthetic_memorization_task(rng, 300, d, C)
    W, b = layers(theta, sizes)[0]
    r = softmax(X @ W + b)
    r[np.arange(len(y)), y] -= 1.0
    closed = np.mean(np.sum(r ** 2, axis=1) * (np.sum(X ** 2, axis=1) + 1.0))
    assert local_redundancy(theta, sizes, X, y) == pytest.approx(closed, rel=1e-12)


def test_local_redundancy_expectation_at_zero_weights():
    # theta = 0: p = 1/C, ||p - e_y||^2 = (C - 1)/C for every label, E||x||^2 = d for N(0, I):
    # LR = (C - 1)/C (d + 1). The Monte Carlo estimate's sd is (C-1)/C sqrt(2d / N).
    d, C, N = 10, 4, 20000
    sizes = (d, C)
    X, y = synthetic_memorization_task(np.random.default_rng(3), N, d, C)
    est = local_redundancy(np.zeros(n_params(sizes)), sizes, X, y)
    exact = (C - 1) / C * (d + 1)
    assert abs(est - exact) < 4 * (C - 1) / C * np.sqrt(2 * d / N)


def test_local_redundancy_batch_variant_on_linear_model_at_zero():
    # theta = 0, batch gradient of the mean loss over B pairs: its squared norm is
    # ||(1/B) sum_i x~_i (p - e_{y_i})^T||_F^2 with x~ = (x, 1); checked against that formula.
    rng = np.random.default_rng(4)
    d, C, B = 3, 3, 4
    sizes = (d, C)
    X, y = synthetic_memorization_task(rng, 8, d, C)
    R = np.full((8, C), 1.0 / C)
    R[np.arange(8), y] -= 1.0
    Xt = np.hstack([X, np.ones((8, 1))])
    want = np.mean([np.sum((Xt[i:i + B].T @ R[i:i + B] / B) ** 2) for i in (0, 4)])
    got = local_redundancy(np.zeros(n_params(sizes)), sizes, X, y, batch_size=B)
    assert got == pytest.approx(want, rel=1e-12)


def test_local_redundancy_of_a_saturated_linear_model_is_twice_that_at_zero():
    # Deviation 4: the raw estimator grows with weight scale. Scaled by c -> infinity a linear
    # softmax model puts all mass on its argmax, so ||p - e_y||^2 = 2 when argmax != y and 0
    # otherwise: per pair 2 [argmax != y] (||x||^2 + 1). Labels are independent of x, so in
    # expectation 2 (C-1)/C (E||x||^2 + 1): twice the value at theta = 0.
    rng = np.random.default_rng(7)
    d, C, N = 6, 4, 20000
    sizes = (d, C)
    X, y = synthetic_memorization_task(rng, N, d, C)
    theta = 1e6 * rng.standard_normal(n_params(sizes))
    W, b = layers(theta, sizes)[0]
    wrong = (X @ W + b).argmax(axis=1) != y
    exact = np.mean(2.0 * wrong * (np.sum(X ** 2, axis=1) + 1.0))
    est = local_redundancy(theta, sizes, X, y)
    assert est == pytest.approx(exact, rel=1e-12)
    at_zero = local_redundancy(np.zeros(n_params(sizes)), sizes, X, y)
    assert est / at_zero == pytest.approx(2.0, abs=0.05)  # MC: 20000 pairs


def test_weight_norm_rho_on_hand_made_checkpoints():
    ths = [np.full(3, v) for v in (1.0, 3.0, 2.0, 4.0)]  # norms in the order 1, 3, 2, 4
    inst = Instance(data={"checkpoints": ths}, truth={})
    assert _weight_norm_rho(inst, {"raw": [10.0, 30.0, 20.0, 40.0]}) == pytest.approx(1.0)
    assert _weight_norm_rho(inst, {"raw": [4.0, 2.0, 3.0, 1.0]}) == pytest.approx(-1.0)
    assert _weight_norm_rho(inst, {"raw": [1.0, 4.0, 2.0, 3.0]}) == pytest.approx(0.8)
    assert _weight_norm_rho(inst, {"raw": [5.0] * 4}) == 0.0
    assert _weight_norm_rho(inst, {"raw": [1.0, np.nan, 2.0, 3.0]}) is None
    # the foil of c8: the weight-norm measure is weight scale itself (raw, not its sign)
    data = {"checkpoints": ths, "sizes": (1, 3), "activation": "relu"}
    assert _weight_norm_rho(inst, WeightNorm().run(data, 0)) == pytest.approx(1.0)


def test_effective_rank_of_known_spectrum():
    rng = np.random.default_rng(5)
    U, _ = np.linalg.qr(rng.standard_normal((40, 4)))  # (40, 4)
    V, _ = np.linalg.qr(rng.standard_normal((6, 4)))  # (6, 4)
    s = np.array([5.0, 3.0, 1.0, 1.0])
    F = U @ np.diag(s) @ V.T  # (40, 6), singular values s and two zeros
    p = s / s.sum()
    assert effective_rank(F) == pytest.approx(np.exp(-np.sum(p * np.log(p))), rel=1e-9)
    assert effective_rank(U @ V.T) == pytest.approx(4.0, rel=1e-9)  # flat spectrum of 4
    # cumulative shares 0.5, 0.8, 0.9, 1.0
    assert effective_rank(F, "srank", delta=0.01) == 4
    assert effective_rank(F, "srank", delta=0.15) == 3
    assert effective_rank(F, "srank", delta=0.25) == 2
    assert effective_rank(np.zeros((5, 3))) == 0.0


def test_dead_unit_fraction_on_hand_set_weights():
    # 2 inputs -> 4 ReLU units -> 2 outputs, inputs in the positive quadrant. Unit 1 has negative
    # weights and bias (dead); unit 3 is active only on x = (3, 3): alive, but dormant at tau = 0.5.
    sizes = (2, 4, 2)
    theta = np.zeros(n_params(sizes))
    (W1, b1), (W2, _) = layers(theta, sizes)
    W1[...] = [[1.0, -1.0, 0.5, 1.0], [1.0, -2.0, 0.5, 1.0]]
    b1[...] = [0.0, -0.1, 0.0, -5.0]
    W2[...] = 1.0
    X = np.array([[1.0, 1.0], [2.0, 0.5], [0.1, 0.2], [3.0, 3.0]])
    hidden = hidden_activations(theta, sizes, X, "relu")
    assert dormant_fraction(hidden) == 0.25
    # mean |h|: unit0 2.7, unit1 0, unit2 1.35, unit3 0.25; layer mean 1.075, unit3 scores 0.23
    assert dormant_fraction(hidden, tau=0.3) == 0.5
    data = {"checkpoints": [theta], "sizes": sizes, "activation": "relu",
            "probes": [(X, np.zeros(4, int))]}
    out = DeadUnitFraction().run(data, 0)
    assert out["raw"] == [0.25] and out["scores"] == [-0.25]
    assert WeightNorm().run(data, 0)["raw"][0] == pytest.approx(np.linalg.norm(theta))


def test_adam_first_step_is_lr_times_sign():
    theta, g = np.array([1.0, -2.0, 0.5]), np.array([0.3, -4.0, 1e-3])
    Adam(0.1).step([theta], [g])
    np.testing.assert_allclose(theta, [0.9, -1.9, 0.4], atol=1e-6)


def test_metrics_on_hand_made_scores():
    inst = Instance(data=None, truth={"downstream_acc": np.array([0.5, 0.9, 0.7, 0.9])})
    assert _spearman(inst, {"scores": [1.0, 4.0, 2.0, 3.0]}) == pytest.approx(
        0.9486832980505138)  # ranks (1, 3.5, 2, 3.5) against (1, 4, 2, 3)
    assert _spearman(inst, {"scores": [2.0, 2.0, 2.0, 2.0]}) == 0.0
    assert _selection_quality(inst, {"scores": [0.0, 1.0, 0.0, 0.0]}) == 1.0
    # tie between checkpoints 0 and 2: the expected accuracy of a random tie-break
    assert _selection_quality(inst, {"scores": [3.0, 1.0, 3.0, 0.0]}) == pytest.approx(0.6 / 0.9)


def test_local_redundancy_method_uses_one_task_for_all_checkpoints():
    rng = np.random.default_rng(6)
    sizes = (4, 3, 2)
    th = init_mlp(rng, sizes)
    data = {"checkpoints": [th, th.copy(), 2 * th], "sizes": sizes, "activation": "relu"}
    out = LocalRedundancy(n_samples=50).run(data, seed=0)
    assert out["scores"][0] == out["scores"][1] != out["scores"][2]


def test_smoke_grid_cells_run():
    rows = run_grid_inline(BENCHMARK, "smoke")
    assert rows and all(r["status"] == "ok" for r in rows)
    for r in rows:
        for name, value in r["metrics"].items():
            assert value is None or np.isfinite(value), (name, r["cell"])


def test_stacked_fine_tuning_equals_one_network_at_a_time_bit_for_bit():
    # datasets/plasticity_checkpoints.downstream_accuracies trains checkpoints as one stack; the
    # benchmark's truth must be what training each checkpoint alone gives, to the last bit
    from claimbench.datasets import plasticity_checkpoints as pc

    rng = np.random.default_rng(4)
    base = pc.load_digit_splits(rng)
    sizes = (64, 16, 16, 10)
    for act in ("relu", "tanh"):
        thetas = [pc.init_mlp(rng, sizes, act) for _ in range(5)]
        tasks = [pc.make_task(base, rng, "both") for _ in range(2)]
        one = [pc.train(t.copy(), sizes, tasks[0], 30, 1e-2, np.random.default_rng(1), activation=act)
               for t in thetas]
        stack = pc._train_many(np.stack(thetas), sizes, tasks[0], 30, 1e-2, np.random.default_rng(1), 64, act)
        assert all(np.array_equal(a, b) for a, b in zip(one, stack))
        acc = [pc.downstream_accuracy(t, sizes, tasks, 30, 1e-2, 7, act) for t in thetas]
        assert pc.downstream_accuracies(thetas, sizes, tasks, 30, 1e-2, 7, act, chunk=2).tolist() == acc
