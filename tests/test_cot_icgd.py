"""Unit tests for the CoT-ICGD benchmark: GD against autograd and a closed form, the executor
against GD, its mutants, the attention counts, and the weight-prediction plumbing."""
from __future__ import annotations

import numpy as np
import pytest

from claimbench.baselines import icl_weight_prediction as wp
from claimbench.baselines.mlp_gradient_descent import forward, gd, gradients
from claimbench.baselines.single_pass_icgd import single_pass, token_width
from claimbench.datasets.in_context_regression import (ICGDRegression, InContextLinearRegression,
                                                       linear_gd_iterates, student_init)
from claimbench.methods.cot_icgd import prompt_length, run_executor, schedule


def _prompt(N, L, seed=0, n=12, d=3, width=5):
    return ICGDRegression(n=n, d=d, width=width, N=N, L=L, n_test=8).make(seed)


def _err(a, b):
    return max(float(np.max(np.abs(x - y))) for x, y in zip(a, b))


# -- the numpy GD reference -------------------------------------------------------------------
@pytest.mark.parametrize("N", [1, 2, 3])
def test_gradients_match_torch_autograd(N):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(N)
    X, y = rng.standard_normal((10, 3)), rng.standard_normal(10)
    W = student_init(rng, 3, 4, N)
    Wt = [torch.tensor(w, requires_grad=True) for w in W]
    h = torch.cat([torch.tensor(X.T), torch.ones(1, 10, dtype=torch.float64)])
    for l, w in enumerate(Wt):
        z = w @ h
        h = z if l == N - 1 else torch.cat([torch.relu(z), torch.ones(1, 10, dtype=torch.float64)])
    loss = ((h[0] - torch.tensor(y)) ** 2).sum() / 20
    loss.backward()
    for g, w in zip(gradients(W, X, y), Wt):
        np.testing.assert_allclose(g, w.grad.numpy(), rtol=1e-12, atol=1e-14)


def test_linear_gd_closed_form():
    # N = 1 is least squares: w_k = (I - (I - lr S)^k) S^-1 X^T y / n, S = X^T X / n (no bias)
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((1, 16, 4)), rng.standard_normal((1, 16))
    S, b = X[0].T @ X[0] / 16, X[0].T @ y[0] / 16
    W = linear_gd_iterates(X, y, 0.3, 7)
    for k in (1, 3, 7):
        want = (np.eye(4) - np.linalg.matrix_power(np.eye(4) - 0.3 * S, k)) @ np.linalg.solve(S, b)
        np.testing.assert_allclose(W[0, k], want, rtol=1e-10, atol=1e-12)


# -- the executor --------------------------------------------------------------------------------
@pytest.mark.parametrize("masking", ["dynamic", "full"])
@pytest.mark.parametrize("N,L", [(1, 4), (2, 5), (3, 7)])
def test_executor_equals_gd(masking, N, L):
    inst = _prompt(N, L, seed=N + L)
    out = run_executor(inst.data, masking)
    assert _err(out["weights"], inst.truth["W"]) < 1e-12
    assert out["cot_tokens"] == 3 * N * L and out["n_layers"] == 1


def test_schedule_operands():
    prog = schedule(2, 1)
    assert [(k, l) for k, l, _ in prog] == [("F", 1), ("F", 2), ("B", 2), ("B", 1),
                                           ("W", 1), ("W", 2)]
    assert prog[3][2] == [("W", 2), ("B", 2), ("F", 1)]  # delta_1 = W_2^T delta_2 * 1[H_1 > 0]
    assert prog[4][2] == [("W", 1), ("B", 1), ("X", 0)]  # W_1 -= lr delta_1 H_0^T


def test_attention_counts():
    # Dynamic: 2 keys per forward token, 2 for the loss, 3 for the other backward and update
    # tokens = 8N - 1 per step. Full: each of the 3 (or 2) heads scores the whole prefix.
    N, L = 3, 4
    inst = _prompt(N, L)
    dyn, full = run_executor(inst.data, "dynamic"), run_executor(inst.data, "full")
    assert dyn["attn_pairs"] == L * (8 * N - 1)
    heads = [len(ops) for _, _, ops in schedule(N, L)]
    assert full["attn_pairs"] == sum(h * (prompt_length(N) + j) for j, h in enumerate(heads))
    assert dyn["width"] == full["width"]


def test_mutants():
    lin = _prompt(1, 5)
    assert _err(run_executor(lin.data, mutant="no_relu_grad")["weights"], lin.truth["W"]) < 1e-12
    deep = _prompt(2, 5)
    assert _err(run_executor(deep.data, mutant="no_relu_grad")["weights"], deep.truth["W"]) > 1e-4
    one = _prompt(2, 1)  # one step: the latest weights are the prompt's
    assert _err(run_executor(one.data, mutant="stale_weights")["weights"], one.truth["W"]) < 1e-12
    assert _err(run_executor(deep.data, mutant="stale_weights")["weights"], deep.truth["W"]) > 1e-4


def test_single_pass_equals_gd_and_counts():
    inst = _prompt(2, 3)
    out = single_pass(inst.data)
    assert _err(out["weights"], inst.truth["W"]) < 1e-12
    assert out["n_layers"] == (2 * 2 + 4) * 3
    shapes = [w.shape for w in inst.data["W0"]]  # (5, 4), (1, 6)
    assert token_width(3, shapes) == 4 + 1 + 6 + 1 + 6 + 26
    assert out["attn_flops"] == out["n_layers"] * 12 * 12 * 4 * out["width"]


def test_dataset_is_seeded_and_hides_the_test_set():
    a, b = _prompt(2, 3, seed=5), _prompt(2, 3, seed=5)
    np.testing.assert_array_equal(a.data["X"], b.data["X"])
    assert "y_test" not in a.data and "y_test" in a.truth
    np.testing.assert_allclose(forward(a.data["W0"], a.data["X"])[-1].shape, (1, 12))
    assert _err(gd(a.data["W0"], a.data["X"], a.data["y"], a.data["lr"], 3), a.truth["W"]) == 0


# -- weight prediction ------------------------------------------------------------------------
def test_cot_batch_targets_are_next_iterates():
    data = InContextLinearRegression(n_test=4).make(0).data
    E, target = wp.make_batch(np.random.default_rng(1), data, 3, cot=True)
    assert E.shape == (3, 16 + 16, 13) and target.shape == (3, 16, 4)
    # the weight token w_t holds the iterate whose successor is the target at t
    X, y = E[:, :16, :4], E[:, :16, 4]
    W = linear_gd_iterates(X, y, data["lr"], 16)
    np.testing.assert_allclose(E[:, 16:, 5:9], W[:, :16])
    np.testing.assert_allclose(target, W[:, 1:])


def test_tiny_training_runs(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    monkeypatch.setenv("CLAIMBENCH_CHECKPOINTS", str(tmp_path))
    from claimbench.methods.cot_icgd import CoTWeightPredictor

    inst = InContextLinearRegression(n_test=3).make(0)
    for cls in (CoTWeightPredictor, wp.DirectWeightPredictor):
        out = cls(train_steps=3, d_model=16, n_heads=2).run(inst.data, 0)
        assert out["pred"].shape == (3, 17, 4) and np.all(out["pred"][:, 0] == 0)
        assert np.all(np.isfinite(out["pred"]))


def test_last_rows_equals_full_forward():
    # evaluation runs the last block at the last ROWS tokens only; the numbers must be those of
    # the full forward (issue 27), for every prompt length the rollout and direct passes use
    torch = pytest.importorskip("torch")
    from claimbench.baselines.tiny_transformer import TransformerConfig, build_model

    cfg = TransformerConfig(vocab_size=0, d_model=16, n_layers=2, n_heads=2, d_ff=32,
                            positions="none", out_dim=4, embed_dim=13)
    model = build_model(cfg, 0).eval()
    g = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for p in model.parameters():
            p.add_(0.3 * torch.randn(p.shape, generator=g))  # away from the near-zero init
        for T in (2, 17, 32):
            E = torch.randn(8, T, 13, generator=g)
            full = model(embeds=E)  # (8, T, 4)
            for r in (wp.ROWS, T):
                assert torch.equal(wp.last_rows(model, E, r), full[:, -min(r, T):])
