"""Tests for the RAIC / OAIC benchmark (arXiv 2508.16823): hand-solved markets, scipy checks."""
from __future__ import annotations

import numpy as np
import pytest

from claimbench.baselines.first_price_autobidding import fpa_equilibria
from claimbench.baselines.uniform_bidding_best_response import (competing_bids, default_allocation,
                                                                find_equilibria, outcome,
                                                                spa_best_response,
                                                                verify_equilibrium)
from claimbench.benchmarks.autobidding_raic import BENCHMARK
from claimbench.datasets.autobidding_auctions import AutobiddingAuctions
from claimbench.methods.autobidding_raic import (AutobiddingIC, continuous_search, ic_violations,
                                                 two_bidder_equilibria)


def _lp_best_value(i, alpha, V, kind, c):
    """Best-response value by scipy's LP (independent of the greedy in the code under test)."""
    from scipy.optimize import linprog

    q = competing_bids(alpha, V)[i]
    v = V[i]
    if kind == "tcpa":
        a_ub, b_ub = [q - c * v], [0.0]
    else:
        a_ub, b_ub = [q], [c]
    res = linprog(-v, A_ub=a_ub, b_ub=b_ub, bounds=[(0, 1)] * len(v), method="highs")
    return -res.fun


def _by_values(eqs):
    return sorted((tuple(np.round(e["values"], 9)), tuple(np.round(e["alpha"], 9))) for e in eqs)


# --- second-price payments ------------------------------------------------------------------
def test_second_price_payments_tiny():
    V = np.array([[3.0, 1.0], [1.0, 1.0], [2.0, 4.0]])
    alpha = np.array([1.0, 2.0, 1.0])  # bids: query 0 -> (3, 2, 2), query 1 -> (1, 2, 4)
    q = competing_bids(alpha, V)
    np.testing.assert_allclose(q, [[2.0, 4.0], [3.0, 4.0], [3.0, 2.0]])
    x = default_allocation(alpha, V)
    np.testing.assert_allclose(x, [[1, 0], [0, 0], [0, 1]])
    out = outcome(alpha, V, x, "spa")
    np.testing.assert_allclose(out["values"], [3.0, 0.0, 4.0])
    np.testing.assert_allclose(out["spend"], [2.0, 0.0, 2.0])  # each winner pays the runner-up bid
    fp = outcome(alpha, V, x, "fpa")
    np.testing.assert_allclose(fp["spend"], [3.0, 0.0, 4.0])  # first price: own bid


def test_second_price_tie_split():
    V = np.array([[1.0], [2.0]])
    alpha = np.array([2.0, 1.0])  # both bid 2
    x = default_allocation(alpha, V)
    np.testing.assert_allclose(x[:, 0], [0.5, 0.5])
    out = outcome(alpha, V, x, "spa")
    np.testing.assert_allclose(out["spend"], [1.0, 1.0])  # half a query at price 2 each


# --- best response -------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["tcpa", "budget"])
def test_greedy_best_response_matches_linprog(kind):
    rng = np.random.default_rng(7)
    for _ in range(10):
        n, m = rng.integers(2, 4), rng.integers(3, 12)
        V = np.exp(rng.standard_normal((n, m)))
        alpha = np.exp(rng.standard_normal(n))
        i = int(rng.integers(n))
        c = rng.uniform(0.3, 1.5) if kind == "tcpa" else rng.uniform(0.1, 0.6) * V[i].sum()
        value, _, y = spa_best_response(i, alpha, V, kind, c)
        assert value == pytest.approx(_lp_best_value(i, alpha, V, kind, c), rel=1e-9, abs=1e-12)
        assert value == pytest.approx((y * V[i]).sum())


def test_query_priced_exactly_at_target_is_taken():
    # Regression: round-off in the cost of a query priced at T must not drop it.
    V = np.array([[0.7, 1.0], [1.3, 5.0]])
    T = 0.61
    alpha = np.array([T, T * 0.7 / 1.3])  # rival bid makes query 0 cost exactly T per unit
    value, _, _ = spa_best_response(0, alpha, V, "tcpa", T)
    assert value >= 0.7 - 1e-12


# --- two advertisers: equilibria by hand --------------------------------------------------
def test_two_bidder_budget_equilibria_by_hand():
    # r = (2, 1/2); B = (1, 1). Cut s: 0 takes s of the ratio order. Both budgets bind:
    #   s = 1:    alpha_1 = B_0 / v_10 = 1,  alpha_0 = B_1 / v_01 = 1        -> values (2, 2)
    #   s = 3/4:  alpha_1 = 1 / (3/4) = 4/3, alpha_0 = 1 / (1/2 + 1) = 2/3 -> values (3/2, 9/4)
    #   s = 5/4:  the mirror image                                          -> values (9/4, 3/2)
    V = np.array([[2.0, 1.0], [1.0, 2.0]])
    eqs, _ = two_bidder_equilibria(V, "budget", np.array([1.0, 1.0]))
    got = _by_values(eqs)
    want = sorted([((2.0, 2.0), (1.0, 1.0)), ((1.5, 2.25), (2 / 3, 4 / 3)),
                   ((2.25, 1.5), (4 / 3, 2 / 3))])
    assert len(got) == 3
    for (gv, ga), (wv, wa) in zip(got, want):
        np.testing.assert_allclose(gv, wv, rtol=1e-9)
        np.testing.assert_allclose(ga, wa, rtol=1e-9)
    for e in eqs:
        np.testing.assert_allclose(e["spend_lo"], [1.0, 1.0], rtol=1e-9)


def test_two_bidder_tcpa_equilibrium_by_hand():
    # Ratios (4, 2, 1/2, 1/4), T = (1, 1.1). Advertiser 0 takes queries {0, 1}:
    #   0 pays alpha_1 (1 + 1) = T_0 (4 + 2)      -> alpha_1 = 3
    #   1 pays alpha_0 (1 + 1) = T_1 (2 + 4)      -> alpha_0 = 3.3
    #   alpha_1 / alpha_0 = 0.909 lies in [r_2, r_1] = [0.5, 2]: an equilibrium, values (6, 6).
    # T_0 * 8 <= T_1 * 8, so "1 wins all" is an equilibrium too (0 cannot win within T_0);
    # "0 wins all" needs T_1 * 8 <= T_0 * 8 and is not one.
    V = np.array([[4.0, 2.0, 1.0, 1.0], [1.0, 1.0, 2.0, 4.0]])
    cons = np.array([1.0, 1.1])
    eqs, _ = two_bidder_equilibria(V, "tcpa", cons)
    match = [e for e in eqs if np.allclose(e["values"], [6.0, 6.0])]
    assert len(match) == 1
    np.testing.assert_allclose(match[0]["alpha"], [3.3, 3.0], rtol=1e-12)
    assert any(np.allclose(e["values"], [0.0, 8.0]) for e in eqs)
    assert not any(np.allclose(e["values"], [8.0, 0.0]) for e in eqs)
    for e in eqs:  # independent best-response check by linprog
        for i in range(2):
            assert e["values"][i] >= _lp_best_value(i, e["alpha"], V, "tcpa", cons[i]) - 1e-9
        assert np.all(e["alpha"] >= cons * (1 - 1e-9))


@pytest.mark.parametrize("kind", ["tcpa", "budget"])
def test_enumeration_matches_fine_cut_scan(kind):
    """Every interior equilibrium is found: compare with a fine scan of the cut + LP checks."""
    from scipy.optimize import brentq

    rng = np.random.default_rng(11 if kind == "tcpa" else 12)
    for _ in range(6):
        m = int(rng.integers(3, 8))
        V = np.exp(rng.standard_normal((2, m)))
        cons = rng.uniform(0.3, 1.5, 2) if kind == "tcpa" else rng.uniform(0.1, 0.6, 2) * V.sum(1)
        r = V[0] / V[1]
        o = np.argsort(-r)
        a, b, rs = V[0, o], V[1, o], r[o]
        pa, pb = np.r_[0, np.cumsum(a)], np.r_[0, np.cumsum(b)]

        def state(s):
            k = min(int(s), m - 1)
            a1, b1 = pa[k] + (s - k) * a[k], pb[k] + (s - k) * b[k]
            a2, b2 = pa[-1] - a1, pb[-1] - b1
            al = (np.array([cons[1] * b2 / a2, cons[0] * a1 / b1]) if kind == "tcpa"
                  else np.array([cons[1] / a2, cons[0] / b1]))
            return k, al, np.array([a1, b2])

        def gap(s):
            k, al, _ = state(s)
            return np.log(al[1] / al[0]) - np.log(rs[k])

        found = []
        for k in range(m):  # zeros inside each query, and the integer cuts
            grid = np.linspace(k + 1e-9, k + 1 - 1e-9, 2001)
            g = np.array([gap(s) for s in grid])
            for j in np.nonzero(np.sign(g[:-1]) != np.sign(g[1:]))[0]:
                found.append(brentq(gap, grid[j], grid[j + 1], xtol=1e-14))
            if 0 < k:
                _, al, _ = state(float(k))
                if rs[k] <= al[1] / al[0] <= rs[k - 1]:
                    found.append(float(k))
        brute = []
        for s in found:
            _, al, vals = state(s)
            ok = all(vals[i] >= _lp_best_value(i, al, V, kind, cons[i]) - 1e-7 * V[i].sum()
                     for i in range(2))
            if ok and (kind == "budget" or np.all(al >= cons * (1 - 1e-9))):
                brute.append(vals)
        eqs, _ = two_bidder_equilibria(V, kind, cons)
        interior = [e["values"] for e in eqs if 0 < e["values"][0] < V[0].sum()]
        assert len(interior) == len(brute)
        for v in brute:
            assert any(np.allclose(v, w, rtol=1e-6) for w in interior)


# --- first price control ----------------------------------------------------------------------
def test_first_price_equilibrium_is_unique():
    rng = np.random.default_rng(3)
    V = np.exp(rng.standard_normal((2, 40)))
    eqs, _ = fpa_equilibria(V, "tcpa", np.array([0.8, 1.2]))
    assert len(eqs) == 1
    np.testing.assert_allclose(eqs[0]["alpha"], [0.8, 1.2])
    eqs, _ = fpa_equilibria(V, "budget", 0.3 * V.sum(1))
    assert len(eqs) == 1
    np.testing.assert_allclose(eqs[0]["spend_lo"], 0.3 * V.sum(1), rtol=1e-9)


# --- the IC checker -----------------------------------------------------------------------------
def _eq(v0, spend0=0.0):
    return {"values": np.array([v0, 1.0]), "spend_lo": np.array([spend0, 0.0]),
            "spend_hi": np.array([spend0, 0.0])}


def test_ic_checker_flags_hand_built_violations():
    truth = [_eq(0.2), _eq(0.8)]
    # worst 0.5 > worst 0.2: RAIC (and AIC) violated; best 0.6 < 0.8: OAIC holds
    res = ic_violations(truth, [[_eq(0.5), _eq(0.6)]], 0, "budget", 1.0, 1.0)
    assert (res["raic"], res["oaic"], res["aic"]) == (1.0, 0.0, 1.0)
    assert res["raic_margin"] == pytest.approx(0.3)
    # best 0.9 > 0.8: OAIC violated; worst 0.1: RAIC holds
    res = ic_violations(truth, [[_eq(0.1), _eq(0.9)]], 0, "budget", 1.0, 1.0)
    assert (res["raic"], res["oaic"], res["aic"]) == (0.0, 1.0, 1.0)
    # same worst, lower best: only AIC fails (best misreport 0.7 > worst truthful 0.2)
    res = ic_violations(truth, [[_eq(0.2), _eq(0.7)]], 0, "budget", 1.0, 1.0)
    assert (res["raic"], res["oaic"], res["aic"]) == (0.0, 0.0, 1.0)
    # a better value that breaks the true budget is worth -inf: no violation
    res = ic_violations(truth, [[_eq(0.95, spend0=1.5)]], 0, "budget", 1.0, 1.0)
    assert (res["raic"], res["oaic"], res["aic"]) == (0.0, 0.0, 0.0)
    assert res["raic_margin"] == -1.0


# --- datasets and the search for three advertisers -----------------------------------------
def test_multi_eq_markets_have_several_equilibria():
    inst = AutobiddingAuctions(n=2, m=60, kind="tcpa", regime="multi_eq", batch=4).make(5)
    for mk in inst.data["markets"]:
        eqs, _ = two_bidder_equilibria(mk["V"], "tcpa", mk["cons"])
        assert len(eqs) >= 2


def test_best_response_search_finds_a_subset_of_the_exact_set():
    inst = AutobiddingAuctions(n=2, m=25, kind="budget", batch=3).make(2)
    for mk in inst.data["markets"]:
        exact, _ = two_bidder_equilibria(mk["V"], "budget", mk["cons"])
        br, _ = find_equilibria(mk["V"], "budget", mk["cons"], "spa", starts=4, iters=60)
        assert br
        for e in br:
            assert any(np.allclose(e["values"], x["values"], rtol=1e-6) for x in exact)


def test_three_bidder_equilibria_verify():
    mk = AutobiddingAuctions(n=3, m=15, kind="tcpa", batch=1).make(4).data["markets"][0]
    eqs, _ = find_equilibria(mk["V"], "tcpa", mk["cons"], "spa", starts=4, iters=60)
    for e in eqs:
        assert verify_equilibrium(e["alpha"], e["x"], mk["V"], "tcpa", mk["cons"]) <= 1e-7


# --- the benchmark -------------------------------------------------------------------------------
def test_smoke_grid_runs():
    from claimbench.testing import run_grid_inline

    rows = run_grid_inline(BENCHMARK, "smoke")
    skipped = [r for r in rows if r["status"] != "ok"]
    assert rows and all(r["cell"].method.label == "spa[search=continuous]"
                        and r["cell"].dataset.params["n"] == 3 for r in skipped)
    for r in rows:
        if r["status"] != "ok":
            continue
        for name, v in r["metrics"].items():
            assert v is None or np.isfinite(v), name
        assert r["metrics"]["raic_violation"] is not None


def test_best_response_baseline_runs():
    from claimbench.baselines.uniform_bidding_best_response import UniformBestResponse

    inst = AutobiddingAuctions(n=2, m=12, kind="budget", batch=1).make(0)
    out = UniformBestResponse(factors=(0.9, 1.1), starts=3, iters=40).run(inst.data, 0)
    assert out["n_solved"] == 1 and out["raic"] in (0.0, 1.0)


# --- the continuous misreport search (issue 29) ----------------------------------------------
def test_continuous_search_finds_a_violation_between_grid_factors():
    # A step-function margin positive only on f in [2.6, 3.6] (log width 0.33, more than two of
    # the 32 Sobol strata of [0.1, 10], 0.144 each), which no grid factor (2.0, then nothing)
    # touches: the search must evaluate some f inside it.
    grid = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.01, 1.05, 1.1, 1.25, 1.5, 2.0)
    for seed in range(5):
        tried = []

        def evaluate(f):
            tried.append(f)
            m = 0.3 if 2.6 <= f <= 3.6 else -0.1
            return m, m

        continuous_search(evaluate, grid, 0.1, 10.0, 32, 8, seed)
        assert any(2.6 <= f <= 3.6 for f in tried)
        assert set(grid) <= {round(f, 12) for f in tried}  # the grid is a subset
        assert min(tried) >= 0.1 - 1e-12 and max(tried) <= 10.0 + 1e-12


def test_continuous_search_can_only_add_misreports():
    inst = AutobiddingAuctions(n=2, m=40, kind="budget", batch=2).make(4)
    grid = AutobiddingIC(mutant="reported_worth").run(inst.data, 1)
    cont = AutobiddingIC(mutant="reported_worth", search="continuous").run(inst.data, 1)
    for key in ("raic_margin", "oaic_margin", "aic_margin"):
        assert cont[key] >= grid[key] - 1e-12
    assert cont["misreports_tried"] > grid["misreports_tried"] == 26.0


def test_continuous_search_rejects_bad_settings():
    inst = AutobiddingAuctions(n=2, m=10, kind="budget", batch=1).make(0)
    with pytest.raises(ValueError, match="search"):
        AutobiddingIC(search="random").run(inst.data, 0)
    with pytest.raises(ValueError, match="search_lo"):
        AutobiddingIC(search="continuous", search_lo=1.5).run(inst.data, 0)
    three = AutobiddingAuctions(n=3, m=8, batch=1)
    assert AutobiddingIC(search="continuous").applies_to(three)
    assert AutobiddingIC().applies_to(three) is None
