"""Feature Propagation (Rossi et al., "On the Unreasonable Effectiveness of Feature Propagation
in Learning on Graphs with Missing Node Features", LoG 2022, arXiv 2111.12128) + a GCN.

Imputation, per feature channel, with known entries K and unknown entries U:
  X^(0) = X_obs with missing cells set to 0;
  X^(t+1) = S X^(t), then the known cells are reset to their observed values;
with S = D^-1/2 A D^-1/2 (no self-loops; Rossi et al.). The iteration is a gradient flow of
the Dirichlet energy; its fixed point on U solves (I - S)_UU x_U = S_UK x_K, the harmonic
extension of the known values (the classical one, linear interpolation on a path, for
S = D^-1 A, offered as ``normalization="rw"``). A 2-layer GCN is then trained on the filled
features; settings follow the authors' code for arXiv 2601.04855 (main.py calling
evaluate_fp): 40 iterations, hidden 64, dropout 0.5, Adam lr 0.01, at most 1000 epochs,
patience 40.

``no_propagate=test`` follows the authors' FeaturePropagation for arXiv 2601.04855 (models.py,
get_propagation_matrix(no_propagate_mask=test_mask)): the normalised matrix S is built on the
whole graph, then every edge whose source is a test node is dropped (weights unchanged), so a
test node's observed values never reach another node while it still receives. The default
(``""``) is Rossi et al.'s transductive diffusion.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.gcn import (normalized_adjacency, train_node_classifier,
                                      training_outputs)


def feature_propagation(x: np.ndarray, edges: np.ndarray, iterations: int = 40,
                        normalization: str = "sym",
                        silent: np.ndarray | None = None) -> np.ndarray:
    """Fill the NaN cells of ``x`` (n, d) by diffusion over the graph; known cells unchanged.
    ``silent``: node indices whose values are not propagated (their out-edges dropped)."""
    from scipy import sparse

    n = x.shape[0]
    rows, cols, vals = normalized_adjacency(edges, n, self_loops=False, kind=normalization)
    if silent is not None and len(silent):
        keep = ~np.isin(cols, silent)  # out[row] += S[row, col] out[col]: col is the source
        rows, cols, vals = rows[keep], cols[keep], vals[keep]
    s = sparse.csr_matrix((vals, (rows, cols)), shape=(n, n))
    known = ~np.isnan(x)
    x_known = np.where(known, x, 0.0)
    out = x_known.copy()  # (n, d)
    for _ in range(iterations):
        out = s @ out
        out[known] = x_known[known]
    return out


@dataclass
class FeaturePropagationGCN(Method):
    name: ClassVar[str] = "fp"
    iterations: int = 40  # Rossi et al. / code evaluate_fp: num_iterations = 40
    normalization: str = "sym"  # Rossi et al.: D^-1/2 A D^-1/2
    hidden: int = 64  # code main.py: evaluate_fp(hidden_channels=64)
    dropout: float = 0.5  # code evaluate_fp: dropout 0.5
    lr: float = 0.01  # code evaluate_fp: Adam lr 0.01
    epochs: int = 1000  # code main.py: max_epochs=1000
    patience: int = 40  # code main.py: patience=40
    no_propagate: str = ""  # "test": authors' gnnmim code (see the module docstring)

    def run(self, data: dict, seed: int) -> dict:
        t0 = time.perf_counter()
        if self.no_propagate not in ("", "test"):
            raise ValueError(f"unknown no_propagate {self.no_propagate!r}")
        silent = data["test_idx"] if self.no_propagate == "test" else None
        feats = feature_propagation(data["x"], data["edges"], self.iterations, self.normalization,
                                    silent)
        fit = train_node_classifier(feats, data, hidden=self.hidden, dropout=self.dropout,
                                    lr=self.lr, epochs=self.epochs, patience=self.patience,
                                    seed=seed)
        return training_outputs(fit, time.perf_counter() - t0)
