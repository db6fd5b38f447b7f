"""Unit tests for CARE, the threshold-set baselines and the drifting interaction stream."""
from __future__ import annotations

import math

import numpy as np
import pytest

from claimbench.baselines.fixed_topk import FixedTopK, topk_sets
from claimbench.baselines.online_threshold_update import OnlineThresholdUpdate
from claimbench.baselines.static_calibration import (StaticCalibration, conformal_threshold,
                                                     hoeffding_threshold, threshold_sets,
                                                     true_in_set)
from claimbench.benchmarks.care_recsys import BENCHMARK, max_phase_risk, violation_rate
from claimbench.datasets.drifting_interactions import DriftingInteractions
from claimbench.methods.care_recsys import (CARE, segment_starts, shift_scores, size_weights,
                                            vote)

TINY = dict(n_users=40, n_items=150, n_backbones=3, steps_pre=3, steps_drift=3, steps_post=4)


# -- split conformal: finite-sample coverage on exchangeable data ----------------------------
@pytest.mark.parametrize("alpha,n", [(0.1, 19), (0.2, 9), (0.1, 50)])
def test_split_conformal_coverage_is_at_least_one_minus_alpha(alpha, n):
    # Continuous iid scores: coverage is exactly ceil((n+1)(1-alpha)) / (n+1) >= 1 - alpha.
    rng = np.random.default_rng(0)
    trials = 6000
    s = rng.random((trials, n + 1))  # (trials, n+1): n calibration points + 1 test point
    cover = np.array([s[i, -1] >= conformal_threshold(s[i, :-1], alpha) for i in range(trials)])
    exact = math.ceil((n + 1) * (1 - alpha)) / (n + 1)
    se = math.sqrt(exact * (1 - exact) / trials)
    assert exact >= 1 - alpha
    assert abs(cover.mean() - exact) < 4 * se


def test_split_conformal_sets_cover_on_exchangeable_candidate_lists():
    # Sets of the threshold form over candidate lists; rows iid, scores with ties (discrete).
    rng = np.random.default_rng(1)
    alpha, n, C, trials = 0.2, 24, 6, 3000
    covered = 0
    for _ in range(trials):
        scores = rng.integers(0, 5, (n + 1, C)) / 4.0  # (n+1, C) discrete scores in [0, 1]
        y = rng.integers(0, C, n + 1)  # (n+1,)
        lam = conformal_threshold(scores[np.arange(n), y[:n]], alpha)
        covered += bool(true_in_set(threshold_sets(scores[-1:], lam), y[-1:])[0])
    # Ties only add coverage: the mean must clear 1 - alpha up to Monte Carlo error.
    assert covered / trials >= 1 - alpha - 4 * math.sqrt(alpha * (1 - alpha) / trials)


def test_conformal_threshold_by_hand():
    s = np.array([0.9, 0.1, 0.5, 0.7])  # r = -s sorted: -0.9, -0.7, -0.5, -0.1
    assert conformal_threshold(s, 0.4) == pytest.approx(0.5)  # ceil(5 * 0.6) = 3rd -> 0.5
    assert conformal_threshold(s, 0.1) == -np.inf  # ceil(5 * 0.9) = 5 > n: every candidate


def test_hoeffding_threshold_by_hand():
    # n = 1000 true-item scores evenly spread on [0, 1) and a single candidate per row. The
    # miss rate of lambda is the fraction of true scores below lambda = lambda (on the grid).
    n = 1000
    scores = (np.arange(n) / n)[:, None]  # (n, 1)
    y = np.zeros(n, dtype=int)
    alpha, delta = 0.2, 0.05
    target = alpha - math.sqrt(math.log(2 * 101 / delta) / (2 * n))  # 0.2 - 0.0644
    lam = hoeffding_threshold(scores, y, alpha, delta, 101)
    assert lam == pytest.approx(math.floor(target * 100) / 100)
    # Unreachable target (alpha below the correction): the rule falls back to lambda = 0.
    assert hoeffding_threshold(scores, y, 0.05, delta, 101) == 0.0


def test_threshold_sets_cap_keeps_the_top_scores():
    s = np.array([[0.9, 0.8, 0.3, 1.0, 0.5]])
    assert threshold_sets(s, 0.4).tolist() == [[True, True, False, True, True]]
    assert threshold_sets(s, 0.4, max_size=2).tolist() == [[True, False, False, True, False]]


# -- fixed top-K ---------------------------------------------------------------------------
def test_fixed_topk_sets_have_size_k():
    rng = np.random.default_rng(2)
    s = rng.random((7, 30))
    for k in (1, 5, 10):
        sets = topk_sets(s, k)
        assert (sets.sum(-1) == k).all()
        assert (s[sets].reshape(7, k).min(1) >= np.sort(s, 1)[:, -k]).all()
    inst = DriftingInteractions(**TINY).make(0)
    out = FixedTopK(k=10).run(inst.data, 0)
    assert (out["sets"].sum(-1) == 10).all()


# -- CARE pieces ---------------------------------------------------------------------------
def test_shift_scores_by_hand():
    L = np.array([[0.2, 0.3], [0.4, 0.8]])  # (steps, M): gaps 0.1 then 0.4
    sc = shift_scores(L, now=1, starts=np.array([0, 1]))  # (M, K)
    eps = 1e-8
    cov = abs(math.log((0.4 + eps) / (0.1 + eps)))
    conc0 = math.log((0.2 + 0.4 + eps) / (0.2 + 0.4 + eps))  # member 0 is the best
    conc1 = math.log((0.3 + 0.8 + eps) / (0.2 + 0.4 + eps))
    assert sc[0, 0] == pytest.approx(cov + conc0)
    assert sc[1, 0] == pytest.approx(cov + conc1)
    assert sc[0, 1] == pytest.approx(0.0, abs=1e-12)  # start = now: no covariate shift
    assert sc[1, 1] == pytest.approx(math.log((1.6 + eps) / (0.8 + eps)))


def _planted_losses(T=40, shift_at=20, seed=0):
    rng = np.random.default_rng(seed)
    base = np.array([0.20, 0.21, 0.23])  # small, stable gaps between three backbones
    after = np.array([0.45, 0.60, 0.80])  # after the shift the backbones separate
    L = np.where(np.arange(T)[:, None] < shift_at, base, after)  # (T, 3)
    return L + 1e-4 * rng.standard_normal((T, 3))


def test_localization_detects_a_planted_abrupt_shift_within_a_few_steps():
    L = _planted_losses()
    seg = np.zeros(3, dtype=int)
    found = {}
    for now in range(L.shape[0]):
        seg = segment_starts(L[:now + 1], now, seg, tau=5.0, gamma=2.0)
        if now < 20:
            assert (seg < 20).all()
        elif not found and (seg >= 20).all():
            found["at"] = now
    assert "at" in found and found["at"] <= 22
    assert (seg >= 20).all() and (seg <= 22).all()  # the start stays at the change point


def test_localization_at_the_code_temperature_keeps_the_long_segment():
    # With the repo's temperature tau = alpha = 0.1 the length factor (len)^2 dominates: the
    # same shift (cov ~ log 20 = 3) cannot beat 2 log(21/1) right after it.
    L = _planted_losses()
    seg = np.zeros(3, dtype=int)
    for now in range(23):
        seg = segment_starts(L[:now + 1], now, seg, tau=0.1, gamma=2.0)
    assert (seg == 0).all()


def test_segment_start_never_moves_back():
    rng = np.random.default_rng(3)
    L = rng.random((30, 4))
    seg = np.zeros(4, dtype=int)
    for now in range(30):
        new = segment_starts(L[:now + 1], now, seg, tau=3.0, gamma=2.0)
        assert (new >= seg).all() and (new <= now).all()
        seg = new


def test_size_weights_and_vote_by_hand():
    w = size_weights(np.array([10.0, 20.0]), eta=0.5, scale=25.0)
    r = math.exp(-0.5 * 10 / 25) / (math.exp(-0.5 * 10 / 25) + math.exp(-0.5 * 20 / 25))
    assert w == pytest.approx([r, 1 - r])
    sets = np.array([[[1, 1, 0, 0]], [[1, 0, 1, 0]], [[0, 1, 1, 1]]], dtype=bool)  # (3, 1, 4)
    out = vote(sets, np.array([0.5, 0.3, 0.2]), 0.5)
    assert out.tolist() == [[True, True, False, False]]  # supports .8, .7, .5, .2


def test_care_single_backbone_is_the_cumulative_online_update():
    # With one backbone cov = conc = 0, so every segment starts at 0: CARE's update is the
    # cumulative-window online update with the Hoeffding start and the same freezing.
    inst = DriftingInteractions(**{**TINY, "n_backbones": 1}).make(4)
    a = CARE().run(inst.data, 0)
    b = OnlineThresholdUpdate(window="cumulative", init="hoeffding", freeze_every=5).run(
        inst.data, 0)
    assert np.array_equal(a["sets"], b["sets"])


def test_care_constituent_sets_follow_its_threshold_trace():
    inst = DriftingInteractions(**TINY).make(5)
    out = CARE(aggregate=False, backbone=1).run(inst.data, 0)
    lam = np.array(out["traces"]["lambda_vs_step"]["y"])  # (T,)
    scores = inst.truth["scores"][:, 1]  # (T, n, C)
    assert np.array_equal(out["sets"], threshold_sets(scores, lam[:, None], 50))


def test_care_lowers_its_threshold_when_sets_miss():
    # After a 90-degree shift the frozen backbones carry no signal and every member misses
    # often: the thresholds must fall (sets grow) relative to the pre-drift steps.
    kw = dict(n_users=300, n_backbones=3, steps_pre=6, steps_drift=2, steps_post=6,
              drift_deg=0.0, shift_deg=90.0, alpha=0.3)
    inst = DriftingInteractions(**kw).make(6)
    out = CARE(aggregate=False).run(inst.data, 0)
    lam = np.array(out["traces"]["lambda_vs_step"]["y"])  # (T,)
    sizes = out["sets"].sum(-1).mean(1)  # (T,)
    assert lam[-1] < lam[8] - 0.05
    assert sizes[-1] > sizes[3:6].mean() + 3


# -- the stream and the metrics ------------------------------------------------------------
def test_stream_reveals_truth_only_after_sets_are_committed():
    inst = DriftingInteractions(**TINY).make(0)
    sess = inst.data["stream"].session()
    with pytest.raises(RuntimeError):
        sess.scores(1)
    sets = np.ones(sess.scores(0).shape[1:], dtype=bool)
    y = sess.feedback(0, sets)
    assert np.array_equal(y, inst.truth["true_pos"][0])
    with pytest.raises(RuntimeError):
        sess.feedback(0, sets)
    assert sess.scores(1).shape == inst.truth["scores"][1].shape


def test_dataset_shapes_phases_and_normalisation():
    d = DriftingInteractions(**TINY)
    a, b = d.make(7), d.make(7)
    S = a.truth["scores"]  # (T, M, n, C)
    assert S.shape == (10, 3, 40, 51)
    assert a.truth["phase"].tolist() == [0] * 3 + [1] * 3 + [2] * 4
    assert np.allclose(S.max(-1), 1.0) and np.allclose(S.min(-1), 0.0)
    assert np.array_equal(S, b.truth["scores"])  # seeded
    assert not np.array_equal(S, d.make(8).truth["scores"])


def test_backbones_degrade_after_the_shift_and_are_ordered_by_quality():
    inst = DriftingInteractions(n_users=300, steps_pre=4, steps_drift=2, steps_post=4).make(0)
    S, y, ph = inst.truth["scores"], inst.truth["true_pos"], inst.truth["phase"]
    st = np.take_along_axis(S, y[:, None, :, None].repeat(S.shape[1], 1), axis=3)[..., 0]
    rank = (S > st[..., None]).sum(-1) / (S.shape[-1] - 1)  # (T, M, n) normalised rank loss
    pre, post = rank[ph == 0].mean((0, 2)), rank[ph == 2].mean((0, 2))  # (M,)
    assert (post > pre + 0.05).all()
    assert pre[0] < pre[-1]


def test_metrics_on_a_hand_built_record():
    class Inst:
        truth = {"true_pos": np.array([[0, 1], [0, 0], [1, 1]]), "phase": np.array([0, 1, 2]),
                 "alpha": 0.1}
    sets = np.array([[[1, 0], [0, 1]], [[0, 1], [1, 0]], [[0, 1], [1, 0]]], dtype=bool)
    # per-step miss: 0, 0.5, 0.5
    assert max_phase_risk(Inst, {"sets": sets}) == pytest.approx(0.5)
    assert violation_rate(Inst, {"sets": sets}) == pytest.approx(2 / 3)


def test_static_calibration_never_changes_its_threshold():
    inst = DriftingInteractions(**TINY).make(2)
    out = StaticCalibration().run(inst.data, 0)
    scores = inst.truth["scores"][:, 0]
    assert np.array_equal(out["sets"], threshold_sets(scores, out["lambda"], 50))


def test_smoke_grid_runs():
    from claimbench.testing import run_grid_inline

    rows = run_grid_inline(BENCHMARK, "smoke")
    assert rows and all(r["status"] == "ok" for r in rows)
    for r in rows:
        for v in r["metrics"].values():
            assert v is None or math.isfinite(v)
