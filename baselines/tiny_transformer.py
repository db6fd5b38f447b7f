"""A small pre-LN transformer (torch) shared by every tiny-language-model benchmark.

Reference architecture: Vaswani et al. (2017) with pre-layer-norm blocks (Xiong et al., 2020),
rotary positions (Su et al., RoFormer, 2021) or learned absolute positions, a GELU MLP, and
tied input/output embeddings. Causal (language modelling) or bidirectional (masked diffusion,
diffusion transformers).

What plugs in without copying the model:

* ``mixer``: a factory ``(cfg, layer) -> nn.Module`` replacing softmax attention (a prototype
  mixer, an SSM, a block-sparse attention). A mixer's ``forward(x, positions, cache, mask)``
  gets the normed residual stream ``x`` (B, T, d), the integer positions (T,), its layer's
  cache entry (or None) and an optional boolean mask (T_q, T_k) (True = may attend).
* ``ffn``: a factory ``(cfg, layer) -> nn.Module`` replacing the MLP (a mixture of experts).
  Any submodule may set a tensor attribute ``aux_loss`` during forward (a load-balancing
  loss, already weighted); :meth:`TinyTransformer.aux_loss` collects and clears them and the
  training loop adds them to the objective.
* ``SoftmaxAttention.scores(q, k)`` can be overridden to change the logits (e.g. a rescaled
  symmetric/skew split of Q K^T); ``keep_qkv = True`` keeps the last (q, k, v) for analysis.
* Inputs are token ids, continuous embeddings (``embeds``, e.g. image patches or regression
  vectors), or both (summed); ``out_dim`` > 0 replaces the vocabulary head by a linear head.
* Incremental decoding with a :class:`KVCache` (keys stored after the rotation, so a cache
  can be sliced, StreamingLLM-style, without re-rotating).

torch is imported inside :func:`torch_classes` (content modules import only light packages at
the top, so ``claimbench list`` never loads torch); the classes are built once per process.
Build a model with :func:`build_model`, which seeds its initialisation from a local seed and
leaves torch's global RNG as it was.
"""
from __future__ import annotations

import functools
from dataclasses import asdict, dataclass
from types import SimpleNamespace
from typing import Callable

POSITIONS = ("rope", "learned", "none")


@dataclass(frozen=True)
class TransformerConfig:
    vocab_size: int = 128  # 0: no token embedding (inputs come only as ``embeds``)
    d_model: int = 64
    n_layers: int = 2
    n_heads: int = 4
    d_ff: int = 256  # MLP hidden width (4 d_model, Vaswani et al.)
    max_len: int = 256  # learned positions only; RoPE has no limit
    causal: bool = True
    positions: str = "rope"  # "rope" | "learned" | "none"
    rope_base: float = 10000.0  # Su et al. (2021)
    norm_eps: float = 1e-5
    tie_embeddings: bool = True
    out_dim: int = 0  # 0: logits over the vocabulary; > 0: a linear head of this width
    embed_dim: int = 0  # width of continuous ``embeds`` inputs (projected to d_model); 0: d_model

    def __post_init__(self) -> None:
        if self.positions not in POSITIONS:
            raise ValueError(f"positions={self.positions!r}; valid: {POSITIONS}")
        if self.d_model % self.n_heads:
            raise ValueError(f"d_model={self.d_model} is not a multiple of n_heads={self.n_heads}")
        if self.positions == "rope" and (self.d_model // self.n_heads) % 2:
            raise ValueError(f"RoPE needs an even head width, got {self.d_model // self.n_heads}")
        if self.vocab_size <= 0 and self.out_dim <= 0:
            raise ValueError("vocab_size = 0 needs out_dim > 0 (nothing to predict otherwise)")

    def to_dict(self) -> dict:
        return asdict(self)


def build_model(cfg: TransformerConfig, seed: int, mixer: Callable | None = None,
                ffn: Callable | None = None):
    """A :class:`TinyTransformer` whose initial weights depend on ``seed`` only."""
    T = torch_classes()
    with T.torch.random.fork_rng(devices=[]):
        T.torch.manual_seed(seed)
        return T.TinyTransformer(cfg, mixer=mixer, ffn=ffn)


def n_params(model) -> int:
    return sum(p.numel() for p in model.parameters())


@functools.cache
def torch_classes() -> SimpleNamespace:
    """The torch modules of the toolkit (built on first use, once per process)."""
    import torch
    import torch.nn.functional as F
    from torch import nn

    def rope_tables(positions, dim: int, base: float):
        inv = 1.0 / base ** (torch.arange(0, dim, 2, dtype=torch.float32) / dim)  # (dim/2,)
        ang = positions.to(torch.float32)[:, None] * inv[None, :]  # (T, dim/2)
        return ang.cos(), ang.sin()

    def apply_rope(x, cos, sin):
        # x (B, H, T, dh); rotate consecutive pairs (x_2i, x_2i+1) by angle pos * theta_i
        x1, x2 = x[..., 0::2], x[..., 1::2]  # (B, H, T, dh/2)
        out = torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1)  # (B, H, T, dh/2, 2)
        return out.flatten(-2)

    class KVCache:
        """Per-layer keys and values (B, H, T, dh), keys already rotated."""

        def __init__(self, n_layers: int) -> None:
            self.k: list = [None] * n_layers
            self.v: list = [None] * n_layers
            self.positions = None  # (T,) positions of the cached entries

        def __len__(self) -> int:
            return 0 if self.k[0] is None else int(self.k[0].shape[2])

        def next_position(self) -> int:
            return 0 if self.positions is None or len(self.positions) == 0 else int(self.positions[-1]) + 1

        def select(self, index):
            """A new cache keeping only entries ``index`` (a LongTensor of cache slots)."""
            out = KVCache(len(self.k))
            out.k = [None if k is None else k[:, :, index] for k in self.k]
            out.v = [None if v is None else v[:, :, index] for v in self.v]
            out.positions = None if self.positions is None else self.positions[index]
            return out

        def truncate(self, n: int):
            return self.select(torch.arange(n))

    class SoftmaxAttention(nn.Module):
        """Multi-head softmax attention with RoPE, a causal or bidirectional mask, a KV cache."""

        keep_qkv = False

        def __init__(self, cfg: TransformerConfig, layer: int = 0) -> None:
            super().__init__()
            self.cfg, self.layer = cfg, layer
            self.h, self.dh = cfg.n_heads, cfg.d_model // cfg.n_heads
            self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model, bias=False)
            self.out = nn.Linear(cfg.d_model, cfg.d_model, bias=False)
            self.last_qkv = None

        def scores(self, q, k):
            return q @ k.transpose(-1, -2) / self.dh ** 0.5  # (B, H, Tq, Tk)

        def forward(self, x, positions, cache=None, mask=None):
            B, Tq, _ = x.shape
            q, k, v = self.qkv(x).view(B, Tq, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)  # (B, H, T, dh) each
            if self.cfg.positions == "rope":
                cos, sin = rope_tables(positions, self.dh, self.cfg.rope_base)
                q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
            k_pos = positions
            if cache is not None:
                store, i = cache
                if store.k[i] is not None:
                    k = torch.cat([store.k[i], k], dim=2)  # (B, H, Tpast + Tq, dh)
                    v = torch.cat([store.v[i], v], dim=2)
                    k_pos = torch.cat([store.positions, positions])
                store.k[i], store.v[i] = k, v
            if self.keep_qkv:
                self.last_qkv = (q.detach(), k.detach(), v.detach())
            s = self.scores(q, k)  # (B, H, Tq, Tk)
            if mask is None and self.cfg.causal:
                mask = k_pos[None, :] <= positions[:, None]  # (Tq, Tk): no key after the query
            if mask is not None:
                s = s.masked_fill(~mask, float("-inf"))
            y = torch.softmax(s, dim=-1) @ v  # (B, H, Tq, dh)
            return self.out(y.transpose(1, 2).reshape(B, Tq, -1))

    class MLP(nn.Module):
        def __init__(self, cfg: TransformerConfig, layer: int = 0) -> None:
            super().__init__()
            self.up = nn.Linear(cfg.d_model, cfg.d_ff)
            self.down = nn.Linear(cfg.d_ff, cfg.d_model)

        def forward(self, x):
            return self.down(F.gelu(self.up(x)))

    class Block(nn.Module):
        def __init__(self, cfg, layer, mixer, ffn) -> None:
            super().__init__()
            self.norm1 = nn.LayerNorm(cfg.d_model, eps=cfg.norm_eps)
            self.mixer = (mixer or SoftmaxAttention)(cfg, layer)
            self.norm2 = nn.LayerNorm(cfg.d_model, eps=cfg.norm_eps)
            self.ffn = (ffn or MLP)(cfg, layer)

        def forward(self, x, positions, cache=None, mask=None):
            x = x + self.mixer(self.norm1(x), positions, cache, mask)
            return x + self.ffn(self.norm2(x))

    class TinyTransformer(nn.Module):
        def __init__(self, cfg: TransformerConfig, mixer=None, ffn=None) -> None:
            super().__init__()
            self.cfg = cfg
            d = cfg.d_model
            self.tok = nn.Embedding(cfg.vocab_size, d) if cfg.vocab_size > 0 else None
            self.embed_in = nn.Linear(cfg.embed_dim, d) if cfg.embed_dim > 0 else None
            self.pos = nn.Embedding(cfg.max_len, d) if cfg.positions == "learned" else None
            self.blocks = nn.ModuleList(Block(cfg, i, mixer, ffn) for i in range(cfg.n_layers))
            self.norm = nn.LayerNorm(d, eps=cfg.norm_eps)
            if cfg.out_dim > 0:
                self.head = nn.Linear(d, cfg.out_dim)
            else:
                self.head = nn.Linear(d, cfg.vocab_size, bias=False)
                if cfg.tie_embeddings:
                    self.head.weight = self.tok.weight
            self.apply(self._init)

        @staticmethod
        def _init(m) -> None:
            # GPT-2 style: N(0, 0.02) weights, zero biases
            if isinstance(m, (nn.Linear, nn.Embedding)):
                nn.init.normal_(m.weight, 0.0, 0.02)
            if isinstance(m, nn.Linear) and m.bias is not None:
                nn.init.zeros_(m.bias)

        def new_cache(self) -> KVCache:
            return KVCache(self.cfg.n_layers)

        def embed(self, tokens=None, embeds=None, positions=None):
            x = 0
            if tokens is not None:
                x = self.tok(tokens)  # (B, T, d)
            if embeds is not None:
                x = x + (self.embed_in(embeds) if self.embed_in is not None else embeds)  # (B, T, d)
            if self.pos is not None:
                if int(positions.max()) >= self.cfg.max_len:
                    raise ValueError(f"position {int(positions.max())} >= max_len={self.cfg.max_len}")
                x = x + self.pos(positions)[None]
            return x

        def forward(self, tokens=None, embeds=None, cache=None, mask=None, positions=None,
                    return_hidden: bool = False):
            """Logits (B, T, vocab or out_dim); with ``return_hidden`` also the residual stream
            after every block (a list of n_layers tensors (B, T, d)). ``positions`` (T,) default
            to the ones following the cache; ``cache`` grows in place."""
            if tokens is None and embeds is None:
                raise ValueError("give tokens, embeds or both")
            T = (tokens if tokens is not None else embeds).shape[1]
            if positions is None:
                start = cache.next_position() if cache is not None else 0
                positions = torch.arange(start, start + T)
            x = self.embed(tokens, embeds, positions)
            hidden = []
            for i, block in enumerate(self.blocks):
                x = block(x, positions, None if cache is None else (cache, i), mask)
                hidden.append(x)
            if cache is not None:
                cache.positions = positions if cache.positions is None else torch.cat([cache.positions, positions])
            logits = self.head(self.norm(x))
            return (logits, hidden) if return_hidden else logits

        def aux_loss(self):
            """Sum of the ``aux_loss`` tensors submodules set in the last forward (then cleared)."""
            total = torch.zeros(())
            for m in self.modules():
                a = getattr(m, "aux_loss", None)
                if isinstance(a, torch.Tensor):
                    total = total + a
                    m.aux_loss = None
            return total

    return SimpleNamespace(torch=torch, nn=nn, F=F, KVCache=KVCache, SoftmaxAttention=SoftmaxAttention,
                           MLP=MLP, Block=Block, TinyTransformer=TinyTransformer,
                           rope_tables=rope_tables, apply_rope=apply_rope)
