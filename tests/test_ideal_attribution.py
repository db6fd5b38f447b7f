import numpy as np
import pytest

from claimbench.baselines.green_list_watermark import (GreenListWatermark, green_matrix,
                                                       green_z)
from claimbench.baselines.gumbel_max_watermark import (GumbelMaxWatermark, context_uniforms,
                                                       gumbel_pvalues)
from claimbench.baselines.keyed_prf import prf, prf_uniform, top_bits_zero
from claimbench.baselines.watermark_protocol import STRING_TYPES
from claimbench.datasets.markov_languages import (MarkovLanguage, MarkovLM, draw_rows,
                                                  random_chain, uniform_chain)
from claimbench.methods.ideal_attribution import (BlockAlignedPRC, IdealAttribution,
                                                  block_attributed, substring_attributed)


def test_prf_is_keyed_uniform_and_sparse_tags_have_their_density():
    x = np.random.default_rng(0).integers(0, 64, (100_000, 4))
    u = prf_uniform(1, x)
    assert 0 < u.min() and u.max() < 1
    assert abs(u.mean() - 0.5) < 0.01 and abs(u.var() - 1 / 12) < 0.002
    assert not np.array_equal(prf(1, x[:10]), prf(2, x[:10]))
    assert np.array_equal(prf(1, x[:10]), prf(1, x[:10]))
    assert abs(top_bits_zero(prf(3, x), 4).mean() - 1 / 16) < 0.005


def test_guide_table_sampler_is_exact():
    rng = np.random.default_rng(1)
    lm = random_chain(rng, 16, 0.3)
    for prev in (0, 7):
        x = draw_rows(lm.P, np.full(200_000, prev), rng)
        freq = np.bincount(x, minlength=16) / x.size
        assert np.abs(freq - lm.P[prev]).max() < 0.005


def test_ideal_mechanisms_by_hand():
    ledger = np.arange(16)[None, :]  # one response 0..15, blocks of 4: [0-3], [4-7], ...
    X = np.array([[1, 2, 3, 4, 60, 61],  # issued 4-substring, unaligned
                  [60, 4, 5, 6, 7, 61],  # aligned block [4..7]
                  [1, 2, 3, 60, 5, 6],  # only 3-token pieces
                  [9, 8, 7, 6, 5, 4]])  # reversed: nothing issued
    assert substring_attributed(ledger, X, 4).tolist() == [True, True, False, False]
    assert block_attributed(ledger, X, 4).tolist() == [False, True, False, False]
    assert substring_attributed(ledger, X, 3).tolist() == [True, True, True, False]


def test_green_list_z_by_hand_and_green_list_size():
    G = green_matrix(5, 8, 0.25)
    assert (G.sum(1) == 2).all()
    X = np.zeros((1, 11), dtype=np.int64)
    allgreen = np.ones((8, 8), dtype=bool)
    T = 10
    assert green_z(allgreen, X, 0.25)[0] == pytest.approx((T - 2.5) / np.sqrt(T * 0.1875))
    assert green_z(~allgreen, X, 0.25)[0] == pytest.approx(-2.5 / np.sqrt(T * 0.1875))


def test_gumbel_max_sampler_is_an_exact_sample_and_null_pvalues_are_valid():
    p = np.array([0.5, 0.3, 0.15, 0.05])
    lm = MarkovLM(pi0=p, P=np.tile(p, (4, 1)))
    ctx = np.zeros((1, 3), dtype=np.int64)
    picks = [int(np.argmax(np.log(context_uniforms(k, ctx, 4)[0]) / p)) for k in range(4000)]
    freq = np.bincount(picks, minlength=4) / 4000
    assert np.abs(freq - p).max() < 0.03
    fresh = uniform_chain(64).sample(400, 64, np.random.default_rng(2))
    pv = gumbel_pvalues(7, fresh, 3)
    assert abs((pv < 0.1).mean() - 0.1) < 0.05
    wm = GumbelMaxWatermark().generate(uniform_chain(64), 7, 20, 64, np.random.default_rng(3))
    assert (gumbel_pvalues(7, wm, 3) < 1e-6).all()
    assert lm.V == 4


def test_block_scheme_issues_codewords_and_false_window_rate_is_two_to_minus_tau():
    lm = uniform_chain(64)
    m = BlockAlignedPRC(tag_bits=6, batch=512)
    key = 11
    out = m.generate(lm, key, 6, 32, np.random.default_rng(4))
    assert m.is_codeword(key, out.reshape(-1, 8)).all()  # every aligned block is a codeword
    fresh = lm.sample(4000, 16, np.random.default_rng(5))
    rate = m.detect(key, fresh, out, 64).mean()
    expect = 1 - (1 - 2.0 ** -6) ** 9  # 9 windows of 8 in 16 tokens
    assert abs(rate - expect) < 0.025


def test_mutants_behave_as_designed():
    lm = uniform_chain(64)
    rng = np.random.default_rng(6)
    fresh = lm.sample(200, 64, rng)
    short = BlockAlignedPRC(mutant="short_tag")
    assert short.detect(3, fresh, fresh[:1], 64).mean() > 0.99  # non-sparse code
    unk = BlockAlignedPRC(mutant="unkeyed_blocks")
    issued = unk.generate(lm, 3, 50, 64, rng)
    assert unk.detect(3, issued, issued, 64).mean() < 0.05  # watermark removed
    full = BlockAlignedPRC(tag_bits=10, batch=2048)
    issued = full.generate(lm, 3, 5, 64, rng)
    assert full.detect(3, issued, issued, 64).all()
    with pytest.raises(ValueError):
        BlockAlignedPRC(mutant="nope")


def test_protocol_end_to_end_ideal_is_exact_and_green_list_attributes_mosaics():
    data = MarkovLanguage(language="uniform", n_responses=4, n_regen=2, response_len=32,
                          n_queries=16).make(0).data
    out = IdealAttribution(mechanism="substring").run(data, 1)
    assert set(out["decisions"]) == set(STRING_TYPES)
    for t, X in out["queries"].items():
        assert np.array_equal(out["decisions"][t], substring_attributed(out["ledger"], X, 8))
    assert out["decisions"]["issued_aligned"].all() and out["decisions"]["diluted"].all()
    assert not out["decisions"]["fresh"].any()
    g = GreenListWatermark().run(data, 1)
    assert g["decisions"]["issued_full"].all()
    never = ~substring_attributed(g["ledger"], g["queries"]["mosaic"], 8)
    assert g["decisions"]["mosaic"][never].mean() > 0.8
    # paired protocol: the same fresh and human text for every scheme at one seed
    assert np.array_equal(g["queries"]["fresh"], out["queries"]["fresh"])


def test_docs_text_windows():
    from claimbench.datasets.charlm_chain import DocsText

    d = DocsText(ids=np.arange(100))
    w = d.sample(5, 10, np.random.default_rng(0))
    assert w.shape == (5, 10) and (np.diff(w, axis=1) == 1).all()
