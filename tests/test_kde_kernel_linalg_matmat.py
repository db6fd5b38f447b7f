"""Unit tests for kde_kernel_linalg's matrix-matrix product (round 6, c11/c11b): the reconstruction
(per-coordinate MVP per column), BIMW'21's and dense's K V, their evaluation counts, and the new metric."""
from __future__ import annotations

import math

import numpy as np
import pytest

from claimbench.baselines.bimw_kernel_linalg import BIMWKernelLinalg
from claimbench.baselines.dense_kernel_linalg import DenseKernelLinalg
from claimbench.baselines.kde_oracle import SamplingKDE, gaussian_kernel
from claimbench.benchmarks.kde_kernel_linalg import BENCHMARK, _entry_max_over_eps, _rel_err
from claimbench.datasets.kernel_matmat import KernelMatMat
from claimbench.datasets.kernel_point_clouds import KernelPointCloud
from claimbench.methods.kde_kernel_linalg import KDELinalg, per_coordinate_matmat, per_coordinate_matvec


def _ones(n):
    return np.zeros((n, 1)), np.ones((n, n))


def test_matmat_is_exact_and_costs_m_n2_when_eps_is_tiny():
    # 1/eps^2 samples >= n: every query is answered exactly, n evaluations per coordinate, n^2 per column.
    x = np.random.default_rng(0).standard_normal((120, 5))
    K = gaussian_kernel(x, x, 3.0)
    V = np.random.default_rng(1).uniform(0, 1, (120, 3))
    orc = SamplingKDE(x, 3.0, seed=0)
    assert np.allclose(per_coordinate_matmat(orc, V, 1e-3), K @ V, rtol=1e-5)
    assert orc.evals == 3 * 120**2


@pytest.mark.parametrize("eps", [0.2, 0.1])
def test_matmat_count_at_fixed_density_is_m_times_the_mvp_formula(eps):
    # All-ones K: density 1 for every query, so each column costs n (4 + ceil(1/eps^2)) (the matvec test's
    # formula), m columns m times that, and every entry is exact: (K V)_ij = sum of column j.
    n, m = 400, 3
    x, K = _ones(n)
    V = np.random.default_rng(2).uniform(0, 1, (n, m))
    orc = SamplingKDE(x, 1.0, seed=0, kernel=K)
    Z = per_coordinate_matmat(orc, V, eps)
    assert orc.evals == m * n * (4 + math.ceil(1 / eps**2))
    assert Z == pytest.approx(np.tile(V.sum(axis=0), (n, 1)), rel=1e-4)


def test_matmat_entries_within_eps_on_a_small_kernel_and_columns_equal_the_matvec():
    inst = KernelMatMat(n=300, m=3, eps=0.2, family="uniform").make(3)
    V, KV = inst.data["V"], inst.truth["KV"]
    orc = SamplingKDE(inst.data["points"], inst.data["bandwidth"], seed=4, kernel=inst.data["kernel"])
    Z = per_coordinate_matmat(orc, V, 0.2)
    assert Z.shape == (300, 3)
    assert np.max(np.abs(Z / KV - 1)) <= 0.2  # fixed seed: every entry within eps
    # column j is the matvec of V[:, j] with the oracle's stream continued: same draws, one by one
    a, b = (SamplingKDE(inst.data["points"], inst.data["bandwidth"], seed=4, kernel=inst.data["kernel"])
            for _ in range(2))
    cols = [per_coordinate_matvec(a, V[:, j], 0.2) for j in range(3)]
    assert np.array_equal(np.stack(cols, axis=1), per_coordinate_matmat(b, V, 0.2)) and a.evals == b.evals


def test_methods_on_matmat_dense_reads_k_once_and_metric_reads_the_worst_entry():
    inst = KernelMatMat(n=200, m=4, eps=0.1).make(0)
    d = DenseKernelLinalg().run(inst.data, 0)
    assert d["kernel_evals"] == 200**2 and np.allclose(d["answer"], inst.truth["KV"], rtol=1e-5)
    s = KDELinalg().run(inst.data, 0)
    b = BIMWKernelLinalg().run(inst.data, 0)
    add = KDELinalg(mutant="additive_kde").run(inst.data, 0)
    for out in (s, b, add):
        assert np.shape(out["answer"]) == (200, 4) and out["kernel_evals"] > 0
    Z = inst.truth["KV"].copy()
    Z[7, 2] *= 1.05  # one entry off by 5 %: half of eps
    assert _entry_max_over_eps(inst, {"answer": Z}) == pytest.approx(0.5)
    assert _rel_err(inst, {"answer": Z}) == pytest.approx(
        0.05 * inst.truth["KV"][7, 2] / np.linalg.norm(inst.truth["KV"]))
    other = KernelPointCloud(n=50, task="matvec").make(0)
    assert _entry_max_over_eps(other, {"answer": other.truth["Kv"]}) is None


def test_matmat_dataset_shares_the_point_clouds_and_rejects_other_tasks():
    a = KernelMatMat(n=80, m=2).make(5)
    assert np.all(a.data["V"] >= 0) and a.data["V"].shape == (80, 2)
    assert np.allclose(a.truth["KV"], gaussian_kernel(a.data["points"], a.data["points"], a.data["bandwidth"])
                       @ a.data["V"])
    with pytest.raises(ValueError):
        KernelMatMat(task="matvec").make(0)


def test_c11_cells_are_the_matvec_scope_and_disjoint_from_the_other_claims():
    from claimbench.claims.design import units

    claims = {c.id: c for c in BENCHMARK.claims}
    assert units(BENCHMARK, claims["c11_matmat"].check.where) == units(BENCHMARK, claims["c5_matvec_fewer_evals"]
                                                                       .check.where) == 18
    assert units(BENCHMARK, claims["c11b_matmat_accuracy"].check.where) == 54
    for cid, c in claims.items():
        if not cid.startswith("c11"):
            assert (getattr(c.check, "where", {}) or {}).get("task") != "matmat"
