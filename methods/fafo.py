"""FAFO: Lossy KV Cache Compression for Lossless Inference Acceleration via Draftless Fumble
Decoding (ICLR 2026 submission 13383, OpenReview oSk9tP5Mgs; no arXiv id, no public code).

Algorithm implemented ("Fumble Around and Find Out"): Lookahead decoding's n-gram pool
(``baselines/lookahead_decoding.py``, Fu et al. 2024) in which, within ONE forward pass over
``[current token | lookahead window (N-1) x W | candidates G' x (N-1)]``,

* the lookahead branch ("fumble around") attends only to a *compressed* KV cache, chosen by a
  token-dropping rule: StreamingLLM's ``n_sink`` first tokens plus the ``window`` most recent
  cached tokens (``baselines/streaming_llm.py``), besides its own window tokens and the current
  token; its outputs are lossy n-gram guesses that feed the pool;
* the current token and the verification branch ("find out") attend to the *full* cache, so the
  accepted tokens are exactly greedy decoding's: the output is lossless whatever the guesses.

One KV cache serves both (the compression is a mask over it, nothing is copied or evicted), and
no draft model exists. Mask of one pass, with L cached tokens and ``keep`` = sinks + window:

    rows current, candidates:   cache[0:L] all       | local causal structure
    rows lookahead window:      cache[keep] only     | local Jacobi structure

Deviations:
1. Scale: a 2-layer character-level transformer (d = 64 in the quick grid, 128 in the full
   one) trained on templated code on a CPU, not Llama/Qwen on GPUs; prompts of 80-96
   characters, 48-64 new tokens.
2. Only the StreamingLLM compressor (sinks + recent window); the paper also uses Quest's
   dynamic page selection, not implemented.
3. No FlexAttention kernel and no latency measurement as a claim: the speed-up is measured as
   tokens per forward pass and attended (query, key) pairs (hardware-independent); process CPU
   time is recorded only.
4. Kept positions are the original ones (keys are cached rotated); StreamingLLM re-indexes
   positions inside its cache.
5. W, N, G = 15, 5, 15: the Lookahead repository's A100 evaluation setting; FAFO's own
   settings were not available to us. The compressed budget (4 sinks + 28 recent) is ours, scaled to the
   ~100-160-token contexts here.
6. Decoding in float64 so that summation-order differences between passes of different widths
   cannot flip an argmax (see ``baselines/greedy_decoding.py``).

Mutants (foils), field ``mutant``; "" is the paper's method:
* ``lossy_verify``: the verification branch and the current token also attend only to the
  compressed cache: plain lossy KV compression with n-gram drafting, which must fail the
  lossless claim.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from claimbench.baselines.lookahead_decoding import LookaheadDecoding
from claimbench.baselines.streaming_llm import streaming_visible

MUTANTS = ("", "lossy_verify")


@dataclass
class FAFO(LookaheadDecoding):
    """Lookahead n-gram decoding whose lookahead branch drafts from a StreamingLLM cache."""

    name: ClassVar[str] = "fafo"
    W: int = 15  # Lookahead's A100 setting; FAFO's own not available (Deviation 5)
    N: int = 5  # idem
    G: int = 15  # idem
    n_sink: int = 4  # StreamingLLM (Xiao et al. 2024): four attention-sink tokens
    window: int = 28  # ours: compressed budget 4 + 28 = 32 cache entries (Deviation 5)
    mutant: str = ""  # "" = the paper's method; see MUTANTS

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.mutant not in MUTANTS:
            raise ValueError(f"mutant={self.mutant!r}; valid: {MUTANTS}")

    def draft_visible(self, L: int):
        return streaming_visible(L, self.n_sink, self.window)

    def verify_visible(self, L: int):
        if self.mutant == "lossy_verify":
            return streaming_visible(L, self.n_sink, self.window)
        return None
