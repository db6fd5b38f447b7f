"""Oracle block top-k: key blocks chosen by their *true* dense attention mass.

For each query block i and key block j the exact mass is
    M_ij = (1 / |block i|) sum_{r in block i} sum_{c in block j} P_rc,
P the causal softmax attention (rows sum to 1, so each row of M sums to 1). Per query block the
oracle keeps the fewest key blocks, in decreasing M, whose cumulative mass reaches ``tau``
(the same rule as MeanPooling / PBS-Attn, with the exact mass in place of the pooled estimate),
so its mean retained mass is at least ``tau`` by construction: the block-level lower bound on
density at a given coverage without permutation. It needs the dense attention map, so it is a
reference, not a practical method: its selection cost is reported separately as
``oracle_flops`` and not added to ``overhead_flops``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from claimbench.api import Method
from claimbench.baselines import block_sparse_attention as bsa
from claimbench.baselines.full_attention import timed
from claimbench.baselines.mean_pooling_block_selection import select_by_cumulative_mass


def true_block_mass(q, k, b: int, chunk: int = 512):
    """Exact mean-over-block-rows attention mass per (query block, key block): (H, nq, nk)."""
    torch = bsa._torch()
    H, T, _ = q.shape
    nb = bsa.n_blocks(T, b)
    q_pos, k_pos = bsa.default_positions(T, T)
    mass = torch.zeros(H, nb * b, nb, dtype=torch.float64)  # (H, T padded, nk)
    key_block = torch.arange(T) // b  # (T,)
    for a in range(0, T, chunk):
        p = bsa.attention_probs(q[:, a:a + chunk], k, q_pos[a:a + chunk], k_pos, True).double()  # (H, c, T)
        mass[:, a:a + p.shape[1]].index_add_(2, key_block, p)
    rows = torch.clamp(torch.tensor([min(b, T - i * b) for i in range(nb)], dtype=torch.float64), min=1)
    return mass.view(H, nb, b, nb).sum(2) / rows[None, :, None]  # (H, nq, nk)


@dataclass
class OracleBlockSelection(Method):
    name: ClassVar[str] = "oracle_block_topk"
    block_size: int = 64  # same tiling as the methods it bounds
    tau: float = 0.9  # coverage target (the methods' threshold)
    repeats: int = 1

    def run(self, data: dict, seed: int) -> dict:
        torch = bsa._torch()
        q, k, v = (torch.as_tensor(data[x]) for x in ("q", "k", "v"))  # (H, T, d) each
        H, T, d = q.shape

        def go():
            m = select_by_cumulative_mass(true_block_mass(q, k, self.block_size), self.tau)
            return m, bsa.block_sparse_attention(q, k, v, m, self.block_size)

        (mask, out), secs = timed(go, self.repeats)
        return {"out": out.numpy(), "block_mask": mask.numpy(), "block_size": self.block_size,
                "overhead_flops": 0, "oracle_flops": H * T * T * 2 * d, "seconds": secs}
