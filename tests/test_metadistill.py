"""Tests for metadistill: the BBOB suite against closed forms and reference values, the
teachers on easy cases, the hand-written gradients against finite differences, and the
smoke grid."""
import math

import numpy as np
import pytest

from claimbench.baselines.cma_es import cma_trajectory
from claimbench.baselines.differential_evolution import _three_others, de_trajectory
from claimbench.baselines.learned_optimizer_original import (
    N_PARAMS, flatten, init_params, les_backward, les_reset, les_step, run_les, run_les_batch,
    unflatten)
from claimbench.datasets.bbob_functions import (
    IMPLEMENTED, BBOBTask, bbob_function, lam, legacy_rotation, log10_gap, t_asy, t_osz)
from claimbench.datasets.metabbo_transfer import TRAIN_FUNCTIONS, MetaBBOTransfer, sample_training_tasks
from claimbench.methods.metadistill import SSFT, align_next, distill_loss, select_best, soft_clip

# f(x) at x = (-3.5, -1.2, 0.3, 2.2, 4.1), d = 5, instance 1, computed with the `ioh` package
# (IOHexperimenter 0.4.2, which implements COCO's bbob suite); not a dependency of the project.
IOH_REF = {1: 140.66805567999998, 2: 6035228.590218701, 3: -313.090483454528, 4: 2524.8093565927243,
           5: 131.92359445036246, 6: 369845.7868547298, 7: 187.36455573417356, 8: 7315.789220573359,
           9: 72096.97533827188, 10: 2183954.597940364, 11: 4019988.638489178,
           12: 154811475.52563065, 13: 1927.8643900241593, 14: 43.04574032096328,
           15: 1183.560860711129, 16: 126.70445627143351, 17: 226.77774686918963,
           18: 535.5414002059952, 19: -65.14274251265371, 20: 20190.365016711312,
           23: 22.53131845096184, 24: 159.2711915080419}
IOH_XOPT_F3 = [-2.3408, 2.3, 2.2136, 0.728, 2.2992]  # ioh: f3, d = 5, instance 1
IOH_FOPT_F3 = -462.09


# -- BBOB suite --------------------------------------------------------------------------------
@pytest.mark.parametrize("fid", IMPLEMENTED)
@pytest.mark.parametrize("dim", [2, 5, 10])
def test_optimum_value_at_optimum(fid, dim):
    for inst in (1, 3):
        f = bbob_function(fid, dim, inst)
        assert f(f.x_opt) == pytest.approx(f.f_opt, abs=1e-8)
        assert np.all(np.abs(f.x_opt) <= 5.0)
        assert -1000.0 <= f.f_opt <= 1000.0 and round(f.f_opt, 2) == f.f_opt


@pytest.mark.parametrize("fid", IMPLEMENTED)
def test_optimum_is_a_local_minimum(fid):
    f = bbob_function(fid, 5, 2)
    rng = np.random.default_rng(fid)
    X = f.x_opt + 1e-3 * rng.standard_normal((200, 5))
    assert np.all(f(X) >= f.f_opt - 1e-9)


def test_values_match_ioh_reference():
    x = np.array([-3.5, -1.2, 0.3, 2.2, 4.1])
    for fid, ref in IOH_REF.items():
        assert bbob_function(fid, 5, 1)(x) == pytest.approx(ref, rel=1e-10, abs=1e-9), fid
    f3 = bbob_function(3, 5, 1)
    assert np.allclose(f3.x_opt, IOH_XOPT_F3) and f3.f_opt == IOH_FOPT_F3


def test_sphere_closed_form_and_batching():
    f = bbob_function(1, 4, 5)
    X = np.random.default_rng(0).uniform(-5, 5, (7, 4))
    assert np.allclose(f(X), np.sum((X - f.x_opt) ** 2, axis=1) + f.f_opt)
    assert f(X[2]) == pytest.approx(f(X)[2])


@pytest.mark.parametrize("dim", [2, 5, 13])
def test_rotations_are_orthogonal(dim):
    for seed in (1, 10001, 1000003):
        R = legacy_rotation(dim, seed)
        assert np.allclose(R @ R.T, np.eye(dim), atol=1e-12)
    assert not np.allclose(legacy_rotation(dim, 1), legacy_rotation(dim, 2))


def test_transformations():
    x = np.array([-2.0, -0.3, 0.0, 0.3, 1.0, 2.0])
    y = t_osz(x)
    assert y[2] == 0.0 and y[4] == pytest.approx(1.0) and np.all(np.diff(y) > 0)
    assert np.all(np.sign(y) == np.sign(x))
    z = t_asy(np.array([[-1.0, 2.0, 2.0]]), 0.5)
    assert z[0, 0] == -1.0 and z[0, 1] == pytest.approx(2.0 ** (1 + 0.25 * math.sqrt(2)))
    L = lam(100.0, 3)
    assert L[0] == 1.0 and L[-1] == pytest.approx(10.0)


def test_black_box_hides_the_optimum_and_counts_evaluations():
    inst = BBOBTask(fid=2, dim=3).make(42)
    bb = inst.data["f"]
    assert not hasattr(bb, "x_opt") and not hasattr(bb, "f_opt")
    bb(np.zeros((4, 3)))
    assert bb.n_evals == 4
    assert log10_gap(inst.truth["f_opt"] + 1e-3, inst.truth["f_opt"]) == pytest.approx(-3.0)
    assert log10_gap(inst.truth["f_opt"], inst.truth["f_opt"]) == -8.0


def test_training_functions_vanish_at_their_optimum():
    tasks = sample_training_tasks(4, np.random.default_rng(0))
    assert [t[0].name for t in tasks] == list(TRAIN_FUNCTIONS)
    for f, dim, lo, hi in tasks:
        x = f.offset + (1.0 if f.name == "scaled_rosenbrock" else 0.0)
        assert f(x[None, :])[0] == pytest.approx(0.0, abs=1e-12)
        assert f(x[None, :] + 0.5)[0] > 0.0 and np.all(np.abs(f.offset) <= hi)


def test_training_set_depends_on_split_only():
    a = MetaBBOTransfer(fid=1, dim=10, split=3).make(1).data["train"]
    b = MetaBBOTransfer(fid=7, dim=20, split=3).make(2).data["train"]
    c = MetaBBOTransfer(fid=1, dim=10, split=4).make(1).data["train"]
    assert a["key"] == b["key"] and a["seed"] == b["seed"] and a["key"] != c["key"]


# -- teachers ----------------------------------------------------------------------------------
def test_de_finds_sphere_optimum_5d():
    f = bbob_function(1, 5, 1)
    tr = de_trajectory(f, 5, -5.0, 5.0, popsize=30, generations=300, seed=0)
    assert tr["best_trace"][-1] - f.f_opt < 1e-6
    assert np.all(np.diff(tr["best_trace"]) <= 0)
    assert tr["X"].shape == (300, 30, 5) and tr["cov"].shape == (300, 5, 5)


def test_de_donor_indices_are_distinct():
    r = _three_others(6, np.random.default_rng(0))
    for i, row in enumerate(r):
        assert len(set(row)) == 3 and i not in row and np.all((0 <= row) & (row < 6))


def test_cma_trajectory_shapes_and_convergence():
    f = bbob_function(1, 4, 1)
    tr = cma_trajectory(f, 4, -5.0, 5.0, popsize=10, generations=40, seed=1)
    assert tr["X"].shape == (40, 10, 4) and tr["fit"].shape == (40, 10)
    assert tr["mean"].shape == (40, 4) and tr["cov"].shape == (40, 4, 4)
    assert np.all(np.abs(tr["X"]) <= 5.0)
    assert np.allclose(tr["fit"][7], f(tr["X"][7]))
    C = tr["cov"][-1]
    assert np.allclose(C, C.T) and np.all(np.linalg.eigvalsh(C) > 0)
    assert np.all(np.diff(tr["best_trace"]) <= 0) and tr["best_trace"][-1] - f.f_opt < 1e-3


# -- LES and the distillation loss -------------------------------------------------------------
def test_les_backward_matches_finite_differences():
    rng = np.random.default_rng(1)
    D, N = 4, 12
    p = init_params(rng, "torch")
    st = les_reset(D, -5, 5, rng)
    st.path_c, st.path_s, st.best = rng.normal(size=(D, 3)), rng.normal(size=(D, 3)), 0.3
    X, fit = rng.uniform(-5, 5, (N, D)), rng.normal(size=N)
    gm, gs = rng.normal(size=D), rng.normal(size=D)

    def loss(vec):
        new, _ = les_step(unflatten(vec), st, X, fit, -5, 5)
        return gm @ new.mean + gs @ new.sigma

    _, cache = les_step(p, st, X, fit, -5, 5)
    analytic = flatten(les_backward(p, cache, gm, gs))
    v = flatten(p)
    numeric = np.array([(loss(v + 1e-6 * e) - loss(v - 1e-6 * e)) / 2e-6 for e in np.eye(N_PARAMS)])
    assert np.allclose(analytic, numeric, atol=1e-6 * max(1.0, np.abs(numeric).max()))


@pytest.mark.parametrize("name", list(TRAIN_FUNCTIONS))
def test_run_les_batch_is_run_les_in_turn_bit_for_bit(name):
    # meta-training's lockstep rollouts must give exactly the sequential runs' best values and
    # leave the generator where the sequential runs leave it (a known answer: run_les)
    rng = np.random.default_rng(4)
    f, dim, lo, hi = next(t for t in sample_training_tasks(5, rng) if t[0].name == name)
    cands = [unflatten(np.clip(rng.uniform(-1.0, 1.0, N_PARAMS) * sc, -1.0, 1.0))
             for sc in (0.1, 0.5, 1.0, 3.0, 10.0)]
    r1, r2 = np.random.default_rng(5), np.random.default_rng(5)
    seq = np.array([run_les(p, f, dim, lo, hi, 16, 16 * 21, r1)["best_f"] for p in cands])
    lock = run_les_batch(cands, f, dim, lo, hi, 16, 16 * 21, r2)
    assert np.array_equal(seq, lock)
    assert len(set(seq.tolist())) > 1  # the candidates differ, so the rows are not one run copied
    assert r1.random() == r2.random()


@pytest.mark.parametrize("scale", [0.1, 3.0, 30.0])
def test_distill_loss_gradient_matches_finite_differences(scale):
    rng = np.random.default_rng(3)
    N, D = 10, 3
    cand = rng.normal(size=(N, D)) * [1, 2, 0.5] * scale + [0.3, -2, 1]
    A = rng.normal(size=(D, D))
    cov_q, mu_q = A @ A.T + 0.1 * np.eye(D), rng.normal(size=D) * scale
    loss, _, g = distill_loss(cand, mu_q, cov_q)
    assert loss > 0
    num = np.zeros_like(cand)
    for idx in np.ndindex(cand.shape):
        e = np.zeros_like(cand)
        e[idx] = 1e-6
        num[idx] = (distill_loss(cand + e, mu_q, cov_q)[0] - distill_loss(cand - e, mu_q, cov_q)[0]) / 2e-6
    assert np.allclose(g, num, atol=1e-6 * max(1.0, np.abs(num).max()))


def test_distill_loss_is_zero_on_the_teacher_gaussian_and_soft_clipped():
    cand = np.random.default_rng(0).normal(size=(20, 3)) * 4.0
    mu, cov = cand.mean(0), np.cov(cand.T)
    loss, kl, g = distill_loss(cand, mu, cov)
    assert loss == pytest.approx(0.0, abs=1e-10) and np.allclose(g, 0.0, atol=1e-8)
    assert soft_clip(10.0, 10.0)[0] == 10.0 and soft_clip(10.0 * math.e, 10.0)[0] == pytest.approx(20.0)
    assert distill_loss(cand, mu + 1e3, cov * 1e-6)[0] < distill_loss(cand, mu + 1e3, cov * 1e-6)[1]


def test_next_alignment_and_best_per_interval_selection():
    assert [align_next(g, 10, 25) for g in (0, 9, 10, 19, 20, 24)] == [9, 9, 19, 19, 24, 24]
    G = 20
    a = {"mean": np.zeros((G, 2)), "cov": np.tile(np.eye(2), (G, 1, 1)),
         "best": np.r_[np.full(10, 1.0), np.full(10, 5.0)]}
    b = {"mean": np.ones((G, 2)), "cov": np.tile(np.eye(2), (G, 1, 1)),
         "best": np.r_[np.full(10, 2.0), np.full(10, 3.0)]}
    sel = select_best({"a": a, "b": b}, 10)
    assert sel["picked"] == ["a", "b"]
    assert np.all(sel["mean"][:10] == 0.0) and np.all(sel["mean"][10:] == 1.0)


def test_ssft_updates_the_weights_and_respects_the_budget():
    rng = np.random.default_rng(0)
    p = init_params(rng)
    f = bbob_function(1, 5, 1)
    hook = SSFT(1, 1e-2, -5.0, 5.0)
    out = run_les(p, f, 5, -5.0, 5.0, 8, 8 * 6, rng, on_step=hook)
    assert out["evals"][-1] == 48 and len(out["best_trace"]) == 6
    assert not np.allclose(flatten(out["params"]), flatten(p))


# -- the benchmark -----------------------------------------------------------------------------
def test_smoke_grid_runs():
    from claimbench.benchmarks.metadistill import BENCHMARK
    from claimbench.testing import run_grid_inline

    rows = run_grid_inline(BENCHMARK, "smoke")
    control = [r for r in rows if r["cell"].dataset.cls.name == "metabbo_control"]
    bbob = [r for r in rows if r not in control]
    assert bbob and all(r["status"] == "ok" for r in bbob)
    for r in bbob:
        assert -8.0 <= r["metrics"]["log10_gap"] < 12.0
        assert r["metrics"]["control_steps_last"] is None
    # the SSFT variants and the LGA students (c4, c5: BBOB only) do not apply to the control
    # task; the rest score steps in [0, 256]
    assert {r["cell"].method.label for r in control if r["status"] == "not_applicable"} == {
        "metadistill_ssft_j1", "metadistill_ssft_j1[mutant=ssft_ascent]", "metadistill_lga",
        "lga_original", "lga_original_code"}
    ok = [r for r in control if r["status"] == "ok"]
    assert len(ok) == 5
    for r in ok:
        assert 0.0 <= r["metrics"]["control_steps_last"] <= 256.0
        assert r["metrics"]["log10_gap"] is None and -256.0 <= r["metrics"]["control_gain"] <= 256.0
    trained = [r for r in rows if r["cell"].method.label == "metadistill" and r["status"] == "ok"]
    assert len({r["outputs"]["train_time_s"] for r in trained}) == 1  # one training per split
    meta = [r for r in rows if r["cell"].method.label.startswith("les_original")]
    assert len(meta) == 6 and len({r["outputs"]["train_time_s"] for r in meta}) == 1  # one meta-run
    lga = [r for r in bbob if r["cell"].method.label.startswith("lga_original")]
    assert len(lga) == 4 and len({r["outputs"]["train_time_s"] for r in lga}) == 1
