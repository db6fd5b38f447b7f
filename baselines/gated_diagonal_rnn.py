"""A gated diagonal linear RNN token mixer (a diagonal selective SSM / gated RNN, "Mamba-lite").

The input-dependent diagonal recurrence shared by HGRN (Qin et al., 2023), GLA-style gated
linear RNNs and the diagonal selective SSMs of Mamba (Gu & Dao, 2023) in their simplest form,
one state per channel:

  f_t = sigmoid(W_f x_t + b_f)                    forget gate (d,), per-channel time scale
  h_t = f_t * h_t-1 + (1 - f_t) * W_u x_t         (d,)
  y_t = W_o (h_t * silu(W_g x_t))                 output gate

Parameters 4 d^2 + d, matched to softmax attention's 4 d^2. The bias b_f is initialised so
that the time constants 1 / (1 - f) are log-spaced over [tau_min, tau_max] across channels.
Computed in chunks: inside a chunk the recurrence is unrolled exactly (cumulative log gates,
a masked (C, C) decay per channel), the state is carried across chunks, so the cost is
O(T C d + T d^2), linear in T. :func:`gated_recurrence` is the step-by-step reference.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.baselines.mixer_lm import MixerLM
from claimbench.baselines.tiny_transformer import torch_classes


@functools.cache
def gated_rnn_classes():
    tc = torch_classes()
    torch, nn, F = tc.torch, tc.nn, tc.F

    def gated_recurrence(log_f, u):
        """Reference: h_t = f_t h_t-1 + (1 - f_t) u_t with log_f, u (B, T, d) -> h (B, T, d)."""
        f = log_f.exp()
        h = torch.zeros_like(u[:, 0])  # (B, d)
        out = []
        for t in range(u.shape[1]):
            h = f[:, t] * h + (1 - f[:, t]) * u[:, t]
            out.append(h)
        return torch.stack(out, dim=1)

    def gated_chunked(log_f, u, chunk: int):
        """The same recurrence in chunks of ``chunk`` steps: (B, T, d)."""
        B, T, d = u.shape
        b = (1 - log_f.exp()) * u  # (B, T, d) input term
        h = u.new_zeros(B, d)  # (B, d) state entering the chunk
        outs = []
        for c0 in range(0, T, chunk):
            c1 = min(T, c0 + chunk)
            C = c1 - c0
            L = torch.cumsum(log_f[:, c0:c1], dim=1)  # (B, C, d) log prod of gates up to t
            diff = L[:, :, None, :] - L[:, None, :, :]  # (B, C, C, d) log prod_{s<k<=t} f_k
            causal = torch.ones(C, C, dtype=torch.bool).tril()[None, :, :, None]  # (1, C, C, 1)
            D = torch.where(causal, diff, torch.full((), float("-inf"), dtype=u.dtype)).exp()
            y = torch.einsum("btsd,bsd->btd", D, b[:, c0:c1])  # (B, C, d) inside the chunk
            y = y + L.exp() * h[:, None, :]  # carried state, decayed through the chunk
            h = y[:, -1]
            outs.append(y)
        return torch.cat(outs, dim=1)

    class GatedDiagonalRNN(nn.Module):
        def __init__(self, cfg, layer: int, chunk: int, tau_min: float, tau_max: float) -> None:
            super().__init__()
            d = cfg.d_model
            self.chunk = chunk
            self.forget = nn.Linear(d, d, bias=False)
            self.inp = nn.Linear(d, d, bias=False)
            self.gate = nn.Linear(d, d, bias=False)
            self.out = nn.Linear(d, d, bias=False)
            tau = np.geomspace(tau_min, tau_max, d)
            g = 1.0 - 1.0 / tau
            # A bare Parameter: the model's GPT-2 init zeroes the biases of Linear layers only.
            self.forget_bias = nn.Parameter(torch.tensor(np.log(g / (1 - g)),
                                                         dtype=torch.float32))  # (d,)

        def forward(self, x, positions, cache=None, mask=None):
            if cache is not None or mask is not None:
                raise NotImplementedError("gated diagonal RNN: causal, no cache")
            log_f = F.logsigmoid(self.forget(x) + self.forget_bias)  # (B, T, d)
            h = gated_chunked(log_f, self.inp(x), self.chunk)  # (B, T, d)
            return self.out(h * F.silu(self.gate(x)))

    return {"GatedDiagonalRNN": GatedDiagonalRNN, "gated_recurrence": gated_recurrence,
            "gated_chunked": gated_chunked}


@dataclass
class GatedDiagonalRNNLM(MixerLM):
    """The toolkit's transformer with the gated diagonal RNN mixer in place of attention."""

    name: ClassVar[str] = "gated_diagonal_rnn"
    chunk: int = 16  # ours: chunk of the exactly unrolled recurrence (fastest on a CPU)
    tau_min: float = 1.5  # ours: initial time constants 1 / (1 - f) across channels
    tau_max: float = 256.0  # ours

    def mixer_factory(self):
        cls = gated_rnn_classes()["GatedDiagonalRNN"]
        chunk, lo, hi = self.chunk, self.tau_min, self.tau_max

        def make(cfg, layer):
            return cls(cfg, layer, chunk, lo, hi)

        return make

    def extra_key(self) -> dict:
        return {"chunk": self.chunk, "tau": [self.tau_min, self.tau_max]}

