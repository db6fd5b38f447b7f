"""2-D (head, key) top-k sparse decoding: each head keeps its own most important key pages.

The unstructured "QK 2-D" selection: every (head, page) pair is ranked by its estimated mass
(``head_page_selection.page_importance``: Quest page bounds, or the exact mass), and the
best pairs are kept, so a key only some heads need is computed for those heads only. It
searches a superset of K-only selections. How many pairs fit depends on the cost model:

* ``charge="pair"``: the budget counts (head, page) pairs, B_pairs = floor(budget_frac x H x
  n_pages): the usual per-pair accounting. On hardware a (head tile, page) tile is computed as
  soon as one of its heads needs the page, so its true (tile) compute can exceed the budget.
* ``charge="tile"``: pairs are taken in rank order while the tiles they touch fit the tile
  budget (stopping at the first pair that would open a tile beyond it): the same ranking,
  truncated by the tile-granular cost.

The reported ``flops`` are always the tile-granular cost (``head_page_selection.run_selection``).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines import head_page_selection as hps


def top_pairs_mask(w: np.ndarray, n_pairs: int) -> np.ndarray:
    """The n_pairs (head, page) pairs of highest importance: bool (H, n_pages)."""
    flat = np.argsort(-w, axis=None, kind="stable")[:max(0, n_pairs)]
    mask = np.zeros(w.size, dtype=bool)
    mask[flat] = True
    return mask.reshape(w.shape)


def tile_budget_pairs_mask(w: np.ndarray, tiles: int, head_tile: int) -> np.ndarray:
    """The longest prefix of the pair ranking whose touched (head tile, page) tiles fit ``tiles``."""
    H, P = w.shape
    order = np.argsort(-w, axis=None, kind="stable")  # flat (h, p) indices, best first
    h, p = np.divmod(order, P)
    tile_id = (h // head_tile) * P + p
    first = np.zeros(order.size, dtype=bool)
    first[np.unique(tile_id, return_index=True)[1]] = True  # pair opens a new tile
    n = int(np.searchsorted(np.cumsum(first), tiles, side="right"))
    mask = np.zeros(w.size, dtype=bool)
    mask[order[:n]] = True
    return mask.reshape(w.shape)


@dataclass
class HeadKeyTopK(Method):
    name: ClassVar[str] = "head_key_topk"
    page_size: int = 16  # Quest's page size; one key tile
    head_tile: int = 8  # heads per compute tile (ours, as quest_topk)
    score: str = "quest"
    charge: str = "tile"  # "tile" or "pair" cost model for the budget
    budget_frac: float | None = None  # None: the data's budget

    def run(self, data: dict, seed: int) -> dict:
        t0 = time.process_time()
        q, k = data["q"], data["k"]
        H, N = q.shape[0], k.shape[1]
        frac = data["budget_frac"] if self.budget_frac is None else self.budget_frac
        w = hps.page_importance(q, k, self.page_size, self.score)  # (H, P)
        if self.charge == "pair":
            mask = top_pairs_mask(w, int(np.floor(frac * w.size + 1e-9)))
        elif self.charge == "tile":
            mask = tile_budget_pairs_mask(w, hps.budget_tiles(frac, H, N, self.head_tile, self.page_size),
                                          self.head_tile)
        else:
            raise ValueError(f"charge={self.charge!r}: use 'tile' or 'pair'")
        out = hps.run_selection(data, mask, self.page_size, self.head_tile)
        out["seconds"] = time.process_time() - t0
        return out
