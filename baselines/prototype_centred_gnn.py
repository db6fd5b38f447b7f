"""A plain message-passing GNN on prototype-centred node features: CURVE's centring and nothing else.

A foil for the CURVE benchmark (benchmarks/curve_scene_graph.py; issue 30), not a published
method. CURVE's step (0) (methods/curve_scene_graph.py) subtracts from every node feature the
prototype-conditioned expected node feature of the scene's environment, x~_i = x_i - q_g P, with
q_g = softmax_k(-||u_g - P_k||^2 / tau_p) over K prototypes P fitted by soft k-means on the scene
contexts u_g = mean_i x_i (eq. (8)). CURVE's deviation 4 says that in this proxy the spurious cue
is a scene-level feature shift, which this centring removes by construction. This class applies
the same centring, with CURVE's own functions and defaults, then trains and tests the plain
``MessagePassingGNN`` (no variational embeddings, no edge gates or pruning, no KL or sparsity
terms, no environment bias, no debiasing penalty): if it matches CURVE out of distribution, the
OOD gain is the dataset's construction, not CURVE's mechanism.

The prototypes: in CURVE, P receives gradient only from lambda_proto * L_proto (the centring, the
environment bias and the debiasing penalty read q and P detached), and Adam updates each tensor
elementwise, so fitting P alone with CURVE's Adam settings (lr, coupled weight decay, steps) from
the same k-means++ start (``numpy.random.default_rng(seed)``) follows CURVE's trajectory for P
(tested). The GNN's own initialisation and training are the baseline's, from the same seed.
Padding nodes stay zero (the baseline never reads them: no edges, masked readout).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from claimbench.baselines.message_passing_gnn import MessagePassingGNN
from claimbench.methods.curve_scene_graph import CURVE, kmeans_pp, scene_context

SPLITS = ("train", "id_test", "ood_test", "target_test", "target_support")


def fit_prototypes(torch, u_train: np.ndarray, curve: CURVE, seed: int):
    """(K, F) prototypes P, fitted as CURVE fits them: k-means++ start, then ``curve.epochs``
    full-batch Adam steps on lambda_proto * L_proto with CURVE's lr and weight decay."""
    rng = np.random.default_rng(seed)
    P = torch.as_tensor(kmeans_pp(u_train, curve.n_prototypes, rng),
                        dtype=torch.float32).requires_grad_()  # (K, F)
    u = torch.as_tensor(u_train, dtype=torch.float32)  # (n, F)
    opt = torch.optim.Adam([P], lr=curve.lr, weight_decay=curve.weight_decay, foreach=True)
    for _ in range(curve.epochs):
        _, l_proto = curve._prototypes(torch, {"P": P}, u)
        opt.zero_grad()
        (curve.lambda_proto * l_proto).backward()
        opt.step()
    return P.detach()


def centre_split(torch, split: dict, P, curve: CURVE) -> dict:
    """A copy of ``split`` whose real nodes' features are x_i - q_g P, CURVE's eq. (0)."""
    with torch.no_grad():
        u = torch.as_tensor(scene_context(split), dtype=torch.float32)  # (n, F)
        q, _ = curve._prototypes(torch, {"P": P}, u)  # (n, K)
        shift = (q @ P).numpy().astype(split["X"].dtype)  # (n, F)
    out = dict(split)
    out["X"] = (split["X"] - shift[:, None, :]) * split["mask"][..., None]  # (n, N, F)
    return out


@dataclass
class PrototypeCentredGNN(MessagePassingGNN):
    """The plain GNN on CURVE's prototype-centred node features (a foil; CURVE's defaults)."""

    name: ClassVar[str] = "gnn_centred"

    def run(self, data: dict, seed: int) -> dict:
        import time

        import torch

        t0 = time.perf_counter()
        # CURVE's prototype settings (K, tau_p, lambda_proto), with the Adam settings it shares
        # with this baseline (steps, lr, weight decay: the same defaults; smoke shortens both)
        curve = CURVE(epochs=self.epochs, lr=self.lr, weight_decay=self.weight_decay)
        P = fit_prototypes(torch, scene_context(data["train"]), curve, seed)
        centred = dict(data)
        for k in SPLITS:
            centred[k] = centre_split(torch, data[k], P, curve)
        out = MessagePassingGNN.run(self, centred, seed)
        out["time_s"] = time.perf_counter() - t0
        return out
