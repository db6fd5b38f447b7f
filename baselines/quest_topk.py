"""Quest-style K-only dynamic top-k over KV pages (Tang et al., "Quest: Query-Aware Sparsity for
Efficient Long-Context LLM Inference", ICML 2024), for heads that share one KV cache (MLA, GQA).

Quest keeps, per KV page, the elementwise min and max of its keys; at each decoding step it
bounds q . k over every page (``head_page_selection.quest_bounds``) and attends to the top-k
pages only. With many query heads over one shared (latent) cache, a "K-only" method selects one
set of pages and computes every head against it: pages are ranked by the estimated mass summed
over heads (``head_reduce="sum"``, which maximises the mass all heads retain; ``"max"`` ranks a
page by its most interested head). ``score="exact"`` replaces the bound by the true page mass
(an oracle K-only top-k).

Budget: the step's ``budget_frac`` (from the data unless ``budget_frac`` is set here) of dense
attention compute; a K-only page costs every head tile, so k = floor(budget tiles / n_head_tiles).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines import head_page_selection as hps


def k_only_mask(w: np.ndarray, k: int, head_reduce: str = "sum") -> np.ndarray:
    """All heads on the k pages of highest aggregated importance: bool (H, n_pages)."""
    if head_reduce not in ("sum", "max"):
        raise ValueError(f"head_reduce={head_reduce!r}: use 'sum' or 'max'")
    s = w.sum(0) if head_reduce == "sum" else w.max(0)  # (P,)
    top = np.argsort(-s, kind="stable")[:max(0, k)]
    mask = np.zeros(w.shape, dtype=bool)
    mask[:, top] = True
    return mask


@dataclass
class QuestTopK(Method):
    name: ClassVar[str] = "quest_topk"
    page_size: int = 16  # Quest's default page size (Tang et al. 2024); one key tile
    head_tile: int = 8  # heads per compute tile (ours: 8 heads x 2 MTP tokens = 16 MMA rows)
    score: str = "quest"  # "quest" page bounds or "exact" page mass (oracle)
    head_reduce: str = "sum"
    budget_frac: float | None = None  # None: the data's budget

    def run(self, data: dict, seed: int) -> dict:
        t0 = time.process_time()
        q, k = data["q"], data["k"]
        H, N = q.shape[0], k.shape[1]
        frac = data["budget_frac"] if self.budget_frac is None else self.budget_frac
        w = hps.page_importance(q, k, self.page_size, self.score)  # (H, P)
        B = hps.budget_tiles(frac, H, N, self.head_tile, self.page_size)
        mask = k_only_mask(w, B // hps.head_groups(H, self.head_tile), self.head_reduce)
        out = hps.run_selection(data, mask, self.page_size, self.head_tile)
        out["seconds"] = time.process_time() - t0
        return out
