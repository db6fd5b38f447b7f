"""Tests for metadistill's second student (c5): LGA's operators on cases with a known answer,
the lockstep runner's budget and trace, the straight-through student's hard forward, and
that distillation moves its weights."""
import math

import numpy as np
import pytest

from claimbench.baselines.learned_ga_original import (
    LGA_N_PARAMS, LGA_SHAPES, LearnedGAOriginal, _ranks, _z, lga_unflatten, mra_sigma,
    run_lga_batch, selection_probs)
from claimbench.datasets.metabbo_control import MetaBBOControl
from claimbench.datasets.metabbo_transfer import MetaBBOTransfer, sample_training_tasks
from claimbench.methods.metadistill import MetaDistillLGA, _lga_start, _lga_torch_step, distill_lga


def _zero(B=1):
    return {k: np.zeros((B,) + s) for k, s in LGA_SHAPES.items()}


def test_lga_has_the_papers_640_weights_and_unflattens_in_order():
    assert LGA_N_PARAMS == 640
    W = lga_unflatten(np.arange(640.0))
    assert W["W_QP"][0, 0] == 0.0 and W["W_sigma"][-1, 0] == 639.0


def test_feature_transforms():
    x = np.array([[3.0, 1.0, 2.0, 10.0]])
    assert np.allclose(_ranks(x), [[1 / 6, -0.5, -1 / 6, 0.5]])
    z = _z(x)
    assert np.allclose(z, (x - x.mean()) / x.std(ddof=1))


def test_zero_weights_keep_rates_and_give_the_closed_form_selection():
    rng = np.random.default_rng(0)
    fP, sP = rng.normal(size=(1, 6)), rng.uniform(0.1, 1.0, (1, 6))
    # A = softmax(0) V = 0, so exp(0) = 1 leaves the drawn parents' rates unchanged
    assert np.allclose(mra_sigma(_zero(), fP, sP, np.array([0.0]), 1e-6, 10.0), sP)
    # zero logits against the constant 1 of "keep": keep e / (N + e), each child 1 / (N + e)
    M = selection_probs(_zero(), rng.normal(size=(1, 6)), rng.normal(size=(1, 6)))
    assert M.shape == (1, 6, 7)
    assert np.allclose(M[..., :6], 1 / (6 + math.e)) and np.allclose(M[..., 6], math.e / (6 + math.e))


def test_run_lga_batch_budget_trace_and_archive():
    tasks = sample_training_tasks(3, np.random.default_rng(1))
    f, dim, lo, hi = tasks[2]
    params = [lga_unflatten(v) for v in np.random.default_rng(2).uniform(-1, 1, (3, 640))]
    out = run_lga_batch(params, f, dim, lo, hi, 8, 8 * 11, np.random.default_rng(3))
    assert out["best_trace"].shape == (11, 3)
    assert np.all(np.diff(out["best_trace"], axis=0) <= 0)  # best so far never worsens
    assert np.all(out["best_f"] <= out["last_f"])


def test_straight_through_step_is_a_hard_selection_with_consistent_fitness():
    torch = pytest.importorskip("torch")
    f, dim, lo, hi = sample_training_tasks(4, np.random.default_rng(5))[0]
    rng = np.random.default_rng(6)
    Wt = {k: torch.tensor(rng.standard_normal(s) * 0.5, requires_grad=True) for k, s in LGA_SHAPES.items()}
    X, F, S, best = _lga_start(f, dim, lo, hi, 8, rng)
    gen = torch.Generator().manual_seed(0)
    X_new, F_new, S_new, best2 = _lga_torch_step(Wt, X, F, S, best, f, lo, hi, gen, 1.0, 1.0)
    # forward values are those of a hard selection: the stored fitness is f of the new archive
    assert np.allclose(np.asarray(f(X_new.detach().numpy())), F_new)
    assert best2 <= best and best2 <= F_new.min()
    X_new.sum().backward()
    assert all(torch.isfinite(w.grad).all() for w in Wt.values())
    assert any(float(w.grad.abs().sum()) > 0 for w in Wt.values())  # the weights get a gradient


def test_distillation_moves_the_lga_weights():
    sample = lambda rng: sample_training_tasks(3, rng)[:2]  # noqa: E731
    p0, _ = distill_lga(sample, 11, 8, 6, 3, 1, 1, 0.0, 0.0, 1.0, 10.0, ("cma_es",), "unit", 1.0, 1.0, 0.02)
    p1, info = distill_lga(sample, 11, 8, 6, 3, 1, 1, 5e-3, 0.0, 1.0, 10.0, ("cma_es",), "unit", 1.0, 1.0, 0.02)
    assert all(np.array_equal(p0[k], p1[k]) is False for k in ("W_sigma", "W_QM"))
    assert len(info["kl_by_epoch"]) == 1 and np.isfinite(info["kl_by_epoch"][0])


def test_lga_methods_do_not_apply_to_the_control_task():
    ctrl, bbob = MetaBBOControl(split=0), MetaBBOTransfer(split=0)
    for m in (MetaDistillLGA(), LearnedGAOriginal()):
        assert m.applies_to(ctrl) and m.applies_to(bbob) is None
