"""Unit tests for the multi-expert L2D surrogates (PiCCE, softmax CE, OvA) and the experts."""
from __future__ import annotations

import math

import numpy as np
import pytest

from claimbench.baselines.ova_l2d import OvAL2D, ova_l2d_loss
from claimbench.baselines.softmax_l2d import (SoftmaxL2D, defer_decision, init_mlp,
                                              mlp_backward, mlp_forward, softmax_l2d_loss,
                                              system_predictions)
from claimbench.benchmarks.picce_l2d import (BENCHMARK, acc_recovery_error, clf_acc, coverage,
                                             defer_gain, excess_error, prob_recovery_error,
                                             system_error)
from claimbench.datasets.deferral_experts import (DeferralExperts, DeferralRecovery,
                                                  expert_acc_given_x, expert_accuracies,
                                                  gmm_posterior, simulate_experts, specialties)
from claimbench.methods.picce_l2d import PiCCE, picce_loss, picce_select

LOSSES = (softmax_l2d_loss, ova_l2d_loss, picce_loss)


def _num_grad(f, g, h=1e-6):
    out = np.zeros_like(g)
    for i in np.ndindex(g.shape):
        old = g[i]
        g[i] = old + h
        up = f(g)
        g[i] = old - h
        dn = f(g)
        g[i] = old
        out[i] = (up - dn) / (2 * h)
    return out


# -- values on hand-computed examples ---------------------------------------------------------
# K = 2 classes, J = 2 experts, scores g = (0, 0, ln 2, 0): exp(g) = (1, 1, 2, 1), psi =
# (0.2, 0.2, 0.4, 0.2). Label y = 0.
G = np.array([[0.0, 0.0, math.log(2.0), 0.0]])
Y = np.array([0])


def test_softmax_value_by_hand():
    both = np.array([[1.0, 1.0]])
    # -log .2 - log .4 - log .2
    assert softmax_l2d_loss(G, Y, both, 2)[0] == pytest.approx(2 * math.log(5) + math.log(2.5))
    second = np.array([[0.0, 1.0]])
    assert softmax_l2d_loss(G, Y, second, 2)[0] == pytest.approx(2 * math.log(5))


def test_picce_value_by_hand_keeps_only_the_confident_correct_expert():
    both = np.array([[1.0, 1.0]])
    # Both correct: expert 0 has the larger defer score, so -log .2 - log .4.
    assert picce_loss(G, Y, both, 2)[0] == pytest.approx(math.log(5) + math.log(2.5))
    assert picce_select(G, both, 2).tolist() == [0]
    # Only expert 1 correct: it is picked even though expert 0 is more confident.
    second = np.array([[0.0, 1.0]])
    assert picce_select(G, second, 2).tolist() == [1]
    assert picce_loss(G, Y, second, 2)[0] == pytest.approx(2 * math.log(5))
    # No expert correct: plain cross-entropy -log .2.
    none = np.zeros((1, 2))
    assert picce_select(G, none, 2).tolist() == [-1]
    assert picce_loss(G, Y, none, 2)[0] == pytest.approx(math.log(5))


def test_ova_value_by_hand():
    # phi(z) = log(1 + e^-z). Targets: class 0 positive, class 1 negative, expert 0 positive,
    # expert 1 negative: phi(0) + phi(0) + phi(ln 2) + phi(0) = 3 ln 2 + ln(3/2).
    corr = np.array([[1.0, 0.0]])
    want = 3 * math.log(2) + math.log(1.5)
    assert ova_l2d_loss(G, Y, corr, 2)[0] == pytest.approx(want)


# -- limits -----------------------------------------------------------------------------------
def test_zero_experts_reduce_to_cross_entropy_and_plain_ova():
    rng = np.random.default_rng(0)
    g = rng.standard_normal((6, 4))
    y = rng.integers(0, 4, 6)
    empty = np.zeros((6, 0))
    lse = np.log(np.exp(g).sum(1))
    ce = float(np.mean(lse - g[np.arange(6), y]))
    assert softmax_l2d_loss(g, y, empty, 4)[0] == pytest.approx(ce)
    assert picce_loss(g, y, empty, 4)[0] == pytest.approx(ce)
    # OvA's documented limit is the one-vs-all logistic loss over the K classes.
    s = -np.ones_like(g)
    s[np.arange(6), y] = 1.0
    plain_ova = float(np.log1p(np.exp(-s * g)).sum(1).mean())
    assert ova_l2d_loss(g, y, empty, 4)[0] == pytest.approx(plain_ova)
    # An expert that is never correct also leaves the plain cross-entropy for CE and PiCCE.
    g1 = np.concatenate([g, rng.standard_normal((6, 1))], axis=1)
    wrong = np.zeros((6, 1))
    ce1 = float(np.mean(np.log(np.exp(g1).sum(1)) - g1[np.arange(6), y]))
    assert softmax_l2d_loss(g1, y, wrong, 4)[0] == pytest.approx(ce1)
    assert picce_loss(g1, y, wrong, 4)[0] == pytest.approx(ce1)


def test_picce_equals_softmax_with_one_expert():
    rng = np.random.default_rng(1)
    g = rng.standard_normal((8, 4))
    y = rng.integers(0, 3, 8)
    corr = (rng.random((8, 1)) < 0.5).astype(float)
    a, ga = picce_loss(g, y, corr, 3)
    b, gb = softmax_l2d_loss(g, y, corr, 3)
    assert a == pytest.approx(b)
    np.testing.assert_allclose(ga, gb)


@pytest.mark.parametrize("loss", LOSSES)
def test_loss_gradients_match_finite_differences(loss):
    rng = np.random.default_rng(2)
    g = rng.standard_normal((5, 3 + 3))
    y = rng.integers(0, 3, 5)
    corr = (rng.random((5, 3)) < 0.6).astype(float)
    ana = loss(g, y, corr, 3)[1]
    # PiCCE's selection is piecewise constant: away from ties it has no gradient of its own.
    num = _num_grad(lambda z: loss(z, y, corr, 3)[0], g.copy())
    np.testing.assert_allclose(ana, num, rtol=1e-5, atol=1e-8)


def test_mlp_backward_matches_finite_differences():
    rng = np.random.default_rng(3)
    p = init_mlp(4, 5, 3, rng)
    x = rng.standard_normal((6, 4))
    w = rng.standard_normal((6, 3))
    g, h = mlp_forward(p, x)
    grads = mlp_backward(p, x, h, w)
    for k in p:
        def f(v, k=k):
            q = dict(p)
            q[k] = v
            return float((mlp_forward(q, x)[0] * w).sum())
        np.testing.assert_allclose(grads[k], _num_grad(f, p[k].copy()), rtol=1e-5, atol=1e-7)


# -- deferral rule ----------------------------------------------------------------------------
def test_deferral_rule_is_the_argmax_over_classes_and_experts():
    g = np.array([[3.0, 1.0, 2.0, 0.0],   # class 0 wins
                  [0.0, 1.0, 0.5, 4.0],   # expert 1 wins
                  [0.0, 2.0, 5.0, 4.0]])  # expert 0 wins
    dec, clf = defer_decision(g, 2)
    assert dec.tolist() == [0, 3, 2]
    assert clf.tolist() == [0, 1, 1]
    m = np.array([[1, 1], [0, 0], [1, 0]])  # (n, J) expert predictions
    assert system_predictions(dec, m, 2).tolist() == [0, 0, 1]


def test_metrics_on_a_hand_made_output():
    from claimbench.api import Instance

    inst = Instance(data=None, truth={"y_test": np.array([0, 0, 1]), "n_classes": 2,
                                      "m_test": np.array([[1, 1], [0, 0], [1, 0]])})
    out = {"decision": np.array([0, 3, 2]), "clf_pred": np.array([0, 1, 1])}
    assert system_error(inst, out) == pytest.approx(0.0)
    assert clf_acc(inst, out) == pytest.approx(2 / 3)
    assert coverage(inst, out) == pytest.approx(1 / 3)
    # classifier alone wrong on 1 of 3, system on none: deferring gained 1/3
    assert defer_gain(inst, out) == pytest.approx(1 / 3)
    # deferring point 0 to expert 0 (wrong there) while the classifier was right: a loss
    hurt = {"decision": np.array([2, 3, 2]), "clf_pred": np.array([0, 0, 1])}
    assert system_error(inst, hurt) == pytest.approx(1 / 3)
    assert defer_gain(inst, hurt) == pytest.approx(-1 / 3)


# -- experts ----------------------------------------------------------------------------------
@pytest.mark.parametrize("acc", [0.95, 0.6])
def test_expert_accuracies_match_requested_values(acc):
    rng = np.random.default_rng(4)
    K, n = 10, 200_000
    y = rng.integers(0, K, n)
    spec = [np.array([0, 1, 2]), np.array([5, 6])]
    a = np.array([acc, 0.8])
    m = simulate_experts(y, spec, a, K, rng)  # (n, 2)
    for j in range(2):
        inside = np.isin(y, spec[j])
        # Binomial sd at n ~ 4e4 is < 0.003.
        assert (m[inside, j] == y[inside]).mean() == pytest.approx(a[j], abs=0.01)
        assert (m[~inside, j] == y[~inside]).mean() == pytest.approx(1 / K, abs=0.01)
        assert m[:, j].min() >= 0 and m[:, j].max() < K


def test_specialty_layouts():
    d = specialties("disjoint", 10, 4)
    assert sorted(np.concatenate(d).tolist()) == list(range(10))
    o = specialties("overlapping", 10, 4)
    counts = np.bincount(np.concatenate(o), minlength=10)
    assert counts.tolist() == [2] * 10
    v = specialties("varied", 10, 3)
    assert all(s.tolist() == [0, 1, 2, 3, 4] for s in v)
    with pytest.raises(ValueError):
        specialties("disjoint", 10, 11)


def test_pool_is_j_equally_good_specialists_on_one_region():
    p = specialties("pool", 10, 4)
    assert len(p) == 4 and all(s.tolist() == [0, 1, 2, 3, 4] for s in p)
    np.testing.assert_allclose(expert_accuracies("pool", 4, 0.9, 0.75), [0.9] * 4)
    with pytest.raises(ValueError):
        expert_accuracies("nope", 4, 0.9, 0.75)
    # Experts correct on a point in the region: J * a on average (the disjoint layout gives
    # at most one, whatever J), the count that splits CE's mass away from the classes.
    rng = np.random.default_rng(2)
    y = rng.integers(0, 5, 50_000)  # all in the region
    for J in (1, 4, 8):
        m = simulate_experts(y, specialties("pool", 10, J), np.full(J, 0.9), 10, rng)
        assert (m == y[:, None]).sum(1).mean() == pytest.approx(0.9 * J, abs=0.02)
    d = simulate_experts(y, specialties("disjoint", 10, 8), np.full(8, 0.9), 10, rng)
    inside = np.stack([np.isin(y, s) for s in specialties("disjoint", 10, 8)], 1)
    assert ((d == y[:, None]) & inside).sum(1).max() == 1


@pytest.mark.parametrize("J", [1, 4, 8])
def test_ce_minimizer_class_share_shrinks_with_pool_size(J):
    # Expected CE loss on one point of class 0 with J experts each correct w.p. a: the loss
    # is linear in the correctness weights, so feeding their mean a gives the expectation;
    # its minimiser over psi is (1, 0.., a, .., a) / (1 + J a): the classes keep 1 / (1 + J a).
    K, a = 3, 0.9
    g = np.zeros((1, K + J))
    corr = np.full((1, J), a)
    for _ in range(5000):
        g -= 2.0 * softmax_l2d_loss(g, np.array([0]), corr, K)[1]
    psi = np.exp(g - g.max())
    psi /= psi.sum()
    assert psi[0, :K].sum() == pytest.approx(1 / (1 + J * a), abs=1e-3)
    np.testing.assert_allclose(psi[0, K:], a / (1 + J * a), atol=1e-3)


@pytest.mark.parametrize("base", ["digits", "gmm"])
def test_dataset_instance_hides_test_truth(base):
    ds = DeferralExperts(base=base, setting="varied", num_experts=3, n_train=200, n_test=100)
    inst = ds.make(5)
    d, t = inst.data, inst.truth
    assert d["m_train"].shape == (d["x_train"].shape[0], 3)
    assert t["m_test"].shape == (d["x_test"].shape[0], 3)
    assert t["y_test"].shape[0] == d["x_test"].shape[0]
    assert not {"y_test", "m_test"} & set(d)
    np.testing.assert_allclose(t["expert_acc"], [0.95, 0.85, 0.75])
    again = ds.make(5)
    np.testing.assert_array_equal(again.data["m_train"], d["m_train"])


# -- recovery and consistency (issue 30) ------------------------------------------------------
def test_gmm_posterior_and_expert_accuracy_given_x_by_hand():
    means = np.array([[0.0], [2.0]])
    x = np.array([[1.0], [0.0]])
    post = gmm_posterior(x, means)
    # Midpoint: 1/2 each; at mean 0: odds e^{-0} : e^{-2}.
    np.testing.assert_allclose(post[0], [0.5, 0.5])
    np.testing.assert_allclose(post[1], [1 / (1 + np.exp(-2)), np.exp(-2) / (1 + np.exp(-2))])
    # Expert 0 knows class 0 (a = 0.9), expert 1 knows nothing (1/K = 0.5 everywhere).
    acc = expert_acc_given_x(post, [np.array([0]), np.array([], dtype=int)], np.array([.9, .7]))
    np.testing.assert_allclose(acc[0], [0.5 * 0.9 + 0.5 * 0.5, 0.5])
    np.testing.assert_allclose(acc[:, 1], 0.5)


def test_softmax_ratio_estimates_expert_accuracy_at_the_ce_minimiser():
    # psi = (P(.|x), a_1, a_2) / (1 + a_1 + a_2) is CE's minimiser; the ratio returns a_j.
    p_cls, a = np.array([0.7, 0.3]), np.array([0.9, 0.4])
    psi = np.concatenate([p_cls, a]) / (1 + a.sum())
    g = np.log(psi)[None] + 3.0  # (1, K+J), any shift
    np.testing.assert_allclose(SoftmaxL2D().expert_acc_hat(g, 2), a[None])
    np.testing.assert_allclose(OvAL2D().expert_acc_hat(np.array([[5.0, 0.0, 0.0]]), 2),
                               [[0.5]])


def test_class_probabilities_are_recovered_at_the_minimiser_whatever_the_defer_targets():
    # psi = (P(.|x), t_1, t_2) / (1 + t_1 + t_2): CE's (t = a) or PiCCE's (t = one expert's
    # share) minimiser; renormalising the class outputs returns P(.|x) for any t.
    p_cls = np.array([0.6, 0.3, 0.1])
    for t in (np.array([0.9, 0.4]), np.array([0.95, 0.0])):
        psi = np.concatenate([p_cls, t]) / (1 + t.sum())
        g = np.log(np.maximum(psi, 1e-300))[None] - 1.0  # (1, K+J), any shift
        np.testing.assert_allclose(SoftmaxL2D().class_prob_hat(g, 3), p_cls[None])
        np.testing.assert_allclose(PiCCE().class_prob_hat(g, 3), p_cls[None])
    # OvA: sigmoid(g_k) = P(k|x) per class, renormalised (here they already sum to 1).
    z = np.log(p_cls / (1 - p_cls))  # logit
    np.testing.assert_allclose(OvAL2D().class_prob_hat(np.r_[z, 0.0][None], 3), p_cls[None])


def test_prob_recovery_error_by_hand():
    from claimbench.api import Instance

    inst = Instance(data={}, truth={"posterior": np.array([[0.8, 0.2], [0.4, 0.6]])})
    # TV: row 0 |.8-.6| -> 0.2, row 1 0 -> mean 0.1
    out = {"class_prob": np.array([[0.6, 0.4], [0.4, 0.6]])}
    assert prob_recovery_error(inst, out) == pytest.approx(0.1)
    assert prob_recovery_error(Instance(data={}, truth={}), out) is None
    assert prob_recovery_error(inst, {}) is None


def test_recovery_and_excess_metrics_by_hand():
    from claimbench.api import Instance

    truth = {"y_test": np.array([0, 1]), "m_test": np.array([[0], [0]]), "n_classes": 2,
             "posterior": np.array([[0.8, 0.2], [0.4, 0.6]]),
             "expert_acc_x": np.array([[0.9], [0.5]])}
    inst = Instance(data={}, truth=truth)
    out = {"decision": np.array([2, 1]), "acc_hat": np.array([[0.8], [0.5]])}
    assert acc_recovery_error(inst, out) == pytest.approx(0.05)
    # system: defers point 0 (expert says 0, right), predicts 1 on point 1 (right): error 0;
    # Bayes error mean(1 - max(.8, .9), 1 - max(.6, .5)) = (0.1 + 0.4) / 2.
    assert excess_error(inst, out) == pytest.approx(-0.25)
    plain = Instance(data={}, truth={k: truth[k] for k in ("y_test", "m_test", "n_classes")})
    assert acc_recovery_error(plain, out) is None and excess_error(plain, out) is None


def test_recovery_set_is_the_large_gmm_pool():
    inst = DeferralRecovery(n_train=300, n_test=200).make(0)
    t = inst.truth
    assert inst.data["m_train"].shape == (300, 4) and t["posterior"].shape == (200, 20)
    np.testing.assert_allclose(t["posterior"].sum(1), 1.0)
    # Equal experts: one accuracy per point, between 1/K (off the region) and a = 0.95.
    assert np.ptp(t["expert_acc_x"], axis=1).max() < 1e-12
    assert t["expert_acc_x"].min() >= 0.05 - 1e-12 and t["expert_acc_x"].max() <= 0.95 + 1e-12


# -- training and the benchmark -----------------------------------------------------------------
def test_training_learns_an_easy_problem():
    ds = DeferralExperts(base="gmm", setting="disjoint", num_experts=2, gmm_classes=4,
                         gmm_sep=4.0, n_train=400, n_test=400)
    inst = ds.make(0)
    for cls in (PiCCE, SoftmaxL2D, OvAL2D):
        out = cls(epochs=20).run(inst.data, 1)
        assert clf_acc(inst, out) > 0.9
        assert system_error(inst, out) < 0.1


def test_smoke_grid_runs():
    from claimbench.testing import run_grid_inline

    rows = run_grid_inline(BENCHMARK, "smoke")
    assert rows and all(r["status"] == "ok" for r in rows)
    for r in rows:
        for k in ("system_error", "clf_acc", "coverage"):
            assert 0.0 <= r["metrics"][k] <= 1.0
