"""The extended character LM of pbs_attn (datasets/lm_attention_activations.py, extend_* keys)."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from claimbench.datasets.lm_attention_activations import (  # noqa: E402
    DEFAULT_LM, LMAttentionActivations, trained_lm)

_BASE = {**DEFAULT_LM, "d_model": 32, "layers": 2, "heads": 2, "steps": 3, "batch": 2,
         "context": 32}


@pytest.fixture(autouse=True)
def _private_checkpoints(tmp_path, monkeypatch):
    monkeypatch.setenv("CLAIMBENCH_CHECKPOINTS", str(tmp_path))


def _params(model):
    return {n: p.detach().clone() for n, p in model.named_parameters()}


def test_extension_trains_on_from_the_base_model_and_leaves_it_untouched():
    ext = {**_BASE, "extend_steps": 2, "extend_context": 96, "extend_lr": 1e-3}
    base, _, base_hist = trained_lm(_BASE, 0)
    before = _params(base)
    model, _, hist = trained_lm(ext, 0)
    after = _params(model)
    # the extension's own history: its steps, at its peak-lr schedule (warm-up max(1, 2 // 8) = 1)
    assert hist["step"][-1] == 1 and hist["lr"][0] == pytest.approx(1e-3)
    assert hist["loss"] != base_hist["loss"]
    # the cached base model is unchanged; the extended one moved away from it
    again, _, _ = trained_lm(_BASE, 0)
    assert all(torch.equal(before[n], p) for n, p in _params(again).items())
    assert any(not torch.equal(before[n], after[n]) for n in before)
    # cached: the same spec gives the same weights
    cached, _, _ = trained_lm(ext, 0)
    assert all(torch.equal(after[n], p) for n, p in _params(cached).items())
    # a spec without extend_* keys (or extend_steps = 0) is the base model
    zero, _, _ = trained_lm({**ext, "extend_steps": 0}, 0)
    assert all(torch.equal(before[n], p) for n, p in _params(zero).items())


def test_extended_specs_are_validated():
    with pytest.raises(ValueError, match="needs all of"):
        LMAttentionActivations(lm={**DEFAULT_LM, "extend_steps": 4})
    with pytest.raises(ValueError, match="unknown keys"):
        LMAttentionActivations(lm={**DEFAULT_LM, "extend_step": 4})
    LMAttentionActivations(lm={**DEFAULT_LM, "extend_steps": 4, "extend_context": 512,
                               "extend_lr": 1e-3})


def test_extended_instance_reads_the_extended_model():
    ext = {**_BASE, "extend_steps": 2, "extend_context": 96, "extend_lr": 1e-3}
    a = LMAttentionActivations(context=64, layer=1, lm=_BASE).make(3).data
    b = LMAttentionActivations(context=64, layer=1, lm=ext).make(3).data
    assert a["start"] == b["start"]  # the same text window
    assert not np.array_equal(a["k"], b["k"])  # different weights give different keys
