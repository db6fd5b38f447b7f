"""Unit tests for the GCF-layer benchmark: closed-form optima, IC of the hard-max menu, OT vs POT."""
from __future__ import annotations

import math

import numpy as np
import pytest

from claimbench.baselines.exact_ot import exact_ot_cost
from claimbench.baselines.input_convex_network import revenue_and_grads, utility_allocation_price
from claimbench.baselines.known_optimal_auctions import (
    SJA_PRICES,
    SJA_REVENUE,
    manelli_vincent_two_goods,
    myerson_uniform,
    size_pricing_menu,
    size_pricing_revenue,
)
from claimbench.baselines.posted_prices import PostedPrice
from claimbench.methods.gcf_layer import (
    GCFAuction,
    GCFTransport,
    menu_choice,
    menu_revenue,
    soft_revenue_and_grads,
    sorted_points,
    sorted_points_backward,
)


def test_myerson_one_good():
    price, rev = myerson_uniform()
    assert price == 0.5 and rev == 0.25
    # a one-item menu at the optimal price, evaluated on a fine grid of types
    x = (np.arange(200_000) + 0.5)[:, None] / 200_000
    assert menu_revenue(x, [[1.0]], [0.5], symmetric=True) == pytest.approx(0.25, abs=1e-5)
    # and grid search on the sample finds the price 0.5
    out = PostedPrice(kind="separate").run({"values": x}, 0)
    assert out["price"] == pytest.approx(0.5, abs=2e-3)


def test_manelli_vincent_two_goods():
    p1, p2, rev = manelli_vincent_two_goods()
    assert p1 == pytest.approx(2 / 3) and p2 == pytest.approx(0.8619, abs=1e-4)
    assert rev == pytest.approx(0.5492, abs=1e-4)
    # the closed form agrees with the hard-max evaluation on a midpoint grid of [0,1]^2
    g = (np.arange(1000) + 0.5) / 1000
    x = np.stack(np.meshgrid(g, g), -1).reshape(-1, 2)
    y = [[0.0, 1.0], [1.0, 1.0]]
    assert menu_revenue(x, y, [p1, p2], symmetric=True) == pytest.approx(rev, abs=5e-4)
    # the symmetric menu is the same as the explicit four-option menu
    y4 = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    assert menu_revenue(x, y4, [p1, p1, p2], symmetric=False) == pytest.approx(rev, abs=5e-4)


def test_sja_table_matches_size_pricing():
    rng = np.random.default_rng(0)
    x = rng.random((400_000, 3))
    rev = size_pricing_revenue(x, SJA_PRICES[3])
    assert rev == pytest.approx(SJA_REVENUE[3], abs=3e-3)
    y, b = size_pricing_menu(SJA_PRICES[3])
    assert menu_revenue(x, y, b, symmetric=True) == pytest.approx(rev, abs=1e-12)
    assert SJA_REVENUE[2] == pytest.approx(manelli_vincent_two_goods()[2])


def test_hard_max_menu_is_incentive_compatible():
    rng = np.random.default_rng(1)
    for symmetric in (True, False):
        y = rng.random((7, 3))
        b = rng.random(7) * 1.5
        x = rng.random((500, 3))
        idx, util = menu_choice(x, y, b, symmetric)
        ys = np.sort(y, axis=1) if symmetric else y
        full_y = np.vstack([np.zeros((1, 3)), ys])
        full_b = np.concatenate([[0.0], b])
        # utility from reporting truthfully vs. every misreport x' (= taking the option x' gets)
        truthful = ((np.sort(x, 1) if symmetric else x) * full_y[idx]).sum(1) - full_b[idx]
        assert np.allclose(truthful, util)
        xr = np.sort(x, 1) if symmetric else x
        for j in range(len(full_b)):
            assert np.all(truthful >= (xr * full_y[j]).sum(1) - full_b[j] - 1e-12)
        assert np.all(util >= 0.0)  # IR via the default option
        if symmetric:  # sorting types and points = best permutation of the goods
            for j in range(7):
                perms = [y[j][list(p)] for p in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))]
                best = np.max([x @ p for p in perms], axis=0) - b[j]
                assert np.all(util >= best - 1e-12)


def _num_grad(f, p, eps=1e-6):
    g = np.zeros_like(p)
    for i in np.ndindex(p.shape):
        e = np.zeros_like(p)
        e[i] = eps
        g[i] = (f(p + e) - f(p - e)) / (2 * eps)
    return g


def test_soft_revenue_gradients():
    rng = np.random.default_rng(2)
    x = np.sort(rng.random((60, 2)), 1)
    r = rng.standard_normal((4, 2))
    b = rng.random(4)
    for temp in (3.0, 40.0):  # spans below and above 1: tau_eff fixed and span-dependent

        def rev_r(rr):
            return soft_revenue_and_grads(x, sorted_points(rr), b, temp)[0]

        def rev_b(bb):
            return soft_revenue_and_grads(x, sorted_points(r), bb, temp)[0]

        y = sorted_points(r)
        _, gy, gb = soft_revenue_and_grads(x, y, b, temp)
        assert np.allclose(_num_grad(rev_b, b), gb, atol=1e-5)
        assert np.allclose(_num_grad(rev_r, r), sorted_points_backward(r, y, gy), atol=1e-5)


def test_icnn_gradients_and_feasibility():
    rng = np.random.default_rng(3)
    x = rng.random((40, 3))
    P = {"alpha": rng.normal(0, .5, 5), "theta": rng.normal(0, .5, (6, 3)), "c": -rng.uniform(.2, 2, 5)}
    _, g = revenue_and_grads(x, P, 7.0)
    for k in P:
        def f(v, k=k):
            Q = dict(P)
            Q[k] = v
            return revenue_and_grads(x, Q, 7.0)[0]
        assert np.allclose(_num_grad(f, P[k]), g[k], atol=1e-6)
    u, q, t = utility_allocation_price(rng.random((1000, 3)), P, 7.0)
    assert np.all(u > 0) and np.all(q >= 0) and np.all(q <= 1)


def test_gcf_auction_learns_one_good_price():
    rng = np.random.default_rng(4)
    data = {"values": rng.random((1500, 1))}
    out = GCFAuction(n_steps=600).run(data, 0)
    m = out["mechanism"]
    test = np.random.default_rng(5).random((100_000, 1))
    assert menu_revenue(test, m["y"], m["b"], m["symmetric"]) == pytest.approx(0.25, abs=0.006)


def test_ot_tiny_problem_vs_pot():
    rng = np.random.default_rng(6)
    x, y = rng.standard_normal((12, 2)), rng.standard_normal((12, 2)) + 1.0
    a = b = np.full(12, 1 / 12)
    exact, plan = exact_ot_cost(x, y, a, b, 1.5)
    # brute force over permutations is too big; POT's plan must be a permutation here
    assert np.allclose(plan.sum(0), b) and np.allclose(plan.sum(1), a)
    out = GCFTransport(n_steps=1500).run({"x": x, "y": y, "a": a, "b": b, "cost_power": 1.5}, 0)
    assert out["ot_cost"] <= exact + 1e-9  # hard-min dual value is a lower bound
    assert out["ot_cost"] == pytest.approx(exact, rel=0.01)


def test_ot_two_points_closed_form():
    x = np.array([[0.0], [1.0]])
    y = np.array([[0.1], [1.2]])
    a = b = np.array([0.5, 0.5])
    exact, _ = exact_ot_cost(x, y, a, b, 3.0)
    assert exact == pytest.approx(0.5 * (0.1 ** 3 + 0.2 ** 3))


def test_smoke_grid_runs():
    from claimbench.benchmarks.gcf_layer import BENCHMARK
    from claimbench.testing import run_grid_inline

    rows = run_grid_inline(BENCHMARK, "smoke")
    ok = [r for r in rows if r["status"] == "ok"]
    # 5 auction methods on the buyer + 3 OT methods (gcf_ot, its quadratic-cost foil, exact)
    # + 4 GCF-fit configs (gcf_fit and its three mutants) on the known GCF
    assert len(ok) == 12
    for r in ok:
        vals = [v for v in r["metrics"].values() if v is not None]
        assert vals and all(math.isfinite(v) for v in vals)


def test_quadratic_cost_mutant_reports_its_maps_true_cost():
    from claimbench.datasets.transport_problems import GaussianMixtureOT
    from claimbench.methods.gcf_layer import GCFTransport, cost_matrix

    inst = GaussianMixtureOT(dim=2, n_points=30).make(0)
    d = inst.data
    out = GCFTransport(n_steps=50, temp_warmup_steps=20, mutant="quadratic_cost").run(d, 0)
    C = cost_matrix(d["x"], d["y"], d["cost_power"])
    j = np.asarray(out["map_index"])
    assert out["ot_cost"] == pytest.approx(float(d["a"] @ C[np.arange(len(j)), j]), rel=1e-12)
    # The default is the paper's method: same outputs as without the field.
    a = GCFTransport(n_steps=50, temp_warmup_steps=20).run(d, 0)
    b = GCFTransport(n_steps=50, temp_warmup_steps=20, mutant="").run(d, 0)
    assert a["ot_cost"] == b["ot_cost"] and a["map_index"] == b["map_index"]


def test_sja_known_prices_posts_the_table():
    from claimbench.baselines.known_optimal_auctions import SizeBasedPricing

    rng = np.random.default_rng(2)
    x = rng.random((200_000, 5))
    out = SizeBasedPricing(known=True).run({"values": x}, 0)
    assert out["prices"] == pytest.approx(list(SJA_PRICES[5]))
    mech = out["mechanism"]
    assert menu_revenue(x, mech["y"], mech["b"], True) == pytest.approx(SJA_REVENUE[5], abs=5e-3)


# --- the GCF fit (c9, c10a, c10b) -------------------------------------------------------------


def test_known_gcf_target_and_gradient():
    from claimbench.datasets.known_gcf import KnownGCF

    inst = KnownGCF(n_train=50, n_test=40).make(3)
    x, f = inst.data["x"], inst.data["f"]
    assert np.allclose(f, 0.5 * (x ** 2).sum(1))
    assert np.allclose(inst.truth["grad_test"], inst.truth["x_test"])
    assert "grad_test" not in inst.data  # the fit sees values only


def test_local_tangents_recover_an_affine_slope():
    from claimbench.methods.gcf_layer import local_tangents

    rng = np.random.default_rng(0)
    x = rng.random((100, 2))
    f = x @ np.array([0.3, 0.7]) - 0.2
    assert np.allclose(local_tangents(x, f, np.array([0, 5, 9]), 10), [[0.3, 0.7]] * 3)


def test_lse_fit_gradients_match_finite_differences():
    from claimbench.methods.gcf_layer import lse_fit_grads

    rng = np.random.default_rng(1)
    x, t = rng.random((30, 2)), rng.random(30)
    y, b = rng.random((4, 2)), rng.random(4) * 0.1
    _, gy, gb = lse_fit_grads(x, t, y, b, tau=7.0)
    eps = 1e-6
    for j in range(4):
        for k in range(2):
            yp, ym = y.copy(), y.copy()
            yp[j, k] += eps
            ym[j, k] -= eps
            fd = (lse_fit_grads(x, t, yp, b, 7.0)[0] - lse_fit_grads(x, t, ym, b, 7.0)[0]) / (2 * eps)
            assert gy[j, k] == pytest.approx(fd, rel=1e-5, abs=1e-9)
        bp, bm = b.copy(), b.copy()
        bp[j] += eps
        bm[j] -= eps
        fd = (lse_fit_grads(x, t, y, bp, 7.0)[0] - lse_fit_grads(x, t, y, bm, 7.0)[0]) / (2 * eps)
        assert gb[j] == pytest.approx(fd, rel=1e-5, abs=1e-9)


def test_tangent_layer_is_below_the_target_and_exact_at_its_points():
    """Pieces tangent to |x|^2/2 at y_j (b_j = |y_j|^2/2) give a layer below f, equal at y_j,
    with gradient y_j there; a step approximant's gradient is 0."""
    from claimbench.methods.gcf_layer import evaluate_fit

    g = np.linspace(0, 1, 5)
    y = np.stack(np.meshgrid(g, g), -1).reshape(-1, 2)  # (25, 2)
    fit = {"kind": "layer", "y": y.tolist(), "b": (0.5 * (y ** 2).sum(1)).tolist()}
    x = np.random.default_rng(2).random((500, 2))
    v, grad = evaluate_fit(fit, x)
    assert np.all(v <= 0.5 * (x ** 2).sum(1) + 1e-12)
    v0, g0 = evaluate_fit(fit, y)
    assert np.allclose(v0, 0.5 * (y ** 2).sum(1)) and np.allclose(g0, y)
    step = {"kind": "step", "centres": y.tolist(), "values": (0.5 * (y ** 2).sum(1)).tolist()}
    vs, gs = evaluate_fit(step, y)
    assert np.allclose(vs, 0.5 * (y ** 2).sum(1)) and not gs.any()


def test_parameter_sets_box_convex_span_normalised_not():
    from claimbench.methods.gcf_layer import in_param_set

    y = np.array([[0.0, 0.2], [0.4, 1.0], [1.0, 0.0]])
    assert in_param_set(y, "box") and in_param_set(0.5 * (y + y[::-1]), "box")
    # each column spans [0, 1]: in the span-normalised set; the midpoint with its reversal is not
    assert in_param_set(y, "span_normalised")
    assert not in_param_set(0.5 * (y + y[::-1]), "span_normalised")


def test_gcf_fit_mutants_and_metrics():
    from claimbench.benchmarks.gcf_layer import _loglog_slope, _midpoint_in_param_set
    from claimbench.datasets.known_gcf import KnownGCF
    from claimbench.methods.gcf_layer import GCFFit, in_param_set

    data = KnownGCF(n_train=120, n_test=10).make(0).data
    kw = dict(menu_sizes=(2, 8), n_steps=5)
    fixed = GCFFit(mutant="fixed_menu", **kw).run(data, 0)["fits"]
    assert [f["size"] for f in fixed] == [2, 8] and all(len(f["y"]) == 2 for f in fixed)
    sort = GCFFit(mutant="sorted_rescaled", **kw).run(data, 0)
    assert all(in_param_set(np.asarray(f["y"]), "span_normalised") for f in sort["fits"])
    assert _midpoint_in_param_set(None, sort) == 0.0
    assert _midpoint_in_param_set(None, GCFFit(**kw).run(data, 0)) == 1.0
    assert GCFFit(mutant="step", **kw).run(data, 0)["fits"][1]["kind"] == "step"
    J = np.array([4.0, 16.0, 64.0])
    assert _loglog_slope(J, 0.3 / J) == pytest.approx(-1.0)
    assert _loglog_slope(J, np.full(3, 0.7672)) == 0.0  # equal errors: no fall
