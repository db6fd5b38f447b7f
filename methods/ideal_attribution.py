"""Ideal attribution mechanisms and a block-aligned pseudorandom-code watermark faithful to one.

Paper: Min Jae Song, Kameron Shahabi, "Ideal Attribution and Faithful Watermarks for Language
Models", arXiv:2512.07038 (ICML 2026), https://arxiv.org/abs/2512.07038. Read: the abstract,
the opening of the introduction, and two summaries of the body (themoonlight.io review,
sciencestack TL;DR) via the research note /work/shared/papers/ideal_attribution.md. The body's
theorems, constructions and parameters were not read; the paper has no experiments and no code.

Implemented.
* The ledger Pi = (pi^(1), ..., pi^(m)), pi^(i) = (x^(i), u^(i)), append-only; ledger-level
  attribution R(Pi) = U_i R(x^(i), u^(i)) of transcript-level maps R that satisfy the three
  axioms (empty initialisation R(x, []) = {}; monotone in the response prefix; suffix-jump:
  R(x, u_{1:j}) \\ R(x, u_{1:j-1}) holds only suffixes of u_{1:j}). Two instances, induced by
  selection rules Z(x, rho, zeta) (Prop. 2.3, every map comes from a selection rule):
  - M1, substring attribution: Z = 1 iff zeta is a suffix of rho with |zeta| >= ell; a query
    string is attributed iff it holds a substring of >= ell tokens of some issued response
    (``substring_attributed``);
  - M2, block-aligned attribution: Z = 1 iff |rho| is a multiple of b and zeta is rho's last
    block of b tokens; a query string is attributed iff it holds a complete aligned block
    u_{kb+1:(k+1)b} of some issued response (``block_attributed``).
  ``IdealAttribution`` is the mechanism itself as a method: it issues unwatermarked text and
  decides by looking the query up in its own ledger (the reference every scheme is judged
  against; exact by construction).
* A watermark is faithful to a mechanism when its detector equals the mechanism's decision up
  to negligible error. ``BlockAlignedPRC`` is the block-aligned construction: every response
  is a concatenation of b-token blocks, each block a codeword of a keyed code C_k = {w in V^b :
  the top tau bits of PRF_k(w) are 0} (density 2^-tau; without the key a codeword looks like any
  other block). Issuing samples each block from the model conditioned on being a codeword
  (rejection sampling: candidate continuations w ~ p(. | u_{<kb}) until w in C_k; for the
  uniform distribution this is exactly a uniform codeword, the paper's positive setting).
  Detection: zeta is attributed iff some b-token window of zeta is a codeword. Issued aligned
  blocks always are; any other window is one with probability 2^-tau, so the detector agrees
  with M2 up to (#windows) * 2^-tau.

Deviations.
1. The ideal pseudorandom code is replaced by a sparse keyed code (tag bits tau = 14) read from
   a SplitMix64-chain PRF (baselines/keyed_prf.py), not a cryptographic PRC: codewords are
   exact-match only (no robustness to edits) and undetectability is statistical, not proven.
2. For a general (non-uniform) model the block is rejection-sampled (expected 2^tau candidate
   blocks); after ``max_batches`` batches without a codeword the first candidate is emitted
   unmarked (a miss). The paper's constructions for general LMs were not read.
3. Prompts are empty (responses start from the model's start distribution); time indexing R_t,
   anytime soundness, time-coarsening and the signature-based unforgeable variant are not
   implemented.
4. Languages are generated (a random first-order Markov chain over 64 tokens, or uniform) or
   the toolkit's tiny character LM read at context one (a first-order chain of its
   next-character distributions), not an LLM; ell = b = 8 tokens, 8 responses of 64 tokens
   per ledger (ours).

Mutants (field ``mutant``):
- ``short_tag``: a code that is not sparse (tau = 3: one window in 8 is a codeword), the
  known-wrong variant whose detector attributes never-issued text.
- ``unkeyed_blocks``: blocks sampled without the codeword condition (the watermark removed);
  the detector is unchanged, so issued text is attributed only by chance.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.baselines.keyed_prf import prf, top_bits_zero
from claimbench.baselines.watermark_protocol import WatermarkScheme

MECHANISMS = ("substring", "block_aligned")
MUTANTS = ("", "short_tag", "unkeyed_blocks")


def _rows_as_bytes(W: np.ndarray) -> list[bytes]:
    W = np.ascontiguousarray(W, dtype=np.int64)
    return [r.tobytes() for r in W]


def _contains_any(X: np.ndarray, table: set, width: int) -> np.ndarray:
    """Whether each row of X (N, L) has a window of ``width`` tokens in ``table`` -> (N,)."""
    N, L = X.shape
    if L < width or not table:
        return np.zeros(N, dtype=bool)
    win = np.lib.stride_tricks.sliding_window_view(X, width, axis=1)  # (N, L-w+1, w)
    keys = _rows_as_bytes(win.reshape(-1, width))
    hit = np.fromiter((k in table for k in keys), dtype=bool, count=len(keys))
    return hit.reshape(N, -1).any(1)


def substring_attributed(ledger: np.ndarray, X: np.ndarray, ell: int) -> np.ndarray:
    """M1: zeta holds a substring of >= ell tokens of an issued response (ledger (m, n))."""
    grams = np.lib.stride_tricks.sliding_window_view(ledger, ell, axis=1).reshape(-1, ell)
    return _contains_any(X, set(_rows_as_bytes(grams)), ell)


def block_attributed(ledger: np.ndarray, X: np.ndarray, block: int) -> np.ndarray:
    """M2: zeta holds a complete aligned block of an issued response."""
    m, n = ledger.shape
    blocks = ledger[:, : (n // block) * block].reshape(-1, block)  # (m * n/b, b)
    return _contains_any(X, set(_rows_as_bytes(blocks)), block)


@dataclass
class IdealAttribution(WatermarkScheme):
    """The ideal mechanism as a method: unwatermarked issuing, decisions by ledger lookup."""

    name: ClassVar[str] = "ideal"
    mechanism: str = "substring"  # M1 ("substring") or M2 ("block_aligned")
    ell: int = 8  # ours: M1's length threshold (equal to the block length b)
    block: int = 8  # ours: M2's block length b

    def generate(self, lm, key, count, length, rng):
        return lm.sample(count, length, rng)

    def detect(self, key, X, ledger, vocab):
        if self.mechanism == "substring":
            return substring_attributed(ledger, X, self.ell)
        if self.mechanism == "block_aligned":
            return block_attributed(ledger, X, self.block)
        raise ValueError(f"mechanism {self.mechanism!r} not in {MECHANISMS}")


@dataclass
class BlockAlignedPRC(WatermarkScheme):
    """Block-aligned keyed-code watermark (the paper's faithful construction, see module doc)."""

    name: ClassVar[str] = "block_prc"
    block: int = 8  # ours: block length b (the paper's block size was not read)
    tag_bits: int = 14  # ours: codeword density 2^-tau (an ideal PRC has negligible density)
    batch: int = 8192  # ours: candidate blocks drawn per rejection round
    max_batches: int = 16  # ours: rounds before a block is emitted unmarked (deviation 2)
    mutant: str = ""

    def __post_init__(self):
        if self.mutant not in MUTANTS:
            raise ValueError(f"mutant {self.mutant!r} not in {MUTANTS}")

    @property
    def tau(self) -> int:
        return 3 if self.mutant == "short_tag" else self.tag_bits

    def is_codeword(self, key: int, W: np.ndarray) -> np.ndarray:
        """Whether each row of W (N, b) is a codeword of C_key -> (N,)."""
        return top_bits_zero(prf(key, W), self.tau)

    def generate(self, lm, key, count, length, rng):
        b = self.block
        out = np.empty((count, length), dtype=np.int64)
        for start in range(0, length, b):
            w = min(b, length - start)
            prev = out[:, start - 1] if start > 0 else None
            if self.mutant == "unkeyed_blocks":
                out[:, start:start + w] = lm.sample(count, w, rng, first=prev)
                continue
            todo = np.arange(count)
            for round_ in range(self.max_batches):
                first = None if prev is None else np.repeat(prev[todo], self.batch)
                cand = lm.sample(len(todo) * self.batch, w, rng, first=first)  # (|todo|*B, w)
                ok = self.is_codeword(key, cand).reshape(len(todo), self.batch)  # (|todo|, B)
                cand = cand.reshape(len(todo), self.batch, w)
                pick = np.argmax(ok, axis=1)  # (|todo|,) first codeword (0 when none)
                found = ok[np.arange(len(todo)), pick]
                last = round_ == self.max_batches - 1
                done = found | last
                out[todo[done], start:start + w] = cand[np.arange(len(todo)), pick][done]
                todo = todo[~done]
                if len(todo) == 0:
                    break
        return out

    def detect(self, key, X, ledger, vocab):
        N, L = X.shape
        b = self.block
        if L < b:
            return np.zeros(N, dtype=bool)
        win = np.lib.stride_tricks.sliding_window_view(X, b, axis=1)  # (N, L-b+1, b)
        return self.is_codeword(key, win.reshape(-1, b)).reshape(N, -1).any(1)
