"""Generated Sudoku puzzles (n x n, n = 4, 6 or 9) as token sequences for masked diffusion.

A solution is a pattern grid (a valid Sudoku by construction) scrambled by validity-preserving
symmetries: relabel the digits, permute the rows inside each band and the bands, the columns
inside each stack and the stacks, and (square boxes only) transpose. A puzzle erases a uniform
number of cells in [min_blank, max_blank]. Sequences are the n*n cells in row-major order,
digits 1..n (0 = blank in a puzzle; the mask token is n + 1, vocabulary n + 2); the clue cells
are the prompt (``train_prompt``, never masked), the blanks the answer. ``features`` gives each
cell's one-hot row, column and box (n*n, 3n), the grid's geometry as input embeddings. (The PUMA
code instead lays out 162 tokens [puzzle | solution] and re-predicts the clues too.)

A completion counts as solved when it is a valid Sudoku that agrees with every clue (any valid
completion counts, as in the PUMA evaluation, so puzzles need not have a unique solution); that
check needs no reference solution, so a method may score itself on test puzzles.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3)}  # n -> (box rows, box columns)


def box_shape(n: int) -> tuple[int, int]:
    if n not in BOXES:
        raise ValueError(f"Sudoku size {n} not in {sorted(BOXES)}")
    return BOXES[n]


def cell_features(n: int) -> np.ndarray:
    """(n*n, 3n) one-hot row, column and box of each cell (row-major)."""
    br, bc = box_shape(n)
    r, c = np.divmod(np.arange(n * n), n)  # (n*n,) each
    box = (r // br) * (n // bc) + c // bc
    eye = np.eye(n, dtype=np.float32)
    return np.concatenate([eye[r], eye[c], eye[box]], axis=1)


def pattern_grid(n: int) -> np.ndarray:
    """A valid n x n Sudoku with digits 1..n: cell (r, c) = (bc (r mod br) + r div br + c) mod n."""
    br, bc = box_shape(n)
    r, c = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")  # (n, n) each
    return (bc * (r % br) + r // br + c) % n + 1


def _grouped_perm(rng: np.random.Generator, n_groups: int, size: int) -> np.ndarray:
    """A permutation of range(n_groups * size) that moves whole groups and permutes inside them."""
    groups = rng.permutation(n_groups)
    return np.concatenate([g * size + rng.permutation(size) for g in groups])


def _solution_draws(n: int) -> list[tuple[int, int]]:
    """The permutation lengths one solution draws, in the order of :func:`_grouped_perm` for the
    rows then the columns, as runs (length, count) of equal lengths."""
    br, bc = box_shape(n)
    runs: list[list[int]] = []
    for length in [n // br] + [br] * (n // br) + [n // bc] + [bc] * (n // bc):
        if runs and runs[-1][0] == length:
            runs[-1][1] += 1
        else:
            runs.append([length, 1])
    return [(length, k) for length, k in runs]


def random_solutions(n: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` solutions (count, n, n), each the pattern grid under random symmetries: per
    solution the row and column permutations of :func:`_grouped_perm`, a transpose with
    probability 1/2 (square boxes) and a digit relabelling, drawn in that order.

    Speed (issue 27): a run of equal-length permutations is one ``rng.permuted`` call on stacked
    ``arange`` rows, which shuffles the rows one after the other with the same draws as as many
    ``rng.permutation`` calls, so the grids equal the one-at-a-time loop's bit for bit (a test
    compares them); the grids are then assembled for all solutions at once."""
    br, bc = box_shape(n)
    if count == 0:
        return np.empty((0, n, n), dtype=np.int64)
    nr, nc = n // br, n // bc
    runs = _solution_draws(n)
    tiles = [np.tile(np.arange(length), (k, 1)) for length, k in runs]  # (k, length) each
    drawn = [[] for _ in runs]  # per run, count arrays (k, length)
    flip = np.zeros(count, dtype=bool)
    relabel = np.zeros((count, n + 1), dtype=np.int64)  # digit d -> relabel[:, d], 0 stays 0
    for i in range(count):
        for store, tile in zip(drawn, tiles):
            store.append(rng.permuted(tile, axis=1))
        if br == bc:
            flip[i] = rng.random() < 0.5
        relabel[i, 1:] = rng.permutation(n) + 1
    perms = [p for store in drawn for p in np.stack(store).transpose(1, 0, 2)]  # (count, len)

    def grouped(groups, inner, size):  # groups (count, G), inner G x (count, size)
        return (groups[:, :, None] * size + np.stack(inner, 1)).reshape(count, -1)  # (count, G size)

    rows = grouped(perms[0], perms[1:1 + nr], br)  # (count, n)
    cols = grouped(perms[1 + nr], perms[2 + nr:], bc)  # (count, n)
    g = pattern_grid(n)[rows[:, :, None], cols[:, None, :]]  # (count, n, n)
    g = np.where(flip[:, None, None], g.transpose(0, 2, 1), g)
    return np.take_along_axis(relabel, g.reshape(count, -1), 1).reshape(count, n, n)


def make_puzzles(solutions: np.ndarray, min_blank: int, max_blank: int,
                 rng: np.random.Generator) -> np.ndarray:
    """Puzzles (count, n, n) with 0 on a uniform number of random blank cells per grid."""
    count, n, _ = solutions.shape
    blanks = rng.integers(min_blank, max_blank + 1, size=count)  # (count,)
    order = np.argsort(rng.random((count, n * n)), axis=1)  # (count, n*n) random cell order
    erase = np.argsort(order, axis=1) < blanks[:, None]  # (count, n*n) first `blanks` cells
    return np.where(erase, 0, solutions.reshape(count, -1)).reshape(count, n, n)


def is_valid(grids: np.ndarray) -> np.ndarray:
    """(count,) bool: every row, column and box of each grid (count, n, n) holds 1..n once."""
    count, n, _ = grids.shape
    br, bc = box_shape(n)
    want = np.arange(1, n + 1)
    boxes = grids.reshape(count, n // br, br, n // bc, bc).transpose(0, 1, 3, 2, 4)
    boxes = boxes.reshape(count, n, n)  # (count, box, cell)
    ok = np.ones(count, dtype=bool)
    for units in (grids, grids.transpose(0, 2, 1), boxes):
        ok &= np.all(np.sort(units, axis=2) == want, axis=(1, 2))
    return ok


def solved(puzzles: np.ndarray, completions: np.ndarray) -> np.ndarray:
    """(count,) bool: the completion is a valid Sudoku agreeing with every clue of the puzzle."""
    clues = puzzles != 0
    agrees = np.all(~clues | (completions == puzzles), axis=(1, 2))
    return agrees & is_valid(completions)


@dataclass
class Sudoku(Dataset):
    """Train sequences [puzzle | solution] and held-out test puzzles (solutions are the truth)."""

    name: ClassVar[str] = "sudoku"

    size: int = 4  # ours: 4 x 4 fits the quick grid's CPU budget (issue 15: 6 x 6 quick, 9 x 9 full)
    n_train: int = 20000  # ours: fresh puzzles, far more than the steps x batch seen
    n_test: int = 256  # ours (the research note: 500 test puzzles)
    min_blank: int = 0  # 0: the research note's 45-55 of 81 cells, scaled to n*n
    max_blank: int = 0

    def blank_range(self) -> tuple[int, int]:
        if self.min_blank or self.max_blank:
            return self.min_blank, self.max_blank
        cells = self.size * self.size
        return round(cells * 45 / 81), round(cells * 55 / 81)

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        lo, hi = self.blank_range()
        n = self.size
        sol = random_solutions(n, self.n_train + self.n_test, rng).reshape(-1, n * n)  # (N, n*n)
        puz = make_puzzles(sol.reshape(-1, n, n), lo, hi, rng).reshape(-1, n * n)  # (N, n*n)
        data = {"size": n, "features": cell_features(n),
                "train": sol[: self.n_train], "train_prompt": puz[: self.n_train] != 0,
                "test_puzzles": puz[self.n_train:]}
        return Instance(data=data, truth={"test_solutions": sol[self.n_train:]})
