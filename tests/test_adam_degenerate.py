"""Unit tests for adam_degenerate: optimizers on cases with a known answer, the stability
algebra against finite differences, the trajectory diagnostics on exact sequences, and the
smoke grid."""
import math

import numpy as np
import pytest

from claimbench.baselines.gradient_descent import GradientDescent
from claimbench.baselines.heavy_ball import HeavyBall
from claimbench.baselines.rmsprop import RMSprop
from claimbench.baselines.sign_descent import SignDescent
from claimbench.benchmarks import adam_degenerate as bench
from claimbench.datasets.degenerate_polynomials import DegeneratePolynomial, PowerGradient, log_loss
from claimbench.methods.adam_degenerate import Adam, decoupled_rate, normalized_map, stability


def _data(k, x0, n_iter, smoothness=1.0):
    return {"grad": PowerGradient(k), "x0": x0, "n_iter": n_iter, "smoothness": smoothness}


def _out(xs):
    xs = np.asarray(xs, dtype=float)
    return {"x_traj": xs, "t_valid": len(xs) - 1}


# -- optimizers -------------------------------------------------------------------------------
def test_gd_on_quadratic_is_exactly_geometric():
    h, x0 = 0.3, 0.7
    xs = GradientDescent(lr=h).run(_data(2, x0, 60), 0)["x_traj"]
    assert np.allclose(xs, x0 * (1 - h) ** np.arange(61), rtol=1e-13, atol=0)


def test_gd_default_step_is_one_over_smoothness():
    out = GradientDescent().run(_data(2, 1.0, 5, smoothness=4.0), 0)
    assert out["lr"] == 0.25
    assert np.allclose(out["x_traj"], 0.75 ** np.arange(6))


@pytest.mark.parametrize("x0", [0.3, -0.3, 2.0, -1.7])
@pytest.mark.parametrize("betas", [(0.9, 0.999), (0.5, 0.3), (0.0, 0.01)])
def test_adam_first_step_is_a_sign_step(x0, betas):
    lr = 0.05
    exact = Adam(lr=lr, beta1=betas[0], beta2=betas[1]).run(_data(4, x0, 1), 0)["x_traj"]
    assert exact[1] == pytest.approx(x0 - lr * math.copysign(1.0, x0), abs=1e-15)
    tiny_eps = Adam(lr=lr, beta1=betas[0], beta2=betas[1], eps=1e-12).run(_data(4, x0, 1), 0)
    assert tiny_eps["x_traj"][1] == pytest.approx(x0 - lr * math.copysign(1.0, x0), abs=1e-9)


def test_gd_on_quartic_follows_the_inverse_square_root_law():
    # x_{t+1} = x_t - h x_t^3 gives x_t^-2 = x_0^-2 + 2 h t + O(log t), so x_t sqrt(2 h t) -> 1
    h, T = 0.1, 20_000
    out = GradientDescent(lr=h).run(_data(4, 1.0, T), 0)
    xs = out["x_traj"]
    for t in (5_000, 20_000):
        assert xs[t] * math.sqrt(2 * h * t) == pytest.approx(1.0, rel=2e-3)
    assert bench.loglog_slope(out, 4) == pytest.approx(-2.0, rel=1e-2)  # f ~ t^(-k/(k-2))
    assert bench.rate_ratio(out) == pytest.approx(0.5, abs=0.01)


def test_adam_rate_matches_the_decoupled_prediction():
    k, b1, b2 = 4, 0.5, 0.9
    out = Adam(beta1=b1, beta2=b2).run(_data(k, 1.0, 20_000), 0)
    assert out["t_run"] < 20_000  # left the float64 range: stopped, not garbage
    assert bench.fitted_rate(out) / decoupled_rate(b2, k) == pytest.approx(1.0, abs=1e-3)
    assert bench.rate_ratio(out) == pytest.approx(1.0, abs=1e-3)
    assert bench.sign_change_frac(out) == 0.0 and bench.spike_count(out) == 0


def test_adam_stops_before_leaving_float64():
    out = Adam(beta1=0.0, beta2=0.5).run(_data(4, 1.0, 20_000), 0)
    xs = out["x_traj"]
    assert out["t_valid"] == out["t_run"] < 20_000
    assert np.all(np.isfinite(xs)) and np.abs(xs[: out["t_valid"] + 1]).min() >= 1e-300


def test_eps_floor_ends_the_trusted_window():
    out = Adam(beta1=0.5, beta2=0.9, eps=1e-6).run(_data(4, 1.0, 5_000), 0)
    assert out["t_eps_floor"] is not None
    assert out["t_valid"] == out["t_eps_floor"] < out["t_run"] == 5_000


def test_rmsprop_is_adam_without_momentum_and_bias_correction():
    a = Adam(beta1=0.0, beta2=0.99, bias_correction=False).run(_data(6, 0.8, 3_000), 0)
    r = RMSprop(beta=0.99).run(_data(6, 0.8, 3_000), 0)
    assert np.allclose(a["x_traj"], r["x_traj"], rtol=1e-12, atol=0)


def test_max_v_mutant_keeps_the_peak_of_v_and_loses_the_linear_rate():
    data = _data(4, 1.0, 4000)
    out = Adam(beta1=0.8, beta2=0.9, mutant="max_v").run(data, 0)
    # v^ stays at its peak, so late steps are GD steps of size lr / sqrt(max v^): a power law
    assert bench.rate_ratio(out) == pytest.approx(0.5, abs=0.05)
    assert bench.rate_ratio(Adam(beta1=0.8, beta2=0.9).run(data, 0)) == pytest.approx(1.0, abs=0.05)
    with pytest.raises(ValueError):
        Adam(mutant="nope").run(data, 0)


def test_heavy_ball_without_momentum_is_gd():
    hb = HeavyBall(lr=0.2, momentum=0.0).run(_data(4, 1.1, 500), 0)["x_traj"]
    gd = GradientDescent(lr=0.2).run(_data(4, 1.1, 500), 0)["x_traj"]
    assert np.array_equal(hb, gd)


def test_sign_descent_ends_in_a_two_cycle():
    out = SignDescent(lr=0.01).run(_data(4, 0.0123, 200), 0)
    xs = out["x_traj"]
    assert np.allclose(xs[-4:], [xs[-2], xs[-1]] * 2)
    assert abs(xs[-1] - xs[-2]) == pytest.approx(0.01)
    assert bench.sign_change_frac(out) == 1.0


def test_vector_problem_runs_coordinatewise():
    x0 = np.array([0.9, -1.1, 1.0])
    vec = Adam(beta1=0.5, beta2=0.9).run(_data(4, x0, 300), 0)["x_traj"]  # (301, 3)
    for i in range(3):
        one = Adam(beta1=0.5, beta2=0.9).run(_data(4, float(x0[i]), 300), 0)["x_traj"]
        assert np.allclose(vec[:, i], one, rtol=1e-13, atol=0)


# -- theory -----------------------------------------------------------------------------------
@pytest.mark.parametrize("b1,b2,k", [(0.0, 0.01, 4), (0.0, 0.01, 8), (0.5, 0.9, 4),
                                     (0.56, 0.5, 6), (0.9, 0.999, 8)])
def test_jacobian_formulas_match_finite_differences(b1, b2, k):
    s = stability(b1, b2, k)
    p = (1 - b1) / (1 - s["c"])
    y = (p / (1 - s["rho"])) ** 2
    assert np.allclose(normalized_map(p, y, b1, b2, k), (p, y), rtol=1e-12)  # a fixed point
    J = np.zeros((2, 2))
    for j, d in enumerate(np.eye(2) * np.array([p, y]) * 1e-6):
        J[:, j] = (np.subtract(normalized_map(p + d[0], y + d[1], b1, b2, k),
                               normalized_map(p - d[0], y - d[1], b1, b2, k))
                   / (2 * d.sum()))
    assert np.linalg.det(J) == pytest.approx(s["det"], rel=1e-5, abs=1e-7)
    assert np.trace(J) == pytest.approx(s["trace"], rel=1e-5)
    stable = np.max(np.abs(np.linalg.eigvals(J))) < 1
    assert stable == s["stable"]


@pytest.mark.parametrize("b2", [0.3, 0.6, 0.9, 0.99])
def test_k4_boundary_is_beta1_equals_beta2(b2):
    assert stability(b2 - 0.02, b2, 4)["stable"]
    assert stability(b2 + 0.005, b2, 4)["regime"] == 1


def test_decoupled_rate_value():
    assert decoupled_rate(0.81, 4) == pytest.approx(math.log(0.9) / 2)


# -- diagnostics --------------------------------------------------------------------------------
def test_rate_fit_on_exact_geometric_sequence():
    out = _out(0.5 * 0.99 ** np.arange(4001))
    assert bench.window(out) == (2000, 4000)
    assert bench.fitted_rate(out) == pytest.approx(math.log(0.99), rel=1e-10)
    assert bench.rate_ratio(out) == pytest.approx(1.0, rel=1e-9)


def test_rate_ratio_of_a_power_law_is_one_half():
    t = np.arange(100_001, dtype=float)
    assert bench.rate_ratio(_out((1.0 + t) ** -0.5)) == pytest.approx(0.5, abs=1e-3)


def test_loglog_slope_and_log_loss():
    t = np.arange(1, 10_001, dtype=float)
    out = _out(np.concatenate([[1.0], t ** -0.5]))  # x_t = t^(-1/2) for t >= 1
    assert bench.loglog_slope(out, 4) == pytest.approx(-2.0, abs=1e-9)
    assert log_loss(np.array([1e-200]), 4)[0] == pytest.approx(4 * math.log(1e-200) - math.log(4))
    vec = np.array([[2.0, 1.0]])
    assert log_loss(vec, 2)[0] == pytest.approx(math.log(2.5))


def test_spike_count_counts_rebounds_only():
    decay = 0.97 ** np.arange(1000)
    assert bench.spike_count(_out(decay)) == 0
    bumped = decay.copy()
    bumped[700:720] *= 1e3  # one rebound of 1000x inside the window
    assert bench.spike_count(_out(bumped)) == 1
    assert bench.spike_count(_out(np.tile([0.01, -0.01], 500))) == 0  # symmetric 2-cycle
    # issue 14: neither oscillation through zero nor sign descent's uneven 2-cycle is a spike
    t = np.arange(2000, dtype=float)
    assert bench.spike_count(_out(0.999 ** t * np.sin(0.7 * t))) == 0
    assert bench.spike_count(_out(np.tile([1e-5, -0.01], 1000))) == 0


def test_regime_labels():
    assert bench.regime(_out(0.5 * 0.99 ** np.arange(4001))) == 0
    assert bench.regime(_out(np.tile([0.01, -0.01], 500))) == 2
    t = np.arange(100_001, dtype=float)
    assert bench.regime(_out((1e3 + t) ** -0.5)) == 3  # sub-linear: not "converged linearly"


# -- dataset and grid -----------------------------------------------------------------------------
def test_dataset_is_seeded_and_in_range():
    ds = DegeneratePolynomial(k=6, dim=4)
    a, b, c = ds.make(1), ds.make(1), ds.make(2)
    assert np.array_equal(a.data["x0"], b.data["x0"])
    assert not np.array_equal(a.data["x0"], c.data["x0"])
    assert np.all((np.abs(a.data["x0"]) >= 0.8) & (np.abs(a.data["x0"]) <= 1.2))
    assert a.data["smoothness"] == pytest.approx(5 * np.max(np.abs(a.data["x0"])) ** 4)
    one = DegeneratePolynomial(k=4).make(0)
    assert isinstance(one.data["x0"], float) and one.truth["k"] == 4
    with pytest.raises(ValueError):
        DegeneratePolynomial(k=5).make(0)


def test_smoke_grid_runs():
    from claimbench.testing import run_grid_inline

    rows = run_grid_inline(bench.BENCHMARK, "smoke")
    assert rows and all(r["status"] == "ok" for r in rows)
    for r in rows:
        for name, v in r["metrics"].items():
            assert v is None or math.isfinite(float(v)), (r["cell"].method.label, name, v)
