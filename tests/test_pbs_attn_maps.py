"""datasets/sink_local_retrieval_attention.py on small cases with known answers."""
import math

import numpy as np
import pytest
from claimbench.datasets.sink_local_retrieval_attention import (
    SinkLocalRetrievalAttention,
)


def _logits(inst, h):
    q, k = inst.data["q"].astype(np.float64), inst.data["k"].astype(np.float64)
    return q[h] @ k[h].T / math.sqrt(q.shape[-1])  # (T, T)


def test_planted_parts_are_exact_without_noise_or_window():
    ds = SinkLocalRetrievalAttention(context=512, noise=0.0, window=0.0)
    inst = ds.make(0)
    s = _logits(inst, 0)
    heavy = inst.truth["retrieval"][0]
    assert len(heavy) == 32 and min(heavy) >= 4 and len(set(heavy)) == 32
    background = [j for j in range(512) if j >= 4 and j not in heavy]
    for i in (100, 300, 511):
        vis_bg = [j for j in background if j <= i]
        vis_heavy = [j for j in heavy if j <= i]
        # sinks: +6, heavy keys: +4, background: -c_i
        assert np.allclose(s[i, :4], ds.sink, atol=1e-4)
        assert np.allclose(s[i, heavy], ds.retrieval, atol=1e-4)
        c_i = -s[i, vis_bg[0]]
        assert np.allclose(s[i, background], -c_i, atol=1e-4)
        # c_i gives the background exactly its share of the causal mass (no noise: E = value)
        bg = len(vis_bg) * math.exp(-c_i)
        planted = 4 * math.exp(ds.sink) + len(vis_heavy) * math.exp(ds.retrieval)
        assert bg / (bg + planted) == pytest.approx(ds.background_share, rel=1e-3)


def test_window_peaks_on_the_diagonal():
    ds = SinkLocalRetrievalAttention(context=512, noise=0.0, sink=0.0, retrieval=0.0)
    inst = ds.make(2)
    s = _logits(inst, 0)
    far = [j for j in range(100, 300) if j not in inst.truth["retrieval"][0]]  # background keys
    i = max(j for j in range(400, 512) if j not in inst.truth["retrieval"][0]
            and j - 1 not in inst.truth["retrieval"][0])  # a background key and its neighbour
    assert abs(s[i, i] - s[i, i - 1]) < 0.5  # a peak of width ~window_width
    assert s[i, i] > np.max(s[i, far]) + 2.0  # far keys lose the window's boost


def test_background_holds_its_share_of_mass():
    ds = SinkLocalRetrievalAttention(context=2048, n_heads=2, background_share=0.05)
    inst = ds.make(1)
    T = ds.context
    shares = []
    for h in range(2):
        s = _logits(inst, h)[-256:]  # (256, T) the last queries see every key
        p = np.exp(s - s.max(-1, keepdims=True))
        p /= p.sum(-1, keepdims=True)
        planted = np.zeros(T, bool)
        planted[:4], planted[inst.truth["retrieval"][h]] = True, True
        bg = p[:, ~planted].sum(-1)
        shares.append(bg.mean())
    # the window is not counted as planted mass, so the share is at most the target (+ noise)
    assert 0.01 < np.mean(shares) < 0.1


def test_seeded_and_heavy_count_fixed_in_length():
    a = SinkLocalRetrievalAttention(context=1024).make(3)
    b = SinkLocalRetrievalAttention(context=1024).make(3)
    assert np.array_equal(a.data["q"], b.data["q"]) and a.truth == b.truth
    # the heavy keys are a count, not a rate: the same 32 at every length
    assert len(SinkLocalRetrievalAttention(context=4096).make(0).truth["retrieval"][0]) == 32


def test_rejects_bad_parameters():
    with pytest.raises(ValueError):
        SinkLocalRetrievalAttention(background_share=1.0)
    with pytest.raises(ValueError):
        SinkLocalRetrievalAttention(context=30)
    with pytest.raises(ValueError):
        SinkLocalRetrievalAttention(head_dim=20)
