"""Two-player potential games: a staircase with a long best-response path, and random controls.

A two-player game ``(A, B)`` (row payoffs ``A``, column payoffs ``B``) is a potential game
with potential ``P`` when every unilateral deviation changes the mover's payoff by the
change of ``P``; identical-interest games (``A = B = P``) are the special case the paper's
two-player lower bound uses (arXiv 2601.23248).

``staircase`` (our instantiation; the paper's hard instance was not retrieved). The m x m
identical-interest game built on the path of 2m-1 profiles

    (1,1) -> (1,2) -> (2,2) -> (2,3) -> ... -> (m-1,m) -> (m,m)

with values ``v_k = (k + xi_k) / (2m)`` at the k-th profile, ``xi_k ~ U[-jitter/4, jitter/4]``,
so each step gains between ``(1 - jitter/2)/(2m)`` and ``(1 + jitter/2)/(2m)`` and all values
stay in (0, 1). Next to each step sits a *guard* entry ``guard/m`` below the current value,
where the player who does not move would go next: ``P(i, i+2) = P(i, i+1) - f`` and
``P(i+1, i) = P(i, i) - f`` with ``f = guard / m``. Every other entry is 0.

* Best responses from (1,1) walk the whole path (2m - 2 moves) to the unique pure Nash
  equilibrium (m,m); before the end every path profile offers a gain of at least
  ``3/(8m) > eps = 1/(8m)`` (with jitter <= 1/2).
* The guards keep the waiting player's incentive alive while the mover mixes between its
  old and new action. If the mover's step gains ``a`` and the waiting player's next step
  gains ``b``, at mixture weight p the mover still gains ``(1-p) a`` and the waiting player
  ``p b - (1-p) f``; the larger of the two is at least ``a b / (a + b + f)``, which is
  ``9/(56m) > eps`` for ``f = 1/(8m)`` and steps ``>= 3/(8m)`` (jitter <= 1/2). So a smooth
  learner cannot stop at an eps-Nash point halfway through a step (before the last one).
  Without guards (``guard = 0``) it can.
* Under cumulative-payoff dynamics (FTRL, fictitious play) a new action must first make up
  the lead the incumbent built over earlier periods, so period lengths grow
  geometrically along the path and the time to an eps-Nash equilibrium grows
  exponentially in m (measured, see the benchmark; not proved for this instance).

``permute`` relabels both players' actions at random (a permutation-invariant learner
cannot notice; lowest-index tie-breaking can).

``random_potential`` (control): ``P ~ U[0,1]^{m x m}``; identical interest (``A = B = P``)
or, by default, payoffs with offsets that depend on the opponent's action only,
``A[i,j] = (P[i,j] + c_j) / 2``, ``B[i,j] = (P[i,j] + d_i) / 2`` (potential ``P / 2``).

``miscoordination`` (a control for the potential property): a symmetric identical-interest
game, ``P = P^T`` with off-diagonal entries ~ U[0.5, 1] (averaged with the transpose) and a low
diagonal ~ U[0, 0.25], started on the diagonal profile (0, 0). From a diagonal profile both
players gain by leaving it, and by symmetry they leave towards the same action k, so
simultaneous updates land on the diagonal (k, k) again and can lower the potential; pure Nash
equilibria are off the diagonal. Alternating updates cannot lower it (each half step is one
player's FTRL step), so these instances let simultaneous FTRL fail the property.

Every instance carries a start profile that the players are taken to have played for
``prefix`` rounds before time 1 (their initial history; see the benchmark note), and the
accuracy ``eps = eps_scale / m`` (the paper's regime eps <= 1/(8m)).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance


def staircase_path(m: int) -> list[tuple[int, int]]:
    """The 2m-1 profiles (0-based) of the staircase path: k -> ((k-1)//2, k//2), k = 1..2m-1."""
    return [((k - 1) // 2, k // 2) for k in range(1, 2 * m)]


def staircase_values(m: int, jitter: float, rng: np.random.Generator | None) -> np.ndarray:
    k = np.arange(1, 2 * m, dtype=float)  # (2m-1,)
    xi = rng.uniform(-jitter / 4, jitter / 4, k.size) if (jitter > 0 and rng is not None) else 0.0
    return (k + xi) / (2 * m)


def staircase_matrix(values: np.ndarray, m: int, guard: float = 0.0) -> np.ndarray:
    """Path values on the staircase plus guard entries ``guard`` below their neighbours."""
    P = np.zeros((m, m))
    for (i, j), v in zip(staircase_path(m), values):
        P[i, j] = v
    if guard > 0:
        for i in range(m - 2):
            P[i, i + 2] = P[i, i + 1] - guard  # column player's next column, seen from row i
        for i in range(m - 1):
            P[i + 1, i] = P[i, i] - guard  # row player's next row, seen from column i
    return P


def best_response_path(A: np.ndarray, B: np.ndarray, start: tuple[int, int],
                       max_moves: int = 10_000) -> list[tuple[int, int]]:
    """Pure best-response dynamics from ``start``: row player moves first, only on strict gains."""
    i, j = start
    path = [(i, j)]
    for _ in range(max_moves):
        moved = False
        bi = int(np.argmax(A[:, j]))
        if A[bi, j] > A[i, j]:
            i, moved = bi, True
            path.append((i, j))
        bj = int(np.argmax(B[i, :]))
        if B[i, bj] > B[i, j]:
            j, moved = bj, True
            path.append((i, j))
        if not moved:
            break
    return path


def pure_nash(A: np.ndarray, B: np.ndarray) -> list[tuple[int, int]]:
    col_best = A.max(axis=0)  # (n,) row player's best payoff against each column
    row_best = B.max(axis=1)  # (m,)
    return [(int(i), int(j)) for i, j in zip(*np.nonzero((A >= col_best[None, :]) &
                                                          (B >= row_best[:, None])))]


@dataclass
class StaircaseGame(Dataset):
    """Identical-interest m x m staircase with a best-response path of length 2m - 2."""

    name: ClassVar[str] = "staircase"
    m: int = 4  # actions per player; paper: m arbitrary (lower bound exp in m)
    eps_scale: float = 0.125  # eps = eps_scale / m; paper summary: no eps-NE for any eps <= 1/(8m)
    jitter: float = 0.5  # random step perturbation in [0, 1] (our choice; 0: equal steps)
    guard: float = 0.125  # guard entries guard/m below the path (our construction; < 3/8 needed)
    permute: bool = True  # random relabelling of actions (our choice)
    prefix: int = 10  # rounds at the start profile before time 1 (our instantiation of the start)

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        m = int(self.m)
        values = staircase_values(m, self.jitter, rng)  # (2m-1,)
        P0 = staircase_matrix(values, m, self.guard / m)  # (m, m)
        rows = rng.permutation(m) if self.permute else np.arange(m)
        cols = rng.permutation(m) if self.permute else np.arange(m)
        P = np.zeros((m, m))
        P[np.ix_(rows, cols)] = P0  # action i of the construction is labelled rows[i]
        start = (int(rows[0]), int(cols[0]))
        ne = (int(rows[m - 1]), int(cols[m - 1]))
        data = {"A": P, "B": P, "P": P, "start": start, "prefix": int(self.prefix),
                "eps": self.eps_scale / m}
        truth = {"ne": ne, "phi_max": float(values[-1]), "path_moves": 2 * m - 2,
                 "values": values, "min_step": float(np.diff(values).min())}
        return Instance(data=data, truth=truth)


@dataclass
class RandomPotentialGame(Dataset):
    """Random two-player potential game (control): uniform potential, optional payoff offsets."""

    name: ClassVar[str] = "random_potential"
    m: int = 4  # actions per player (matched to the staircase sizes)
    eps_scale: float = 0.125  # eps = eps_scale / m, as for the staircase
    identical: bool = False  # True: A = B = P (identical interest)
    prefix: int = 10  # rounds at a random start profile before time 1 (as for the staircase)

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        m = int(self.m)
        P = rng.uniform(0.0, 1.0, (m, m))  # (m, m)
        if self.identical:
            A = B = P
        else:
            c = rng.uniform(0.0, 1.0, m)  # (m,) row player's offset, depends on the column only
            d = rng.uniform(0.0, 1.0, m)  # (m,) column player's offset, depends on the row only
            A = 0.5 * (P + c[None, :])
            B = 0.5 * (P + d[:, None])
            P = 0.5 * P
        start = (int(rng.integers(m)), int(rng.integers(m)))
        data = {"A": A, "B": B, "P": P, "start": start, "prefix": int(self.prefix),
                "eps": self.eps_scale / m}
        truth = {"pure_ne": pure_nash(A, B), "phi_max": float(P.max())}
        return Instance(data=data, truth=truth)


@dataclass
class MiscoordinationGame(Dataset):
    """Symmetric identical-interest game with a low diagonal, started on the diagonal (control
    on which simultaneous FTRL lowers the potential)."""

    name: ClassVar[str] = "miscoordination"
    m: int = 3  # actions per player
    eps_scale: float = 0.125  # eps = eps_scale / m, as for the staircase
    prefix: int = 10  # rounds at the start profile (0, 0) before time 1 (as for the staircase)

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        m = int(self.m)
        P = rng.uniform(0.5, 1.0, (m, m))  # (m, m)
        P = 0.5 * (P + P.T)  # symmetric: both players leave the diagonal towards the same action
        np.fill_diagonal(P, rng.uniform(0.0, 0.25, m))
        data = {"A": P, "B": P, "P": P, "start": (0, 0), "prefix": int(self.prefix),
                "eps": self.eps_scale / m}
        truth = {"pure_ne": pure_nash(P, P), "phi_max": float(P.max())}
        return Instance(data=data, truth=truth)
