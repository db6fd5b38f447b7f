"""Fourier neural operator (Li, Kovachki, Azizzadenesheli, Liu, Bhattacharya, Stuart, Anandkumar,
"Fourier Neural Operator for Parametric Partial Differential Equations", ICLR 2021), 1-D and 2-D.

Architecture: lift the input channels pointwise to ``width`` (linear P), then ``layers`` Fourier
layers v <- GELU(K v + W v) with K v = IFFT(R . FFT(v)) truncated to the lowest ``modes``
frequencies (R complex weights, per mode an in x out matrix) and W a pointwise linear map, then
a two-layer pointwise projection Q (width -> 64 -> out; 128 in the reference code). The last
Fourier layer has no GELU, as in the reference code.

Baseline ``FNONoiseOperator`` ("a neural operator on the raw noise path", the usual NO baseline
for SDE/SPDE solution operators, e.g. the FNO rows of Salvi et al.'s Neural SPDE benchmarks):
the FNO reads, on the fine solver grid, the initial condition broadcast along time, the
Brownian path W(t) (for an SPDE the noise field W(t, x) = sum_j e_j(x) beta_j(t)) and the
coordinates, and outputs the solution on the same grid; the loss is the mean squared error on
the observation times (targets standardised by the training mean and standard deviation).
Data: ``claimbench.datasets.stochastic_equations``. Defaults are ours (CPU scale; the FNO paper
uses width 64 / 20 or 32 and 12-16 modes).
"""
from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method


def mode_matmul(xf, w):
    """(B, I, *modes) x (I, O, *modes) -> (B, O, *modes): one complex matrix product per kept
    Fourier mode. The per-mode matrices are made contiguous first: torch's CPU bmm otherwise
    copies each strided one inside its per-mode loop (the products are the same, bit for bit,
    as the einsum this replaces)."""
    import torch

    b, i, *modes = xf.shape
    k = len(modes)
    a = xf.movedim((0, 1), (k, k + 1)).reshape(-1, b, i).contiguous()  # (M, B, I)
    wm = w.movedim((0, 1), (k, k + 1)).reshape(-1, i, w.shape[1]).contiguous()  # (M, I, O)
    out = _bmm_classes()(a, wm)  # (M, B, O)
    return out.reshape(*modes, b, -1).movedim((k, k + 1), (0, 1))  # (B, O, *modes)


@functools.cache
def _bmm_classes():
    """torch.bmm with autograd's own backward formulas (grad_a = g bmm conj(w)^T, grad_w =
    conj(a)^T bmm g), except that the incoming gradient g is made contiguous once: it arrives
    as a permuted view (the movedim of mode_matmul), and torch's CPU bmm, which loops over the
    batch (here the kept modes), would otherwise copy each per-mode slice of it, twice per
    product and step. Each per-mode product is the same, bit for bit (claimbench verify)."""
    import torch

    class ModeBmm(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, w):
            ctx.save_for_backward(a, w)
            return torch.bmm(a, w)

        @staticmethod
        def backward(ctx, g):
            a, w = ctx.saved_tensors
            g = g.contiguous()  # (M, B, O)
            ga = gw = None
            if ctx.needs_input_grad[0]:
                ga = g.bmm(w.transpose(1, 2).conj())
            if ctx.needs_input_grad[1]:
                gw = a.transpose(1, 2).conj().bmm(g)
            return ga, gw

    return ModeBmm.apply


@functools.cache
def fno_classes():
    """(SpectralConv, FNO) torch classes, built on first use (torch imported lazily)."""
    import torch
    from torch import nn

    class SpectralConv(nn.Module):
        """Truncated Fourier multiplier over the last 1 or 2 axes."""

        def __init__(self, cin: int, cout: int, modes: tuple[int, ...]):
            super().__init__()
            self.modes = modes
            scale = 1.0 / (cin * cout)
            n_blocks = 1 if len(modes) == 1 else 2  # 2-D: positive and negative first-axis freqs
            self.weights = nn.ParameterList([
                nn.Parameter(scale * torch.randn(cin, cout, *modes, dtype=torch.cfloat))
                for _ in range(n_blocks)])

        def forward(self, x):  # x: (B, C, *grid)
            pad = torch.nn.functional.pad
            if len(self.modes) == 1:
                xf = torch.fft.rfft(x)  # (B, C, n//2+1)
                m = min(self.modes[0], xf.shape[-1])
                out = mode_matmul(xf[..., :m], self.weights[0][..., :m])  # (B, Cout, m)
                out = pad(out, (0, xf.shape[-1] - m))  # (B, Cout, n//2+1)
                return torch.fft.irfft(out, n=x.shape[-1])  # (B, Cout, n)
            xf = torch.fft.rfft2(x)  # (B, C, n1, n2//2+1)
            n1, n2 = xf.shape[-2:]
            m1, m2 = min(self.modes[0], n1 // 2), min(self.modes[1], n2)
            w0, w1 = self.weights[0][..., :m1, :m2], self.weights[1][..., :m1, :m2]
            lo = mode_matmul(xf[..., :m1, :m2], w0)  # (B, Cout, m1, m2)
            hi = mode_matmul(xf[..., n1 - m1:, :m2], w1)  # (B, Cout, m1, m2)
            gap = lo.new_zeros(*lo.shape[:2], n1 - 2 * m1, m2)  # dropped first-axis frequencies
            out = pad(torch.cat([lo, gap, hi], dim=-2), (0, n2 - m2))  # (B, Cout, n1, n2)
            return torch.fft.irfft2(out, s=x.shape[-2:])  # (B, Cout, n1, n2)

    class FNO(nn.Module):
        """Channels-last in and out: (B, *grid, cin) -> (B, *grid, cout)."""

        def __init__(self, cin: int, cout: int, modes: tuple[int, ...], width: int,
                     layers: int, hidden: int = 64):
            super().__init__()
            conv = nn.Conv1d if len(modes) == 1 else nn.Conv2d
            self.lift = nn.Linear(cin, width)
            self.spectral = nn.ModuleList([SpectralConv(width, width, modes)
                                           for _ in range(layers)])
            self.pointwise = nn.ModuleList([conv(width, width, 1) for _ in range(layers)])
            self.proj = nn.Sequential(nn.Linear(width, hidden), nn.GELU(), nn.Linear(hidden, cout))

        def forward(self, x, rows=None):
            """``rows`` (indices on the first grid axis): project only those (the projection Q
            is pointwise, so the kept rows' outputs are those of the full grid)."""
            v = self.lift(x).movedim(-1, 1)  # (B, width, *grid)
            for i, (k, w) in enumerate(zip(self.spectral, self.pointwise)):
                v = k(v) + w(v)
                if i < len(self.spectral) - 1:
                    v = torch.nn.functional.gelu(v)
            if rows is not None:
                v = v[:, :, rows]  # (B, width, len(rows)[, n2])
            return self.proj(v.movedim(1, -1))  # (B, *grid, cout)

    return SpectralConv, FNO


def build_fno(cin: int, cout: int, modes: tuple[int, ...], width: int, layers: int, seed: int):
    import torch

    with torch.random.fork_rng(devices=[]):  # initial weights depend on ``seed`` only
        torch.manual_seed(seed)
        return fno_classes()[1](cin, cout, tuple(modes), width, layers)


def train_mse(model, forward, n: int, steps: int, batch: int, lr: float, seed: int) -> None:
    """Adam with cosine decay on mean squared error; ``forward(idx) -> (pred, target)``."""
    import torch

    gen = torch.Generator().manual_seed(seed)
    opt = torch.optim.Adam(model.parameters(), lr=lr, foreach=True)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    for _ in range(steps):
        idx = torch.randint(0, n, (min(batch, n),), generator=gen)  # (B,)
        pred, target = forward(idx)
        loss = torch.mean((pred - target) ** 2)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()


def noise_field(spec: dict, dW: np.ndarray) -> np.ndarray:
    """Brownian path on the fine grid: (n, n_fine) for an SDE, (n, n_fine, n_x) for phi41."""
    W = np.cumsum(dW, axis=1)  # (n, n_fine, J)
    if spec["n_x"] == 1:
        return W[..., 0]
    from claimbench.datasets.stochastic_equations import spatial_modes

    return W @ spatial_modes(spec)  # (n, n_fine, n_x)


@dataclass
class FNONoiseOperator(Method):
    name: ClassVar[str] = "fno_noise"
    width: int = 16  # ours (CPU scale; the same width as the WCE-NO backbone)
    modes_t: int = 8  # ours: time frequencies kept (2-D: at most n_fine // 2)
    modes_x: int = 8  # ours: space frequencies kept (2-D only)
    layers: int = 4  # FNO paper
    steps: int = 300  # ours
    batch: int = 32  # ours
    lr: float = 3e-3  # ours

    def _inputs(self, spec, x0, dW):
        W = noise_field(spec, dW)  # (n, n_fine[, n_x])
        t = np.arange(1, spec["n_fine"] + 1) / spec["n_fine"]
        if spec["n_x"] == 1:
            chans = [np.broadcast_to(x0[:, None], W.shape), W, np.broadcast_to(t, W.shape)]
        else:
            x = np.arange(spec["n_x"]) / spec["n_x"]
            chans = [np.broadcast_to(x0[:, None, :], W.shape), W,
                     np.broadcast_to(t[:, None], W.shape), np.broadcast_to(x, W.shape)]
        return np.stack(chans, axis=-1).astype(np.float32)  # (n, n_fine[, n_x], C)

    def run(self, data, seed):
        import torch

        from claimbench.datasets.stochastic_equations import obs_index, sample_noise
        from claimbench.grid import derive_seed

        t0 = time.process_time()
        spec = data["spec"]
        obs = torch.as_tensor(obs_index(spec) - 1)  # fine-grid rows of the observation times
        Y = data["train_paths"]
        mean, std = float(Y.mean()), float(Y.std())
        Xtr = torch.as_tensor(self._inputs(spec, data["train_x0"], data["train_dW"]))
        Ytr = torch.as_tensor(((Y - mean) / std).astype(np.float32))  # (n, n_obs[, n_x])
        modes = ((self.modes_t,) if spec["n_x"] == 1
                 else (min(self.modes_t, spec["n_fine"] // 2), self.modes_x))
        model = build_fno(Xtr.shape[-1], 1, modes, self.width, self.layers,
                          derive_seed(seed, "fno_init"))
        train_mse(model, lambda idx: (model(Xtr[idx])[..., 0][:, obs], Ytr[idx]),
                  len(Xtr), self.steps, self.batch, self.lr, derive_seed(seed, "fno_batches"))

        @torch.no_grad()
        def predict(x0, dW):
            X = torch.as_tensor(self._inputs(spec, x0, dW))
            # The pointwise projection only at the observation rows: the same values, bit for
            # bit, as projecting the whole fine grid and then selecting them (claimbench verify)
            out = torch.cat([model(X[i:i + 256], obs) for i in range(0, len(X), 256)])
            return out[..., 0].numpy().astype(float) * std + mean

        rng = np.random.default_rng(derive_seed(seed, "law_noise"))
        law_x0 = np.repeat(data["law_ic"], data["n_law"], axis=0)
        law = predict(law_x0, sample_noise(spec, rng, len(law_x0)))
        return {"pred": predict(data["test_x0"], data["test_dW"]),
                "law_samples": law.reshape(len(data["law_ic"]), data["n_law"], *Y.shape[1:]),
                "params": float(sum(p.numel() for p in model.parameters())),
                "train_s": time.process_time() - t0}
