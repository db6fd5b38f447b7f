"""Static k-nearest-neighbour message-passing network for structure -> sequence design (the
StructGNN / RDesign-style encoder on a fixed kNN graph over nucleotide coordinates).

Per structure (coordinates X, L x 2 or 3):
    graph   E = {(j -> i): j among the k nearest neighbours of i by ||x_i - x_j||}
    nodes   x_i = [d(i, i+-1), d(i, i+-2), d(i, i+-3), i / (L - 1), L / 60,
                   distance to the nearest non-local node (|i - j| > 3),
                   number of non-local nodes within 1.3 backbone steps]       (rotation invariant)
    edges   e_ij = [RBF(||x_i - x_j||; 9 centres 0..4), one-hot of the clipped offset j - i]
    layer   m_ij = MLP([h_i, h_j, e_ij]);  h_i <- LN(h_i + (1/k) sum_j w_ij m_ij);
            h_i <- LN(h_i + FFN(h_i))            (w_ij = 1 here; a subclass may gate edges)
    output  p(s_i) = softmax(W h_i + b) over {A, C, G, U}; the design is the per-node argmax.
Training: cross-entropy on the native sequences, Adam, mini-batches of graphs from a local
``torch.Generator``; torch is imported inside functions and runs on one thread.

Subclasses (e.g. methods/atl_fgd_rna.py) override ``_candidate_k``, ``_build``, ``_gate``
(edge weights from the message MLP's hidden layer), ``_prepare`` and ``_loss``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method

NUC = "ACGU"
RBF_CENTRES = np.linspace(0.0, 4.0, 9)
MAX_OFFSET = 4  # offsets |j - i| > 4 share a "far" bin per sign
N_NODE_FEAT = 10
N_EDGE_FEAT = len(RBF_CENTRES) + 2 * MAX_OFFSET + 2


def node_features(xy: np.ndarray) -> np.ndarray:
    """(L, N_NODE_FEAT) rotation-invariant features of one structure."""
    n = len(xy)
    D = np.linalg.norm(xy[:, None] - xy[None], axis=-1)  # (L, L)
    f = np.zeros((n, N_NODE_FEAT))
    col = 0
    for off in (1, 2, 3):
        for sgn in (-1, 1):
            j = np.arange(n) + sgn * off
            ok = (j >= 0) & (j < n)
            f[ok, col] = D[np.arange(n)[ok], j[ok]]
            col += 1
    f[:, 6] = np.arange(n) / max(n - 1, 1)
    f[:, 7] = n / 60.0
    idx = np.arange(n)
    nonlocal_mask = np.abs(idx[:, None] - idx[None]) > 3  # (L, L)
    Dn = np.where(nonlocal_mask, D, np.inf)
    f[:, 8] = np.minimum(Dn.min(1), 4.0)
    f[:, 9] = (Dn < 1.3).sum(1)
    return f


def knn_edges(xy: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(src, dst, edge features): each node i receives from its k nearest other nodes."""
    n = len(xy)
    D = np.linalg.norm(xy[:, None] - xy[None], axis=-1)  # (L, L)
    np.fill_diagonal(D, np.inf)
    kk = min(k, n - 1)
    nbr = np.argsort(D, axis=1, kind="stable")[:, :kk]  # (L, kk)
    dst = np.repeat(np.arange(n), kk)
    src = nbr.reshape(-1)
    d = D[dst, src]
    rbf = np.exp(-((d[:, None] - RBF_CENTRES[None]) ** 2) / 0.25)  # (E, 9)
    off = src - dst
    bins = np.where(off > MAX_OFFSET, 2 * MAX_OFFSET + 1,
                    np.where(off < -MAX_OFFSET, 2 * MAX_OFFSET,
                             np.where(off > 0, off + MAX_OFFSET - 1, off + MAX_OFFSET)))
    onehot = np.eye(2 * MAX_OFFSET + 2)[bins]  # (E, 10)
    return src, dst, np.concatenate([rbf, onehot], axis=1)


def featurize(coords: np.ndarray, k: int) -> dict:
    src, dst, e = knn_edges(coords, k)
    return {"x": node_features(coords), "src": src, "dst": dst, "e": e, "n": len(coords)}


def _graph_tensors(torch, g: dict) -> tuple:
    """(x, src, dst, e) of one featurized graph as tensors, converted once and kept in ``g``
    (issue 27): a training graph is collated once per epoch."""
    t = g.get("_tensors")
    if t is None:
        t = g["_tensors"] = (torch.as_tensor(g["x"], dtype=torch.float32),  # (L, F)
                             torch.as_tensor(g["src"], dtype=torch.long),  # (E_g,)
                             torch.as_tensor(g["dst"], dtype=torch.long),  # (E_g,)
                             torch.as_tensor(g["e"], dtype=torch.float32))  # (E_g, De)
    return t


def collate(torch, graphs: list[dict]) -> dict:
    """Concatenate graphs into one disjoint graph (node offsets added to edge indices)."""
    ts = [_graph_tensors(torch, g) for g in graphs]
    ns = [g["n"] for g in graphs]
    offsets = torch.as_tensor(np.cumsum([0] + ns[:-1]), dtype=torch.long)  # (G,)
    shift = torch.repeat_interleave(offsets, torch.as_tensor([len(t[1]) for t in ts]))  # (E,)
    return {"x": torch.cat([t[0] for t in ts]),  # (N, F)
            "src": torch.cat([t[1] for t in ts]) + shift,  # (E,)
            "dst": torch.cat([t[2] for t in ts]) + shift,  # (E,)
            "e": torch.cat([t[3] for t in ts]),  # (E, De)
            "gid": np.repeat(np.arange(len(graphs)), ns), "n": sum(ns)}


def seq_tensor(torch, seqs: list[str]):
    return torch.as_tensor([NUC.index(c) for s in seqs for c in s], dtype=torch.long)  # (N,)


def init_params(torch, module, gen) -> None:
    """Re-initialise every parameter from a local generator (no global seeding): weights
    U(-1/sqrt(fan_in), 1/sqrt(fan_in)), biases 0, LayerNorm gains 1."""
    with torch.no_grad():
        for name, p in module.named_parameters():
            if p.dim() >= 2:
                b = 1.0 / np.sqrt(p.shape[1])
                p.copy_(torch.empty(p.shape).uniform_(-b, b, generator=gen))
            elif "norm" in name and name.endswith("weight"):
                p.fill_(1.0)
            else:
                p.zero_()


def mlp(torch, d_in: int, d_hidden: int, d_out: int):
    nn = torch.nn
    return nn.Sequential(nn.Linear(d_in, d_hidden), nn.ReLU(), nn.Linear(d_hidden, d_out))


def edge_mlp(torch, hidden: int, d_out: int):
    """MLP([h_i, h_j, e_ij]) with its first layer split as W_i h_i + W_j h_j + W_e e_ij, so the
    node terms are computed once per node and gathered (same function, cheaper); applied in
    :func:`mp_layer`."""
    nn = torch.nn
    return nn.ModuleDict({"w_i": nn.Linear(hidden, hidden), "w_j": nn.Linear(hidden, hidden, bias=False),
                          "w_e": nn.Linear(N_EDGE_FEAT, hidden, bias=False),
                          "out": nn.Linear(hidden, d_out)})


def build_encoder(torch, hidden: int, n_layers: int):
    """ModuleDict: input MLP, per-layer message MLP / FFN / two LayerNorms, output head."""
    nn = torch.nn
    layers = nn.ModuleList()
    for _ in range(n_layers):
        layers.append(nn.ModuleDict({
            "msg": edge_mlp(torch, hidden, hidden),
            "ffn": mlp(torch, hidden, 2 * hidden, hidden),
            "norm1": nn.LayerNorm(hidden), "norm2": nn.LayerNorm(hidden)}))
    return nn.ModuleDict({"inp": mlp(torch, N_NODE_FEAT, hidden, hidden), "layers": layers,
                          "head": nn.Linear(hidden, 4)})


def mp_layer(torch, layer, h, batch, k: int, gate=None):
    """One message-passing layer. ``gate`` maps the message MLP's hidden activations (E, h) to
    edge weights w (E,) (None: all 1). Returns (h', w)."""
    msg = layer["msg"]
    # Gathers by index_select, not h[idx] (issue 27): the same rows, and its backward
    # (index_add_) sums them in the same order as h[idx]'s accumulating index_put_, faster.
    pre = (torch.index_select(msg["w_i"](h), 0, batch["dst"])  # (E, h)
           + torch.index_select(msg["w_j"](h), 0, batch["src"]) + msg["w_e"](batch["e"]))
    hid = torch.relu(pre)  # (E, h)
    m = msg["out"](hid)  # (E, h)
    w = None if gate is None else gate(hid)  # (E,)
    if w is not None:
        m = m * w.unsqueeze(-1)  # (E, h)
    agg = torch.zeros_like(h).index_add_(0, batch["dst"], m) / k  # (N, h)
    h = layer["norm1"](h + agg)
    return layer["norm2"](h + layer["ffn"](h)), w  # (N, h), (E,) or None


@dataclass
class KnnMPNN(Method):
    """Static kNN message-passing design network; ``k`` is the graph's degree."""

    name: ClassVar[str] = "knn_mpnn"
    k: int = 8  # research note: static kNN with k = 8
    hidden: int = 32  # ours: CPU scale
    n_layers: int = 4  # research note: 4-layer network
    epochs: int = 20  # ours: passes over the training structures
    batch_size: int = 16  # ours: graphs per mini-batch
    lr: float = 3e-3  # ours (Adam)

    # -- hooks for subclasses -------------------------------------------------------------
    def _candidate_k(self) -> int:
        return self.k

    def _build(self, torch, data: dict):
        return build_encoder(torch, self.hidden, self.n_layers)

    def _gate(self, torch, model, layer_idx: int):
        """Edge-weight function of layer ``layer_idx`` (hidden activations -> (E,)), or None."""
        return None

    def _prepare(self, torch, data: dict, gen) -> None:
        """Called before training (a teacher could be fitted here)."""

    def _encode(self, torch, model, batch):
        """(h (N, hidden), list of per-layer edge weights or None)."""
        h = model["inp"](batch["x"])  # (N, h)
        ws = []
        for li, layer in enumerate(model["layers"]):
            h, w = mp_layer(torch, layer, h, batch, self._candidate_k(),
                            self._gate(torch, model, li))
            ws.append(w)
        return h, ws

    def _loss(self, torch, model, batch, y, seqs, gen):
        import torch.nn.functional as F

        h, _ = self._encode(torch, model, batch)
        return F.cross_entropy(model["head"](h), y)

    # -- training and design ----------------------------------------------------------------
    def run(self, data: dict, seed: int) -> dict:
        import torch

        t0 = time.perf_counter()
        old = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            gen = torch.Generator().manual_seed(int(seed) % (2**63 - 1))
            k = self._candidate_k()
            train = [featurize(g["coords"], k) for g in data["train"]]
            seqs = [g["seq"] for g in data["train"]]
            test = [featurize(g["coords"], k) for g in data["test"]]
            self._prepare(torch, data, gen)
            model = self._build(torch, data)
            init_params(torch, model, gen)
            opt = torch.optim.Adam(model.parameters(), lr=self.lr, foreach=True)
            losses = []
            n = len(train)
            for _ in range(self.epochs):
                perm = torch.randperm(n, generator=gen).tolist()
                for b0 in range(0, n, self.batch_size):
                    idx = perm[b0:b0 + self.batch_size]
                    batch = collate(torch, [train[i] for i in idx])
                    bseqs = [seqs[i] for i in idx]
                    loss = self._loss(torch, model, batch, seq_tensor(torch, bseqs), bseqs, gen)
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
                    losses.append(float(loss.detach()))
            model.eval()
            with torch.no_grad():
                batch = collate(torch, test)
                h, ws = self._encode(torch, model, batch)
                pred = model["head"](h).argmax(-1).numpy()  # (N,)
            designs, off = [], 0
            for g in test:
                designs.append("".join(NUC[c] for c in pred[off:off + g["n"]]))
                off += g["n"]
            kept = [float((w > 0.5).float().mean()) for w in ws if w is not None]
            return {"designs": designs,
                    "edges_kept": float(np.mean(kept)) if kept else 1.0,
                    "time_s": time.perf_counter() - t0,
                    "traces": {"train_loss": {"x": list(range(len(losses))), "y": losses}}}
        finally:
            torch.set_num_threads(old)
