"""Tests for ssn_prm: simplex projection, game utilities, SSN/DRS operators, solvers, smoke grid."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from claimbench.baselines.linear_program import LinearProgram, solve_matrix_game_lp
from claimbench.baselines.optimistic_gradient import OptimisticGradient
from claimbench.baselines.regret_matching import RegretMatchingPlus, RegretMatchingState
from claimbench.baselines.simplex import project_simplex, simplex_projection_jacobian
from claimbench.datasets.matrix_games import RandomMatrixGame, duality_gap
from claimbench.methods.ssn_prm import DouglasRachfordGame, HybridPRMSSN, SemismoothNewton

PENNIES = np.array([[1.0, -1.0], [-1.0, 1.0]])
RPS = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])


def _brute_force_projection(v: np.ndarray) -> np.ndarray:
    """Try every support S: p_S = v_S - (sum v_S - 1)/|S|; keep the feasible closest one."""
    best, best_d = None, math.inf
    for k in range(1, v.size + 1):
        for S in itertools.combinations(range(v.size), k):
            S = list(S)
            p = np.zeros(v.size)
            p[S] = v[S] - (v[S].sum() - 1.0) / k
            if p.min() >= -1e-12 and np.sum((p - v) ** 2) < best_d:
                best, best_d = p, np.sum((p - v) ** 2)
    return best


@pytest.mark.parametrize("seed", range(6))
def test_simplex_projection_matches_brute_force(seed):
    v = np.random.default_rng(seed).normal(0.0, 1.5, 5)
    np.testing.assert_allclose(project_simplex(v), _brute_force_projection(v), atol=1e-12)


def test_simplex_projection_closed_forms():
    np.testing.assert_allclose(project_simplex(np.array([0.2, 0.3, 0.5])), [0.2, 0.3, 0.5])
    np.testing.assert_allclose(project_simplex(np.array([5.0, 0.0, 0.0])), [1.0, 0.0, 0.0])
    np.testing.assert_allclose(project_simplex(np.zeros(4)), np.full(4, 0.25))
    np.testing.assert_allclose(project_simplex(np.array([1.0, 1.0, -3.0])), [0.5, 0.5, 0.0])


@pytest.mark.parametrize("seed", range(4))
def test_projection_jacobian_matches_finite_differences(seed):
    v = np.random.default_rng(seed).normal(0.0, 0.5, 7)
    J = simplex_projection_jacobian(v)
    h = 1e-6
    fd = np.column_stack([(project_simplex(v + h * e) - project_simplex(v - h * e)) / (2 * h)
                          for e in np.eye(v.size)])
    np.testing.assert_allclose(J, fd, atol=1e-6)


@pytest.mark.parametrize("A", [PENNIES, RPS])
def test_known_games_value_zero_uniform_equilibrium(A):
    n = A.shape[0]
    u = np.full(n, 1.0 / n)
    assert abs(duality_gap(A, u, u)) < 1e-15
    x, y, value = solve_matrix_game_lp(A)
    assert abs(value) < 1e-9
    np.testing.assert_allclose(x, u, atol=1e-8)
    np.testing.assert_allclose(y, u, atol=1e-8)
    e1 = np.eye(n)[0]
    assert duality_gap(A, e1, u) == pytest.approx(1.0)  # a pure row is exploited by 1


def test_lifted_equilibrium_is_a_drs_fixed_point():
    A = RandomMatrixGame(n=12, m=9).make(3).data["A"]
    x, y, _ = solve_matrix_game_lp(A)
    game = DouglasRachfordGame(A, 0.7 / np.linalg.norm(A, 2))
    z = np.concatenate([x, y])
    w = z - game.gamma * game.apply_M(z)
    R, _, _ = game.residual(w)
    assert np.linalg.norm(R) < 1e-7
    v = np.random.default_rng(0).normal(size=21)
    Jv = game.resolvent(v)
    np.testing.assert_allclose(Jv + game.gamma * game.apply_M(Jv), v, atol=1e-12)


def test_newton_system_equals_regularized_jacobian_system():
    A = RandomMatrixGame(n=6, m=5).make(1).data["A"]
    game = DouglasRachfordGame(A, 0.5)
    w = np.random.default_rng(2).normal(0.0, 0.3, 11)
    R, z, supp = game.residual(w)
    N, n = 11, 6
    M = np.block([[np.zeros((6, 6)), A], [-A.T, np.zeros((5, 5))]])
    J = np.linalg.inv(np.eye(N) + 0.5 * M)
    D = np.zeros((N, N))
    D[:n, :n] = simplex_projection_jacobian(w[:n])
    D[n:, n:] = simplex_projection_jacobian(w[n:])
    V = D - J @ (2 * D - np.eye(N))
    mu = 0.3
    np.testing.assert_allclose(game.newton_direction(w, z, supp, mu),
                               np.linalg.solve(V + mu * np.eye(N), -R), atol=1e-10)


def test_ssn_solves_small_game_and_matches_lp_value():
    inst = RandomMatrixGame(n=15, m=10).make(7)
    A = inst.data["A"]
    for method in (SemismoothNewton(), HybridPRMSSN()):
        out = method.run(inst.data, 0)
        assert duality_gap(A, out["x"], out["y"]) <= 1e-10
        assert float(out["x"] @ A @ out["y"]) == pytest.approx(inst.truth["value"], abs=1e-9)
        assert out["tail_residual_ratio"] is not None and out["tail_residual_ratio"] < 0.5


def test_drs_control_contracts_linearly():
    inst = RandomMatrixGame(n=15).make(0)
    out = SemismoothNewton(newton=False, max_iters=300).run(inst.data, 0)
    assert 0.5 < out["tail_residual_ratio"] <= 1.0  # ||R|| is nonincreasing under DRS


@pytest.mark.parametrize("alternation,bound", [(True, 1e-4), (False, 5e-3)])
def test_prm_plus_converges_on_rps_and_running_gap_is_exact(alternation, bound):
    # A perturbed RPS (value 1/18, non-uniform equilibrium); simultaneous PRM+ is the slower one.
    state = RegretMatchingState(RPS + np.diag([0.5, 0.0, 0.0]), alternation=alternation)
    for _ in range(2000):
        gap = state.step()
    x, y = state.point()
    assert gap == pytest.approx(duality_gap(RPS + np.diag([0.5, 0.0, 0.0]), x, y), abs=1e-12)
    assert gap < bound


def test_first_order_baselines_reduce_gap_and_lp_is_exact():
    inst = RandomMatrixGame(n=8, m=6, dist="uniform").make(0)
    A = inst.data["A"]
    start = duality_gap(A, np.full(8, 1 / 8), np.full(6, 1 / 6))
    for method in (RegretMatchingPlus(max_iters=500), RegretMatchingPlus(predictive=False, max_iters=500),
                   OptimisticGradient(max_iters=500)):
        out = method.run(inst.data, 0)
        assert duality_gap(A, out["x"], out["y"]) < 0.5 * start
    out = LinearProgram().run(inst.data, 0)
    assert duality_gap(A, out["x"], out["y"]) < 1e-9
    assert out["time_to_gap"]["1e-08"] is not None


def test_smoke_grid_cells_run():
    from claimbench.benchmarks.ssn_prm import BENCHMARK
    from claimbench.testing import run_grid_inline

    rows = run_grid_inline(BENCHMARK, "smoke")
    assert rows and all(r["status"] == "ok" for r in rows)
    for r in rows:
        for name, v in r["metrics"].items():
            assert v is None or math.isfinite(v), (r["cell"].method.label, name, v)
        assert r["metrics"]["final_gap"] is not None
    hybrid = [r for r in rows if r["cell"].method.label == "hybrid"]
    assert all(r["metrics"]["censored_1e-8"] == 0.0 for r in hybrid)


# --- work counted in products with A (issue 29: caps on work, not on wall time) --------------
def test_work_counts_by_hand():
    from claimbench.methods.ssn_prm import DouglasRachfordGame, drs_solve

    inst = RandomMatrixGame(n=6, m=3, dist="uniform").make(1)
    A = inst.data["A"]
    # PRM+: one product at set-up (A^T x_1), one at t = 1 (A y_1), two per later iteration.
    out = RegretMatchingPlus(max_iters=10, tol_gap=0.0).run(inst.data, 0)
    assert out["work"] == 2 + 2 * 9
    out = RegretMatchingPlus(max_work=100, tol_gap=0.0).run(inst.data, 0)
    assert out["work"] == 100 and out["iters"] == 50  # stops at the first iteration reaching it
    # OGDA: ||A||_2 (2 min(n, m)), F at the start (2), then 2 per iteration.
    out = OptimisticGradient(max_iters=7, tol_gap=0.0).run(inst.data, 0)
    assert out["work"] == 2 * 3 + 2 + 2 * 7
    # DRS: a residual is two products and two triangular solves with the n x n Cholesky factor
    # (2 n^2 multiply-adds = 2 n / m products), the gap two products.
    game = DouglasRachfordGame(A, 1.0 / np.linalg.norm(A, 2))
    setup = 2 * 3 + 6 + 6 ** 3 / 3 / 18
    assert game.products == pytest.approx(setup)
    from claimbench.datasets.matrix_games import GapTrace

    z0 = np.concatenate([np.full(6, 1 / 6), np.full(3, 1 / 3)])
    res = drs_solve(game, z0, GapTrace(), tol_gap=0.0, max_iters=5, max_time_s=60.0)
    per_iter = 2 + 2 * 6 / 3 + 2
    assert res["iters"] == 5
    assert game.products == pytest.approx(setup + 6 * per_iter)  # the start and 5 iterations


def test_newton_step_work_is_its_dense_cost():
    from claimbench.methods.ssn_prm import DouglasRachfordGame

    A = RandomMatrixGame(n=4, m=4).make(2).data["A"]
    game = DouglasRachfordGame(A, 1.0 / np.linalg.norm(A, 2))
    z = np.concatenate([np.full(4, 0.25), np.full(4, 0.25)])
    before = game.products
    game.newton_direction(z, z, np.ones(8, bool), 0.1)
    N = 8
    assert game.products - before == pytest.approx(4 + (2 * N ** 2 + N ** 3 / 3) / 16 + 2)


def test_work_caps_make_runs_machine_independent():
    # Same cap on work, different (never binding) time caps: identical runs.
    inst = RandomMatrixGame(n=12).make(3)
    for method in (HybridPRMSSN, RegretMatchingPlus):
        a = method(max_work=3000, max_time_s=30.0).run(inst.data, 0)
        b = method(max_work=3000, max_time_s=300.0).run(inst.data, 0)
        assert a["work"] == b["work"] and a["iters"] == b["iters"]
        assert a["work_to_gap"] == b["work_to_gap"]
        np.testing.assert_array_equal(a["x"], b["x"])


@pytest.mark.parametrize("kw", [{}, {"averaging": "last"}, {"predictive": False},
                                {"alternation": False, "averaging": "uniform"}])
def test_blocked_regret_matching_is_step_by_step_bit_for_bit(kw):
    """steps() (RegretMatchingPlus.run's blocks) returns the gaps and points of step() calls."""
    A = np.random.default_rng(5).standard_normal((7, 9))
    one, blk = RegretMatchingState(A, **kw), RegretMatchingState(A, **kw)
    gaps, points = [], []
    for _ in range(300):
        gaps.append(one.step())
        points.append(one.point())
    got = []
    for count in (1, 37, 262):
        g, products = blk.steps(count)
        got += [(g[i], blk.point_at(i)) for i in range(count)]
        assert products[-1] == blk.products
    assert [g for g, _ in got] == gaps
    for (_, (x, y)), (x1, y1) in zip(got, points):
        assert np.array_equal(x, x1) and np.array_equal(y, y1)
    assert blk.point()[0].tobytes() == one.point()[0].tobytes() and blk.t == one.t == 300
    # the run stops at the same iteration with the same point, whatever the block size
    runs = [RegretMatchingPlus(max_work=1e3, tol_gap=1e-3, **kw) for _ in range(2)]
    runs[1].block = 1
    a, b = (r.run({"A": A}, 0) for r in runs)
    assert a["iters"] == b["iters"] and a["iters_to_gap"] == b["iters_to_gap"]
    assert np.array_equal(a["x"], b["x"]) and np.array_equal(a["y"], b["y"])
