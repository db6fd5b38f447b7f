"""Permutation sampling estimator of Shapley values (Castro, Gomez & Tejada 2009).

phi_i = E_pi [ v(Pre_i(pi) u {i}) - v(Pre_i(pi)) ] over uniformly random orderings pi of the
players, estimated by the mean over sampled orderings. Budget accounting as in shapiq-style
implementations: v(empty) and v(N) are evaluated once and shared, so each ordering costs p - 1
new evaluations; n_perm = floor((budget - 2) / (p - 1)) orderings (any remainder is unused).
With no complete ordering affordable the estimate is the efficiency split (v(N) - v(empty)) / p.
``antithetic=True`` pairs each ordering with its reverse (an option, off by default).

Works with any game object exposing ``session()`` -> callable on boolean coalition rows with
``n_players``, ``budget`` and ``remaining`` (datasets/cooperative_games.py).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method


@dataclass
class PermutationSampling(Method):
    name: ClassVar[str] = "permutation_sampling"
    antithetic: bool = False  # classic estimator samples independent orderings

    def run(self, data, seed: int) -> dict:
        rng = np.random.default_rng(seed)
        game = data.session()
        p = game.n_players
        t0 = time.perf_counter()
        ends = np.array([np.zeros(p, bool), np.ones(p, bool)])
        v0, vN = game(ends)
        total = np.zeros(p)
        n_perm = 0
        path_n, path_phi = [game.n_evals], [np.full(p, (vN - v0) / p)]
        order = None
        while game.remaining >= p - 1:
            if self.antithetic and order is not None and n_perm % 2 == 1:
                order = order[::-1]
            else:
                order = rng.permutation(p)
            Z = np.zeros((p - 1, p), dtype=bool)  # proper prefixes of the ordering, sizes 1..p-1
            for k in range(p - 1):
                Z[k:, order[k]] = True
            v = np.concatenate([[v0], game(Z), [vN]])  # (p+1,) values along the ordering
            total[order] += np.diff(v)
            n_perm += 1
            path_n.append(game.n_evals)
            path_phi.append(total / n_perm)
        phi = path_phi[-1]
        return {"phi": phi, "n_evals": game.n_evals, "n_permutations": n_perm,
                "time_s": time.perf_counter() - t0,
                "path": {"n_evals": path_n, "phi": [q.tolist() for q in path_phi]}}
