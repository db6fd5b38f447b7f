"""Minibatch cross-entropy training of a torch classifier, seeded (shared by small classifiers).

Adam, fixed learning rate, batches drawn from a local ``torch.Generator``; the model is built by
the caller with a seeded initialisation. ``predict`` runs in eval mode, in batches.
"""
from __future__ import annotations

import numpy as np


def fit_classifier(model, x: np.ndarray, y: np.ndarray, epochs: int, lr: float, batch_size: int,
                   seed: int, weight_decay: float = 0.0):
    """Train ``model`` (inputs (n, ...) -> logits (n, K)) in place; returns the last epoch's loss."""
    import torch

    g = torch.Generator().manual_seed(int(seed) % 2**63)
    xt, yt = torch.as_tensor(x), torch.as_tensor(y)
    # foreach: the per-tensor update's arithmetic, batched over the parameter list (issue 27)
    opt = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=weight_decay, foreach=True)
    loss_fn = torch.nn.CrossEntropyLoss()
    model.train()
    last = float("nan")
    for _ in range(epochs):
        perm = torch.randperm(len(xt), generator=g)
        total = 0.0
        for i in range(0, len(xt), batch_size):
            idx = perm[i:i + batch_size]
            opt.zero_grad()
            loss = loss_fn(model(xt[idx]), yt[idx])
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(idx)
        last = total / len(xt)
    return last


def predict(model, x: np.ndarray, batch_size: int = 256) -> np.ndarray:
    import torch

    model.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(x), batch_size):
            out.append(model(torch.as_tensor(x[i:i + batch_size])).argmax(-1).numpy())
    return np.concatenate(out)


def torch_seed(seed: int) -> int:
    """A torch-acceptable seed from a 63-bit claimbench seed."""
    return int(seed) % (2**63 - 1)


def build_seeded(factory, seed: int):
    """``factory()`` with torch's global RNG seeded locally (nn layers draw their init from it)."""
    import torch

    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(torch_seed(seed))
        return factory()
