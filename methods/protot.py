"""Prototype Transformer (ProtoT): a linear-cost token mixer through P learned prototypes.

Paper: Y. Yordanov, M. Forasassi, B. Menzat, R. Wang, C. Qi, M. Kaltenberger, A. M'Charrak,
T. Salvatori, T. Lukasiewicz, "Prototype Transformer: Towards Language Model Architectures
Interpretable by Design", arXiv 2602.11852 (v2, 1 Jun 2026; ICML 2026). Only the abstract and
third-party summaries were read (issue 28: the stored pages were searched again, no full
text); the body (and any code) was not available, so the mixer
below is the research note's reconstruction of the abstract's description ("the quadratic-cost
self-attention module ... replaced with a linear-cost module based on prototypes, which are
learned parameter vectors"; "two-way communication between the input sequence and the
prototypes"; "communication channels that aggregate contextual information at different time
scales").

The mixer, per layer, on the normed residual stream x_t in R^d (t = 1..T):

  write (token -> prototypes):  a_t = softmax_p(<W_w x_t, pi_p> / sqrt(d))            (P,)
  channel p aggregates:         S_p,t = g_p S_p,t-1 + a_tp W_v x_t,  n_p,t = g_p n_p,t-1 + a_tp
  read (prototypes -> token):   r_t = softmax_p(<W_r x_t, pi_p> / sqrt(d))             (P,)
  output:                       y_t = W_o sum_p r_tp S_p,t / (n_p,t + eps)

with prototypes pi_p in R^d (parameters), per-prototype decays g_p = sigmoid(theta_p) in (0, 1)
(the "different time scales", initialised with time constants 1 / (1 - g_p) log-spaced over
[tau_min, tau_max]). The state is P x (d + 1) whatever T: O(T P d) time, O(P d) memory.

Computation: chunked (chunks of ``chunk`` tokens). Inside a chunk the recurrence is unrolled
exactly as a masked product, W_ts = sum_p r_tp g_p^(t-s) a_sp (s <= t); across chunks the P
states are carried and decayed. Cost O(T (chunk + d) P + T d^2): linear in T for a fixed
chunk. :func:`prototype_recurrence` is the token-by-token reference the tests compare with.

The interpretable read-out: each token's concept is the prototype it writes to most,
argmax_p a_tp, in the last layer (the assignment scored against planted concepts).

Deviations (numbered):
1. The mixer is a reconstruction (the paper's equations were not read): softmax routing by
   similarity to the prototypes, decayed per-prototype summaries, a softmax read-back. Whether
   ProtoT normalises its channels, shares the write and read queries, uses several heads or
   gates its decays by the input is unknown; we normalise (a decayed weighted mean per channel,
   so channels of every time scale have the same scale: ours) and use one head, separate write
   and read projections, input-independent decays.
2. Scale: 2 layers, d = 64, P = 16, ~0.1M parameters, a synthetic concept language (paper:
   FineWeb-Edu, models up to hundreds of millions of parameters). P = 16 is the note's plan.
3. No interpretability edits, GLUE or generation ELO experiments. Robustness (issue 28) is the
   JSD between next-token distributions on clean and randomly token-substituted validation
   windows (rate 0.1, ``baselines/mixer_lm.py``), not the paper's lexical perturbations
   (typos, spelling, synonyms, abbreviations, punctuation: known only from a summary).
4. Incremental decoding with a cache is not implemented (the claims need none).

Mutants for foils (field ``mutant``; "" is the method above unchanged; none is the paper's):
- ``random_init``: the same model, never trained (the "random-init ProtoT" of the note).
- ``uniform_routing``: a_tp = r_tp = 1 / P (the prototypes removed from the routing): P
  decayed running means of the values that no token is routed to selectively, so the
  prototype assignment carries no information.
- ``no_mixer``: the mixer outputs zero (no communication between tokens at all): each token is
  predicted from itself only, a bigram model.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.baselines.mixer_lm import MixerLM
from claimbench.baselines.tiny_transformer import torch_classes

MUTANTS = ("", "random_init", "uniform_routing", "no_mixer")
NORM_EPS = 1e-6  # ours: guards channels nothing has been written to yet


def time_constant_logits(P: int, tau_min: float, tau_max: float) -> np.ndarray:
    """theta_p with 1 / (1 - sigmoid(theta_p)) log-spaced over [tau_min, tau_max]."""
    tau = np.geomspace(tau_min, tau_max, P)
    g = 1.0 - 1.0 / tau
    return np.log(g / (1.0 - g))


@functools.cache
def protot_classes():
    tc = torch_classes()
    torch, nn, F = tc.torch, tc.nn, tc.F

    def prototype_recurrence(a, r, v, log_g, normalize: bool = True):
        """Token-by-token reference: a, r (B, T, P), v (B, T, dv), log_g (P,) -> (B, T, dv)."""
        B, T, P = a.shape
        g = log_g.exp()  # (P,)
        S = v.new_zeros(B, P, v.shape[-1])  # (B, P, dv)
        n = v.new_zeros(B, P)  # (B, P)
        out = []
        for t in range(T):
            S = g[None, :, None] * S + a[:, t, :, None] * v[:, t, None, :]  # (B, P, dv)
            n = g[None] * n + a[:, t]  # (B, P)
            m = S / (n[..., None] + NORM_EPS) if normalize else S
            out.append(torch.einsum("bp,bpd->bd", r[:, t], m))
        return torch.stack(out, dim=1)

    def prototype_chunked(a, r, v, log_g, chunk: int, decays=None):
        """y_t = sum_p r_tp S_p,t (no normalisation) in chunks: exact masked products inside a
        chunk, the P states carried (and decayed) across chunks. (B, T, dv)."""
        B, T, P = a.shape
        dv = v.shape[-1]
        decays = ChunkDecays(log_g) if decays is None else decays
        S = v.new_zeros(B, P, dv)  # (B, P, dv) state entering the chunk
        outs = []
        for c0 in range(0, T, chunk):
            c1 = min(T, c0 + chunk)
            C = c1 - c0
            D = decays.mask(C)  # (C, C, P) g_p^(t-s) for s <= t
            ac, rc, vc = a[:, c0:c1], r[:, c0:c1], v[:, c0:c1]
            W = torch.einsum("btp,tsp,bsp->bts", rc, D, ac)  # (B, C, C)
            y = W @ vc  # (B, C, dv) inside the chunk
            decay_in = decays.into(C)  # (C, P) g_p^(t - c0 + 1)
            y = y + torch.einsum("btp,tp,bpd->btd", rc, decay_in, S)  # from earlier chunks
            decay_out = decays.out_of(C)  # (C, P) g_p^(c1 - 1 - s)
            S = decays.whole(C)[None, :, None] * S + torch.einsum(
                "bsp,sp,bsd->bpd", ac, decay_out, vc)  # (B, P, dv)
            outs.append(y)
        return torch.cat(outs, dim=1)

    @functools.lru_cache(maxsize=64)
    def lag_tables(C: int, dtype, device):
        """Constants of a chunk of C tokens (no parameter in them): the lag t - s clamped at 0
        (C, C, 1), its causal mask s <= t (C, C, 1), a zero, t - c0 + 1 and c1 - 1 - s (C, 1)."""
        with torch.inference_mode(False):  # cached: must stay usable by a later backward pass
            i = torch.arange(C, dtype=dtype, device=device)  # (C,)
            lag = i[:, None] - i[None, :]  # (C, C) t - s
            return (lag.clamp(min=0)[..., None], (lag >= 0)[..., None],
                    torch.zeros((), dtype=dtype, device=device), i[:, None] + 1, (C - 1 - i)[:, None])

    class ChunkDecays:
        """The decays of a chunk of C tokens: ``mask`` (C, C, P) g_p^(t-s) where s <= t (else
        0), ``into`` (C, P) g_p^(t - c0 + 1), ``out_of`` (C, P) g_p^(c1 - 1 - s), ``whole`` (P,)
        g_p^C; the parameter-free index tables come from ``lag_tables`` (built once).

        Each value is computed by the same operations on the same operands whether or not it
        is reused, so reuse changes no number. With gradients every value is rebuilt where the
        chunk uses it (one autograd node per use, created in the original order: shared
        values would sum their gradients in another order); without (evaluation, the cost
        study) each is built once per chunk length and shared by every chunk and by the
        counts and read passes of a layer (issue 27-style saving: fewer operations only)."""

        def __init__(self, log_g):
            self.log_g = log_g
            self.memo = None if torch.is_grad_enabled() and log_g.requires_grad else {}

        def _get(self, what: str, C: int):
            if self.memo is not None and (what, C) in self.memo:
                return self.memo[what, C]
            lagc, causal, zero, inc, rem = lag_tables(C, self.log_g.dtype, self.log_g.device)
            if what == "mask":
                out = torch.where(causal, (lagc * self.log_g).exp(), zero)
            elif what == "into":
                out = (inc * self.log_g).exp()
            elif what == "out_of":
                out = (rem * self.log_g).exp()
            else:
                out = (C * self.log_g).exp()
            if self.memo is not None:
                self.memo[what, C] = out
            return out

        def mask(self, C: int):
            return self._get("mask", C)

        def into(self, C: int):
            return self._get("into", C)

        def out_of(self, C: int):
            return self._get("out_of", C)

        def whole(self, C: int):
            return self._get("whole", C)

    def decay_mask(i, log_g):
        """(C, C, P): g_p^(t-s) where s <= t, else 0."""
        lag = i[:, None] - i[None, :]  # (C, C) t - s
        return torch.where((lag >= 0)[..., None], (lag.clamp(min=0)[..., None] * log_g).exp(),
                           torch.zeros((), dtype=i.dtype))

    class PrototypeMixer(nn.Module):
        """The ProtoT mixer (module header); ``keep_routing`` keeps the last write routing."""

        keep_routing = False

        def __init__(self, cfg, layer: int, P: int, chunk: int, tau_min: float,
                     tau_max: float, normalize: bool, mutant: str) -> None:
            super().__init__()
            d = cfg.d_model
            self.P, self.chunk, self.normalize, self.mutant = P, chunk, normalize, mutant
            self.write = nn.Linear(d, d, bias=False)
            self.read = nn.Linear(d, d, bias=False)
            self.value = nn.Linear(d, d, bias=False)
            self.out = nn.Linear(d, d, bias=False)
            self.prototypes = nn.Parameter(torch.randn(P, d))  # (P, d) unit-scale vectors
            self.decay_logit = nn.Parameter(torch.tensor(
                time_constant_logits(P, tau_min, tau_max), dtype=torch.float32))  # (P,)
            self.last_routing = None

        def routing(self, x):
            d = x.shape[-1]
            if self.mutant == "uniform_routing":
                u = x.new_full((*x.shape[:-1], self.P), 1.0 / self.P)  # (B, T, P)
                return u, u
            a = torch.softmax(self.write(x) @ self.prototypes.T / math.sqrt(d), dim=-1)  # (B, T, P)
            r = torch.softmax(self.read(x) @ self.prototypes.T / math.sqrt(d), dim=-1)  # (B, T, P)
            return a, r

        def forward(self, x, positions, cache=None, mask=None):
            if cache is not None:
                raise NotImplementedError("ProtoT mixer: incremental decoding not implemented")
            if mask is not None:
                raise NotImplementedError("ProtoT mixer is causal by construction")
            if self.mutant == "no_mixer":
                return torch.zeros_like(x)
            a, r = self.routing(x)
            if self.keep_routing:
                self.last_routing = a.detach()
            log_g = F.logsigmoid(self.decay_logit)  # (P,)
            y = prototype_read(a, r, self.value(x), log_g, self.chunk, self.normalize)
            return self.out(y)

    def prototype_read(a, r, v, log_g, chunk: int, normalize: bool = True):
        """sum_p r_tp S_p,t / (n_p,t + eps) in chunks: (B, T, d).

        With normalisation the read weights r_tp / (n_p,t + eps) depend on the counts, so the
        counts n_p,t are computed first (a chunked pass with v = 1) and folded into r."""
        decays = ChunkDecays(log_g)
        if not normalize:
            return prototype_chunked(a, r, v, log_g, chunk, decays)
        counts = prototype_counts(a, log_g, chunk, decays)  # (B, T, P)
        return prototype_chunked(a, r / (counts + NORM_EPS), v, log_g, chunk, decays)

    def prototype_counts(a, log_g, chunk: int, decays=None):
        """n_p,t = g_p n_p,t-1 + a_tp for every t: (B, T, P), chunked (per-channel scan)."""
        B, T, P = a.shape
        decays = ChunkDecays(log_g) if decays is None else decays
        n = a.new_zeros(B, P)  # (B, P)
        outs = []
        for c0 in range(0, T, chunk):
            c1 = min(T, c0 + chunk)
            C = c1 - c0
            D = decays.mask(C)  # (C, C, P)
            inside = torch.einsum("tsp,bsp->btp", D, a[:, c0:c1])  # (B, C, P)
            carried = decays.into(C)[None] * n[:, None, :]  # (B, C, P)
            block = inside + carried
            n = block[:, -1]
            outs.append(block)
        return torch.cat(outs, dim=1)

    return {"PrototypeMixer": PrototypeMixer, "prototype_recurrence": prototype_recurrence,
            "prototype_chunked": prototype_chunked, "prototype_read": prototype_read,
            "prototype_counts": prototype_counts, "decay_mask": decay_mask}


@dataclass
class ProtoT(MixerLM):
    """A ProtoT language model: the toolkit's transformer with the prototype mixer."""

    name: ClassVar[str] = "protot"
    n_prototypes: int = 16  # P: the note's plan (paper's value unknown)
    chunk: int = 16  # ours: chunk of the exactly unrolled recurrence (fastest on a CPU)
    tau_min: float = 1.5  # ours: shortest initial time constant 1 / (1 - g_p)
    tau_max: float = 256.0  # ours: longest initial time constant
    normalize: bool = True  # ours (Deviation 1): a decayed weighted mean per channel
    mutant: str = ""  # foil only: "random_init" | "uniform_routing" | "no_mixer"; "" = paper

    def __post_init__(self) -> None:
        if self.mutant not in MUTANTS:
            raise ValueError(f"mutant={self.mutant!r}; valid: {MUTANTS}")

    def mixer_factory(self):
        cls = protot_classes()["PrototypeMixer"]
        P, chunk, lo, hi = self.n_prototypes, self.chunk, self.tau_min, self.tau_max
        normalize, mutant = self.normalize, self.mutant

        def make(cfg, layer):
            return cls(cfg, layer, P, chunk, lo, hi, normalize, mutant)

        return make

    def extra_key(self) -> dict:
        return {"P": self.n_prototypes, "chunk": self.chunk, "tau": [self.tau_min, self.tau_max],
                "normalize": self.normalize, "mutant": self.mutant}

    def cost_key(self) -> dict:
        # random_init differs from the method only in not being trained; the cost study
        # measures untrained mixers, so it shares the method's operation count.
        key = super().cost_key()
        if self.mutant == "random_init":
            key["mutant"] = ""
        return key

    def trains(self) -> bool:
        return self.mutant != "random_init" and self.steps > 0

    def assignments(self, model, x):
        """argmax_p of the last layer's write routing for every token: (n * context,)."""
        if self.mutant == "no_mixer":
            return None
        mixer = model.blocks[-1].mixer
        mixer.keep_routing = True
        try:
            model(x)
            a = mixer.last_routing  # (n, context, P)
        finally:
            mixer.keep_routing = False
            mixer.last_routing = None
        return a.argmax(dim=-1).reshape(-1).numpy().astype(np.int64)
