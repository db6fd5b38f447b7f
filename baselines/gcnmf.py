"""GCNmf (Taguchi, Liu & Murata, "Graph Convolutional Networks for Graphs Containing Missing
Features", Future Generation Computer Systems 117, 2021, arXiv 2007.04583): a GCN whose first
layer integrates a Gaussian mixture model (GMM) of the features, so that missing entries enter
as distributions, not values.

Read: the abstract; the GCNmf classes the authors of arXiv 2601.04855 run as their baseline
(francescoferrini/gnnmim, models.py `GCNmfConv`, `GCNmf`, `ex_relu`, `init_gmm`; utils.py
`evaluate_gcnmf`). The FGCS paper's body was not read; the formulas below are that code's.

First layer, per mixture component k (weights pi_k, means mu_k, diagonal variances s_k, all
learned, initialised by a diagonal sklearn GaussianMixture on the mean-imputed features):
  M_k = X with missing cells := mu_k,   V_k = 0 on observed cells, s_k on missing cells;
  mean_k = A_hat (M_k W + b),           var_k = (A_hat * A_hat) (V_k (W * W));
  E_k = E[ReLU(N(mean_k, var_k))] = sd (phi(w) + w Phi(w)), w = mean_k / sd (ReLU(mean) at var 0);
  gamma_k(i) = softmax_k(log pi_k + log N(M_k[i] | mu_k, s_k))   (responsibilities);
  H = sum_k gamma_k E_k.
Second layer: logits = A_hat H W2 + b2 (PyG GCNConv in their code). A_hat = D^-1/2 (A+I) D^-1/2.
Settings of evaluate_gcnmf: 5 components, hidden 16, dropout 0, Adam lr 0.01, weight decay
1e-5, at most 1000 epochs, patience 40 on validation macro-F1 (best weights restored).

Deviations:
  1. The first-layer weight is glorot-uniform with gain 1.414 and bias 0, as in GCNmfConv; the
     second layer uses baselines/gcn.py's glorot init (PyG GCNConv's), and plain torch replaces
     PyG.
  2. The GMM is fitted on the features mean-imputed over all nodes, as init_gmm does
     (SimpleImputer on the whole matrix; no labels are used), with random_state = seed mod 2^32.
  3. The unused pieces of their GCNmfConv (a plain-GCN branch and fusion strategies after the
     `return`) are left out; they do not change the output.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.gcn import (_symmetric_spmm, fit_early_stopped, normalized_adjacency,
                                      training_outputs)


def expected_relu(mean, var):
    """E[max(0, Z)] for Z ~ N(mean, var), elementwise (torch); ReLU(mean) where var = 0."""
    import torch

    zero = var <= 0
    sd = torch.sqrt(torch.where(zero, torch.ones_like(var), var))
    w = mean / sd
    pdf = torch.exp(-0.5 * w * w) / math.sqrt(2 * math.pi)
    cdf = 0.5 * (1 + torch.erf(w / math.sqrt(2)))
    return torch.where(zero, torch.relu(mean), sd * (pdf + w * cdf))


def _csr(torch, rows, cols, vals, n):
    """A symmetric (n, n) matrix as a torch CSR tensor (the fast CPU path of baselines/gcn.py)."""
    import warnings

    order = np.lexsort((cols, rows))
    counts = np.bincount(rows, minlength=n)
    with warnings.catch_warnings():  # "sparse CSR support is in beta"
        warnings.simplefilter("ignore", UserWarning)
        return torch.sparse_csr_tensor(
            torch.as_tensor(np.concatenate([[0], np.cumsum(counts)]), dtype=torch.int64),
            torch.as_tensor(cols[order], dtype=torch.int64),
            torch.as_tensor(vals[order], dtype=torch.float32), (n, n), check_invariants=False)


def fit_gcnmf(data: dict, *, components: int, hidden: int, dropout: float, lr: float,
              weight_decay: float, epochs: int, patience: int, seed: int) -> dict:
    import torch
    from sklearn.mixture import GaussianMixture

    from claimbench.baselines.gcn import impute

    gen = torch.Generator().manual_seed(int(seed))
    x_np = np.asarray(data["x"], dtype=float)
    n, d = x_np.shape
    k_cls = int(data["n_classes"])
    gmm = GaussianMixture(components, covariance_type="diag",
                          random_state=int(seed) % 2 ** 32)  # sklearn: 32-bit seeds
    gmm.fit(impute(x_np, "mean"))
    rows, cols, vals = normalized_adjacency(data["edges"], n)
    adj = _csr(torch, rows, cols, vals, n)
    adj2 = _csr(torch, rows, cols, vals ** 2, n)  # A_hat * A_hat (elementwise)
    spmm = _symmetric_spmm(torch)
    miss = torch.as_tensor(np.isnan(x_np))  # (n, d)
    x = torch.as_tensor(np.nan_to_num(x_np), dtype=torch.float32)  # (n, d)
    any_missing = bool(miss.any())

    def glorot(fan_in, fan_out, gain=1.0):
        bound = gain * math.sqrt(6.0 / (fan_in + fan_out))
        return ((torch.rand(fan_in, fan_out, generator=gen) * 2 - 1) * bound).requires_grad_()

    logp = torch.tensor(np.log(gmm.weights_), dtype=torch.float32, requires_grad=True)  # (K,)
    means = torch.tensor(gmm.means_, dtype=torch.float32, requires_grad=True)  # (K, d)
    logvars = torch.tensor(np.log(gmm.covariances_), dtype=torch.float32,
                           requires_grad=True)  # (K, d)
    w1, b1 = glorot(d, hidden, 1.414), torch.zeros(hidden, requires_grad=True)
    w2, b2 = glorot(hidden, k_cls), torch.zeros(k_cls, requires_grad=True)
    params = [logp, means, logvars, w1, b1, w2, b2]

    def forward(training: bool):
        var = torch.exp(logvars)  # (K, d)
        m = torch.where(miss[None], means[:, None, :], x[None])  # (K, n, d)
        v = torch.where(miss[None], var[:, None, :], torch.zeros(()))  # (K, n, d)
        if training and dropout > 0:
            keep = (torch.rand(m.shape, generator=gen) >= dropout).float() / (1 - dropout)
            m, v = m * keep, v * keep
        tm = m @ w1 + b1  # (K, n, h)
        kk, _, hh = tm.shape
        # one sparse product for all components: (K, n, h) -> (n, K h) and back
        mean = spmm(adj, tm.permute(1, 0, 2).reshape(n, kk * hh))
        mean = mean.reshape(n, kk, hh).permute(1, 0, 2)  # (K, n, h)
        if any_missing:
            tv = v @ (w1 * w1)  # (K, n, h)
            cov = spmm(adj2, tv.permute(1, 0, 2).reshape(n, kk * hh))
            cov = cov.reshape(n, kk, hh).permute(1, 0, 2)  # (K, n, h)
        else:  # V = 0: the products above are exact zeros and carry no gradient
            cov = torch.zeros_like(mean)  # (K, n, h)
        e = expected_relu(mean, cov)  # (K, n, h)
        # Without dropout, m - mu_k is an exact 0 on missing cells and m = x (no gradient) on
        # observed ones, so the path through m adds only zeros to mu's gradient: m is detached
        m_ll = m if training and dropout > 0 else m.detach()  # (K, n, d)
        log_n = (-0.5 * ((m_ll - means[:, None, :]) ** 2 / var[:, None, :]).sum(2)
                 - 0.5 * d * math.log(2 * math.pi) - 0.5 * logvars.sum())  # (K, n)
        gamma = torch.softmax(logp[:, None] + log_n, dim=0)  # (K, n)
        h = (e * gamma[:, :, None]).sum(0)  # (n, h)
        return spmm(adj, h @ w2) + b2  # (n, classes)

    return fit_early_stopped(params, forward, data, lr=lr, weight_decay=weight_decay,
                             epochs=epochs, patience=patience, deterministic=dropout <= 0)


@dataclass
class GCNmf(Method):
    name: ClassVar[str] = "gcnmf"
    components: int = 5  # 2601.04855 evaluate_gcnmf: n_components=5
    hidden: int = 16  # evaluate_gcnmf: nhid=16
    dropout: float = 0.0  # evaluate_gcnmf: dropout=0.0
    lr: float = 0.01  # evaluate_gcnmf: Adam lr 0.01
    weight_decay: float = 1e-5  # evaluate_gcnmf: weight_decay=1e-5
    epochs: int = 1000  # main.py: evaluate_gcnmf(max_epochs=1000)
    patience: int = 40  # main.py: patience=40

    def run(self, data: dict, seed: int) -> dict:
        t0 = time.perf_counter()
        fit = fit_gcnmf(data, components=self.components, hidden=self.hidden,
                        dropout=self.dropout, lr=self.lr, weight_decay=self.weight_decay,
                        epochs=self.epochs, patience=self.patience, seed=seed)
        return training_outputs(fit, time.perf_counter() - t0)
