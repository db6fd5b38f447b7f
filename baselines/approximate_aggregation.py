"""Approximate state aggregation of a finite MDP (epsilon-homogeneous partitions, Dean, Givan &
Leach, UAI 1997; approximate model-similarity abstraction, Abel, Hershkowitz & Littman, ICML
2016) and the helpers every partition-based abstraction shares.

A partition phi: S -> B is built greedily: a state joins the first block whose representative
(its first member) has rewards within ``eps_r`` (max over actions) and, after a refinement pass,
block-transition probabilities within ``eps_t`` (L1, per action); passes repeat until the
partition is stable. The abstract MDP averages rewards and block-transition rows over a block's
members (uniform weighting). Its value error is bounded by the simulation lemma:

    max_s |V*_M(s) - V*_abs(phi(s))| <= (eps_R + gamma eps_T) / (1 - gamma),
    eps_R = max_{s,a} |R(s,a) - R_abs(phi(s),a)|,
    eps_T = max_{s,a} |sum_b (P(s,a,phi^-1 b) - P_abs(phi(s),a,b)) V*_abs(b)|,

both measured on the abstraction actually built, so the bound is sound for any partition.

Mutant (field ``mutant``; "" is the algorithm above): ``reward_only`` aggregates on rewards
alone (no transition refinement) and drops the eps_T term of the bound, a model error it never
looked at.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from claimbench.api import Method


def block_probs(P: np.ndarray, phi: np.ndarray, nb: int) -> np.ndarray:
    """P(s, a, phi^-1 b). P: (n, A, n), phi: (n,) -> (n, A, nb)."""
    onehot = np.zeros((len(phi), nb))
    onehot[np.arange(len(phi)), phi] = 1.0
    return P @ onehot


def relabel(phi: np.ndarray) -> np.ndarray:
    """Blocks numbered 0..k-1 in order of first appearance."""
    _, first, inv = np.unique(phi, return_index=True, return_inverse=True)
    order = np.argsort(np.argsort(first))
    return order[inv]


def average_quotient(R: np.ndarray, P: np.ndarray, phi: np.ndarray):
    """Abstract MDP with member-averaged rewards and block-transition rows."""
    nb = phi.max() + 1
    counts = np.bincount(phi, minlength=nb).astype(float)
    Pb = block_probs(P, phi, nb)  # (n, A, nb)
    R_abs = np.zeros((nb, R.shape[1]))
    P_abs = np.zeros((nb, R.shape[1], nb))
    np.add.at(R_abs, phi, R)
    np.add.at(P_abs, phi, Pb)
    return R_abs / counts[:, None], P_abs / counts[:, None, None]


def model_error_bound(R, P, gamma, phi, R_abs, P_abs, V_abs, transitions: bool = True) -> float:
    """(eps_R + gamma eps_T) / (1 - gamma), measured on the abstraction (module docstring)."""
    eps_R = np.abs(R - R_abs[phi]).max()
    Pb = block_probs(P, phi, R_abs.shape[0])  # (n, A, nb)
    eps_T = np.abs((Pb - P_abs[phi]) @ V_abs).max() if transitions else 0.0
    return float((eps_R + gamma * eps_T) / (1 - gamma))


def greedy_aggregate(X: np.ndarray, eps: float, init: np.ndarray | None = None) -> np.ndarray:
    """Greedy leader clustering of rows of X (sup-norm within eps), inside the blocks of init."""
    n = X.shape[0]
    init = np.zeros(n, dtype=int) if init is None else init
    phi = np.full(n, -1)
    leaders: list[int] = []
    for s in range(n):
        for b, l in enumerate(leaders):
            if init[l] == init[s] and np.abs(X[s] - X[l]).max() <= eps:
                phi[s] = b
                break
        else:
            phi[s] = len(leaders)
            leaders.append(s)
    return phi


@dataclass
class EpsilonAggregation(Method):
    name = "eps_aggregation"
    eps_r: float = 0.1  # ours: reward tolerance (twice the datasets' noise half-width 0.05)
    eps_t: float = 0.05  # ours: L1 tolerance on block-transition rows, per action
    max_passes: int = 50  # ours
    mutant: str = ""  # "" = the algorithm; "reward_only" (module docstring)

    def run(self, data, seed):
        from claimbench.datasets.finite_mdps import optimal_values

        R, P, gamma = data["R"], data["P"], data["gamma"]
        phi = relabel(greedy_aggregate(R, self.eps_r))
        if self.mutant not in ("", "reward_only"):
            raise ValueError(f"unknown mutant {self.mutant!r}")
        if not self.mutant:
            for _ in range(self.max_passes):
                Pb = block_probs(P, phi, phi.max() + 1)  # (n, A, nb)
                new = relabel(_refine_l1(Pb, phi, self.eps_t))
                if new.max() == phi.max():
                    break
                phi = new
        R_abs, P_abs = average_quotient(R, P, phi)
        V_abs, _ = optimal_values(R_abs, P_abs, gamma)
        bound = model_error_bound(R, P, gamma, phi, R_abs, P_abs, V_abs,
                                  transitions=not self.mutant)
        return {"phi": phi, "V_abs": V_abs, "bound": bound, "n_abstract": int(phi.max() + 1)}


def _refine_l1(Pb: np.ndarray, phi: np.ndarray, eps: float) -> np.ndarray:
    """Split each block by leader clustering on per-action L1 distances of block rows."""
    n = len(phi)
    out = np.full(n, -1)
    leaders: list[int] = []
    for s in range(n):
        for b, l in enumerate(leaders):
            if phi[l] == phi[s] and np.abs(Pb[s] - Pb[l]).sum(axis=1).max() <= eps:
                out[s] = b
                break
        else:
            out[s] = len(leaders)
            leaders.append(s)
    return out
