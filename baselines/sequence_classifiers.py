"""ANN sequence classifiers of one width: an MLP on the time-flattened input, a 1-D CNN and a GRU.

Inputs are (n, T, C) sequences; each model returns class logits and counts its multiply-
accumulates per sample (``macs``) for the 45 nm energy estimate of baselines/spiking_layers.py
(bias additions, activations, pooling and gate nonlinearities are not counted, as in the SNN
literature's estimate).
- ``mlp``: Linear(T*C, H) - ReLU - Linear(H, H) - ReLU - Linear(H, K).
- ``cnn1d``: Conv1d(C, H, k) - ReLU - Conv1d(H, H, k) - ReLU - mean over time - Linear(H, K)
  ('same' padding).
- ``gru``: one GRU layer of H units (Cho et al. 2014), the last state - Linear(H, K)
  (``pool="mean"``: the states averaged over time, the SNN's own readout, method snn_mmwave;
  there the recurrence and its BPTT run by hand, ``GRUSteps``, bit for bit torch's GRU).

Training options (defaults off, the original setting; issue 28 turned them on for snn_mmwave, where
the MLP and the GRU sat at chance): ``standardize`` z-scores each input channel with the training
set's mean and standard deviation (a fixed first layer, so test inputs get the training statistics);
``augment`` rolls each training batch by a random number of time steps and flips its sign with
probability 1/2 (label-preserving for sequences whose class pattern has a random phase, as in
datasets/radar_sequences.py); neither adds MACs to the energy count (the fixed z-score folds into
the first layer's weights and biases, which are linear in the input; augmentation runs in training
only).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.spiking_layers import energy_pj
from claimbench.baselines.supervised_training import build_seeded, fit_classifier, predict


def ann_macs(kind: str, T: int, C: int, H: int, K: int, kernel: int) -> int:
    if kind == "mlp":
        return T * C * H + H * H + H * K
    if kind == "cnn1d":
        return T * kernel * C * H + T * kernel * H * H + H * K
    if kind == "gru":
        return T * 3 * (C * H + H * H) + H * K
    raise ValueError(kind)


@functools.cache
def _classes():
    import torch
    import torch.nn.functional as F
    from torch import nn

    class Standardize(nn.Module):
        """Per-channel z-score with fixed statistics from the training set."""

        def __init__(self, mean, std):  # mean, std (C,)
            super().__init__()
            self.register_buffer("mean", torch.as_tensor(mean, dtype=torch.float32))
            self.register_buffer("std", torch.as_tensor(std, dtype=torch.float32))

        def forward(self, x):  # x (B, T, C)
            return (x - self.mean) / self.std

    class ShiftFlip(nn.Module):
        """Training-time augmentation: roll the batch in time, flip its sign (seeded, local RNG)."""

        def __init__(self, seed: int):
            super().__init__()
            self.g = torch.Generator().manual_seed(int(seed) % 2**63)

        def forward(self, x):  # x (B, T, C)
            if not self.training:
                return x
            k = int(torch.randint(0, x.shape[1], (1,), generator=self.g))
            x = torch.roll(x, k, 1)  # (B, T, C)
            return -x if float(torch.rand(1, generator=self.g)) < 0.5 else x

    class Wrapped(nn.Module):
        """``pre`` modules (standardize, augment) in front of a classifier."""

        def __init__(self, pre, net):
            super().__init__()
            self.pre, self.net = nn.Sequential(*pre), net

        def forward(self, x):  # x (B, T, C)
            return self.net(self.pre(x))

    class MLP(nn.Module):
        def __init__(self, T, C, H, K):
            super().__init__()
            self.net = nn.Sequential(nn.Flatten(), nn.Linear(T * C, H), nn.ReLU(),
                                     nn.Linear(H, H), nn.ReLU(), nn.Linear(H, K))

        def forward(self, x):  # x (B, T, C)
            return self.net(x)

    class CNN1D(nn.Module):
        def __init__(self, C, H, K, kernel):
            super().__init__()
            pad = kernel // 2
            self.conv = nn.Sequential(nn.Conv1d(C, H, kernel, padding=pad), nn.ReLU(),
                                      nn.Conv1d(H, H, kernel, padding=pad), nn.ReLU())
            self.head = nn.Linear(H, K)

        def forward(self, x):  # x (B, T, C)
            h = self.conv(x.transpose(1, 2))  # (B, H, T)
            return self.head(h.mean(-1))

    class GRUSteps(torch.autograd.Function):
        """The recurrence of torch's CPU GRU (aten's GRUCell after the input projection, zero
        initial state) with its BPTT written out by hand: the same operations in the same order,
        and the backward the one autograd evaluates through them, including the order in which
        the three gradients reaching each state are summed (output, h - n, the next step's
        matmul) and the weight gradients summed from the last step back. Outputs and gradients
        equal nn.GRU's bit for bit (tests/test_snn_mmwave.py); autograd's graph of ~30 nodes per
        time step is most of the cost of these small steps."""

        @staticmethod
        def forward(ctx, gi, w_hh, b_hh):  # gi (T, B, 3H) input projections, w_hh (3H, H)
            h = gi.new_zeros(gi.shape[1], w_hh.shape[1])  # (B, H) initial state
            w_t = w_hh.t()  # (H, 3H) view
            outs, saved = [], []
            # the input gates' (B, H) views of every step, as gi[t].unsafe_chunk(3, 1) gives
            for r_i, z_i, n_i in zip(*(c.unbind(0) for c in gi.unsafe_chunk(3, 2))):
                hg = torch.addmm(b_hh, h, w_t)  # (B, 3H), as aten's linear
                r_h, z_h, n_h = hg.unsafe_chunk(3, 1)  # (B, H) each
                r = r_h.add_(r_i).sigmoid_()  # reset gate
                z = z_h.add_(z_i).sigmoid_()  # update gate
                n = n_i.add(n_h * r).tanh_()  # new gate
                hmn = h - n
                h_new = (hmn * z).add_(n)  # (B, H)
                saved.append((h, r, z, n, n_h, hmn))
                outs.append(h_new)
                h = h_new
            ctx.steps = saved
            ctx.save_for_backward(w_hh)
            return torch.stack(outs)  # (T, B, H)

        @staticmethod
        def backward(ctx, g_out):  # g_out (T, B, H)
            (w_hh,) = ctx.saved_tensors
            steps, g_outs = ctx.steps, g_out.unbind(0)
            tanh_bw = torch.ops.aten.tanh_backward.default
            sigmoid_bw = torch.ops.aten.sigmoid_backward.default
            g_gi = [None] * len(steps)
            g_w = g_b = carry = None
            for t in range(len(steps) - 1, -1, -1):
                h, r, z, n, n_h, hmn = steps[t]
                dh = g_outs[t]  # (B, H)
                if carry is not None:  # the order autograd accumulates them in
                    dh = (dh + carry[0]).add_(carry[1])
                g_hmn = dh * z
                g_z = dh * hmn
                g_npre = tanh_bw(dh - g_hmn, n)
                g_rpre = sigmoid_bw(g_npre * n_h, r)
                g_zpre = sigmoid_bw(g_z, z)
                g_hg = torch.cat([g_rpre, g_zpre, g_npre * r], 1)  # (B, 3H)
                g_gi[t] = torch.cat([g_rpre, g_zpre, g_npre], 1)  # (B, 3H)
                gw = g_hg.t().mm(h)  # (3H, H)
                gb = g_hg.sum(0, keepdim=True).view(-1)  # (3H,), autograd's sum_to
                g_w = gw if g_w is None else g_w.add_(gw)
                g_b = gb if g_b is None else g_b.add_(gb)
                carry = (g_hmn, g_hg.mm(w_hh))  # to h_{t-1}: via h - n, via the matmul
            return torch.stack(g_gi), g_w, g_b

    class GRU(nn.Module):
        def __init__(self, C, H, K, pool="last"):
            super().__init__()
            self.rnn = nn.GRU(C, H, batch_first=True)
            self.head = nn.Linear(H, K)
            self.pool = pool

        def forward(self, x):  # x (B, T, C)
            if self.pool == "mean":  # the recurrence by hand (GRUSteps), same numbers
                rnn = self.rnn
                gi = F.linear(x.transpose(0, 1), rnn.weight_ih_l0, rnn.bias_ih_l0)  # (T, B, 3H)
                out = GRUSteps.apply(gi, rnn.weight_hh_l0, rnn.bias_hh_l0).transpose(0, 1)
                return self.head(out.mean(1))  # out (B, T, H) -> (B, K)
            out, h = self.rnn(x)  # out (B, T, H), h (1, B, H)
            return self.head(h[0])  # (B, K)

    return MLP, CNN1D, GRU, Standardize, ShiftFlip, Wrapped


@dataclass
class SequenceANN(Method):
    """Shared fields; subclasses fix ``kind``."""

    name: ClassVar[str] = ""
    kind: ClassVar[str] = ""
    hidden: int = 32  # ours: the SNN's width (same-width comparison, research note)
    kernel: int = 5  # ours (cnn1d only)
    epochs: int = 20  # ours (scaled down), as the SNN
    lr: float = 1e-2  # ours, as the SNN
    batch_size: int = 50  # ours, as the SNN
    pool: str = "last"  # gru readout: "last" state or "mean" over time (module docstring)
    standardize: bool = False  # z-score channels with training statistics (module docstring)
    augment: bool = False  # random time roll and sign flip of training batches

    def _build(self, x: np.ndarray, K: int, seed: int):
        MLP, CNN1D, GRU, Standardize, ShiftFlip, Wrapped = _classes()
        _, T, C = x.shape
        if self.kind == "mlp":
            net = MLP(T, C, self.hidden, K)
        elif self.kind == "cnn1d":
            net = CNN1D(C, self.hidden, K, self.kernel)
        else:
            net = GRU(C, self.hidden, K, self.pool)
        pre = []
        if self.standardize:
            std = x.std(axis=(0, 1))  # (C,)
            pre.append(Standardize(x.mean(axis=(0, 1)), np.where(std > 0, std, 1.0)))
        if self.augment:
            pre.append(ShiftFlip(seed))
        return Wrapped(pre, net) if pre else net

    def run(self, data: dict, seed: int) -> dict:
        if self.pool not in ("last", "mean"):
            raise ValueError(f"unknown pool {self.pool!r}")
        x, y = data["x_train"], data["y_train"]
        _, T, C = x.shape
        K = int(data["n_classes"])
        model = build_seeded(lambda: self._build(x, K, seed), seed)
        loss = fit_classifier(model, x, y, self.epochs, self.lr, self.batch_size, seed)
        pred = predict(model, data["x_test"])
        macs = ann_macs(self.kind, T, C, self.hidden, K, self.kernel)
        return {"pred": pred, "macs": float(macs), "sops": 0.0,
                "energy_pJ": energy_pj(macs, 0.0), "firing_rate": None, "train_loss": loss}


@dataclass
class MLPClassifier(SequenceANN):
    name: ClassVar[str] = "mlp"
    kind: ClassVar[str] = "mlp"


@dataclass
class CNN1DClassifier(SequenceANN):
    name: ClassVar[str] = "cnn1d"
    kind: ClassVar[str] = "cnn1d"


@dataclass
class GRUClassifier(SequenceANN):
    name: ClassVar[str] = "gru"
    kind: ClassVar[str] = "gru"


def accuracy(pred: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean(np.asarray(pred) == np.asarray(y)))
