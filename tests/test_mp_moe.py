"""MP-MoE selection (methods/mp_moe.py) and the sparse MoE layer (baselines/sparse_moe.py) on
small cases with known answers: exhaustive/greedy references in float64 numpy, closed forms."""
import itertools

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from claimbench.baselines.sparse_moe import (TopKMoE, linear_cka, mean_pairwise_cka,  # noqa: E402
                                             moe_classes, switch_aux_loss, topk_mask,
                                             TopKSelector)
from claimbench.baselines.tiny_transformer import TransformerConfig  # noqa: E402
from claimbench.datasets.mixture_regression import MixtureRegression  # noqa: E402
from claimbench.methods.mp_moe import (MahalanobisSelector, MPMoE, cooccurrence_sigma,  # noqa: E402
                                       greedy_ratio, mahalanobis_greedy, mahalanobis_score,
                                       subset_scores)


def _spd(E, rng):
    A = rng.standard_normal((E, E))
    return A @ A.T / E + 0.1 * np.eye(E)


def _greedy_reference(p, sigma, k):
    """Greedy on the exact score J(S) = p_S^T Sigma_SS^-1 p_S (float64 solves, no updates)."""
    S = []
    for _ in range(k):
        rest = [j for j in range(len(p)) if j not in S]
        S.append(max(rest, key=lambda j: mahalanobis_score(p, sigma, S + [j])))
    return set(S)


@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_incremental_greedy_equals_exact_greedy(k):
    rng = np.random.default_rng(k)
    E, N = 8, 40
    sigma = _spd(E, rng)
    p = rng.dirichlet(np.ones(E), size=N)
    mask = mahalanobis_greedy(torch.tensor(p), torch.tensor(sigma), k)  # float64 path
    assert (mask.sum(1) == k).all()
    for t in range(N):
        assert set(np.flatnonzero(mask[t].numpy())) == _greedy_reference(p[t], sigma, k)


def test_greedy_float32_matches_and_is_near_the_exhaustive_optimum():
    rng = np.random.default_rng(7)
    E, k, N = 8, 2, 60
    sigma = _spd(E, rng)
    p = rng.dirichlet(np.ones(E), size=N)
    mask = mahalanobis_greedy(torch.tensor(p, dtype=torch.float32),
                              torch.tensor(sigma, dtype=torch.float32), k)
    ratios = []
    for t in range(N):
        got = mahalanobis_score(p[t], sigma, np.flatnonzero(mask[t].numpy()))
        best = max(mahalanobis_score(p[t], sigma, S) for S in itertools.combinations(range(E), k))
        ratios.append(got / best)
        assert set(np.flatnonzero(mask[t].numpy())) == _greedy_reference(p[t], sigma, k)
    assert min(ratios) > 0.5 and np.mean(ratios) > 0.9


def test_identity_sigma_is_top_k_and_diagonal_sigma_ranks_p2_over_variance():
    rng = np.random.default_rng(3)
    p = torch.tensor(rng.dirichlet(np.ones(8), size=50), dtype=torch.float32)
    assert torch.equal(mahalanobis_greedy(p, torch.eye(8), 3), topk_mask(p, 3))
    var = torch.tensor(rng.uniform(0.05, 0.25, 8), dtype=torch.float32)
    assert torch.equal(mahalanobis_greedy(p, torch.diag(var), 3), topk_mask(p ** 2 / var, 3))


def test_correlated_pair_is_pruned():
    # experts 0 and 1 always fire together; 2 is independent: top-2 = {0, 1}, MP-MoE = {0, 2}
    sigma = np.array([[0.2, 0.19, 0.0, 0.0], [0.19, 0.2, 0.0, 0.0],
                      [0.0, 0.0, 0.2, 0.0], [0.0, 0.0, 0.0, 0.2]])
    p = torch.tensor([[0.4, 0.35, 0.2, 0.05]], dtype=torch.float64)
    got = set(np.flatnonzero(mahalanobis_greedy(p, torch.tensor(sigma), 2)[0].numpy()))
    assert got == {0, 2}
    assert set(np.flatnonzero(topk_mask(p, 2)[0].numpy())) == {0, 1}
    assert mahalanobis_score(p[0], sigma, [0, 2]) > mahalanobis_score(p[0], sigma, [0, 1])


def test_cooccurrence_sigma_is_the_routing_covariance():
    rng = np.random.default_rng(0)
    m = np.zeros((200, 6))
    for row in m:
        row[rng.choice(6, 2, replace=False, p=[0.4, 0.2, 0.15, 0.1, 0.1, 0.05])] = 1
    m[:, 5] = 0  # an expert never used: zero variance, floored
    M = torch.tensor(m, dtype=torch.float64)
    sig = cooccurrence_sigma(M.T @ M, M.sum(0), len(m)).numpy()
    ref = np.cov(m.T, bias=True)
    ref[5, 5] = 1e-12
    np.testing.assert_allclose(sig, ref, atol=1e-12)


def test_selector_warmup_statistics_and_preference_for_rarely_used_experts():
    sel = MahalanobisSelector(k=1, n_experts=3, warmup=2)
    p = torch.tensor([[0.5, 0.3, 0.2]])
    rows = [[True, False, False]] * 6 + [[False, False, True]] * 2
    for _ in range(2):  # warm-up: plain top-k, statistics from the routing actually used
        assert sel.select(p, training=True).tolist() == [[True, False, False]]
        sel.observe(torch.tensor(rows))
    assert sel.N == 16 and sel.u.tolist() == [12.0, 0.0, 4.0]
    sel.observe(torch.tensor([[False, True, False]] + [[True, False, False]] * 3))
    # usage 15/20, 1/20, 4/20: variances f(1-f) = 0.1875, 0.0475, 0.16
    np.testing.assert_allclose(sel.sigma.diagonal().numpy(), [0.1875, 0.0475, 0.16], rtol=1e-5)
    # p_1^2 / var_1 = 1.89 > p_0^2 / var_0 = 1.33: the rarely used expert wins although p_0 > p_1
    assert sel.select(p, training=False).tolist() == [[True, False, False]]  # still warm-up
    assert sel.select(p, training=True).tolist() == [[False, True, False]]  # 3rd forward
    assert sel.select(p, training=False).tolist() == [[False, True, False]]
    assert sel.forwards == 3  # evaluation does not advance the warm-up clock
    ident = MahalanobisSelector(k=1, n_experts=3, warmup=0, mutant="identity_sigma")
    ident.sigma = sel.sigma
    assert ident.select(p, training=True).tolist() == [[True, False, False]]


def test_switch_loss_is_one_when_balanced_and_larger_when_collapsed():
    E, k, N = 4, 2, 8
    probs = torch.full((N, E), 1 / E)
    mask = torch.zeros(N, E, dtype=torch.bool)
    for t in range(N):
        mask[t, [t % E, (t + 1) % E]] = True
    assert float(switch_aux_loss(probs, mask, k)) == pytest.approx(1.0)
    skew = torch.tensor([[0.7, 0.2, 0.05, 0.05]] * N)
    assert float(switch_aux_loss(skew, topk_mask(skew, k), k)) > 1.5


def test_linear_cka_invariances():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((300, 10))
    Q, _ = np.linalg.qr(rng.standard_normal((10, 10)))
    assert linear_cka(X, 3.0 * X @ Q) == pytest.approx(1.0)
    assert linear_cka(X, rng.standard_normal((300, 10))) < 0.2


def test_mean_pairwise_cka_is_the_mean_of_the_pairwise_calls_bit_for_bit():
    rng = np.random.default_rng(3)
    outs = [rng.standard_normal((97, 12)) * rng.random() for _ in range(6)]
    outs[2] = np.zeros((97, 12))  # a silent expert: CKA 0 by convention
    pairs = [linear_cka(outs[i], outs[j]) for i in range(6) for j in range(i + 1, 6)]
    assert mean_pairwise_cka(outs) == float(np.mean(pairs))


def _greedy_all_updates(probs, sigma, k, eps=1e-12):
    """The greedy as first written (issue 27's reference): R and z updated after every pick,
    alpha by batched matmul, the chosen set kept as a mask."""
    N, E = probs.shape
    sigma = sigma.to(probs.dtype)
    diag = sigma.diagonal().clamp_min(eps)
    sel = torch.zeros(N, E, dtype=torch.bool)
    idx = torch.zeros(N, k, dtype=torch.long)
    R, z = torch.zeros(N, k, k, dtype=probs.dtype), torch.zeros(N, k, dtype=probs.dtype)
    rows = torch.arange(N)
    j = (probs.pow(2) / diag).argmax(1)
    idx[:, 0], sel[rows, j] = j, True
    R[:, 0, 0] = diag[j].rsqrt()
    z[:, 0] = R[:, 0, 0] * probs[rows, j]
    z2 = z[:, 0].pow(2)
    for t in range(1, k):
        Rt = R[:, :t, :t]
        alpha = Rt @ sigma[idx[:, :t]]
        r = (diag - alpha.pow(2).sum(1)).clamp_min(eps).rsqrt()
        delta = probs - (alpha * z[:, :t, None]).sum(1)
        j = (z2[:, None] + (r * delta).pow(2)).masked_fill(sel, float("-inf")).argmax(1)
        idx[:, t], sel[rows, j] = j, True
        a, rj = alpha[rows, :, j], r[rows, j]
        z[:, t] = rj * delta[rows, j]
        z2 = z2 + z[:, t].pow(2)
        R[:, t, :t] = -rj[:, None] * (a[:, None, :] @ Rt)[:, 0]
        R[:, t, t] = rj
    return sel


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_greedy_equals_the_all_updates_greedy_bit_for_bit(k):
    """float32 as in training, a learned (singular-ish) Sigma, ties from rounded probabilities."""
    g = torch.Generator().manual_seed(k)
    for trial in range(6):
        probs = torch.softmax(3.0 * torch.randn(500, 8, generator=g), -1)  # (N, E)
        if trial % 2:
            probs = probs.round(decimals=1)
        sel = MahalanobisSelector(k, 8, warmup=0)
        for _ in range(trial + 1):
            sel.observe(_greedy_all_updates(probs, sel.sigma, k))
        for sigma in (sel.sigma, torch.eye(8)):
            assert torch.equal(mahalanobis_greedy(probs, sigma, k),
                               _greedy_all_updates(probs, sigma, k))


def test_dense_layer_equals_the_probability_weighted_sum_of_experts():
    cfg = TransformerConfig(vocab_size=11, d_model=16, n_heads=2)
    C = moe_classes()
    torch.manual_seed(0)
    layer = C.SparseMoE(cfg, 0, 4, 8, TopKSelector(4), 0.0, 0.0, True)
    x = torch.randn(2, 3, 16)
    h = x.reshape(-1, 16)
    p = torch.softmax(layer.gate(h), -1)
    ref = sum(p[:, e:e + 1] * layer.expert(e, h) for e in range(4))
    torch.testing.assert_close(layer(x).reshape(-1, 16), ref)
    # top-1 keeps one expert per token, weighted by its probability
    layer.selector = TopKSelector(1)
    j = p.argmax(1)
    ref1 = torch.stack([p[t, j[t]] * layer.expert(int(j[t]), h[t:t + 1])[0] for t in range(len(h))])
    torch.testing.assert_close(layer(x).reshape(-1, 16), ref1)


def test_end_to_end_tiny_runs_and_mutant_equals_topk():
    data = MixtureRegression(n_train=256, n_val=64).make(0).data
    kw = dict(steps=6, batch_size=2, context=32, probe_tokens=64, timing_repeats=1, aux_coeff=0.0)
    mp = MPMoE(**kw).run(data, seed=3)
    ident = MPMoE(mutant="identity_sigma", **kw).run(data, seed=3)
    topk = TopKMoE(**kw).run(data, seed=3)
    for out in (mp, ident, topk):
        assert np.isfinite(out["val_loss"]) and 0 <= out["expert_cka"] <= 1 + 1e-9
        assert all(sum(lo) == 64 * 2 for lo in out["load"])  # k = 2 experts per point
    for out in (mp, ident):  # J(chosen) / J(optimum) over the 64 validation points, 2 layers
        assert 0 < out["greedy_ratio_min"] <= out["greedy_ratio_mean"] <= 1
    assert "greedy_ratio_min" not in topk
    # Sigma = I routes exactly like top-k, so the two train the same model
    assert ident["val_loss"] == pytest.approx(topk["val_loss"], rel=1e-6)
    assert mp["val_loss"] != pytest.approx(topk["val_loss"], rel=1e-6)
    with pytest.raises(ValueError):
        MPMoE(mutant="nope").selector(0, 0)


def _per_expert_loop(layer, h, mask, gates):
    """The layer's combination written as one gather and index_add_ per expert (reference)."""
    out = torch.zeros_like(h)
    for e in range(layer.E):
        idx = mask[:, e].nonzero().squeeze(1)
        if idx.numel():
            out.index_add_(0, idx, gates[idx, e, None] * layer.expert(e, h[idx]))
    return out


@pytest.mark.parametrize("k,pre_softmax", [(1, True), (2, True), (3, True), (4, True),
                                           (2, False)])
def test_grouped_experts_equal_the_per_expert_loop_bit_for_bit(k, pre_softmax):
    # The grouped computation must reproduce the loop's rounding exactly (committed cells are
    # re-run against it): output, the gradient reaching the input (which sums k experts and
    # the router's term) and every parameter gradient.
    cfg = TransformerConfig(vocab_size=11, d_model=16, n_heads=2)
    C = moe_classes()
    torch.manual_seed(0)
    layer = C.SparseMoE(cfg, 0, 4, 8, TopKSelector(k), 0.01, 0.001, pre_softmax)
    x = torch.randn(5, 7, 16)
    w = torch.randn(5, 7, 16)  # a loss that weights outputs unevenly
    grads = []
    for grouped in (True, False):
        xi = x.clone().requires_grad_()
        layer.zero_grad(set_to_none=True)
        if grouped:
            y = layer(xi)
            aux = layer.aux_loss
        else:
            h = xi.reshape(-1, 16)
            logits = layer.gate(h)
            probs = torch.softmax(logits, -1)
            mask = topk_mask(probs.detach(), k)
            gates = (probs * mask if pre_softmax else
                     torch.softmax(logits.masked_fill(~mask, float("-inf")), -1))
            y = _per_expert_loop(layer, h, mask, gates).view(5, 7, 16)
            aux = 0.01 * switch_aux_loss(probs, mask, k) + 0.001 * logits.logsumexp(-1).pow(2).mean()
        ((y * w).sum() + aux).backward()
        grads.append([y.detach(), xi.grad] + [p.grad for p in layer.parameters()])
    for a, b in zip(*grads):
        assert torch.equal(a, b)


@pytest.mark.parametrize("k", [2, 3])
def test_greedy_ratio_equals_the_exhaustive_numpy_ratio(k):
    rng = np.random.default_rng(10 + k)
    E, N = 8, 30
    sigma = _spd(E, rng)
    p = rng.dirichlet(np.ones(E), size=N)
    mask = mahalanobis_greedy(torch.tensor(p), torch.tensor(sigma), k)
    got = greedy_ratio(torch.tensor(p), torch.tensor(sigma), mask).numpy()
    subsets = list(itertools.combinations(range(E), k))
    J, _ = subset_scores(torch.tensor(p), torch.tensor(sigma), k)
    assert J.shape == (N, len(subsets))
    for t in range(N):
        best = max(mahalanobis_score(p[t], sigma, S) for S in subsets)
        ref = mahalanobis_score(p[t], sigma, np.flatnonzero(mask[t].numpy())) / best
        assert got[t] == pytest.approx(ref, rel=1e-9)


def test_greedy_ratio_known_cases():
    # Sigma = I: J(S) = sum p_j^2, the top-k set is the optimum, every ratio is exactly 1
    rng = np.random.default_rng(4)
    p = torch.tensor(rng.dirichlet(np.ones(8), size=20))
    assert torch.equal(greedy_ratio(p, torch.eye(8, dtype=torch.float64), topk_mask(p, 2)),
                       torch.ones(20, dtype=torch.float64))
    # the correlated pair of test_correlated_pair_is_pruned: J({0,1}) = 0.0033 / 0.0039 = 11/13,
    # the optimum is the greedy's {0, 2} with J = (0.16 + 0.04) / 0.2 = 1
    sigma = torch.tensor([[0.2, 0.19, 0.0, 0.0], [0.19, 0.2, 0.0, 0.0],
                          [0.0, 0.0, 0.2, 0.0], [0.0, 0.0, 0.0, 0.2]], dtype=torch.float64)
    q = torch.tensor([[0.4, 0.35, 0.2, 0.05]], dtype=torch.float64)
    assert float(greedy_ratio(q, sigma, topk_mask(q, 2))[0]) == pytest.approx(11 / 13, rel=1e-9)
    assert float(greedy_ratio(q, sigma, mahalanobis_greedy(q, sigma, 2))[0]) == 1.0


def test_renormalised_top1_gate_is_one():
    # pre_softmax=False (the authors' MP-MoE gates): softmax over the selected logits only; with
    # one expert per token its gate is exactly 1, so the layer returns that expert's output
    cfg = TransformerConfig(vocab_size=11, d_model=16, n_heads=2)
    C = moe_classes()
    torch.manual_seed(1)
    layer = C.SparseMoE(cfg, 0, 4, 8, TopKSelector(1), 0.0, 0.0, False)
    x = torch.randn(2, 3, 16)
    h = x.reshape(-1, 16)
    j = layer.gate(h).argmax(1)
    ref = torch.stack([layer.expert(int(j[t]), h[t:t + 1])[0] for t in range(len(h))])
    torch.testing.assert_close(layer(x).reshape(-1, 16), ref)
    assert MPMoE(pre_softmax=False).pre_softmax is False  # the authors' arm is a field
