"""Unit tests for the EoB GP proxy: hand-built trees, variation operators, NSGA-II sorting,
Kendall tau vs scipy, the assessment formulas, BBOB-lite optima and the solver budget."""
from __future__ import annotations

import numpy as np
import pytest

from claimbench.worker import limit_threads

limit_threads()  # the tuning surface's eigendecompositions crawl with oversubscribed BLAS

from claimbench.baselines.black_box import BudgetedObjective, BudgetExhausted  # noqa: E402
from claimbench.baselines.solver_portfolio import PORTFOLIO_NAMES, portfolio  # noqa: E402
from claimbench.benchmarks.eob_benchmark import BENCHMARK  # noqa: E402
from claimbench.datasets.eob_targets import BBOBTargets, target_function  # noqa: E402
from claimbench.baselines import suite_assessment as ea  # noqa: E402
from claimbench.baselines import expression_trees as et  # noqa: E402
from claimbench.methods.eob_benchmark import (crowding_distance, nondominated_sort,  # noqa: E402
                                              nsga2_order)


def _prog(tree, d=2, shift=None, rot=None):
    return {"tree": tree, "shift": np.zeros(d) if shift is None else np.asarray(shift, float),
            "rot": np.eye(d) if rot is None else np.asarray(rot, float)}


X = np.array([[1.0, 2.0], [-3.0, 0.5], [0.0, 0.0]])


# -- expression trees ----------------------------------------------------------------------
def test_hand_built_trees_evaluate_to_their_formulas():
    # mean_i (x_i^2 + 1)
    t = ("add", ("sq", ("x",)), ("c", 1.0))
    np.testing.assert_allclose(et.evaluate(_prog(t), X), np.mean(X**2 + 1, axis=1))
    # shift: x - o
    o = [0.5, -1.0]
    np.testing.assert_allclose(et.evaluate(_prog(("sq", ("x",)), shift=o), X),
                               np.mean((X - o) ** 2, axis=1))
    # rotated terminal: mean_j ((x - o) Q)_j ; 90-degree rotation
    Q = np.array([[0.0, 1.0], [-1.0, 0.0]])
    np.testing.assert_allclose(et.evaluate(_prog(("r",), rot=Q), X), np.mean(X @ Q, axis=1))
    # neighbour coupling: mean_i x_i * x_{i-1} = x_1 x_2 in 2-D
    np.testing.assert_allclose(et.evaluate(_prog(("mul", ("x",), ("n",))), X), X[:, 0] * X[:, 1])
    # reductions broadcast back: max_j x_j - x_i averaged = max - mean
    np.testing.assert_allclose(et.evaluate(_prog(("sub", ("max", ("x",)), ("x",))), X),
                               X.max(1) - X.mean(1))
    # protected division by 0 is the identity, sqrt and log are of |.|
    np.testing.assert_allclose(et.evaluate(_prog(("div", ("x",), ("c", 0.0))), X), X.mean(1))
    np.testing.assert_allclose(et.evaluate(_prog(("sqrt", ("neg", ("x",)))), X),
                               np.mean(np.sqrt(np.abs(X)), 1))
    np.testing.assert_allclose(et.evaluate(_prog(("log", ("x",))), X), np.mean(np.log1p(np.abs(X)), 1))
    # a constant subtree under a reduction still yields one value per point
    np.testing.assert_allclose(et.evaluate(_prog(("add", ("mean", ("c", 2.0)), ("x",))), X),
                               X.mean(1) + 2.0)
    assert et.to_string(t) == "add(sq(x), 1)"
    assert et.depth(t) == 3 and et.size(t) == 4


def test_overflow_is_clipped_not_nan():
    t = ("exp", ("exp", ("exp", ("sq", ("x",)))))
    y = et.evaluate(_prog(t), 100 * X)
    assert np.all(np.isfinite(y)) and np.all(np.abs(y) <= et.CLIP)


def test_evaluate_fast_path_equals_plain_numpy():
    # evaluate() trims per-call overhead; it must return exactly the plain numpy pipeline's bits
    rng = np.random.default_rng(4)
    for _ in range(300):
        d = int(rng.integers(1, 5))
        prog = et.new_program(rng, d, 1, 6)
        X = rng.uniform(-5, 5, size=(int(rng.integers(1, 9)), d))
        Z = X - prog["shift"]
        env = {"np": np, "_X": Z, "_R": Z @ prog["rot"], "_N": np.roll(Z, 1, axis=1),
               "_Z0": np.zeros_like(Z)}
        with np.errstate(all="ignore"):
            v = np.asarray(eval(et.to_code(prog["tree"]), env), dtype=float)
            v = np.broadcast_to(v, (X.shape[0], 1) if v.ndim < 2 else v.shape)
            ref = np.clip(np.nan_to_num(v.mean(axis=1), nan=et.CLIP, posinf=et.CLIP,
                                        neginf=-et.CLIP), -et.CLIP, et.CLIP)
        assert et.evaluate(prog, X).tobytes() == ref.tobytes()


def test_variation_keeps_trees_valid_and_within_depth():
    rng = np.random.default_rng(0)
    max_depth = 5
    trees = [et.ramped_tree(rng, 2, max_depth) for _ in range(60)]
    assert all(et.is_valid(t, max_depth) for t in trees)
    assert max(et.depth(t) for t in trees) == max_depth  # the full method reaches the limit
    for i in range(300):
        a, b = trees[rng.integers(len(trees))], trees[rng.integers(len(trees))]
        for child in (et.subtree_mutation(rng, a, max_depth),
                      et.subtree_crossover(rng, a, b, max_depth)):
            assert et.is_valid(child, max_depth), child
            assert np.all(np.isfinite(et.evaluate(_prog(child, d=3), rng.normal(size=(4, 3)))))
    assert not et.is_valid(("sq", ("c", 1.0)), 5)  # no variable
    assert not et.is_valid(("sq", ("sq", ("x",))), 2)  # too deep
    assert not et.is_valid(("sq", ("x",), ("x",)), 5)  # wrong arity


def test_replace_subtree_by_path():
    t = ("add", ("sq", ("x",)), ("c", 1.0))
    assert et.paths(t) == [(), (1,), (1, 1), (2,)]
    assert et.replace_subtree(t, (1, 1), ("r",)) == ("add", ("sq", ("r",)), ("c", 1.0))
    assert et.get_subtree(t, (2,)) == ("c", 1.0)


# -- NSGA-II -------------------------------------------------------------------------------
def test_nondominated_sort_hand_made_set():
    # maximize both: A, B, C, C' mutually non-dominated; D dominated by C; E by D
    F = np.array([[3, 1], [1, 3], [2, 2], [1, 1], [0.5, 0.5], [2, 2]])
    fronts = nondominated_sort(F)
    assert [sorted(f) for f in fronts] == [[0, 1, 2, 5], [3], [4]]
    assert nondominated_sort(np.array([[1.0, 1.0]])) == [[0]]


def test_crowding_distance_and_order():
    F = np.array([[0.0, 4.0], [1.0, 3.0], [3.0, 1.0], [4.0, 0.0]])
    cd = crowding_distance(F)
    assert np.isinf(cd[0]) and np.isinf(cd[3])
    # interior: sum over objectives of the neighbours' gap over the span
    np.testing.assert_allclose(cd[1:3], [(3 - 0) / 4 + (4 - 1) / 4, (4 - 1) / 4 + (3 - 0) / 4])
    order, rank, _ = nsga2_order(np.array([[1, 1], [2, 2], [0, 3], [0, 0]]))
    assert list(rank) == [1, 0, 0, 2] and set(order[:2]) == {1, 2} and order[-1] == 3


# -- assessment ----------------------------------------------------------------------------
def test_kendall_tau_matches_scipy_with_and_without_ties():
    from scipy.stats import kendalltau

    rng = np.random.default_rng(1)
    for _ in range(50):
        a = rng.integers(0, 4, size=6).astype(float)
        b = rng.normal(size=6) if rng.random() < 0.5 else rng.integers(0, 3, size=6)
        ref = kendalltau(a, b).statistic
        if np.isnan(ref):
            assert ea.kendall_tau(a, b) == 0.0
        else:
            assert ea.kendall_tau(a, b) == pytest.approx(ref, abs=1e-12)
    assert ea.kendall_tau([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)


def test_normalized_performance_and_adc():
    y = np.array([0.0, 10.0, 10.0])  # median 10, minimum 0
    best = np.array([[0.0, 0.0], [10.0, 10.0], [20.0, 20.0]])  # (S=3, R=2)
    perf = ea.normalized_performance(best, y)
    np.testing.assert_allclose(perf, [0.0, 1.0, 1.0])  # worse than the median is clipped to 1
    half = ea.normalized_performance(np.array([[0.0], [10.0 * ea.DELTA]]), y)
    np.testing.assert_allclose(half[1], np.log(2.0) / np.log1p(1 / ea.DELTA))
    assert ea.adc([0.0, 1.0]) == pytest.approx(0.5)
    np.testing.assert_array_equal(ea.normalized_performance(np.ones((3, 2)), np.ones(5)), 0.0)


def test_landscape_features_and_lsi():
    rng = np.random.default_rng(2)
    Xs = ea.feature_sample(rng, 3, 300)
    z_sphere = ea.landscape_features(np.sum(Xs**2, 1), Xs)
    z_lin = ea.landscape_features(Xs @ np.array([1.0, -2.0, 0.5]), Xs)
    assert z_sphere.shape == (ea.N_FEATURES,) and np.all(np.abs(z_sphere) <= 1.0)
    assert z_sphere[3] == pytest.approx(1.0, abs=1e-9)  # quadratic model exact
    assert z_lin[2] == pytest.approx(1.0, abs=1e-9)  # linear model exact
    assert z_sphere[4] > 0.9  # fitness-distance correlation of a sphere
    np.testing.assert_array_equal(ea.landscape_features(np.full(300, 3.0), Xs), 0.0)
    assert ea.lsi(z_sphere, [z_lin, z_sphere]) == pytest.approx(1.0)
    d2 = np.sum((z_sphere - z_lin) ** 2)
    assert ea.lsi(z_sphere, [z_lin], sigma2=2.0) == pytest.approx(1.0 / (1.0 + d2 / 2.0))


# -- targets and solvers -------------------------------------------------------------------
def test_bbob_targets_are_seeded_coco_instances():
    ds = BBOBTargets(dim=2, fids=(1, 15), budget_per_dim=10, reps=1, sample_per_dim=10)
    a, b = ds.make(3).data["targets"], ds.make(3).data["targets"]
    assert a == b and [s["fid"] for s in a] == [1, 15]
    for spec in a:
        f = target_function(spec)
        assert f(f.x_opt[None, :])[0] == pytest.approx(f.f_opt, abs=1e-9)


def test_tuning_surface_matches_sklearn_kernel_ridge_and_interpolates_grid_nodes():
    from sklearn.datasets import load_diabetes
    from sklearn.kernel_ridge import KernelRidge

    from claimbench.datasets.tuning_surfaces import kernel_ridge_surface, surface_eval

    surf = kernel_ridge_surface(5, n_grid=3)
    v = surf["values"]
    Xd, yd = load_diabetes(return_X_y=True)
    Xd, yd = (Xd - Xd.mean(0)) / Xd.std(0), (yd - yd.mean()) / yd.std()
    idx = np.random.default_rng(5).permutation(len(yd))
    tr, va = idx[: 2 * len(yd) // 3], idx[2 * len(yd) // 3:]
    a, g = 10.0 ** -2.5, 10.0 ** -1.0  # middle of the alpha and gamma axes
    m = KernelRidge(alpha=a, kernel="rbf", gamma=g).fit(Xd[tr], yd[tr] - yd[tr].mean())
    err = np.mean((m.predict(Xd[va]) + yd[tr].mean() - yd[va]) ** 2) / np.var(yd[va] - yd[tr].mean())
    assert v[1, 1] == pytest.approx(err, rel=1e-6)
    corners = np.array([[-5.0, -5.0], [5.0, 5.0], [0.0, 0.0], [-5.0, 5.0]])
    np.testing.assert_allclose(surface_eval(v, corners), [v[0, 0], v[2, 2], v[1, 1], v[0, 2]])
    np.testing.assert_allclose(surface_eval(v, [[-2.5, -5.0]]), [(v[0, 0] + v[1, 0]) / 2])


def test_budget_is_exact_and_solvers_minimize_a_sphere():
    obj = BudgetedObjective(lambda Z: np.sum(Z**2, 1), -np.ones(2), np.ones(2), 5)
    obj(np.zeros((3, 2)))
    with pytest.raises(BudgetExhausted):
        obj(np.ones((4, 2)))
    assert obj.n_evals == 5 and obj.best_curve == [0.0] * 5
    data = {"f": lambda Z: np.sum((Z - 1.0) ** 2, 1), "lower": -5 * np.ones(2),
            "upper": 5 * np.ones(2), "budget": 300}
    assert tuple(s.name for s in portfolio()) == PORTFOLIO_NAMES
    for s in portfolio():
        out = s.run(data, 0)
        assert out["n_evals"] == 300, s.name
        tol = {"random_search": 1.0, "differential_evolution": 0.1, "particle_swarm": 0.1}
        assert out["f_best"] < tol.get(s.name, 1e-3), (s.name, out["f_best"])


def test_smoke_grid_runs():
    from claimbench.testing import run_grid_inline

    rows = run_grid_inline(BENCHMARK, "smoke")
    assert rows and all(r["status"] == "ok" for r in rows)
    for r in rows:
        m = r["metrics"]
        assert 0.0 <= m["adc"] <= 0.5 and 0.0 < m["lsi"] <= 1.0 and -1.0 <= m["kendall_tau"] <= 1.0
    target = [r for r in rows if r["cell"].method.label == "target_suite"][0]
    assert target["metrics"]["lsi"] == pytest.approx(1.0)  # a target is its own nearest target
