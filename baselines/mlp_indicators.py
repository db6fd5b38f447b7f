"""MLP with the missing-indicator method (no graph): the tabular missing-indicator baseline.

Input [X_obs with NaN -> 0 || indicator] (the indicator method of the tabular missing-data
literature, e.g. Van Ness et al. 2023; the flag is 1 where observed, as GNNmim's code, or 1
where missing with ``indicator="missing"``), fed to a 2-layer MLP: the same
network and training loop as the GCN of baselines/gcn.py with A_hat replaced by the identity.
It isolates what the graph adds to the indicator input.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.gcn import impute, train_node_classifier, training_outputs


def missing_indicator_features(x: np.ndarray, imputation: str = "zero",
                               rows: np.ndarray | None = None,
                               indicator: str = "observed") -> np.ndarray:
    """[imputed X || flag]: flag = 1 where X is observed ("observed") or missing ("missing")."""
    missing = np.isnan(x)  # (n, d)
    if indicator not in ("observed", "missing"):
        raise ValueError(f"unknown indicator {indicator!r}")
    flag = (~missing if indicator == "observed" else missing).astype(float)
    return np.concatenate([impute(x, imputation, rows), flag], axis=1)  # (n, 2d)


@dataclass
class MLPIndicators(Method):
    name: ClassVar[str] = "mlp_mim"
    imputation: str = "zero"  # as GNNmim (arXiv 2601.04855 code): zero fill next to the flag
    indicator: str = "observed"  # as GNNmim's code: 1 = observed
    hidden: int = 128  # ours: the GNNmim settings, so only the graph differs
    dropout: float = 0.5
    lr: float = 0.01
    epochs: int = 500
    patience: int = 50

    def run(self, data: dict, seed: int) -> dict:
        t0 = time.perf_counter()
        rows = np.concatenate([data["train_idx"], data["val_idx"]])
        feats = missing_indicator_features(data["x"], self.imputation, rows, self.indicator)
        fit = train_node_classifier(feats, data, hidden=self.hidden, dropout=self.dropout,
                                    lr=self.lr, epochs=self.epochs, patience=self.patience,
                                    seed=seed, use_graph=False)
        return training_outputs(fit, time.perf_counter() - t0)
