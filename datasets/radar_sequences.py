"""Radar-like multichannel sequences whose classes live in a low-frequency modulation band.

A stand-in for mmWave Doppler/range-time features (Liao, Yu et al., arXiv 2605.09983, use four
public mmWave HAR/gesture sets that cannot ship here). Sample i of class k is

    x_i[t, c] = a_i * u_k[c] * cos(2 pi f_i t + phi_i) + n_i[t, c],    t = 0..T-1 (f_s = 1),

then whole frames are dropped (set to 0) with probability ``dropout`` (sparse, irregular
measurements). u_k is a unit-RMS spatial signature per class (drawn once per seed, shared by
train and test), so the class is carried by a pattern that oscillates at a random modulation
frequency f_i ~ U(band) (cycles/sample) with random phase and amplitude a_i ~ U(0.75, 1.25). The
noise n is white Gaussian noise with every frequency below ``noise_lo`` removed (high-frequency
clutter: multipath, phase jitter), scaled to ``snr_db`` against the signal's mean power per
element. ``band="low"`` puts the discriminative band at 0.02-0.06 f_s, below the noise;
``band="high"`` moves it to 0.30-0.40 f_s, inside the noise band and above the cut-off of any
LIF neuron with beta > 0.3 (the "when SNNs stop helping" condition).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

BANDS = {"low": (0.02, 0.06), "high": (0.30, 0.40)}  # cycles per sample; ours
SIGNAL_POWER = (1.0 + 0.5 ** 2 / 12.0) / 2.0  # E[a^2] / 2 for a ~ U(0.75, 1.25), unit-RMS u


def highpass_noise(rng: np.random.Generator, n: int, T: int, C: int, lo: float) -> np.ndarray:
    """White Gaussian noise (n, T, C) with rfft bins below ``lo`` cycles/sample zeroed, unit power."""
    w = rng.standard_normal((n, T, C))
    spec = np.fft.rfft(w, axis=1)  # (n, T//2+1, C)
    freqs = np.fft.rfftfreq(T)
    spec[:, freqs < lo, :] = 0.0
    out = np.fft.irfft(spec, n=T, axis=1)  # (n, T, C)
    return out / out.std()


@dataclass
class RadarSequences(Dataset):
    name: ClassVar[str] = "radar_sequences"

    band: str = "low"  # "low" | "high" (BANDS); the note's 0.02-0.08 f_s, narrowed (ours)
    snr_db: float = -15.0  # ours: the "low SNR" regime (set after a pilot at -5 dB saturated)
    n_train: int = 200  # ours (scaled down)
    n_test: int = 200  # ours
    T: int = 64  # research note's plan
    channels: int = 8  # ours (note: 32), for CPU
    n_classes: int = 5  # research note's plan
    dropout: float = 0.1  # ours: fraction of frames lost
    noise_lo: float = 0.15  # ours: noise occupies 0.15-0.5 f_s

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        lo, hi = BANDS[self.band]
        K, C, T = self.n_classes, self.channels, self.T
        u = rng.standard_normal((K, C))
        u /= np.sqrt((u ** 2).mean(axis=1, keepdims=True))  # unit RMS per class signature

        def sample(n: int):
            y = rng.integers(0, K, size=n)
            f = rng.uniform(lo, hi, size=n)
            phi = rng.uniform(0, 2 * np.pi, size=n)
            a = rng.uniform(0.75, 1.25, size=n)
            t = np.arange(T)
            mod = a[:, None] * np.cos(2 * np.pi * f[:, None] * t[None, :] + phi[:, None])  # (n, T)
            sig = mod[:, :, None] * u[y][:, None, :]  # (n, T, C)
            noise = highpass_noise(rng, n, T, C, self.noise_lo) * np.sqrt(
                SIGNAL_POWER * 10 ** (-self.snr_db / 10.0))
            keep = rng.random((n, T)) >= self.dropout
            x = (sig + noise) * keep[:, :, None]
            return x.astype(np.float32), y.astype(np.int64)

        xtr, ytr = sample(self.n_train)
        xte, yte = sample(self.n_test)
        data = {"x_train": xtr, "y_train": ytr, "x_test": xte, "n_classes": K}
        return Instance(data=data, truth={"y_test": yte, "band": (lo, hi)})
