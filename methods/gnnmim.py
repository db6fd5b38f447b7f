"""GNNmim: a graph neural network fed with missing-indicator features.

Paper: "Rethinking GNNs and Missing Features: Challenges, Evaluation and a Robust Solution",
F. Ferrini, V. Lachi, A. Longa, B. Lepri, A. Matono, A. Passerini, X. Liu, M. Jaeger,
arXiv 2601.04855, https://arxiv.org/abs/2601.04855 (text read: arXiv v2 abstract and
introduction, the authors' blog post, and the code francescoferrini/gnnmim at a84241b:
main.py, utils.py, models.py).

Implemented:
  (1) Observed data: X_obs (NaN where missing) and the mask M in {0,1}^{n x d}, M_ij = 1 iff
      X_ij is missing (the paper's convention); the target is P(Y | X_obs, M).
  (2) Missing-indicator input: X_mim = [ X_obs with NaN -> 0  ||  1 - M ]  in R^{n x 2d}.
      The authors' main.py appends the *observed* flag (~mask) and sets NaN to 0; the paper's
      text writes the mask M. Both carry the same information; ``indicator="missing"``
      appends M instead.
  (3) A plain 2-layer GCN on X_mim:  Z = A_hat ReLU(A_hat X_mim W1 + b1) W2 + b2,
      A_hat = D^-1/2 (A + I) D^-1/2 (baselines/gcn.py), trained with cross-entropy on the
      training nodes, Adam lr 0.01, hidden 128, dropout 0.5, at most 500 epochs, early
      stopping on validation macro-F1 with patience 50 (code: evaluate_gcn, mod="gnnmim").

Deviations:
  1. The best-validation weights predict the test nodes (the predictions of that epoch are
     kept: the same numbers as restoring a deep copy of its weights). The authors' loop keeps
     `model.state_dict()` by reference, which in effect returns the last epoch's weights.
  2. Plain torch (no PyG), full batch, sparse A_hat; same layer as PyG's GCNConv (glorot
     weights, bias added after propagation).
  3. The indicator follows the code (1 = observed), not the text's M; both are fields.
  4. The quick grid caps training at 150 epochs (see the benchmark).

Observed here (not in the paper): with hundreds of indicator columns that are (nearly)
constant -- the observed flag at p = 0, or M at p = 0.9, on the bag-of-words graph -- Adam at
lr 0.01 moves all their weights together and some seeds stall at chance level; dropping the
constant columns or lr 1e-3 removes it. The dense graph (5 columns) is unaffected.

Mutant for foils (not the paper's method; the default ``mutant=""`` is GNNmim unchanged):
  ``mutant="indicator_only"`` drops the imputed feature half of X_mim and keeps only the
     indicator columns: the same GCN told which entries are missing but not their values (a
     featureless GCN when nothing is missing).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.gcn import train_node_classifier, training_outputs
from claimbench.baselines.mlp_indicators import missing_indicator_features


@dataclass
class GNNmim(Method):
    """GCN on zero-imputed features concatenated with the missing-indicator mask."""

    name: ClassVar[str] = "gnnmim"
    imputation: str = "zero"  # code main.py: torch.nan_to_num(..., nan=0.0)
    indicator: str = "observed"  # code main.py: miss_flag = ~mask (1 = observed)
    hidden: int = 128  # code: evaluate_gcn, mod="gnnmim", hidden_channels=128
    dropout: float = 0.5  # code: GCNFull dropout 0.5
    lr: float = 0.01  # code: lr = 0.01
    epochs: int = 500  # code: max_epochs=500
    patience: int = 50  # code: patience=50 on validation macro-F1
    mutant: str = ""  # foil only: "indicator_only" (see the header; not the paper's method)

    def run(self, data: dict, seed: int) -> dict:
        t0 = time.perf_counter()
        rows = np.concatenate([data["train_idx"], data["val_idx"]])
        feats = missing_indicator_features(data["x"], self.imputation, rows, self.indicator)
        if self.mutant == "indicator_only":
            feats = feats[:, data["x"].shape[1]:]  # the flags only
        elif self.mutant:
            raise ValueError(f"unknown mutant {self.mutant!r}")
        fit = train_node_classifier(feats, data, hidden=self.hidden, dropout=self.dropout,
                                    lr=self.lr, epochs=self.epochs, patience=self.patience,
                                    seed=seed)
        return training_outputs(fit, time.perf_counter() - t0)
