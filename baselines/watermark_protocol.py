"""The attribution protocol shared by every keyed watermarking scheme and ideal mechanism.

A scheme (a :class:`WatermarkScheme` subclass) supplies ``generate(lm, key, count, length, rng)``
(its sampler) and ``detect(key, X, ledger, vocab)`` (its decision on each row of X). One run:

1. a secret key is derived from the cell seed;
2. the scheme issues ``n_responses`` responses into the ledger (the append-only log Pi), and
   generates ``n_regen`` more with the same key that are never issued (discarded
   regenerations);
3. queries of every string type are built (positions drawn from a generator of their own, so
   every scheme sees the same positions and the same fresh and human text for a seed):
   ``issued_full`` (ledger responses), ``issued_aligned`` (2b tokens from a block boundary),
   ``unaligned_short`` (b tokens from a non-boundary offset), ``mosaic`` (never-issued model
   text: fragments of ell - 1 tokens from random issued responses, concatenated), ``regen``,
   ``fresh`` (unwatermarked samples of the same model), ``human`` (an independent chain) and
   ``diluted`` (human text with one issued aligned 2b-token substring inserted);
4. the scheme decides every query. The detector is handed the ledger; keyed watermarks ignore
   it (their decision reads only the key and the string), an ideal mechanism reads only it.

The ideal labels (the ground truth of attribution) are computed by the metrics from the
returned ledger and queries.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.keyed_prf import derive_key

STRING_TYPES = ("issued_full", "issued_aligned", "unaligned_short", "mosaic", "regen", "fresh",
                "human", "diluted")


def make_queries(ledger: np.ndarray, regen: np.ndarray, lm, human, protocol: dict,
                 rng: np.random.Generator) -> dict:
    """Query strings of every type, each an (N, L) int array."""
    m, n = ledger.shape
    b, ell, q = protocol["block"], protocol["ell"], protocol["n_queries"]
    nb = n // b
    q_other = np.random.default_rng(rng.integers(0, 2 ** 63))  # fresh/human text stream

    def take(rows, starts, length):
        idx = starts[:, None] + np.arange(length)[None, :]  # (N, length)
        return ledger[rows[:, None], idx]

    rows = rng.integers(0, m, q)
    aligned = take(rows, b * rng.integers(0, nb - 1, q), 2 * b)  # (q, 2b)
    rows = rng.integers(0, m, q)
    starts = b * rng.integers(0, nb - 1, q) + rng.integers(1, b, q)
    unaligned = take(rows, starts, b)  # (q, b)
    f = ell - 1
    k = n // f
    frag_rows = rng.integers(0, m, (q, k))
    frag_starts = rng.integers(0, n - f + 1, (q, k))
    idx = frag_starts[..., None] + np.arange(f)  # (q, k, f)
    mosaic = ledger[frag_rows[..., None], idx].reshape(q, k * f)  # (q, k*f)
    fresh = lm.sample(q, n, q_other)  # (q, n)
    hum = human.sample(q, n, q_other)  # (q, n)
    ins = take(rng.integers(0, m, q), b * rng.integers(0, nb - 1, q), 2 * b)  # (q, 2b)
    pos = rng.integers(0, n - 2 * b + 1, q)
    base = human.sample(q, n - 2 * b, q_other)  # (q, n - 2b)
    diluted = np.stack([np.concatenate([base[i, :pos[i]], ins[i], base[i, pos[i]:]])
                        for i in range(q)])  # (q, n)
    return {"issued_full": ledger, "issued_aligned": aligned, "unaligned_short": unaligned,
            "mosaic": mosaic, "regen": regen, "fresh": fresh, "human": hum, "diluted": diluted}


@dataclass
class WatermarkScheme(Method):
    """Base class: a keyed sampler and its detector, run through the attribution protocol."""

    name: ClassVar[str] = ""

    def generate(self, lm, key: int, count: int, length: int,
                 rng: np.random.Generator) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def detect(self, key: int, X: np.ndarray, ledger: np.ndarray,
               vocab: int) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def run(self, data: dict, seed: int) -> dict:
        return run_protocol(self, data, seed)


def run_protocol(scheme: WatermarkScheme, data: dict, seed: int) -> dict:
    lm, human, pr = data["lm"], data["human"], data["protocol"]
    key = derive_key(seed)
    gen = np.random.default_rng([int(seed) % (2 ** 63), 1])  # the scheme's own sampling
    n = pr["response_len"]
    ledger = scheme.generate(lm, key, pr["n_responses"], n, gen)  # (m, n)
    regen = scheme.generate(lm, key, pr["n_regen"], n, gen)  # (m_regen, n)
    queries = make_queries(ledger, regen, lm, human, pr,
                           np.random.default_rng([int(seed) % (2 ** 63), 2]))
    decisions = {t: np.asarray(scheme.detect(key, X, ledger, lm.V), dtype=bool)
                 for t, X in queries.items()}
    return {"ledger": ledger, "queries": queries, "decisions": decisions}
