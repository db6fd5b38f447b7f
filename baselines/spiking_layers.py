"""Leaky integrate-and-fire layers, their filter view, and the SNN-vs-ANN energy estimate.

Shared by the spiking-network papers (snn_mmwave, spikenet). The neuron is snntorch's
``Leaky`` update (discrete LIF, subtractive reset, snntorch's fast-sigmoid surrogate gradient),
written inline with ``snntorch.surrogate.fast_sigmoid`` because ``Leaky``'s per-step bookkeeping
doubled the CPU time of these small layers (``tests/test_snn_mmwave.py`` checks that both agree):

    u_t = beta * u_{t-1} + I_t - s_{t-1} * theta,    s_t = H(u_t - theta).

Below threshold, u is the first-order IIR low-pass filter H(z) = 1 / (1 - beta z^-1); its
half-power cut-off w_c (rad/sample) solves |H(e^{jw})|^2 = |H(1)|^2 / 2:

    cos w_c = (-1 + 4 beta - beta^2) / (2 beta),
    beta(w_c) = (2 - cos w_c) - sqrt((2 - cos w_c)^2 - 1)       (the root in (0, 1)).

Energy (Horowitz 2014, 45 nm, 32-bit float), the convention of the SNN literature both papers
follow: an ANN layer costs MACs * E_MAC, a spiking layer costs SOPs * E_AC, where SOPs =
(input spikes) * (fan-out); a layer fed real values (the encoding layer) costs MACs.
"""
from __future__ import annotations

import functools
import math

import numpy as np

E_MAC_PJ = 4.6  # Horowitz (ISSCC 2014), 45 nm: 32-bit float multiply-accumulate
E_AC_PJ = 0.9  # Horowitz (ISSCC 2014), 45 nm: 32-bit float add


def lif_cutoff(beta: float) -> float:
    """Half-power cut-off of the LIF low-pass, in cycles per sample (0 .. 0.5)."""
    c = (-1.0 + 4.0 * beta - beta * beta) / (2.0 * beta)
    return float(np.arccos(np.clip(c, -1.0, 1.0)) / (2 * math.pi))


def beta_for_cutoff(f_c: float) -> float:
    """The decay beta whose LIF half-power cut-off is ``f_c`` cycles/sample (inverse of lif_cutoff).

    Cut-offs above the largest reachable one (beta -> 3 - sqrt 8 at f_c = 0.5) give that beta.
    """
    g = 2.0 - math.cos(2 * math.pi * min(max(f_c, 1e-6), 0.5))
    return float(g - math.sqrt(g * g - 1.0))


def lif_gain(beta: float, f: np.ndarray) -> np.ndarray:
    """|H(e^{j 2 pi f})| / |H(1)|: the normalized magnitude response of the LIF filter."""
    w = 2 * np.pi * np.asarray(f, dtype=float)
    return (1.0 - beta) / np.sqrt(1.0 - 2.0 * beta * np.cos(w) + beta * beta)


def energy_pj(macs: float, sops: float) -> float:
    """Theoretical inference energy (pJ): MACs at E_MAC plus synaptic operations at E_AC."""
    return float(macs) * E_MAC_PJ + float(sops) * E_AC_PJ


@functools.cache
def spiking_classes():
    """torch modules, built once (torch is imported lazily, see api.py)."""
    import torch
    from snntorch import surrogate
    from torch import nn

    class LIF(nn.Module):
        """Multi-step LIF over the leading time axis: (T, ..., H) currents -> (T, ..., H) spikes.

        ``analog=True`` is the non-spiking twin (a mutant): the same leaky integration with no
        threshold and no reset, output ReLU(u), so every downstream synapse is a MAC.
        ``spikes`` accumulates the emitted spike count (or nonzero activations) for the
        energy estimate; ``events`` the neuron-steps seen.
        """

        def __init__(self, beta: float, threshold: float = 1.0, analog: bool = False):
            super().__init__()
            self.beta, self.threshold, self.analog = float(beta), float(threshold), analog
            self.spike_fn = surrogate.fast_sigmoid(slope=25)
            self.spikes = 0.0
            self.events = 0.0

        def forward(self, cur: "torch.Tensor") -> "torch.Tensor":
            outs = []
            u = torch.zeros_like(cur[0])
            s = torch.zeros_like(cur[0])
            for t in range(cur.shape[0]):
                if self.analog:
                    u = self.beta * u + cur[t]
                    s = torch.relu(u)
                else:
                    # snntorch Leaky's update (reset by subtraction, reset term detached),
                    # written inline: its per-step bookkeeping doubled the CPU time here
                    u = self.beta * u + cur[t] - s.detach() * self.threshold
                    s = self.spike_fn(u - self.threshold)
                outs.append(s)
            out = torch.stack(outs)  # (T, ..., H)
            if not self.training:
                self.spikes += float((out != 0).sum())
                self.events += float(out.numel())
            return out

        def reset_counts(self) -> None:
            self.spikes, self.events = 0.0, 0.0

    return LIF


SURROGATE_SLOPE = 25  # the shared LIF's surrogate.fast_sigmoid(slope=25)


@functools.cache
def fast_lif_class():
    """The LIF above with its BPTT written out by hand (issue 27; any trailing shape (T, ..., H)).

    Same neuron, same operations in the same order: autograd through LIF.forward builds about 8
    graph nodes per time step and layer, most of a training step's CPU time at these sizes. Here
    the forward runs without a graph and the backward is the recursion autograd evaluates,
        dL/du_t = fs'(u_t - theta) dL/ds_t + beta dL/du_{t+1}    (dL/dcur_t = dL/du_t),
    fs' the fast-sigmoid surrogate (relu' for the analog twin); the reset term is detached, as
    in LIF. Gradients equal autograd's bit for bit (tests/test_snn_mmwave.py,
    tests/test_spikenet.py).
    """
    import torch

    LIF = spiking_classes()

    class _LIFSteps(torch.autograd.Function):
        @staticmethod
        def forward(ctx, cur, beta: float, threshold: float, analog: bool):  # cur (T, B, H)
            out = torch.empty_like(cur)  # (T, B, H) spikes (analog: ReLU(u))
            saved = out if analog else torch.empty_like(cur)  # (T, B, H) surrogate inputs u - theta
            u = torch.zeros_like(cur[0])  # (B, H), updated in place
            s = torch.zeros_like(cur[0])  # (B, H): the previous step's spikes
            for cur_t, out_t, x_t in zip(cur.unbind(0), out.unbind(0), saved.unbind(0)):
                u.mul_(beta).add_(cur_t)  # beta * u + I_t
                if analog:
                    torch.clamp_min(u, 0, out=out_t)  # relu, written into out
                    continue
                # - s * theta (s is 0 or 1, so s * 1.0 is s itself)
                u.sub_(s if threshold == 1.0 else s * threshold)
                torch.sub(u, threshold, out=x_t)
                torch.gt(x_t, 0, out=out_t)  # snntorch FastSigmoid.forward: (x > 0) as float
                s = out_t
            ctx.save_for_backward(saved)
            ctx.beta, ctx.analog = beta, analog
            return out

        @staticmethod
        def backward(ctx, grad_out):  # grad_out (T, B, H)
            (saved,) = ctx.saved_tensors
            if ctx.analog:  # ReluBackward0
                g = torch.ops.aten.threshold_backward(grad_out, saved, 0)  # (T, B, H)
            else:  # snntorch FastSigmoid.backward, all steps at once (elementwise)
                g = grad_out / (SURROGATE_SLOPE * torch.abs(saved) + 1.0) ** 2  # (T, B, H)
            # dL/du_t = g_t + beta dL/du_{t+1}, in place from the last step back
            steps = g.unbind(0)
            for t in range(len(steps) - 2, -1, -1):
                steps[t].add_(steps[t + 1] * ctx.beta)
            return g, None, None, None

    class FastLIF(LIF):
        def forward(self, cur):  # cur (T, B, H)
            out = _LIFSteps.apply(cur, self.beta, self.threshold, self.analog)  # (T, B, H)
            if not self.training:
                self.spikes += float((out != 0).sum())
                self.events += float(out.numel())
            return out

    return FastLIF


def firing_rate(layers) -> float:
    """Emitted spikes per neuron per time step over ``layers`` (LIF modules, after inference)."""
    spikes = sum(l.spikes for l in layers)
    events = sum(l.events for l in layers)
    return spikes / events if events else 0.0
