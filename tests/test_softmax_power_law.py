"""Unit tests for the softmax 1/3-law benchmark: hand gradients, closed forms, small runs."""
from __future__ import annotations

import math

import numpy as np
import pytest

from claimbench.benchmarks.softmax_power_law import BENCHMARK
from claimbench.datasets.teacher_student import (SCALAR_CE_CONSTANT, SCALAR_MSE_PROB_CONSTANT,
                                                 ScalarTeacher, SoftmaxTeacher,
                                                 half_normal_quadrature, rmsnorm, teacher_probs)
from claimbench.methods.softmax_power_law import (EXPONENT_CAP, LinearHead, Optimizer,
                                                  ResidualMLP, ScalarSoftmax, checkpoints,
                                                  exponents, fit_exponent, logit_loss,
                                                  scalar_grad, scalar_loss_grad)


def _num_grad(f, x, h=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old + h
        up = f()
        x[i] = old - h
        dn = f()
        x[i] = old
        g[i] = (up - dn) / (2 * h)
    return g


@pytest.mark.parametrize("loss", ["ce", "mse_prob", "mse_logit"])
def test_logit_loss_gradient_matches_finite_differences(loss):
    rng = np.random.default_rng(0)
    z = rng.standard_normal((5, 7))
    zt = 2.0 * rng.standard_normal((5, 7))
    P = teacher_probs(zt, 0.7)
    ana = logit_loss(z, P, zt, loss)[1]
    num = _num_grad(lambda: logit_loss(z, P, zt, loss)[0], z)
    np.testing.assert_allclose(ana, num, rtol=1e-5, atol=1e-8)


def test_ce_is_kl_and_vanishes_at_the_teacher():
    rng = np.random.default_rng(1)
    zt = rng.standard_normal((4, 6))
    P = teacher_probs(zt, 1.0)
    L, dz = logit_loss(zt.copy(), P, None, "ce")
    assert abs(L) < 1e-12 and np.abs(dz).max() < 1e-12
    # Hard labels: KL = cross-entropy = -log q_y.
    Ph = teacher_probs(zt, 0.0)
    z = rng.standard_normal((4, 6))
    q = np.exp(z) / np.exp(z).sum(1, keepdims=True)
    want = -np.log(q[np.arange(4), zt.argmax(1)]).mean()
    assert logit_loss(z, Ph, None, "ce")[0] == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("model_cls", [LinearHead, ResidualMLP])
def test_model_backward_matches_finite_differences(model_cls):
    rng = np.random.default_rng(2)
    d, V, B = 4, 5, 6
    model = model_cls(d, V, rng)
    for k in model.params:  # leave the zero start: every path must carry gradient
        model.params[k] = model.params[k] + 0.5 * rng.standard_normal(model.params[k].shape)
    x = rmsnorm(rng.standard_normal((B, d)))
    P = teacher_probs(rng.standard_normal((B, V)), 0.5)

    def value():
        return logit_loss(model.forward(x)[0], P, None, "ce")[0]

    z, cache = model.forward(x)
    grads = model.backward(cache, logit_loss(z, P, None, "ce")[1])
    for k, p in model.params.items():
        np.testing.assert_allclose(grads[k], _num_grad(value, p), rtol=1e-5, atol=1e-8,
                                   err_msg=k)


@pytest.mark.parametrize("loss,T", [("ce", 0.0), ("ce", 0.3), ("mse_prob", 0.0),
                                    ("mse_logit", 0.3)])
def test_scalar_gradient_matches_finite_differences(loss, T):
    data = ScalarTeacher(temperature=T).make(0).data
    u, w, p = data["u"], data["w"], data["p"]
    for D in (0.3, 4.0):
        L_up = scalar_loss_grad(D + 1e-6, u, w, p, T, loss)[0]
        L_dn = scalar_loss_grad(D - 1e-6, u, w, p, T, loss)[0]
        g = scalar_loss_grad(D, u, w, p, T, loss)[1]
        assert g == pytest.approx((L_up - L_dn) / 2e-6, rel=1e-5, abs=1e-9)
        assert scalar_grad(D, u, w, p, T, loss) == pytest.approx(g, rel=1e-12, abs=1e-15)


def test_half_normal_quadrature_moments():
    u, w = half_normal_quadrature()
    assert w.sum() == pytest.approx(1.0, abs=1e-12)
    assert w @ u == pytest.approx(math.sqrt(2 / math.pi), rel=1e-10)
    assert w @ (u * u) == pytest.approx(1.0, rel=1e-10)


@pytest.mark.parametrize("loss,const", [("ce", SCALAR_CE_CONSTANT),
                                        ("mse_prob", SCALAR_MSE_PROB_CONSTANT)])
def test_scalar_loss_tail_is_A_over_D(loss, const):
    """Eq. (4): L(D) -> A / D and dL/dD -> -A / D^2 with the closed-form constants."""
    data = ScalarTeacher().make(0).data
    for D in (200.0, 2000.0):
        L, g = scalar_loss_grad(D, data["u"], data["w"], data["p"], 0.0, loss)
        assert L * D == pytest.approx(const, rel=1e-3)
        assert -g * D * D == pytest.approx(const, rel=1e-3)


def test_scalar_gd_follows_the_one_third_closed_form():
    """Eq. (5): D^3 = D0^3 + 3 lr A t and L = A / D at late times."""
    inst = ScalarTeacher().make(3)
    out = ScalarSoftmax(steps=5000, n_checkpoints=20).run(inst.data, 0)
    t, D, L = out["t"][-1], out["scale"][-1], out["loss"][-1]
    A = SCALAR_CE_CONSTANT
    d_theory = (inst.data["d0"] ** 3 + 3 * 1.0 * A * t) ** (1 / 3)
    assert D == pytest.approx(d_theory, rel=0.02)
    assert L == pytest.approx(A / d_theory, rel=0.03)


def test_single_separable_point_gives_one_over_t():
    """Logistic loss on one point of margin 1: dL/dt = -L^2 asymptotically, so t L(t) -> 1."""
    u, w, p = np.array([1.0]), np.array([1.0]), np.array([1.0])
    D = 0.0
    for _ in range(3000):
        D -= scalar_grad(D, u, w, p, 0.0, "ce")
    L = scalar_loss_grad(D, u, w, p, 0.0, "ce")[0]
    assert 3000 * L == pytest.approx(1.0, rel=0.005)


def test_adam_first_step_is_a_sign_step_and_gd_is_plain():
    params = {"a": np.array([1.0, -2.0, 3.0])}
    Optimizer("adam", 0.1).step(params, {"a": np.array([5.0, -0.01, 0.0])})
    np.testing.assert_allclose(params["a"], [0.9, -1.9, 3.0], atol=1e-6)
    params = {"a": np.array([1.0])}
    Optimizer("gd", 0.5).step(params, {"a": np.array([4.0])})
    assert params["a"][0] == 1.0 - 2.0


def test_fit_exponent_recovers_power_law_and_flags_floors():
    t = checkpoints(10_000, 40).astype(float)
    fit = fit_exponent(t, 3.0 * t ** (-1 / 3), 1000.0)
    assert fit["slope"] == pytest.approx(-1 / 3, abs=1e-10) and fit["r2"] > 0.999999
    loss = np.exp(-t / 50.0)  # exponential: hits the floor, fitted on the last points above it
    ex = exponents(t, loss, np.ones_like(t), loss, 10_000, 1.0, 1e-12)
    assert 5.0 < ex["loss_exponent"] <= EXPONENT_CAP and ex["loss_censored"] == 0.0
    ex = exponents(t, np.zeros_like(t), np.ones_like(t), np.ones_like(t), 10_000, 1.0, 1e-12)
    assert ex["loss_exponent"] == EXPONENT_CAP and ex["loss_censored"] == 1.0


def test_teachers_and_datasets():
    z = np.array([[0.1, 0.5, -0.2], [2.0, 1.0, 0.0]])
    np.testing.assert_array_equal(teacher_probs(z, 0.0), [[0, 1, 0], [1, 0, 0]])
    np.testing.assert_allclose(teacher_probs(z, 1e-3), teacher_probs(z, 0.0), atol=1e-12)
    inst = SoftmaxTeacher(d=8, vocab=5, n_train=7).make(0)
    np.testing.assert_allclose(np.linalg.norm(inst.data["x_probe"], axis=1), math.sqrt(8))
    assert inst.data["x_train"].shape == (7, 8) and inst.data["p_train"].shape == (7, 5)
    sep = ScalarTeacher(n_points=20, margin=0.4).make(1).data
    assert sep["u"].size == 20 and sep["u"].min() >= 0.4
    assert ScalarTeacher().make(5).data["d0"] == ScalarTeacher().make(5).data["d0"]


def test_smoke_grid_cells_run():
    from claimbench.testing import run_grid_inline

    rows = run_grid_inline(BENCHMARK, "smoke")
    ok = [r for r in rows if r["status"] == "ok"]
    assert ok and len(ok) + sum(r["status"] == "not_applicable" for r in rows) == len(rows)
    for r in ok:
        for name, v in r["metrics"].items():
            assert v is None or math.isfinite(v), (r["cell"].method.label, name, v)
        assert r["metrics"]["loss_exponent"] is not None
