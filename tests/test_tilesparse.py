"""TileSparse (methods/tilesparse.py) and its shared pieces: Quest bounds, tile cost, K-only and
2-D top-k, the tiered selection, the AutoTuner and the mutants, on small cases with known answers."""
import numpy as np
import pytest
import torch

from claimbench.baselines import block_sparse_attention as bsa
from claimbench.baselines import head_page_selection as hps
from claimbench.baselines.head_key_topk import HeadKeyTopK, tile_budget_pairs_mask, top_pairs_mask
from claimbench.baselines.quest_topk import QuestTopK, k_only_mask
from claimbench.datasets.latent_kv_needles import LatentKVNeedles
from claimbench.methods.tilesparse import TileSparse, fit_tiles, patterns, random_tiles, tiered_mask


def _rand(H=4, T=2, N=64, d=8, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((H, T, d)), rng.standard_normal((H, N, d)),
            rng.standard_normal((H, N, d)))


def test_quest_bound_is_an_upper_bound_and_tight_for_one_key_pages():
    q, k, _ = _rand(N=61)  # a short last page
    u = hps.quest_bounds(q, k, 16)  # (H, T, P)
    logits = q @ k.transpose(0, 2, 1)  # (H, T, N)
    for p in range(u.shape[-1]):
        assert np.all(u[..., p] >= logits[..., 16 * p:16 * (p + 1)].max(-1) - 1e-12)
    np.testing.assert_allclose(hps.quest_bounds(q, k, 1), logits, atol=1e-12)


def test_exact_page_mass_sums_dense_probabilities():
    q, k, _ = _rand(N=50)
    mass = hps.exact_page_mass(q, k, 8)  # (H, 7)
    p = bsa.attention_probs(torch.as_tensor(q), torch.as_tensor(k), *bsa.default_positions(2, 50))
    ref = np.stack([p[:, :, 8 * i:8 * (i + 1)].sum(-1).mean(1).numpy() for i in range(7)], -1)
    np.testing.assert_allclose(mass, ref, atol=1e-12)
    np.testing.assert_allclose(mass.sum(1), 1.0, atol=1e-12)
    w = hps.page_importance(q, k, 8)
    np.testing.assert_allclose(w.sum(1), 1.0, atol=1e-12)


def test_tile_count_by_hand():
    mask = np.zeros((4, 3), dtype=bool)  # 4 heads in tiles of 2, 3 pages
    mask[0, 0] = mask[1, 0] = True  # one tile
    mask[0, 1] = mask[3, 1] = True  # two tiles: heads in different tiles
    assert hps.tile_count(mask, 2) == 3 and mask.sum() == 4
    assert hps.tile_count(mask, 1) == 4 and hps.tile_count(mask, 4) == 2
    assert hps.budget_tiles(0.5, 4, 48, 2, 16) == 3


def test_full_selection_is_dense_attention_at_dense_cost():
    q, k, v = (x.astype(np.float32) for x in _rand(H=4, T=2, N=64, d=8))
    data = {"q": q, "k": k, "v": v}
    out = hps.run_selection(data, np.ones((4, 4), dtype=bool), 16, 2)
    ref = bsa.dense_attention(*(torch.as_tensor(x) for x in (q, k, v)))
    np.testing.assert_allclose(out["out"], ref.numpy(), atol=1e-5)
    assert out["flops"] == 4 * 2 * 64 * 2 * (8 + 8) and out["tiles"] == 8


def test_k_only_and_pair_selections():
    w = np.array([[0.5, 0.1, 0.4, 0.0], [0.0, 0.6, 0.0, 0.4]])
    m = k_only_mask(w, 2)  # sums 0.5 0.7 0.4 0.4 -> pages 1, 0
    assert m[:, [0, 1]].all() and not m[:, [2, 3]].any()
    assert (k_only_mask(w, 1, "max") == np.array([[0, 1, 0, 0]] * 2, bool)).all()
    assert top_pairs_mask(w, 3).sum() == 3 and top_pairs_mask(w, 3)[1, 1]
    # tiles of 1 head: tile budget = pair budget; tiles of 2 heads: (0,0) then (1,1) open 2 tiles,
    # (0,2) would open a third
    assert (tile_budget_pairs_mask(w, 3, 1) == top_pairs_mask(w, 3)).all()
    m2 = tile_budget_pairs_mask(w, 2, 2)
    assert m2.sum() == 2 and m2[1, 1] and m2[0, 0] and hps.tile_count(m2, 2) == 2


def test_patterns_cover_k_only_and_sum_to_one():
    pats = patterns(4)
    assert pats[0] == ((4, 1.0),)
    assert all(abs(sum(a for _, a in p) - 1) < 1e-9 for p in pats)
    assert all(p[0][0] == 4 and [m for m, _ in p] == sorted({m for m, _ in p}, reverse=True)
               for p in pats)
    assert len(patterns(4, 1)) == 1 and len(patterns(4, 2)) == 1 + 2 * 10


def test_tiered_mask_by_hand_and_within_budget():
    # 4 heads, tiles of 2 (G = 2), 4 pages. Summed importance ranks pages 0, 1, 2, 3.
    w = np.array([[0.4, 0.3, 0.0, 0.1], [0.4, 0.3, 0.0, 0.0],
                  [0.1, 0.0, 0.2, 0.0], [0.1, 0.0, 0.2, 0.05]])
    m = tiered_mask(w, ((2, 0.5), (1, 0.5)), budget=4, head_tile=2)
    # tier 1: floor(0.5*4)/2 = 1 page (page 0) with both tiles; tier 2: 2 pages with 1 tile
    assert m[:, 0].all()
    assert m[:2, 1].all() and not m[2:, 1].any()  # page 1 -> tile 0
    assert m[2:, 2].all() and not m[:2, 2].any()  # page 2 -> tile 1
    assert not m[:, 3].any() and hps.tile_count(m, 2) == 4
    rng = np.random.default_rng(0)
    w = rng.dirichlet(np.ones(32), size=16)  # (16 heads, 32 pages)
    for pat in patterns(4):
        for B in (5, 13, 40):
            mm = tiered_mask(w, pat, B, 4)
            assert hps.tile_count(mm, 4) <= B
            g = mm.reshape(4, 4, 32)
            assert (g.all(1) == g.any(1)).all()  # tile-aligned: whole head tiles only
    assert (tiered_mask(w, ((4, 1.0),), 13, 4) == k_only_mask(w, 3)).all()


def test_mutants_pair_cost_exceeds_and_unaligned_fits_the_tile_budget():
    rng = np.random.default_rng(1)
    w = rng.dirichlet(0.2 * np.ones(32), size=16)  # peaky, head-specific importance
    pat, B = ((4, 0.2), (1, 0.8)), 24
    scattered = tiered_mask(w, pat, B, 4, aligned=False)
    assert scattered.sum() == tiered_mask(w, pat, B, 4).sum()  # same pairs in the planner's view
    assert hps.tile_count(scattered, 4) > B
    fitted = fit_tiles(scattered, w, B, 4)
    assert hps.tile_count(fitted, 4) <= B and (fitted <= scattered).all()


@pytest.fixture(scope="module")
def instance():
    return LatentKVNeedles(context=512, n_calib=1, budget_frac=0.1).make(3)


def test_dataset_needles_are_their_heads_top_keys(instance):
    d, t = instance.data, instance.truth
    assert d["q"].shape == (32, 2, 64) and d["k"].shape == (32, 512, 64)
    assert np.array_equal(d["k"], d["v"]) and np.array_equal(d["k"][0], d["k"][5])
    logits = d["q"][:, 0] @ d["k"][0].T / 8.0  # (H, N)
    h, j = t["needle_pairs"].T
    # a needle's logit for its heads exceeds the same key's logit for the other heads by the
    # planted boost, 9 exp(0.25 z) (mean ~9.3), up to N(0, 2) noise
    others = np.ones_like(logits, dtype=bool)
    others[h, j] = False
    excess = logits[h, j] - np.array([logits[others[:, jj], jj].mean() for jj in j])
    assert 8.0 < excess.mean() < 10.5 and excess.min() > 2.0
    again = LatentKVNeedles(context=512, n_calib=1, budget_frac=0.1).make(3)
    assert np.array_equal(again.data["q"], d["q"])


def test_methods_stay_within_the_tile_budget_and_mutants_differ(instance):
    d = instance.data
    dense_tiles = 4 * 32  # 4 head tiles x 32 pages
    for method in (QuestTopK(), HeadKeyTopK(), TileSparse(), TileSparse(mutant="unaligned")):
        out = method.run(d, 0)
        assert out["tiles"] <= int(0.1 * dense_tiles), type(method).__name__
        assert out["out"].shape == (32, 2, 64)
    assert HeadKeyTopK(charge="pair").run(d, 0)["tiles"] > int(0.1 * dense_tiles)
    assert TileSparse(mutant="pair_cost").run(d, 0)["tiles"] > int(0.1 * dense_tiles)
    single = TileSparse(mutant="single_tier").run(d, 0)
    assert (single["block_mask"] == QuestTopK().run(d, 0)["block_mask"]).all()


def test_autotuner_on_the_scored_step_never_loses_mass_to_k_only(instance):
    # calibrating on the very step it is scored on, with exact scores, the tuner's pattern is
    # the best of a space containing K-only, so it retains at least K-only's mass
    d = dict(instance.data)
    d["calib"] = [{"q": d["q"], "k": d["k"][:1]}]
    mass = hps.exact_page_mass(d["q"], d["k"], 16)
    full = TileSparse(score="exact").run(d, 0)
    single = TileSparse(score="exact", mutant="single_tier").run(d, 0)
    got = [(mass * o["block_mask"][:, 0]).sum() for o in (full, single)]
    assert got[0] >= got[1] - 1e-12


def test_random_tiles_are_whole_tiles_within_budget_and_seeded():
    a = random_tiles(8, 10, 7, 4, np.random.default_rng(0))  # 2 head tiles x 10 pages
    assert a.shape == (8, 10) and hps.tile_count(a, 4) == 7
    tiles = a.reshape(2, 4, 10)
    assert (tiles.all(1) == tiles.any(1)).all()  # every head of a touched tile
    assert (a == random_tiles(8, 10, 7, 4, np.random.default_rng(0))).all()
    assert random_tiles(8, 10, 50, 4, np.random.default_rng(1)).all()  # budget above dense


def test_random_tiles_mutant_spends_the_budget_without_estimates(instance):
    d = instance.data
    out = TileSparse(mutant="random_tiles").run(d, 0)
    assert out["tiles"] == int(0.1 * 4 * 32)
    assert not (out["block_mask"] == TileSparse().run(d, 0)["block_mask"]).all()


def test_answer_readout_by_hand_and_full_attention_agrees_with_itself(instance):
    from claimbench.benchmarks.tilesparse import _answer_agreement, _answers, _needle_answers
    dirs = np.eye(4)[:3]  # three planted tokens on axes 0..2 of a 4-d latent
    out = np.array([[[0.1, 0.7, 0.2, 5.0], [0.0, 0.0, 0.0, 1.0]]])  # (1, 2, 4)
    assert _answers(out, dirs).tolist() == [[1, -1]]  # axis 3 is not a token; nothing planted
    d, t = instance.data, instance.truth
    # unrotated latents: the projection on a needle's direction is its attention probability
    assert np.array_equal(t["answer_dirs"][:, :16], np.eye(20)[:, :16])
    full = bsa.dense_attention(*(torch.as_tensor(d[x]) for x in ("q", "k", "v"))).numpy()
    assert _answer_agreement(instance, {"out": full}) == 1.0
    # every key but the needles (one-key pages): no needle answer is left, and a shared-key
    # answer survives, since renormalising keeps the ratios of the remaining probabilities
    keep = np.ones((32, 512), dtype=bool)
    keep[:, t["needle_pos"]] = False
    no_needles = hps.run_selection(d, keep, 1, 8)
    n_needle = _needle_answers(instance, {"out": full})
    assert 0 < n_needle < 1 and _needle_answers(instance, no_needles) == 0.0
    assert _answer_agreement(instance, no_needles) == pytest.approx(1 - n_needle, abs=1e-12)


def test_rotated_answer_dirs_read_the_same_answers():
    plain = LatentKVNeedles(context=256, n_calib=0).make(5)
    rot = LatentKVNeedles(context=256, n_calib=0, rotate=True).make(5)
    from claimbench.benchmarks.tilesparse import _dense_answers
    assert (_dense_answers(plain) >= 0).all() and (_dense_answers(rot) >= 0).all()
