"""Behavioural structures transferred along an MDP homomorphism (state abstraction).

Paper: Yivan Zhang, Ziyan Luo, Manuel Baltieri, "Compositional Behavioral Semantics and Metrics
for State Abstraction in Reinforcement Learning", ICML 2026; arXiv:2606.25357 (v1 title without
"and Metrics"). Read: the abstract (ICML and arXiv) and third-party summaries; the body was not
available offline. The paper is theory
(coalgebraic): transition systems are F-coalgebras, an abstraction is a coalgebra homomorphism
phi: M -> M/phi, and behavioural structures defined compositionally from the one-step dynamics
(invariants, value functions, bisimulation relations, behavioural metrics) transfer between the
abstract and the concrete system along phi. We instantiate it for finite MDPs:

(1) Exact abstraction: the coarsest bisimulation (Givan, Dean & Greig 2003), by partition
    refinement: start from the partition by reward rows R(s, .), split every block by the
    signature (block, P(s, a, phi^-1 b) for all a, b) until stable (probabilities compared after
    rounding to ``decimals``). phi is then a homomorphism onto the quotient M/phi, whose
    rewards and block-transition rows are those of any member (all members agree).
(2) Value pull-back: V*_M = V*_{M/phi} o phi; the abstract V* is solved on M/phi (exact
    policy iteration) and pulled back.
(3) Invariant pull-back: on M/phi we compute (a) the closed sets C_b = the states reachable
    from block b under all actions (P(c, a, C_b) = 1 for all c in C_b, all a) and (b) for every
    b the largest controlled invariant inside B minus {b} (greatest fixed point of
    C <- {c in C : exists a, P(c, a, C) = 1}); each pulls back to phi^-1(C) in M.
(4) Metric pull-back: the bisimulation metric of Ferns et al. (Kantorovich fixed point,
    c_R = 1, c_T = gamma, ``baselines/bisimulation_metric.py``) computed on M/phi and pulled
    back, d_M(s, t) = d_{M/phi}(phi(s), phi(t)); soundness: |V*(s) - V*(t)| <= d(s, t).
(5) Bound: an exact homomorphism claims value error 0 (its output ``bound``).

Environment: random finite MDPs written here (``datasets/finite_mdps.py``; no PyPI package
generates lumpable MDPs). Optimal transport: POT (``ot.emd``).

Deviations:
1. The paper's statements are categorical (coalgebras, logics); we check their concrete
   finite-MDP corollaries named in the research note, not the theorems themselves.
2. "Metrics built from logical semantics" are instantiated as the Ferns et al. bisimulation
   metric (the standard behavioural metric whose logical characterisation is known); the
   paper's algebraic compatibility condition is not implemented separately.
3. Invariants are the two support-based notions in (3); the paper's general invariants
   (coalgebraic predicates) were not read.
4. The approximate-abstraction bound is the simulation lemma (research note (d)), realised by
   ``baselines/approximate_aggregation.py``; it is our consequence, not a stated theorem.
5. Scale: |S| up to 200, 8 abstract blocks (ours); the metric is skipped when the quotient has
   more than ``metric_max_states`` states (noisy instances have no non-trivial exact quotient).

Mutants for foils (field ``mutant``; "" is the method above, unchanged):
- ``merge_blocks``: the deliberately wrong abstraction (issue 18's negative control): the two
  bisimulation blocks with the most different abstract values V*_{M/phi} are merged (so that the
  merge is never between blocks whose values happen to tie), and the quotient takes the merged
  block's rows from its first member, as a homomorphism would; it still claims to be exact
  (bound 0).
- ``reward_only``: the transition refinement of (1) removed: states with equal reward rows are
  merged whatever their dynamics, quotient from first members, bound 0.
- ``one_step_metric``: the Kantorovich term of (4) removed (c_T = 0): d = max_a |R(s,a) - R(t,a)|.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from claimbench.api import Method
from claimbench.baselines.approximate_aggregation import block_probs, relabel
from claimbench.baselines.bisimulation_metric import bisimulation_metric

MUTANTS = ("", "merge_blocks", "reward_only", "one_step_metric")


def _signature_partition(keys: np.ndarray, decimals: int) -> np.ndarray:
    _, inv = np.unique(np.round(keys, decimals), axis=0, return_inverse=True)
    return relabel(inv.ravel())


def bisimulation_partition(R: np.ndarray, P: np.ndarray, decimals: int = 9,
                           refine: bool = True) -> np.ndarray:
    """Coarsest bisimulation of (R (n, A), P (n, A, n)) by partition refinement; phi (n,)."""
    phi = _signature_partition(R, decimals)
    while refine:
        Pb = block_probs(P, phi, phi.max() + 1)  # (n, A, nb)
        keys = np.concatenate([phi[:, None].astype(float), Pb.reshape(len(phi), -1)], axis=1)
        new = _signature_partition(keys, decimals)
        if new.max() == phi.max():
            break
        phi = new
    return phi


def representative_quotient(R: np.ndarray, P: np.ndarray, phi: np.ndarray):
    """M/phi with each block's rows taken from its first member: (R_abs (nb, A), P_abs (nb, A, nb))."""
    nb = phi.max() + 1
    first = np.array([np.flatnonzero(phi == b)[0] for b in range(nb)])
    return R[first], block_probs(P[first], phi, nb)


def closed_sets(P: np.ndarray) -> list[np.ndarray]:
    """For each state, the set reachable from it under all actions (closed under every action)."""
    n = P.shape[0]
    adj = (P > 0).any(axis=1)  # (n, n)
    out = []
    for b in range(n):
        reach = np.zeros(n, bool)
        reach[b] = True
        while True:
            new = reach | adj[reach].any(axis=0)
            if (new == reach).all():
                break
            reach = new
        out.append(reach)
    return out


def controlled_invariant(P: np.ndarray, safe: np.ndarray, atol: float = 1e-12) -> np.ndarray:
    """Largest C inside ``safe`` with: every c in C has an action a with P(c, a, C) = 1."""
    C = safe.copy()
    while True:
        stay = (P[:, :, C].sum(axis=2) >= 1 - atol).any(axis=1) & C
        if (stay == C).all():
            return C
        C = stay


def abstract_invariants(P_abs: np.ndarray) -> list[tuple[str, np.ndarray]]:
    nb = P_abs.shape[0]
    sets = [("closed", c) for c in closed_sets(P_abs)]
    for b in range(nb):
        safe = np.ones(nb, bool)
        safe[b] = False
        C = controlled_invariant(P_abs, safe)
        if C.any():
            sets.append(("controlled", C))
    return sets


def merge_two_blocks(phi: np.ndarray, V_abs: np.ndarray) -> np.ndarray:
    """The deliberately wrong abstraction: merge the blocks of largest and smallest abstract
    value (the lower-numbered block keeps its label before relabelling)."""
    hi, lo = int(np.argmax(V_abs)), int(np.argmin(V_abs))
    if hi == lo:
        return phi
    keep, drop = min(hi, lo), max(hi, lo)
    return relabel(np.where(phi == drop, keep, phi))


@dataclass
class HomomorphicAbstraction(Method):
    name = "bisim_homomorphism"
    decimals: int = 9  # ours: probabilities equal after rounding to 1e-9 are equal
    metric_max_states: int = 40  # ours: CPU budget of the Kantorovich fixed point
    metric_tol: float = 1e-12  # ours: Bellman residual of the metric at stop
    mutant: str = ""  # "" = the paper's construction; see MUTANTS

    def run(self, data, seed):
        from claimbench.datasets.finite_mdps import optimal_values

        if self.mutant not in MUTANTS:
            raise ValueError(f"unknown mutant {self.mutant!r}")
        R, P, gamma = data["R"], data["P"], data["gamma"]
        phi = bisimulation_partition(R, P, self.decimals, refine=self.mutant != "reward_only")
        R_abs, P_abs = representative_quotient(R, P, phi)
        V_abs, _ = optimal_values(R_abs, P_abs, gamma)
        if self.mutant == "merge_blocks":
            phi = merge_two_blocks(phi, V_abs)
            R_abs, P_abs = representative_quotient(R, P, phi)
            V_abs, _ = optimal_values(R_abs, P_abs, gamma)
        invariants = [(kind, C[phi]) for kind, C in abstract_invariants(P_abs)]
        out = {"phi": phi, "V_abs": V_abs, "bound": 0.0, "n_abstract": int(phi.max() + 1),
               "invariants": invariants}
        if R_abs.shape[0] <= self.metric_max_states:
            c_T = 0.0 if self.mutant == "one_step_metric" else gamma
            d_abs, iters = bisimulation_metric(R_abs, P_abs, 1.0, c_T, self.metric_tol)
            out["d"] = d_abs[np.ix_(phi, phi)]  # (n, n) pulled back
            out["metric_iters"] = iters
        return out
