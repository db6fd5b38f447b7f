"""The shared numpy Adam against torch's Adam / AdamW (a trusted implementation)."""
from __future__ import annotations

import numpy as np
import pytest

from claimbench.optim import Adam


def _quadratic_grads(p: dict) -> dict:
    return {"W": 2.0 * p["W"] - 1.0, "b": np.cos(p["b"])}


def _ours(steps: int, **kw) -> dict:
    p = {"W": np.array([[0.5, -1.5], [2.0, 0.1]]), "b": np.array([0.3, -0.7])}
    opt = Adam(0.05, **kw)
    for _ in range(steps):
        opt.step(p, _quadratic_grads(p))
    return p


def _torch(steps: int, cls: str, weight_decay: float) -> dict:
    torch = pytest.importorskip("torch")
    W = torch.tensor([[0.5, -1.5], [2.0, 0.1]], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([0.3, -0.7], dtype=torch.float64, requires_grad=True)
    groups = [{"params": [W], "weight_decay": weight_decay}, {"params": [b], "weight_decay": 0.0}]
    opt = getattr(torch.optim, cls)(groups, lr=0.05)
    for _ in range(steps):
        opt.zero_grad()
        W.grad = 2.0 * W.detach() - 1.0
        b.grad = torch.cos(b.detach())
        opt.step()
    return {"W": W.detach().numpy(), "b": b.detach().numpy()}


@pytest.mark.parametrize("cls,decoupled", [("Adam", False), ("AdamW", True)])
def test_matches_torch_with_weight_decay_on_weights_only(cls, decoupled):
    ours = _ours(40, weight_decay=0.1, decoupled=decoupled, decays=lambda k: k == "W")
    ref = _torch(40, cls, 0.1)
    for k in ("W", "b"):
        np.testing.assert_allclose(ours[k], ref[k], rtol=1e-12, atol=1e-14)


def test_first_step_is_lr_times_sign_and_lists_work():
    theta, g = np.array([1.0, -2.0, 0.5]), np.array([0.3, -4.0, 1e-3])
    Adam(0.1).step([theta], [g])
    np.testing.assert_allclose(theta, [0.9, -1.9, 0.4], atol=1e-6)


@pytest.mark.parametrize("bad", [dict(lr=0.0), dict(lr=0.1, betas=(1.0, 0.9)),
                                 dict(lr=0.1, weight_decay=-1.0), dict(lr=0.1, eps=-1e-8)])
def test_bad_settings_are_named(bad):
    with pytest.raises(ValueError, match="Adam needs"):
        Adam(**bad)
