"""Unit tests for the SSD-duality benchmark: small cases with answers known by hand or by numpy."""
from __future__ import annotations

import math

import numpy as np
import pytest

from claimbench.baselines.softmax_attention import CausalSoftmaxAttention, causal_softmax_attention
from claimbench.benchmarks.ssd_duality import BENCHMARK
from claimbench.datasets.ssm_general import FAMILIES, GeneralSSMs, reference_recurrence_full
from claimbench.datasets.ssm_sequences import SSMSequences, reference_recurrence
from claimbench.methods.ssd_duality import (CONDITIONS, ChunkedSSD, DenseSSD, OneSSDual,
                                            ScalarSSD, SSMRecurrence, completion_rank,
                                            head_matrices, log_decay_cumsum, one_ss_apply,
                                            one_ss_dual, one_ss_excess, one_ss_mask, ss_rank,
                                            ssd_chunked, ssd_dense, ssd_scalar, ssm_kernel,
                                            ssm_recurrence, zero_blocks)

# T = 3, N = 2 by hand:
# h1 = b1 x1 = [1, 2]                      y1 = c1.h1 = 3
# h2 = a2*h1 + b2 x2 = [0.5, 2.8]          y2 = c2.h2 = 1.0
# h3 = a3*h2 + b3 x3 = [-0.6, 0.28]        y3 = c3.h3 = 0.84
HAND = {
    "a": np.array([[0.5, 0.2], [0.5, 0.4], [0.8, 0.1]]),
    "B": np.array([[1.0, 2.0], [0.0, 1.0], [1.0, 0.0]]),
    "C": np.array([[1.0, 1.0], [2.0, 0.0], [0.0, 3.0]]),
    "x": np.array([1.0, 2.0, -1.0]),
}
HAND_Y = np.array([3.0, 1.0, 0.84])


def _args(d):
    return d["a"], d["B"], d["C"], d["x"]


def _random_ssm(T, N, seed, lo=0.0, hi=1.0):
    rng = np.random.default_rng(seed)
    a = rng.uniform(lo, hi, (T, N)) + 1e-3 * (lo == 0.0)
    return a, rng.standard_normal((T, N)), rng.standard_normal((T, N)), rng.standard_normal(T)


def _brute_ss_rank(M, rtol=1e-8):
    return max(np.linalg.matrix_rank(M[i:, :i + 1], rtol=rtol) for i in range(M.shape[0]))


# -- the three forms on a hand-computed case ---------------------------------------------------
def test_hand_computed_recurrence():
    np.testing.assert_allclose(ssm_recurrence(*_args(HAND)), HAND_Y, rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(reference_recurrence(*_args(HAND)), HAND_Y, rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("chunk", [1, 2, 3, 64])
def test_hand_computed_chunked(chunk):
    # chunk=2 pads T=3 to 4 and passes one state across a chunk boundary.
    np.testing.assert_allclose(ssd_chunked(*_args(HAND), chunk), HAND_Y, rtol=1e-13, atol=1e-13)


def test_hand_computed_dense_and_matrix():
    y, M = ssd_dense(*_args(HAND), keep_matrix=True)
    np.testing.assert_allclose(y, HAND_Y, rtol=1e-13, atol=1e-13)
    # M_21 = c2^T diag(a2) b1 = 2*0.5*1 = 1 ; M_31 = c3^T diag(a3 a2) b1 = 3*0.1*0.4*2 = 0.24
    np.testing.assert_allclose(M[1, 0], 1.0, rtol=1e-14)
    np.testing.assert_allclose(M[2, 0], 0.24, rtol=1e-13)
    assert M[0, 1] == M[0, 2] == M[1, 2] == 0.0


# -- the dual matrix --------------------------------------------------------------------------
def test_dense_matrix_equals_product_formula_and_impulse_response():
    a, B, C, _ = _random_ssm(7, 3, seed=1)
    _, M = ssd_dense(a, B, C, np.zeros(7), block=3, keep_matrix=True)
    T, N = a.shape
    formula = np.zeros((T, T))
    for t in range(T):
        for s in range(t + 1):
            formula[t, s] = sum(C[t, n] * np.prod(a[s + 1:t + 1, n]) * B[s, n] for n in range(N))
    np.testing.assert_allclose(M, formula, rtol=1e-12, atol=1e-14)
    impulse = np.stack([ssm_recurrence(a, B, C, e) for e in np.eye(T)], axis=1)  # column s = M e_s
    np.testing.assert_allclose(M, impulse, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(head_matrices(a, B, C).sum(axis=0), M, rtol=1e-12, atol=1e-14)


def test_one_ss_mask_is_product_of_decays():
    a = np.array([0.5, 0.25, 0.8, 0.1])
    L = one_ss_mask(log_decay_cumsum(a))
    np.testing.assert_allclose(L[3, 1], 0.8 * 0.1, rtol=1e-14)
    np.testing.assert_allclose(L[2, 0], 0.25 * 0.8, rtol=1e-14)
    np.testing.assert_allclose(np.diag(L), 1.0)
    assert np.all(L[np.triu_indices(4, 1)] == 0.0)


@pytest.mark.parametrize("T,chunk", [(100, 64), (130, 16), (64, 64), (5, 7)])
def test_chunked_and_dense_match_reference_fast_decay(T, chunk):
    a, B, C, x = _random_ssm(T, 4, seed=T, lo=0.0, hi=1.0)
    ref = reference_recurrence(a, B, C, x)
    scale = np.abs(ref).max()
    assert np.abs(ssd_chunked(a, B, C, x, chunk) - ref).max() / scale < 1e-12
    assert np.abs(ssd_dense(a, B, C, x, block=32)[0] - ref).max() / scale < 1e-12


def test_chunked_state_passing_matters():
    # Inputs only in the first chunk: every later output comes through the passed states alone.
    a, B, C, x = _random_ssm(128, 4, seed=3, lo=0.95, hi=1.0)
    x[32:] = 0.0
    ref = reference_recurrence(a, B, C, x)
    assert np.abs(ref[32:]).max() / np.abs(ref).max() > 1e-3
    y = ssd_chunked(a, B, C, x, 32)
    assert np.abs(y - ref).max() / np.abs(ref).max() < 1e-12


def test_scalar_ssd_equals_dense_and_declines_diagonal():
    rng = np.random.default_rng(4)
    T, N = 20, 3
    a = np.repeat(rng.uniform(0.5, 1.0, (T, 1)), N, axis=1)
    B, C, x = rng.standard_normal((T, N)), rng.standard_normal((T, N)), rng.standard_normal(T)
    y, M, L = ssd_scalar(a, B, C, x)
    y_dense, M_dense = ssd_dense(a, B, C, x, keep_matrix=True)
    np.testing.assert_allclose(M, M_dense, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(y, reference_recurrence(a, B, C, x), rtol=1e-11, atol=1e-12)
    assert ss_rank(L) == 1
    assert ScalarSSD().applies_to(SSMSequences(T=8, N=2, scalar=False)) is not None
    assert ScalarSSD().applies_to(SSMSequences(T=8, N=2, scalar=True)) is None
    with pytest.raises(ValueError):
        ScalarSSD().run(SSMSequences(T=8, N=2, scalar=False).make(0).data, 0)


# -- semiseparable rank ------------------------------------------------------------------------
def test_ss_rank_of_known_matrices():
    rng = np.random.default_rng(5)
    u, v = rng.standard_normal(12), rng.standard_normal(12)
    assert ss_rank(np.tril(np.outer(u, v))) == 1  # 1-SS by construction
    assert ss_rank(np.tril(np.ones((9, 9)))) == 1
    assert ss_rank(np.eye(6)) == 1  # each block on/below the diagonal holds at most one 1
    assert ss_rank(np.zeros((5, 5))) == 0
    assert ss_rank(np.tril(rng.standard_normal((10, 10)))) == 5  # generic: ceil(T/2)
    assert ss_rank(np.tril(rng.standard_normal((11, 11)))) == 6


@pytest.mark.parametrize("r,seed", [(1, 0), (2, 1), (3, 2), (5, 3)])
def test_ss_rank_matches_matrix_rank_on_random_low_rank(r, seed):
    rng = np.random.default_rng(seed)
    T = 16
    M = np.tril(rng.standard_normal((T, r)) @ rng.standard_normal((r, T)))
    assert ss_rank(M) == _brute_ss_rank(M) == r
    G = np.tril(rng.standard_normal((T, T)))
    assert ss_rank(G) == _brute_ss_rank(G)


def test_ssm_heads_and_sum_ranks():
    a, B, C, _ = _random_ssm(24, 3, seed=6, lo=0.8, hi=1.0)
    heads = head_matrices(a, B, C)
    assert [ss_rank(h) for h in heads] == [1, 1, 1]
    assert ss_rank(heads.sum(axis=0)) == 3  # N-semiseparable, rank N attained generically


# -- softmax baseline --------------------------------------------------------------------------
def test_causal_softmax_attention_against_loop():
    rng = np.random.default_rng(7)
    q, k, v = rng.standard_normal((5, 2)), rng.standard_normal((5, 2)), rng.standard_normal(5)
    y, P = causal_softmax_attention(q, k, v)
    for t in range(5):
        w = np.exp(q[t] @ k[:t + 1].T / math.sqrt(2))
        np.testing.assert_allclose(y[t], w @ v[:t + 1] / w.sum(), rtol=1e-13)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    assert np.all(P[np.triu_indices(5, 1)] == 0.0)
    assert ss_rank(P) == 3  # generically full: ceil(5/2), more than d_k = 2


def test_softmax_method_reads_ssm_fields():
    data = SSMSequences(T=10, N=2).make(0).data
    out = CausalSoftmaxAttention().run(data, 0)
    y, _ = causal_softmax_attention(data["C"], data["B"], data["x"])
    np.testing.assert_allclose(out["y"], y)
    assert out["form"] == "softmax" and out["M"].shape == (10, 10)


# -- dataset and benchmark -------------------------------------------------------------------
def test_dataset_shapes_range_and_seed():
    d1, d2 = SSMSequences(T=12, N=3, scalar=True).make(3), SSMSequences(T=12, N=3, scalar=True).make(3)
    for k in ("a", "B", "C", "x"):
        np.testing.assert_array_equal(d1.data[k], d2.data[k])
    a = d1.data["a"]
    assert a.shape == (12, 3) and np.all(a == a[:, :1]) and np.all((a >= 0.9) & (a <= 1.0))
    assert d1.truth["N"] == 3 and d1.truth["y"].shape == (12,)
    diag = SSMSequences(T=12, N=3).make(3).data["a"]
    assert not np.all(diag == diag[:, :1])


def test_methods_report_times_and_matrix_cap():
    data = SSMSequences(T=20, N=2).make(1).data
    for m in (SSMRecurrence(), ChunkedSSD(), DenseSSD()):
        out = m.run(data, 0)
        assert out["time_s"] > 0 and out["cpu_s"] >= 0
    assert "M" not in DenseSSD(matrix_max_T=10).run(data, 0)


def test_smoke_grid_runs():
    from claimbench.testing import run_grid_inline

    rows = run_grid_inline(BENCHMARK, "smoke")
    assert rows and all(r["status"] in ("ok", "not_applicable") for r in rows)
    for r in rows:
        for name, v in r["metrics"].items():
            assert v is None or math.isfinite(v), (name, v)
        if r["status"] == "ok" and r["outputs"]["form"] == "ssm":
            if r["cell"].method.params.get("mutant"):
                # Foils: each mutant is a wrong map on the T = 100 instances of the smoke grid.
                if r["cell"].dataset.params["T"] == 100:
                    assert r["metrics"]["max_rel_err"] > 1e-3, r["cell"].method.label
            else:
                assert r["metrics"]["max_rel_err"] < 1e-10


def test_mutant_defaults_are_the_paper_forms():
    # The foil switch defaults to the paper's computation, bit for bit.
    a, B, C, x = _random_ssm(100, 3, 7, lo=0.9)
    np.testing.assert_array_equal(ssd_chunked(a, B, C, x, 64), ssd_chunked(a, B, C, x, 64, ""))
    y0, M0 = ssd_dense(a, B, C, x, keep_matrix=True)
    y1, M1 = ssd_dense(a, B, C, x, keep_matrix=True, mutant="")
    np.testing.assert_array_equal(y0, y1)
    np.testing.assert_array_equal(M0, M1)
    lc = log_decay_cumsum(a)
    want = np.stack([one_ss_mask(lc[:, n]) * np.outer(C[:, n], B[:, n]) for n in range(3)])
    np.testing.assert_array_equal(head_matrices(a, B, C), want)


def test_mutants_break_what_their_claims_test():
    a, B, C, x = _random_ssm(40, 3, 8, lo=0.9)
    # Off-by-one mask: still N-semiseparable with 1-SS heads, but a different map.
    _, M = ssd_dense(a, B, C, x, keep_matrix=True, mutant="mask_off_by_one")
    np.testing.assert_allclose(M, head_matrices(a, B, C, "mask_off_by_one").sum(0), atol=1e-13)
    assert ss_rank(M) <= 3
    # Softmax heads: each head has ss-rank > 1, and their sum > N.
    _, M = ssd_dense(a, B, C, x, keep_matrix=True, mutant="softmax_heads")
    heads = head_matrices(a, B, C, "softmax_heads")
    np.testing.assert_allclose(M, heads.sum(0), atol=1e-13)
    assert min(ss_rank(h) for h in heads) > 1 and ss_rank(M) > 3
    # Window: the scalar mask is banded (ss-rank WINDOW), not 1-SS.
    from claimbench.methods.ssd_duality import WINDOW
    s = np.repeat(a[:, :1], 3, axis=1)
    _, _, L = ssd_scalar(s, B, C, x, "window")
    assert ss_rank(L) == WINDOW


def test_operation_counts_follow_the_loops():
    from claimbench.methods.ssd_duality import (count_ops_chunked, count_ops_dense,
                                                count_ops_recurrence)

    # blocked dense form: rows r0:r1 against columns :r1, i.e. T (T + 64) / 2 entries for T = 64 k
    for T in (64, 128, 512):
        entries = sum(64 * (r0 + 64) for r0 in range(0, T, 64))
        assert entries == T * (T + 64) // 2
        assert count_ops_dense(T, 3) == (6 * 3 + 2) * entries + 2 * T * 3
    assert count_ops_recurrence(100, 4) == 2 * count_ops_recurrence(50, 4)
    assert count_ops_chunked(256, 4, 64) == 2 * count_ops_chunked(128, 4, 64)
    data = SSMSequences(T=20, N=2).make(1).data
    for m in (SSMRecurrence(), ChunkedSSD(), DenseSSD()):
        assert m.run(data, 0)["ops"] > 0


# -- the 1-SS condition (c11) -------------------------------------------------------------------


def test_completion_rank_known_cases():
    assert completion_rank(np.eye(5)) == 5  # any completion is upper triangular, unit diagonal
    assert completion_rank(np.zeros((4, 4))) == 0
    # [[a, ?], [b, c]] completes to rank 1 with ? = a c / b
    assert completion_rank(np.array([[1.0, 0.0], [2.0, 3.0]])) == 1
    # the lower-bidiagonal 4 x 4 kernel: 2-semiseparable, yet needs rank 3
    M = 2 * np.eye(4) + np.eye(4, k=-1)
    assert _brute_ss_rank(M) == 2 and completion_rank(M) == 3
    rng = np.random.default_rng(0)
    for r in (1, 2, 3):
        R = rng.standard_normal((9, r)) @ rng.standard_normal((r, 9))  # rank r
        assert completion_rank(np.tril(R)) == r


def test_zero_blocks_split_where_kernel_vanishes():
    M = np.zeros((5, 5))
    M[:2, :2] = np.tril(np.ones((2, 2)))
    M[2:, 2:] = np.tril(np.ones((3, 3)))
    assert zero_blocks(M) == [(0, 2), (2, 5)]
    assert zero_blocks(np.tril(np.ones((3, 3)))) == [(0, 3)]


def test_kernel_of_diagonal_ssm_matches_dense_form():
    a, B, C, x = _args(HAND)
    A = np.stack([np.diag(r) for r in a])  # (T, N, N)
    _, M = ssd_dense(a, B, C, x, keep_matrix=True)
    np.testing.assert_allclose(ssm_kernel(A, B, C), M, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(reference_recurrence_full(A, B, C, x), HAND_Y, rtol=1e-14)


def test_general_dataset_diagonal_family_matches_diagonal_reference():
    inst = GeneralSSMs(T=10, N=3, family="diagonal").make(4)
    d = inst.data
    a = np.einsum("tnn->tn", d["A"])  # (T, N)
    np.testing.assert_allclose(inst.truth["y"], reference_recurrence(a, d["B"], d["C"], d["x"]),
                               rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("family", ["diagonal", "rotation", "reset"])
def test_dual_exact_where_condition_holds(family):
    d = GeneralSSMs(T=20, N=3, family=family).make(1).data
    l, Q, K = one_ss_dual(d["A"], d["B"], d["C"])
    assert Q.shape == K.shape == (20, 3)  # a 1-SS mask times a rank-N Q K^T
    y = one_ss_apply(l, Q, K, d["x"])
    ref = reference_recurrence_full(d["A"], d["B"], d["C"], d["x"])
    assert np.max(np.abs(y - ref)) / np.max(np.abs(ref)) < 1e-12
    assert one_ss_excess(ssm_kernel(d["A"], d["B"], d["C"]), 3) <= 0
    if family == "reset":
        assert (l[[5, 10, 15]] == 0).all()  # the mask splits at the resets


def test_lowrank_ssm_violates_condition_and_dual_fails():
    d = GeneralSSMs(T=20, N=3, family="lowrank").make(1).data
    assert np.all(np.linalg.matrix_rank(d["A"]) == 2)
    M = ssm_kernel(d["A"], d["B"], d["C"])
    assert _brute_ss_rank(M) <= 3  # N-semiseparable, as every 3-state SSM kernel
    assert one_ss_excess(M, 3) >= 1
    y = one_ss_apply(*one_ss_dual(d["A"], d["B"], d["C"]), d["x"])
    ref = reference_recurrence_full(d["A"], d["B"], d["C"], d["x"])
    assert np.max(np.abs(y - ref)) / np.max(np.abs(ref)) > 1e-3


def test_reset_kernel_needs_blocks():
    d = GeneralSSMs(T=20, N=3, family="reset").make(2).data
    M = ssm_kernel(d["A"], d["B"], d["C"])
    assert one_ss_excess(M, 3) <= 0 < one_ss_excess(M, 3, blocks=False)


def test_condition_mutants_each_wrong_on_one_family():
    verdicts = {}
    for family in FAMILIES:
        data = GeneralSSMs(T=16, N=3, family=family).make(0).data
        verdicts[family] = {m: OneSSDual(mutant=m).run(data, 0)["condition"] for m in CONDITIONS}
    assert [verdicts[f][""] for f in FAMILIES] == [1.0, 1.0, 1.0, 0.0]
    assert verdicts["rotation"]["diagonal_condition"] == 0.0
    assert verdicts["lowrank"]["semiseparable_condition"] == 1.0
    assert verdicts["reset"]["no_blocks"] == 0.0


def test_condition_agrees_metric():
    fn = {m.name: m.fn for m in BENCHMARK.metrics}["condition_agrees"]
    inst = GeneralSSMs(T=12, N=2, family="lowrank").make(0)
    out = OneSSDual().run(inst.data, 0)
    assert fn(inst, out) == 1.0
    assert fn(inst, dict(out, condition=1.0)) == 0.0
    assert fn(inst, {"form": "ssm", "y": inst.truth["y"]}) is None
