"""Unit tests for the CURVE scene-graph benchmark: generator, IRM penalty, equivariance, KL, metrics."""
from __future__ import annotations

import math

import numpy as np
import pytest

from claimbench.benchmarks.curve_scene_graph import (BENCHMARK, auroc,
                                                     expected_calibration_error)
from claimbench.datasets.synthetic_scene_graphs import (CLUTTER, WEATHER, SyntheticSceneGraphs,
                                                        make_split, motif_label)

torch = pytest.importorskip("torch")

from claimbench.baselines.message_passing_gnn import (as_tensors, gnn_logits, init_gnn,  # noqa: E402
                                                      irm_penalty, relational_layer)
from claimbench.methods.curve_scene_graph import (CURVE, kl_normal, normal_cdf,  # noqa: E402
                                                  prototype_invariance_penalty)


# -- generator ----------------------------------------------------------------------------------
def test_clean_label_is_the_motif():
    for split, strength in ((0, 0.98), (200, 0.1)):
        d = make_split(7, split, 60, strength)
        assert np.array_equal(motif_label(d["X"], d["A"], d["mask"]), d["y_clean"])


def test_label_ignores_spurious_cues():
    a = SyntheticSceneGraphs(n_train_per_env=40, n_test=50, k_shot=4).make(3)
    b = SyntheticSceneGraphs(n_train_per_env=40, n_test=50, k_shot=4,
                             env_strengths=(0.1, 0.2, 0.3), ood_strength=0.9).make(3)
    # same structure stream: same labels and invariant edges whatever the spurious strengths
    assert np.array_equal(a.data["train"]["y"], b.data["train"]["y"])
    assert np.array_equal(a.truth["y_ood_test"], b.truth["y_ood_test"])
    assert np.array_equal(a.truth["invariant_ood"], b.truth["invariant_ood"])
    assert not np.array_equal(a.data["train"]["X"][..., WEATHER], b.data["train"]["X"][..., WEATHER])
    # flipping the weather features and deleting the clutter edges leaves the label unchanged
    tr = a.data["train"]
    X = tr["X"].copy()
    X[..., WEATHER] *= -1
    A = np.where(tr["A"] == CLUTTER + 1, 0, tr["A"])
    assert np.array_equal(motif_label(X, A, tr["mask"]), motif_label(tr["X"], tr["A"], tr["mask"]))


def test_spurious_strength_is_realised():
    d_train = make_split(11, 0, 1000, 0.9)
    d_test = make_split(11, 200, 1000, 0.1)
    agree = lambda d: np.mean(d["s"] == 2 * d["y"] - 1)  # noqa: E731
    assert agree(d_train) == pytest.approx(0.9, abs=0.04)
    assert agree(d_test) == pytest.approx(0.1, abs=0.04)
    # the clutter edges are denser when s = +1
    clutter = (np.triu(d_train["A"] == CLUTTER + 1, 1)).sum((1, 2))
    assert clutter[d_train["s"] > 0].mean() > 2 * clutter[d_train["s"] < 0].mean()


# -- IRM penalty ---------------------------------------------------------------------------------
def test_irm_penalty_zero_for_invariant_optimum():
    # env 1: score log 3 and 3 of 4 positives (P = 3/4 = sigmoid(log 3)); env 2: score -log 2 and
    # 1 of 3 positives (P = 1/3). The score is the calibrated optimum in each environment, so the
    # gradient of each risk w.r.t. a scale on the logits vanishes.
    envs = [(math.log(3.0), [1, 1, 1, 0]), (-math.log(2.0), [1, 0, 0])]
    for phi, ys in envs:
        logits = torch.tensor([[0.0, phi]] * len(ys))
        y = torch.tensor(ys)
        assert float(irm_penalty(torch, logits, y).detach()) == pytest.approx(0.0, abs=1e-12)
        # a mis-scaled score is not optimal: closed form (mean((sigmoid(2 phi) - y) * 2 phi))^2
        want = (np.mean([(1 / (1 + math.exp(-2 * phi)) - t) * 2 * phi for t in ys])) ** 2
        got = float(irm_penalty(torch, 2 * logits, y).detach())
        assert got == pytest.approx(want, rel=1e-5) and got > 1e-3


# -- permutation equivariance ---------------------------------------------------------------------
def _permuted(split: dict, perm: np.ndarray) -> dict:
    return {"X": split["X"][:, perm], "A": split["A"][:, perm][:, :, perm], "mask": split["mask"][:, perm]}


def test_relational_layer_is_node_equivariant():
    g = torch.Generator().manual_seed(0)
    H = torch.randn(3, 6, 5, generator=g)
    adj = (torch.rand(3, 2, 6, 6, generator=g) < 0.4).float()
    W_self, W_rel, b = torch.randn(5, 4, generator=g), torch.randn(2, 5, 4, generator=g), torch.randn(4, generator=g)
    perm = torch.tensor([3, 0, 5, 1, 4, 2])
    out = relational_layer(torch, H, adj, W_self, W_rel, b)
    out_p = relational_layer(torch, H[:, perm], adj[:, :, perm][:, :, :, perm], W_self, W_rel, b)
    assert torch.allclose(out[:, perm], out_p, atol=1e-5)


def test_gnn_and_curve_graph_predictions_are_permutation_invariant():
    inst = SyntheticSceneGraphs(n_train_per_env=10, n_test=10, k_shot=4).make(0)
    split = inst.data["ood_test"]
    perm = np.random.default_rng(1).permutation(split["X"].shape[1])
    split_p = _permuted(split, perm)
    g = torch.Generator().manual_seed(0)
    p = init_gnn(torch, split["X"].shape[-1], 4, 8, 2, g)
    with torch.no_grad():
        a = gnn_logits(torch, p, *as_tensors(torch, split, 4))
        b = gnn_logits(torch, p, *as_tensors(torch, split_p, 4))
    assert torch.allclose(a, b, atol=1e-5)
    c = CURVE(hidden=8)
    tr = c._batch(torch, inst.data["train"], 4)
    pc = c._init(torch, split["X"].shape[-1], 4, g, tr["u"].numpy(), 0)
    with torch.no_grad():
        ha, pa = c._forward(torch, pc, c._batch(torch, split, 4), False, None)
        hb, pb = c._forward(torch, pc, c._batch(torch, split_p, 4), False, None)
    assert torch.allclose(ha, hb, atol=1e-5)
    assert np.isclose(np.sort(pa["p_open"].numpy()), np.sort(pb["p_open"].numpy()), atol=1e-6).all()


# -- KL and the CURVE pieces -----------------------------------------------------------------------
def test_kl_matches_closed_form_and_torch():
    from scipy.integrate import quad
    from scipy.stats import norm

    mu, s, mu0, s0 = 0.7, 0.4, -0.5, 1.3
    numeric = quad(lambda x: norm.pdf(x, mu, s) * (norm.logpdf(x, mu, s) - norm.logpdf(x, mu0, s0)),
                   -12, 12)[0]
    ours = float(kl_normal(torch, torch.tensor(mu), torch.tensor(math.log(s)), mu0, s0))
    assert ours == pytest.approx(numeric, rel=1e-6)
    assert ours == pytest.approx(math.log(s0 / s) + (s**2 + (mu - mu0) ** 2) / (2 * s0**2) - 0.5)
    ref = torch.distributions.kl_divergence(torch.distributions.Normal(mu, s),
                                            torch.distributions.Normal(mu0, s0))
    assert ours == pytest.approx(float(ref), rel=1e-5)
    assert float(kl_normal(torch, torch.tensor(0.0), torch.tensor(0.0))) == pytest.approx(0.0)


def test_gate_open_probability_is_normal_cdf():
    from scipy.stats import norm

    m, s = torch.tensor([1.0, -0.5, 2.0]), torch.tensor([0.5, 1.0, 4.0])
    assert np.allclose(normal_cdf(torch, m / s).numpy(), norm.cdf((m / s).numpy()), atol=1e-6)


def test_prototype_penalty_zero_iff_score_ignores_prototype_given_label():
    rng = np.random.default_rng(0)
    y = torch.as_tensor(rng.integers(0, 2, 400))
    env = rng.integers(0, 2, 400)
    q = torch.as_tensor(np.eye(2)[env], dtype=torch.float32)  # (n, K) hard prototypes
    f_inv = 2.0 * y.float() - 1.0  # depends on the label only
    assert float(prototype_invariance_penalty(torch, f_inv, q, y)) == pytest.approx(0.0, abs=1e-9)
    f_env = f_inv + torch.as_tensor(env, dtype=torch.float32)  # shifted by the environment
    # within class c the prototype means differ by 1: weighted variance a_c b_c (the shares);
    # divided by the squared gap between the class means of the score
    yn = y.numpy()
    shares = [np.bincount(env[yn == c], minlength=2) / (yn == c).sum() for c in (0, 1)]
    gap = float(f_env[y == 1].mean() - f_env[y == 0].mean())
    want = sum(sh[0] * sh[1] for sh in shares) / gap ** 2
    assert float(prototype_invariance_penalty(torch, f_env, q, y)) == pytest.approx(want, rel=1e-5)
    # scale-free: doubling the score does not change it
    assert float(prototype_invariance_penalty(torch, 2 * f_env, q, y)) == pytest.approx(want, rel=1e-5)


# -- metrics -------------------------------------------------------------------------------------
def test_ece_and_auroc_hand_cases():
    # confidences 0.9 (1 of 2 right) and 0.6 (2 of 2 right): 0.5 * 0.4 + 0.5 * 0.4
    p = np.array([0.9, 0.1, 0.6, 0.4])
    y = np.array([1, 1, 1, 0])
    assert expected_calibration_error(p, y) == pytest.approx(0.4)
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(0)
    s, lab = rng.random(50).round(1), rng.random(50) < 0.3
    assert auroc(s, lab) == pytest.approx(roc_auc_score(lab, s))
    assert auroc(s, np.zeros(50, bool)) is None


def test_smoke_grid_runs():
    from claimbench.testing import run_grid_inline

    rows = run_grid_inline(BENCHMARK, "smoke")
    assert rows and all(r["status"] == "ok" for r in rows)
    by = {r["cell"].method.label: r["metrics"] for r in rows}
    assert by["gnn"]["kept_edge_frac"] is None and by["curve"]["kept_edge_frac"] is not None
    for m in by.values():
        assert 0.0 <= m["ood_acc"] <= 1.0 and m["ece"] is not None


def test_mutants_share_one_training_bit_for_bit(tmp_path, monkeypatch):
    # the mutants change only the test-time pruning: a cached training (parameters and the
    # generator where training left it) must give exactly what training afresh gives
    from claimbench.checkpoints import ENV_VAR

    inst = SyntheticSceneGraphs(n_train_per_env=12, n_test=15, k_shot=4).make(2)
    kw = {"epochs": 6, "mc_samples": 3, "ft_steps": 3}

    def run(mutant: str, folder: str) -> dict:
        monkeypatch.setenv(ENV_VAR, str(tmp_path / folder))
        out = CURVE(mutant=mutant, **kw).run(inst.data, 9)
        out.pop("time_s")
        return out

    for mutant in ("random_pruning", "no_pruning"):
        fresh = run(mutant, f"fresh_{mutant}")
        run("", "shared")  # trains
        shared = run(mutant, "shared")  # loads
        assert len(list((tmp_path / "shared").glob("*.safetensors"))) == 1
        for k in ("p_id", "p_ood", "p_target", "edge_keep_ood"):
            assert np.array_equal(fresh[k], shared[k]), (mutant, k)
        assert fresh["traces"] == shared["traces"]
    # another training configuration is another checkpoint
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "shared"))
    CURVE(lambda_debias=0.0, **kw).run(inst.data, 9)
    assert len(list((tmp_path / "shared").glob("*.safetensors"))) == 2


# -- the centring-only foil (baselines/prototype_centred_gnn.py; issue 30) -----------------------
def test_foil_fits_the_prototypes_curve_fits():
    # P gets gradient from L_proto only and Adam is elementwise, so fitting P alone must follow
    # CURVE's joint training exactly
    from claimbench.baselines.prototype_centred_gnn import fit_prototypes
    from claimbench.methods.curve_scene_graph import scene_context

    d = SyntheticSceneGraphs(n_train_per_env=15, n_test=10, k_shot=4).make(4).data
    cv = CURVE(epochs=12)
    R = d["n_relations"]
    batch = cv._batch(torch, d["train"], R, training=True)
    gen = torch.Generator().manual_seed(5)
    p = cv._init(torch, d["n_features"], R, gen, batch["u"].numpy(), 5)
    P0 = p["P"].detach().clone()
    cv._fit(torch, p, batch, torch.as_tensor(d["train"]["y"], dtype=torch.long), gen)
    P = fit_prototypes(torch, scene_context(d["train"]), cv, 5)
    assert not torch.equal(P, P0)  # the prototypes moved
    assert torch.allclose(P, p["P"].detach(), rtol=0, atol=1e-6)


def test_centring_removes_a_scene_level_shift():
    # two scenes with the same nodes up to a constant feature shift d; prototypes at the two
    # scene contexts and a sharp assignment: the centred features are the same, padding stays 0
    from claimbench.baselines.prototype_centred_gnn import centre_split

    rng = np.random.default_rng(0)
    x = rng.normal(size=(4, 3)).astype(np.float32)
    d = np.array([2.0, -1.0, 0.5], np.float32)
    X = np.zeros((2, 5, 3), np.float32)
    X[0, :4], X[1, :4] = x, x + d
    mask = np.zeros((2, 5), bool)
    mask[:, :4] = True
    split = {"X": X, "A": np.zeros((2, 5, 5), int), "mask": mask}
    P = torch.as_tensor(np.stack([x.mean(0), x.mean(0) + d]))  # (2, 3)
    out = centre_split(torch, split, P, CURVE(n_prototypes=2, proto_temperature=1e-3))
    assert np.allclose(out["X"][0, :4], x - x.mean(0), atol=1e-5)
    assert np.allclose(out["X"][0], out["X"][1], atol=1e-5)
    assert np.all(out["X"][:, 4] == 0) and out["A"] is split["A"]
    assert np.array_equal(split["X"], X)  # the input is not modified


def test_centring_foil_runs_and_is_declared():
    from claimbench.baselines.prototype_centred_gnn import PrototypeCentredGNN

    d = SyntheticSceneGraphs(n_train_per_env=10, n_test=12, k_shot=4).make(1).data
    out = PrototypeCentredGNN(epochs=4, ft_steps=2).run(d, 0)
    for k in ("p_id", "p_ood", "p_target", "unc_ood"):
        assert np.all(np.isfinite(out[k])) and len(out[k]) == 12
    foils = {c.id: c.foils for c in BENCHMARK.claims}
    for cid in ("c1_ood_vs_gnn", "c2_ood_vs_irm", "c3_target_vs_gnn"):
        assert "gnn_centred" in foils[cid]
