"""Random finite MDPs with a planted exact abstraction (a lumpable block structure).

The generator draws an abstract MDP on ``n_blocks`` blocks and splits it into ``n_states``
concrete states: every state of a block has the block's rewards, and its transition mass to a
target block is the abstract probability, spread over that block's states by a Dirichlet draw of
its own. The block map is then a homomorphism onto the abstract MDP (states of one block are
bisimilar) while the concrete rows all differ. ``eps > 0`` adds independent uniform noise in
[-eps, eps] to every concrete reward: the block map becomes an approximate abstraction.

Structure for invariants: blocks of the first half ("region A") move only within region A under
every action (region A is closed); under action 0 the second half (region B) stays in region B,
other actions leave it (region B is a controlled invariant, not a closed set).

Rewards of the abstract MDP take one of ``reward_levels`` values drawn once per instance, so
blocks often share reward rows (the partition refinement needs the transitions to separate them)
while optimal values rarely tie (with two levels {0, 1}, whole regions had V* = 1/(1 - gamma)).

``optimal_values`` (exact policy iteration) is the reference V* that metrics compare against.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from claimbench.api import Dataset, Instance


def policy_values(R: np.ndarray, P: np.ndarray, gamma: float, pi: np.ndarray) -> np.ndarray:
    """V^pi by one linear solve. R: (n, A), P: (n, A, n), pi: (n,) action indices."""
    n = R.shape[0]
    idx = np.arange(n)
    P_pi = P[idx, pi]  # (n, n)
    return np.linalg.solve(np.eye(n) - gamma * P_pi, R[idx, pi])  # (n,)


def optimal_values(R: np.ndarray, P: np.ndarray, gamma: float, max_iter: int = 1000):
    """V* and a greedy optimal policy by Howard's policy iteration (exact up to round-off)."""
    n = R.shape[0]
    pi = np.zeros(n, dtype=int)
    for _ in range(max_iter):
        V = policy_values(R, P, gamma, pi)
        Q = R + gamma * P @ V  # (n, A)
        # keep the current action unless another is better beyond round-off (no cycling on ties)
        best = Q.argmax(axis=1)
        improve = Q[np.arange(n), best] > Q[np.arange(n), pi] + 1e-12
        if not improve.any():
            return V, pi
        pi = np.where(improve, best, pi)
    raise RuntimeError("policy iteration did not converge")


@dataclass
class LumpableMDP(Dataset):
    name = "lumpable_mdp"
    n_states: int = 60  # note's plan: |S| = 30-200
    n_blocks: int = 8  # ours: abstract size small enough for the Kantorovich fixed point
    n_actions: int = 3  # note's plan: |A| = 3
    gamma: float = 0.9  # note's plan
    eps: float = 0.0  # reward noise half-width (0: exact abstraction; ours for eps > 0)
    branching: int = 3  # ours: abstract successor blocks per (block, action)
    reward_levels: int = 3  # ours: distinct abstract reward values

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        n, nb, A = self.n_states, self.n_blocks, self.n_actions
        if nb < 2 or n < nb:
            raise ValueError("need 2 <= n_blocks <= n_states")
        block = np.concatenate([np.arange(nb), rng.integers(0, nb, n - nb)])
        rng.shuffle(block)
        half = nb // 2
        region_a, region_b = np.arange(half), np.arange(half, nb)
        levels = rng.uniform(0.0, 1.0, self.reward_levels)
        R_abs = levels[rng.integers(0, self.reward_levels, (nb, A))]  # (nb, A)
        P_abs = np.zeros((nb, nb, A))
        for b in range(nb):
            for a in range(A):
                if b < half:
                    pool = region_a
                elif a == 0:
                    pool = region_b
                else:
                    pool = np.arange(nb)
                k = min(self.branching, len(pool))
                succ = rng.choice(pool, size=k, replace=False)
                P_abs[b, succ, a] = rng.dirichlet(np.ones(k))
        P_abs = P_abs.transpose(0, 2, 1)  # (nb, A, nb)
        members = [np.flatnonzero(block == b) for b in range(nb)]
        P = np.zeros((n, A, n))
        for s in range(n):
            for a in range(A):
                for c in np.flatnonzero(P_abs[block[s], a] > 0):
                    split = rng.dirichlet(np.ones(len(members[c])))
                    P[s, a, members[c]] = P_abs[block[s], a, c] * split
        R = R_abs[block] + (rng.uniform(-self.eps, self.eps, (n, A)) if self.eps > 0 else 0.0)
        V, _ = optimal_values(R, P, self.gamma)
        data = {"R": R, "P": P, "gamma": self.gamma}
        truth = {"V": V, "block": block, "region_a": np.isin(block, region_a)}
        return Instance(data=data, truth=truth)
