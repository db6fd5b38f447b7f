"""Unit tests of Diag-CFM (methods/diag_cfm.py), its baselines and the inverse-design data."""
import numpy as np
import pytest

from claimbench.baselines.affine_coupling_inn import AffineCouplingINN, mmd, torch_classes
from claimbench.baselines.conditional_flow_matching import (ConcatCFM, integrate, ordering_perm,
                                                           torch_classes as fm_classes)
from claimbench.benchmarks.diag_cfm import BENCHMARK, _aurc_ratio, _rte, _select_gain
from claimbench.datasets.inverse_design import AnalyticInverse, DigitStatistics, forward
from claimbench.methods.diag_cfm import DiagCFM

torch = pytest.importorskip("torch")


@pytest.fixture(autouse=True, scope="module")
def _ckpt(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("CLAIMBENCH_CHECKPOINTS", str(tmp_path_factory.mktemp("ckpt")))
    yield
    mp.undo()


def test_forward_analytic_by_hand():
    x = np.array([[0.5, -0.5, 1.0, 0.0]])
    y = forward("analytic", x)
    want = [np.mean(np.sin(np.pi * x)), np.mean(x ** 2),
            (0.5 * -0.5 + -0.5 * 1.0 + 1.0 * 0.0) / 3]
    np.testing.assert_allclose(y[0], want)
    # designs outside the box are clipped before evaluation
    np.testing.assert_allclose(forward("analytic", 3 * x),
                               forward("analytic", np.clip(3 * x, -1, 1)))


def test_forward_digits_centroid_by_hand():
    x = -np.ones((1, 64))
    x[0, 8 * 2 + 5] = 1.0  # one lit pixel at row 2, column 5
    np.testing.assert_allclose(forward("digits", x)[0], [1 / 64, 2.0, 5.0])


def test_datasets_ood_targets_outside_training_range():
    for ds in (AnalyticInverse(P=8, n_train=256), DigitStatistics()):
        d = ds.make(3).data
        lo, hi = d["y"].min(0), d["y"].max(0)
        outside = (d["y_ood"] < lo) | (d["y_ood"] > hi)
        assert outside.sum(1).min() >= 1
        inside = (d["y_targets"] >= lo - 1e-9) & (d["y_targets"] <= hi + 1e-9)
        assert inside.mean() > 0.95
        np.testing.assert_allclose(forward(d["task"], ds.make(3).truth["x_test"]), d["y_targets"])


def test_ordering_perm_is_shared_and_identity_at_zero():
    np.testing.assert_array_equal(ordering_perm(0, 7), np.arange(7))
    np.testing.assert_array_equal(ordering_perm(2, 7), ordering_perm(2, 7))
    assert sorted(ordering_perm(1, 7)) == list(range(7))


def test_integrate_exact_for_constant_velocity():
    class Const(torch.nn.Module):
        def forward(self, z, t):
            return torch.ones_like(z) * 2.0

    z = integrate(Const(), np.zeros((3, 2)), 0.0, 1.0, 4)
    np.testing.assert_allclose(z, 2.0, atol=1e-6)
    np.testing.assert_allclose(integrate(Const(), z, 1.0, 0.0, 4), 0.0, atol=1e-6)


def test_inn_is_invertible():
    net = torch_classes()["INN"](6, 3, 16, 2.0, 0)
    for p in net.parameters():  # leave the identity initialisation
        p.data.normal_(0, 0.2, generator=torch.Generator().manual_seed(1))
    x = torch.randn(5, 6, generator=torch.Generator().manual_seed(2))
    torch.testing.assert_close(net.inverse(net(x)), x, atol=1e-5, rtol=1e-5)


def test_mmd_zero_for_identical_and_positive_for_shifted():
    a = torch.randn(64, 3, generator=torch.Generator().manual_seed(0))
    assert abs(float(mmd(a, a))) < 1e-6
    assert float(mmd(a, a + 2.0)) > 0.1


def test_velocity_mlp_shapes():
    net = fm_classes()["VelocityMLP"](5, 8, 2)
    assert net(torch.zeros(4, 5), torch.zeros(4)).shape == (4, 5)


def _fit(mutant="", steps=200, width=32):
    d = AnalyticInverse(P=4, n_train=512, n_test=32, n_ood=32).make(0)
    m = DiagCFM(train_steps=steps, width=width, orderings=1, mutant=mutant, ode_steps=8)
    return d, m.run(d.data, 0)


def test_diag_cfm_learns_zero_anchor_and_scores_separate_ood():
    inst, out = _fit()
    # the label coordinates end near zero for in-range targets, far from it out of range
    assert np.median(out["zd"]) < 0.5 * np.median(out["ood_zd"])
    assert out["designs"].shape == (32, 8, 4)
    # trained designs beat uniform random designs of the box
    rand = np.random.default_rng(0).uniform(-1, 1, (32, 1, 4))
    assert np.median(_rte(inst, out["designs"][:, :1])) < np.median(_rte(inst, rand))


def test_random_score_mutant_same_designs_uninformative_scores():
    _, out = _fit()
    _, mut = _fit("random_score")  # same cached model, same noise: same designs
    np.testing.assert_allclose(mut["designs"], out["designs"])
    assert not np.allclose(mut["zd"], out["zd"])
    assert mut["zd"].min() >= 0 and mut["zd"].max() <= 1


def test_no_zero_anchor_mutant_keeps_labels_and_has_no_sc():
    _, out = _fit("no_zero_anchor", steps=20, width=8)
    assert np.isnan(out["sc"]).all()


def test_diag_cfm_permutation_equivariant_problem():
    """Permuting design coordinates of the data and un-permuting the designs gives the same
    distribution: with ordering r, the designs are returned in the original coordinates."""
    inst = AnalyticInverse(P=4, n_train=256, n_test=8, n_ood=8).make(1)
    out = DiagCFM(train_steps=20, width=16, orderings=2, ode_steps=4).run(inst.data, 0)
    assert len(out["designs_by_ordering"]) == 2
    assert out["designs_by_ordering"][1].shape == (8, 8, 4)


def test_cfm_concat_and_inn_run():
    inst = AnalyticInverse(P=5, n_train=256, n_test=8, n_ood=8).make(0)
    c = ConcatCFM(train_steps=10, width=16, orderings=2, ode_steps=4).run(inst.data, 0)
    assert c["designs"].shape == (8, 8, 5) and len(c["designs_by_ordering"]) == 2
    i = AffineCouplingINN(train_steps=10, width=16).run(inst.data, 0)
    assert i["designs"].shape == (8, 8, 5) and np.isfinite(i["designs"]).all()


def test_selection_and_aurc_metrics_on_a_known_case():
    inst = AnalyticInverse(P=4, n_train=256, n_test=16, n_ood=4).make(0)
    x = inst.truth["x_test"]
    rng = np.random.default_rng(0)
    designs = np.stack([x] + [rng.uniform(-1, 1, x.shape) for _ in range(3)], 1)  # exact first
    zd = np.tile([0.0, 1.0, 1.0, 1.0], (16, 1))  # the score points at the exact design
    out = {"designs": designs, "zd": zd}
    assert _select_gain(inst, out) == pytest.approx(1.0)
    # abstention ordered by the true error gives AURC below random order
    random_designs = np.stack([designs[:, 1]] * 2, 1)  # (16, 2, 4)
    out2 = {"designs": random_designs,
            "zd": np.c_[_rte(inst, random_designs)[:, 0], np.zeros(16)]}
    assert _aurc_ratio(inst, out2) < 1.0


def test_benchmark_declares_grids_and_claims():
    assert set(BENCHMARK.grids) == {"smoke", "quick", "full"}
    assert {c.id for c in BENCHMARK.claims} >= {"c1_lower_rte_than_cfm", "c4_cfm_order_sensitive"}


# -- round 4 (issue 28): the CFM ensemble (c9), the seeds variant (c12), the chance metric --------
def test_member_disagreement_known_answer():
    from claimbench.baselines.cfm_ensemble import member_disagreement

    d = np.zeros((2, 3, 4))
    d[1, 0] = 2.0  # members differ by 2 on every coordinate of point 0: variance 1
    np.testing.assert_allclose(member_disagreement(d), [1.0, 0.0, 0.0])


def test_cfm_ensemble_member0_is_cfm_concat_and_scores_disagreement():
    from claimbench.baselines.cfm_ensemble import CFMEnsemble

    inst = AnalyticInverse(P=5, n_train=256, n_test=8, n_ood=6).make(0)
    kw = {"train_steps": 30, "width": 16, "ode_steps": 4}
    single = ConcatCFM(orderings=1, **kw).run(inst.data, 0)
    ens = CFMEnsemble(members=3, **kw).run(inst.data, 0)
    # candidates are the single model's designs (member 0 = the cached single model, same noise)
    np.testing.assert_allclose(ens["designs"], single["designs"])
    assert ens["zd"].shape == (8, 8) and ens["ood_zd"].shape == (6,)
    assert (ens["zd"] > 0).all()  # members trained with other seeds disagree
    one = CFMEnsemble(members=1, **kw).run(inst.data, 0)
    np.testing.assert_allclose(one["zd"], 0.0)  # a single member has no disagreement


def test_diag_cfm_seeds_mode_refits_at_identity():
    inst = AnalyticInverse(P=4, n_train=256, n_test=8, n_ood=8).make(1)
    kw = {"train_steps": 20, "width": 16, "orderings": 2, "ode_steps": 4}
    perm = DiagCFM(**kw).run(inst.data, 0)
    seeds = DiagCFM(ordering_mode="seeds", **kw).run(inst.data, 0)
    # ordering 0 is the same model and draws; ordering 1 differs (another seed, not a permutation)
    np.testing.assert_allclose(seeds["designs_by_ordering"][0], perm["designs_by_ordering"][0])
    assert not np.allclose(seeds["designs_by_ordering"][1], perm["designs_by_ordering"][1])
    assert not np.allclose(seeds["designs_by_ordering"][1], seeds["designs_by_ordering"][0])
    with pytest.raises(ValueError):
        DiagCFM(ordering_mode="shuffle")


def test_rte_over_chance_known_cases():
    from claimbench.benchmarks.diag_cfm import _rte_over_chance

    inst = AnalyticInverse(P=4, n_train=256, n_test=16, n_ood=4).make(0)
    x = np.asarray(inst.data["x"], dtype=np.float64)
    rand = x[np.random.default_rng(0).integers(0, len(x), 16)][:, None, :]
    assert _rte_over_chance(inst, {"designs": rand}) == pytest.approx(1.0)  # chance itself
    exact = inst.truth["x_test"][:, None, :]
    assert _rte_over_chance(inst, {"designs": exact}) == pytest.approx(0.0, abs=1e-9)


def test_inn_checkpoint_hit_equals_training(tmp_path, monkeypatch):
    """issue 27: the INN trains through the checkpoint cache; a hit (loaded weights, history from
    the sidecar) gives the same designs and loss bit for bit as the training run, a changed
    training field trains afresh, and the global torch RNG advances alike on a hit."""
    monkeypatch.setenv("CLAIMBENCH_CHECKPOINTS", str(tmp_path))
    inst = AnalyticInverse(P=5, n_train=256, n_test=8, n_ood=8).make(0)
    m = AffineCouplingINN(train_steps=10, width=16)
    torch.manual_seed(0)
    first = m.run(inst.data, 0)
    after_miss = torch.rand(3)
    assert len(list(tmp_path.glob("*.safetensors"))) == 1
    torch.manual_seed(0)
    again = m.run(inst.data, 0)
    after_hit = torch.rand(3)
    assert len(list(tmp_path.glob("*.safetensors"))) == 1  # loaded, not trained again
    np.testing.assert_array_equal(first["designs"], again["designs"])
    assert first["train_loss"] == again["train_loss"]
    assert torch.equal(after_miss, after_hit)
    other = AffineCouplingINN(train_steps=11, width=16).run(inst.data, 0)
    assert len(list(tmp_path.glob("*.safetensors"))) == 2
    assert not np.array_equal(other["designs"], first["designs"])
