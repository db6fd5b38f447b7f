"""Zero-cost proxies of a network at initialisation, and search by proxy ranking.

Proxies (Abdelfattah et al., "Zero-Cost Proxies for Lightweight NAS", ICLR 2021; Mellor et al.,
"Neural Architecture Search without Training", ICML 2021), for a torch module and one batch:

* synflow: R = 1^T f_{|theta|}(1) with every parameter replaced by its absolute value, BN as
  identity (eval mode at init), float64; score = sum |theta * dR/dtheta|.
* grad_norm: sum over parameter tensors of ||dL/dtheta||_2 for the cross-entropy L of the batch.
* snip: sum |theta * dL/dtheta| (connection sensitivity).
* naswot: log|K_H| with K_H[a, b] = number of ReLU units on which inputs a and b agree
  (both active or both inactive), summed over every ``nn.ReLU`` of the network.

:class:`ZeroCostRanking` is the zero-shot searcher: it spends its true evaluations on the cells
of the pool in decreasing order of one proxy (the proxy is its rank predictor).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method

PROXIES = ("synflow", "grad_norm", "snip", "naswot")


def synflow(net, x) -> float:
    import torch

    m = copy.deepcopy(net).double().eval()
    with torch.no_grad():
        for p in m.parameters():
            p.abs_()
    m.zero_grad()
    ones = torch.ones((1, *x.shape[1:]), dtype=torch.float64)  # (1, ...) all-ones input
    m(ones).sum().backward()
    return float(sum((p * p.grad).abs().sum().item() for p in m.parameters() if p.grad is not None))


def _ce_grads(net, x, y):
    import torch

    m = copy.deepcopy(net).train()
    m.zero_grad()
    torch.nn.functional.cross_entropy(m(x), y).backward()
    return [(p, p.grad) for p in m.parameters() if p.grad is not None]


def _grad_norm(grads) -> float:
    return float(sum(g.norm().item() for _, g in grads))


def _snip(grads) -> float:
    return float(sum((p * g).abs().sum().item() for p, g in grads))


def grad_norm(net, x, y) -> float:
    return _grad_norm(_ce_grads(net, x, y))


def snip(net, x, y) -> float:
    return _snip(_ce_grads(net, x, y))


def naswot(net, x) -> float:
    import torch

    m = copy.deepcopy(net).train()
    codes = []

    def hook(_mod, _inp, out):
        codes.append((out.detach() > 0).reshape(len(x), -1).double())  # (B, units)

    hs = [mod.register_forward_hook(hook) for mod in m.modules()
          if isinstance(mod, torch.nn.ReLU)]
    with torch.no_grad():
        m(x)
    for h in hs:
        h.remove()
    if not codes:
        return 0.0
    c = torch.cat(codes, dim=1)  # (B, units)
    k = c @ c.T + (1 - c) @ (1 - c).T  # (B, B) Hamming agreements
    sign, logdet = torch.linalg.slogdet(k)
    return float(logdet) if float(sign) > 0 else float("-inf")


def all_proxies(net, x, y) -> dict:
    s = synflow(net, x)
    grads = _ce_grads(net, x, y)  # one cross-entropy backward for both (it is deterministic)
    return {"synflow": s, "grad_norm": _grad_norm(grads), "snip": _snip(grads),
            "naswot": naswot(net, x)}


def proxy_scores(zcp: np.ndarray, names, proxy: str) -> np.ndarray:
    """One proxy column, non-finite values ranked last."""
    s = np.asarray(zcp, dtype=float)[:, list(names).index(proxy)].copy()  # (n,)
    s[~np.isfinite(s)] = -np.inf
    return s


@dataclass
class ZeroCostRanking(Method):
    """Evaluate the pool in decreasing order of one zero-cost proxy (ties broken at random)."""

    name: ClassVar[str] = "zcp_rank"
    proxy: str = "naswot"  # the strongest single proxy on NAS-Bench-201 in Abdelfattah et al.

    def run(self, data, seed: int) -> dict:
        from claimbench.datasets.nas_cell_pool import PoolOracle

        rng = np.random.default_rng(seed)
        s = proxy_scores(data["zcp"], data["zcp_names"], self.proxy)
        order = np.lexsort((rng.random(len(s)), -s))  # by score desc, random tie-break
        oracle = PoolOracle(data["val_acc"], data["budget"])
        for i in order[:oracle.budget]:
            oracle(int(i))
        probe_scores = np.where(np.isfinite(s), s, np.nanmin(s[np.isfinite(s)]) - 1.0)
        return {"queried": oracle.queried, "probe_scores": probe_scores.tolist()}
