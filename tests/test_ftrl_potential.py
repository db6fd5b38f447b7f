"""Unit tests for the FTRL-in-potential-games benchmark: tiny games with answers known by hand."""
from __future__ import annotations

import math

import numpy as np
import pytest

from claimbench.baselines.fictitious_play import first_switch, run_fictitious_play
from claimbench.baselines.ftrl import choice_map, nash_gap, prefix_history, run_ftrl
from claimbench.benchmarks.ftrl_potential import BENCHMARK
from claimbench.datasets.potential_games import (RandomPotentialGame, StaircaseGame,
                                                 best_response_path, pure_nash, staircase_path)
from claimbench.methods.ftrl_potential import LazyAlternatingFTRL, upper_bound_log


def _game(A, B=None, start=(0, 0), prefix=0, eps=1e-3):
    B = A if B is None else B
    return {"A": A, "B": B, "P": A, "start": start, "prefix": prefix, "eps": eps}


# Coordination game: pure NE (0,0) with payoff 1 and (1,1) with payoff 2; from the uniform
# point the row means (1/2, 1) favour action 1, so learning must end at (1,1).
COORD = np.array([[1.0, 0.0], [0.0, 2.0]])


def test_mwu_2x2_identical_interest_converges_to_pure_ne():
    eta, steps = 0.5, 200
    # Plain multiplicative weights, written out: x_{t+1} ~ x_t * exp(eta * A y_t).
    x = y = np.full(2, 0.5)
    for _ in range(steps - 1):
        x, y = x * np.exp(eta * COORD @ y), y * np.exp(eta * COORD.T @ x)
        x, y = x / x.sum(), y / y.sum()
    out = run_ftrl(_game(COORD, eps=-1.0), eta, "entropic", False, steps)  # eps < 0: never stop
    np.testing.assert_allclose(out["x"], x, atol=1e-12)  # lazy FTRL-entropic == MWU
    np.testing.assert_allclose(out["y"], y, atol=1e-12)
    assert out["x"][1] > 1 - 1e-6 and out["y"][1] > 1 - 1e-6
    assert out["final_potential"] == pytest.approx(2.0, abs=1e-5)
    assert out["censored"] == 1.0 and out["t_eps"] == steps
    hit = run_ftrl(_game(COORD, eps=1e-3), eta, "entropic", False, 10_000)
    assert hit["censored"] == 0.0 and hit["t_eps"] < steps
    assert nash_gap(COORD, COORD, hit["x"], hit["y"]) <= 1e-3


@pytest.mark.parametrize("reg", ["entropic", "euclidean"])
def test_choice_maps(reg):
    Q = choice_map(reg)
    z = np.array([0.3, -1.0, 2.0])
    p = Q(z)
    assert p.sum() == pytest.approx(1.0) and np.all(p >= 0)
    if reg == "entropic":
        np.testing.assert_allclose(p, np.exp(z) / np.exp(z).sum())
    else:
        # Proj([0.3, -1, 2]) = [0, 0, 1]: the gap 1.7 exceeds the simplex's unit mass.
        np.testing.assert_allclose(p, [0.0, 0.0, 1.0])
        np.testing.assert_allclose(Q(np.array([0.5, 0.0])), [0.75, 0.25])


def test_potential_equals_payoff_for_identical_interest():
    for m in (2, 5):
        for ds in (StaircaseGame(m=m), RandomPotentialGame(m=m, identical=True)):
            d = ds.make(3).data
            np.testing.assert_array_equal(d["P"], d["A"])
            np.testing.assert_array_equal(d["P"], d["B"])
    # General potential game: every unilateral deviation changes payoff and potential alike.
    d = RandomPotentialGame(m=4).make(5).data
    A, B, P = d["A"], d["B"], d["P"]
    assert not np.allclose(A, B)
    np.testing.assert_allclose(A[:, None, :] - A[None, :, :], P[:, None, :] - P[None, :, :])
    np.testing.assert_allclose(B[:, :, None] - B[:, None, :], P[:, :, None] - P[:, None, :])


@pytest.mark.parametrize("m", [2, 3, 4, 6, 9])
def test_staircase_best_response_path_closed_form(m):
    for jitter, permute in ((0.0, False), (0.5, True)):
        inst = StaircaseGame(m=m, jitter=jitter, permute=permute).make(m)
        d, truth = inst.data, inst.truth
        path = best_response_path(d["A"], d["B"], d["start"])
        assert len(path) - 1 == 2 * m - 2 == truth["path_moves"]
        assert path[-1] == truth["ne"]
        assert pure_nash(d["A"], d["B"]) == [truth["ne"]]
        values = [d["P"][ij] for ij in path]
        assert np.all(np.diff(values) >= (1 - jitter / 2) / (2 * m) - 1e-12)
        assert max(values) < 1 and min(values) > 0
    assert staircase_path(3) == [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)]


def test_staircase_transitions_have_no_eps_nash_mixture():
    # The guards' purpose: along each one-player move of the path before the last, any
    # mixture of the old and new action against the other's pure action leaves someone a
    # gain above eps.
    for m, seed in ((3, 0), (5, 1), (8, 2)):
        d = StaircaseGame(m=m, permute=False).make(seed).data
        A, eps = d["A"], d["eps"]
        path = staircase_path(m)
        # The last move ends at the NE, so mixtures near its end are eps-NE by design.
        for (i0, j0), (i1, j1) in zip(path[:-2], path[1:-1]):
            for p in np.linspace(0, 1, 201):
                if i0 != i1:  # the row player moves against the column player's pure action
                    x, y = (1 - p) * np.eye(m)[i0] + p * np.eye(m)[i1], np.eye(m)[j0]
                else:
                    x, y = np.eye(m)[i0], (1 - p) * np.eye(m)[j0] + p * np.eye(m)[j1]
                assert nash_gap(A, A, x, y) >= 9 / (56 * m) - 1e-12 > eps
    m = 5
    # Without guards a mid-step mixture is an eps-NE (why the guards are there).
    bare = StaircaseGame(m=m, permute=False, guard=0.0).make(0).data
    gaps = [nash_gap(bare["A"], bare["A"], np.array([0, 1 - p, p, 0, 0]), np.eye(m)[2])
            for p in np.linspace(0, 1, 201)]
    assert min(gaps) <= bare["eps"]


def _fp_brute(data, alternating, steps):
    A, B = data["A"], data["B"]
    U1, U2 = prefix_history(data)
    profiles = []
    i = int(np.argmax(U1))
    if alternating:
        U2 = U2 + B[i]
    j = int(np.argmax(U2))
    for _ in range(steps):
        profiles.append((i, j))
        U1 = U1 + A[:, j]
        if alternating:
            i = int(np.argmax(U1))
            U2 = U2 + B[i]
        else:
            U2 = U2 + B[i]
            i = int(np.argmax(U1))
        j = int(np.argmax(U2))
    return profiles


@pytest.mark.parametrize("alternating", [False, True])
def test_event_driven_fp_matches_step_by_step(alternating):
    for ds in (StaircaseGame(m=4), RandomPotentialGame(m=5)):
        for seed in range(3):
            d = ds.make(seed).data
            out = run_fictitious_play(d, alternating, 1e9)
            prof = _fp_brute(d, alternating, int(out["t_eps"]) + 1)
            gaps = [max(d["A"][:, j].max() - d["A"][i, j], d["B"][i].max() - d["B"][i, j])
                    for i, j in prof]
            first = next(t for t, g in enumerate(gaps, start=1) if g <= d["eps"])
            assert out["t_eps"] == first
            assert out["switches"] == sum(a != b for a, b in zip(prof[:first - 1], prof[1:first]))


def test_first_switch_closed_form():
    # Incumbent 0 leads by 3; action 1 gains 2 per step, action 2 gains 0.5 per step.
    U = np.array([3.0, 0.0, 1.0])
    a = np.array([0.0, 2.0, 0.5])
    assert first_switch(U, a, 0) == 2.0  # 2r > 3 first at r = 2
    assert first_switch(U, np.array([1.0, 0.0, 0.0]), 0) == math.inf
    # A lower index wins ties: action 0 (gain 1/step) catches incumbent 1 at exactly r = 3.
    assert first_switch(np.array([0.0, 3.0]), np.array([1.0, 0.0]), 1) == 3.0


@pytest.mark.parametrize("reg", ["entropic", "euclidean"])
def test_alternating_ftrl_never_decreases_potential(reg):
    for ds in (RandomPotentialGame(m=6), StaircaseGame(m=4)):
        for seed in range(3):
            d = ds.make(seed).data
            d = {**d, "eps": -1.0}  # run the whole budget
            alt = run_ftrl(d, 3.0, reg, True, 300)
            assert alt["potential_drop_max"] <= 1e-12


def test_censored_runs_record_the_cap():
    d = StaircaseGame(m=6).make(0).data
    out = run_ftrl(d, 10.0, "entropic", False, 50)
    assert out["censored"] == 1.0 and out["t_eps"] == 50.0
    fp = run_fictitious_play(d, False, 50.0)
    assert fp["censored"] == 1.0 and fp["t_eps"] == 50.0


def test_lazy_alternating_bound_fields():
    d = StaircaseGame(m=3).make(1).data
    out = LazyAlternatingFTRL().run(d, 0)
    assert out["log_bound"] == pytest.approx(upper_bound_log(1 / 24)) == pytest.approx(576.0)
    assert out["log_time_over_bound"] == pytest.approx(math.log(out["t_eps"]) - 576.0)


def test_smoke_grid_runs():
    from claimbench.testing import run_grid_inline

    rows = run_grid_inline(BENCHMARK, "smoke")
    assert rows and all(r["status"] == "ok" for r in rows)
    for r in rows:
        for name, v in r["metrics"].items():
            assert v is None or math.isfinite(v), name
    stair = [r for r in rows if r["cell"].dataset.label.startswith("staircase")]
    assert all(r["metrics"]["censored"] == 0.0 for r in stair)


def test_greedy_mutant_is_projected_gradient_and_polynomial_on_the_staircase():
    # Foil "greedy": same first iterate as lazy Euclidean FTRL, then x_{t+1} = Proj(x_t + eta u_t).
    from claimbench.baselines.ftrl import run_ftrl

    def run_greedy_alternating(data, eta, cap):
        return run_ftrl(data, eta, "euclidean", True, cap, lazy=False)

    data = _game(COORD, start=(0, 0), prefix=1, eps=1e-9)
    lazy = run_ftrl(data, 0.3, "euclidean", True, 1)
    greedy = run_greedy_alternating(data, 0.3, 1)
    np.testing.assert_array_equal(lazy["x"], greedy["x"])
    np.testing.assert_array_equal(lazy["y"], greedy["y"])
    Q = choice_map("euclidean")
    two = run_greedy_alternating(data, 0.3, 2)
    x2 = Q(greedy["x"] + 0.3 * COORD @ greedy["y"])
    np.testing.assert_allclose(two["x"], x2, atol=1e-15)
    np.testing.assert_allclose(two["y"], Q(greedy["y"] + 0.3 * COORD.T @ x2), atol=1e-15)
    # On the staircase it needs few steps (lazy FTRL needs thousands at m = 7).
    foil = LazyAlternatingFTRL(regularizer="euclidean", mutant="greedy")
    t = [foil.run(StaircaseGame(m=m).make(0).data, 0)["t_eps"] for m in (3, 5, 7)]
    assert t[-1] <= 20 and t == sorted(t)
    with pytest.raises(ValueError):
        LazyAlternatingFTRL(mutant="greedy").run(StaircaseGame(m=3).make(0).data, 0)


def test_miscoordination_games_let_simultaneous_ftrl_lower_the_potential():
    from claimbench.baselines.ftrl import run_ftrl
    from claimbench.datasets.potential_games import MiscoordinationGame

    drops_sim, drops_alt = [], []
    for seed in range(3):
        data = MiscoordinationGame(m=4).make(seed).data
        P = data["P"]
        assert np.allclose(P, P.T) and P.diagonal().max() < P[~np.eye(4, dtype=bool)].min()
        for reg in ("entropic", "euclidean"):
            drops_sim.append(run_ftrl(data, 10.0, reg, False, 20_000)["potential_drop_max"])
            drops_alt.append(run_ftrl(data, 10.0, reg, True, 20_000)["potential_drop_max"])
    assert max(drops_sim) > 1e-3
    assert max(drops_alt) <= 1e-9


def test_fictitious_play_switch_budget_censors():
    from claimbench.baselines.fictitious_play import FictitiousPlay
    from claimbench.datasets.potential_games import MiscoordinationGame

    data = MiscoordinationGame(m=4).make(0).data
    out = FictitiousPlay(max_switches=500).run(data, 0)
    assert out["censored"] == 1.0 and out["switches"] == 500.0 and out["t_eps"] < 1e12


def test_harmonic_round_inverts_the_harmonic_numbers():
    from claimbench.methods.ftrl_potential import harmonic_round

    assert harmonic_round(0.0) == 0.0 and harmonic_round(1.0) == 0.0  # H(1) = 1
    assert harmonic_round(1.5) == pytest.approx(math.log(2))  # H(2) = 1.5
    assert harmonic_round(1.5 + 1e-9) == pytest.approx(math.log(3))  # H(3) = 11/6
    assert harmonic_round(5.0) == pytest.approx(math.log(83))  # H(82) < 5 <= H(83)
    assert harmonic_round(40.0) == pytest.approx(40.0 - 0.5772156649015329)


def test_harmonic_mutant_one_switch_by_hand():
    # From (0, 0) played 10 rounds, U1 = (2, 0) and U2 = (2, 6): the column player starts on 1.
    # Against column 1 row 1 gains 0.4 per unit of the clock h and trails by 2: it overtakes at
    # h = 5, and (1, 1) is the Nash equilibrium; the first round with H(t) >= 5 is t = 83.
    P = np.array([[0.2, 0.6], [0.0, 1.0]])
    out = LazyAlternatingFTRL(mutant="harmonic").run(_game(P, start=(0, 0), prefix=10,
                                                           eps=0.01), 0)
    assert out["switches"] == 1.0 and out["censored"] == 0.0
    assert out["log_t_eps"] == pytest.approx(math.log(83)) and out["t_eps"] == pytest.approx(83)
    assert out["final_potential"] == 1.0 and out["potential_drop_max"] == 0.0


def test_harmonic_mutant_outgrows_exp_of_eps_squared_on_the_staircase():
    # ln t_eps follows the fictitious-play time (exponential in m), so its t_eps overflows while
    # log_t_eps stays finite; the lazy method's ln t_eps is far smaller. The first of the 2m - 2
    # path moves is the column player's best response to the start history (no switch).
    foil, lazy = LazyAlternatingFTRL(mutant="harmonic"), LazyAlternatingFTRL()
    data = StaircaseGame(m=7).make(0).data
    f = foil.run(data, 0)
    assert f["censored"] == 0.0 and f["switches"] == 11.0 and f["t_eps"] is None
    assert math.isfinite(f["log_t_eps"]) and f["log_t_eps"] > 1000
    assert lazy.run(data, 0)["log_t_eps"] < 20
    with pytest.raises(ValueError):
        LazyAlternatingFTRL(mutant="other").run(data, 0)
