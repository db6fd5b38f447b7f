"""StreamingLLM decoding (Xiao et al., "Efficient Streaming Language Models with Attention
Sinks", ICLR 2024, arXiv 2309.17453): greedy decoding whose KV cache keeps only the first
``n_sink`` tokens (attention sinks) and the ``window`` most recent ones.

Lossy: tokens evicted from the cache can no longer be attended to, so its output can leave the
full-cache greedy one (what FAFO calls a "fumble"). :func:`streaming_visible` is the eviction
rule as a mask over cache slots, reused by any method that drafts from a StreamingLLM cache.

Deviation: StreamingLLM re-assigns positions inside the compressed cache; our toolkit stores
keys already rotated, so every kept token keeps its original position (the cache is masked,
not rebuilt). With RoPE this only changes relative distances for the sinks.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from claimbench.baselines import tiny_transformer
from claimbench.baselines.greedy_decoding import DecodingMethod, greedy


def streaming_visible(L: int, n_sink: int, window: int):
    """Bool (L,): cache slot s is kept iff s < n_sink or s >= L - window."""
    torch = tiny_transformer.torch_classes().torch
    s = torch.arange(L)  # (L,)
    return (s < n_sink) | (s >= L - window)


@dataclass
class StreamingLLMDecoding(DecodingMethod):
    """Greedy decoding from a sinks + recent-window KV cache."""

    name: ClassVar[str] = "streaming_llm"
    n_sink: int = 4  # Xiao et al. (2024): four initial tokens as attention sinks
    window: int = 28  # ours: a 32-entry budget, about a third of a 96-token prompt

    def decode(self, model, prompt, n_new, counter, seed):
        return greedy(model, prompt, n_new, counter,
                      visible=lambda L: streaming_visible(L, self.n_sink, self.window))
