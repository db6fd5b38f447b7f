"""Unit tests for triplet_dimension: triplet instances, STE objective, references."""
from __future__ import annotations

import numpy as np
import pytest

from claimbench.baselines.constant_embedding import ConstantEmbedding
from claimbench.baselines.projection_embedding import ProjectionEmbedding, project_points
from claimbench.benchmarks.triplet_dimension import BENCHMARK
from claimbench.datasets.triplet_instances import (TripletInstances, sample_triplets, target_dim,
                                                    triplet_accuracy, triplet_margins)
from claimbench.methods.triplet_dimension import TripletEmbedding, triplet_objective


def _instance(**kw):
    return TripletInstances(**{"n": 25, "D": 4, "triplets_per_dof": 10.0, **kw}).make(3)


@pytest.mark.parametrize("points", ["gaussian", "sphere"])
def test_true_points_satisfy_all_their_triplets(points):
    inst = _instance(points=points)
    X = inst.truth["points"]
    assert triplet_accuracy(X, inst.data["train"]) == 1.0
    assert triplet_accuracy(X, inst.truth["test"]) == 1.0
    T = np.vstack([inst.data["train"], inst.truth["test"]])
    assert np.all(T[:, 0] != T[:, 1]) and np.all(T[:, 0] != T[:, 2]) and np.all(T[:, 1] != T[:, 2])
    assert len(inst.truth["test"]) == pytest.approx(0.2 * len(T), abs=1)


def test_reversed_triplets_score_zero_and_ties_count_half():
    inst = _instance()
    T = inst.data["train"]
    assert triplet_accuracy(inst.truth["points"], T[:, [0, 2, 1]]) == 0.0
    # one satisfied, one violated, one tie on a line: (1 + 0 + 1/2) / 3
    X = np.array([[0.0], [1.0], [2.0], [-1.0]])
    assert triplet_accuracy(X, np.array([[0, 1, 2], [0, 2, 1], [0, 1, 3]])) == pytest.approx(0.5)


def test_constant_embedding_is_exactly_one_half():
    inst = _instance()
    out = ConstantEmbedding().run(inst.data, 0)
    assert triplet_accuracy(out["X"], inst.data["train"]) == 0.5
    assert triplet_accuracy(out["X"], inst.truth["test"]) == 0.5


def test_random_input_free_embedding_is_about_one_half():
    inst = TripletInstances(n=50, D=4, triplets_per_dof=50.0).make(0)
    X = np.random.default_rng(1).standard_normal((50, 2))
    assert abs(triplet_accuracy(X, inst.data["train"]) - 0.5) < 0.05


@pytest.mark.parametrize("loss", ["ste", "hinge"])
def test_gradient_matches_finite_differences(loss):
    rng = np.random.default_rng(0)
    inst = _instance()
    T = inst.data["train"][:200]
    X = rng.standard_normal((25, 3))
    f, g = triplet_objective(X, T, lam=0.1, loss=loss)
    # direct evaluation of eq. 2 from margins, independent of the Gram-matrix route
    s = triplet_margins(X, T)
    l = np.logaddexp(0, -s) if loss == "ste" else np.maximum(0, 1 - s)
    assert f == pytest.approx(l.mean() + 0.1 / 25 * np.sum(X**2), rel=1e-10)
    h = 1e-6
    for _ in range(10):
        a, b = rng.integers(25), rng.integers(3)
        Xp, Xm = X.copy(), X.copy()
        Xp[a, b] += h
        Xm[a, b] -= h
        fd = (triplet_objective(Xp, T, 0.1, loss)[0] - triplet_objective(Xm, T, 0.1, loss)[0]) / (2 * h)
        assert g[a, b] == pytest.approx(fd, rel=1e-4, abs=1e-7)


def test_ste_fits_realisable_instance_at_true_dimension():
    inst = TripletInstances(n=30, D=2, triplets_per_dof=20.0).make(0)
    out = TripletEmbedding(d_ratio=1.0, restarts=1, max_iter=300).run(inst.data, 0)
    assert out["X"].shape == (30, 2)
    assert triplet_accuracy(out["X"], inst.data["train"]) > 0.97


def test_ste_never_reads_oracle_points():
    inst = _instance()
    m = TripletEmbedding(d=2, restarts=1, max_iter=30)
    data = {k: v for k, v in inst.data.items() if k != "oracle_points"}
    np.testing.assert_array_equal(m.run(inst.data, 5)["X"], m.run(data, 5)["X"])


def test_projection_at_full_dimension_is_exact_and_pca_dominates_at_one():
    inst = _instance()
    full = ProjectionEmbedding(d_ratio=1.0).run(inst.data, 0)
    assert triplet_accuracy(full["X"], inst.data["train"]) == pytest.approx(1.0)
    # PCA onto the top direction of anisotropic points keeps most triplets
    X = np.random.default_rng(0).standard_normal((40, 3)) * np.array([10.0, 0.1, 0.1])
    T = sample_triplets(np.random.default_rng(1), X, 2000)
    assert triplet_accuracy(project_points(X, 1, "pca"), T) > 0.9
    assert project_points(X, 2, "random", np.random.default_rng(0)).shape == (40, 2)


def test_target_dim():
    assert target_dim(1, 0.5, 32) == 1
    assert target_dim(0, 0.25, 32) == 8
    assert target_dim(0, 0.01, 8) == 1


def test_smoke_grid_runs():
    from claimbench.testing import run_grid_inline

    rows = run_grid_inline(BENCHMARK, "smoke")
    assert rows and all(r["status"] == "ok" for r in rows)
    for r in rows:
        for name in ("train_acc", "test_acc", "d_over_D"):
            v = r["metrics"][name]
            assert v is not None and np.isfinite(v)
    by = {r["cell"].method.label: r["metrics"] for r in rows}
    assert by["constant"]["train_acc"] == 0.5
    assert by["projection[d/D=1]"]["train_acc"] == 1.0
